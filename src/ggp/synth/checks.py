"""The check of a synthesized value function on its own model (App. G.7).

:func:`check_value_function` plays ``games`` random games on the model and calls
``value_function(state, p)`` for every player at every state: each answer must be a
finite number, and at terminal states it must equal the player's ``get_rewards``
(tolerance 1e-6). The model and the value function run in a sandboxed box that only
makes their calls (:class:`ggp.sandbox.modelbox.CallBox`); the games are driven and every
answer is checked here, so a value function that tampers with its box can only misstate
what it returned, never report itself as passing.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ggp.core.model import WorldModel

TOLERANCE = 1e-6


def check_value_function(model_code: str, value_code: str, *, games: int = 5, seed: int = 0,
                         max_steps: int = 1000, seconds: float = 60.0) -> dict[str, Any]:
    """``{"ok": bool, "error": str, "checked": int}`` for ``value_code`` on the model
    ``model_code`` (see the module docstring); ``seconds`` bounds the whole check."""
    from ggp.sandbox import Limits, SandboxFailure
    from ggp.sandbox.modelbox import BoxDied, CallBox, RemoteNamespace

    program = model_code + "\n\n" + value_code
    limits = Limits(memory_mb=1024, cpu_seconds=120, restricted=True, network=False)
    try:
        box = CallBox(program, loader="model", limits=limits,
                      load_seconds=min(seconds, 30.0), seed=seed,
                      deadline=time.monotonic() + seconds, filename="cwm_with_value.py")
    except SandboxFailure as failure:
        return {"ok": False, "error": f"{failure.kind}: {failure.detail[-500:]}", "checked": 0}
    checked = 0
    try:
        if box.load_error is not None:
            return {"ok": False, "error": f"exception: ModelLoadError: {box.load_error}"[:600],
                    "checked": 0}
        model = WorldModel(RemoteNamespace(box, call_seconds=seconds), name="cwm")
        rng = random.Random(seed)
        for _ in range(games):
            state = model.initial_state()
            for _ in range(max_steps):
                error = _check_state(model, state)
                checked += 1
                if error:
                    return {"ok": False, "error": error[:2000], "checked": checked}
                if model.is_terminal(state):
                    break
                state = model.apply(state, rng.choice(sorted(model.legal_actions(state))))
    except BoxDied as died:
        failure = died.failure
        return {"ok": False, "error": f"{failure.kind}: {failure.detail[-500:]}", "checked": 0}
    except Exception as exc:  # noqa: BLE001 - the model failed while the games were played
        return {"ok": False, "error": f"exception: {type(exc).__name__}: {exc}"[:600],
                "checked": 0}
    finally:
        box.close()
    return {"ok": True, "error": "", "checked": checked}


def _check_state(model, state) -> str:
    terminal = model.is_terminal(state)
    rewards = model.rewards(state) if terminal else None
    for player in range(model.num_players):
        try:
            raw = model.namespace.value_function(state, player)
        except Exception as exc:  # noqa: BLE001 - untrusted code
            return f"value_function raised {type(exc).__name__}: {exc} in state {state}"
        if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not math.isfinite(raw):
            return f"value_function returned {raw!r} (not a finite float) in state {state}"
        if terminal and abs(raw - rewards[player]) > TOLERANCE:
            return (f"value_function gives {raw} to player {player} at a terminal state "
                    f"whose reward is {rewards[player]}: {state}")
    return ""
