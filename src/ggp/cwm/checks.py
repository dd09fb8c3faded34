"""Sandbox entry checking a synthesized value function on its own model (App. G.7).

``main({"model": source, "value": source, "games": n, "seed": s})`` plays ``n`` random
games on the model and calls ``value_function(state, p)`` for every player at every
state: each answer must be a finite number, and at terminal states it must equal the
player's ``get_rewards`` (tolerance 1e-6). Returns ``{"ok": bool, "error": str,
"checked": int}``; run it only through :func:`ggp.sandbox.run_entry`.
"""

from __future__ import annotations

import math
import random
from typing import Any

from ggp.core.model import load_model_source

TOLERANCE = 1e-6


def main(payload: dict[str, Any]) -> dict[str, Any]:
    program = payload["model"] + "\n\n" + payload["value"]
    model = load_model_source(program, name="cwm", filename="cwm_with_value.py")
    rng = random.Random(payload.get("seed", 0))
    random.seed(payload.get("seed", 0))
    checked = 0
    for _ in range(payload.get("games", 5)):
        state = model.initial_state()
        for _ in range(payload.get("max_steps", 1000)):
            error = _check_state(model, state)
            checked += 1
            if error:
                return {"ok": False, "error": error, "checked": checked}
            if model.is_terminal(state):
                break
            state = model.apply(state, rng.choice(sorted(model.legal_actions(state))))
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
