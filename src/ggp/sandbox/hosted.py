"""A world model whose code runs in a sandboxed worker: the one way to host untrusted models.

Both sides live here:

* **parent** — :class:`HostedModel` is a :class:`~ggp.core.model.WorldModel` whose protocol
  functions are calls into a worker child. A match, a check or an environment uses it as
  any model, without running the model's code in this process. Each call is a pipe round
  trip (about a millisecond); :meth:`HostedModel.call` reaches extra methods of a richer
  worker (the environments' batch steps, :mod:`ggp.env.worker`). Failures of the hosted
  code raise :class:`HostFailure`.
* **child** — :class:`ModelHost` (entry :data:`HOST_ENTRY`) loads the model's source and
  answers the protocol calls. Subclass it for a worker that answers more (the
  environments' batch steps).

Workers come from, and go back to, the process's pool (:mod:`ggp.sandbox.pool`):
consecutive matches on one model (the rejection tournament, value-function duels, PPO
runs) reuse a worker, which reloads the model's code first (:meth:`ModelHost.reload`).
Every host is restricted and offline (``Limits(restricted=True, network=False)``): a
model only computes (docs/sandbox.md).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from ggp.core.errors import GGPError
from ggp.core.model import WorldModel, load_model_source
from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata, State

from ggp.rundir import model_file
from ggp.sandbox import Limits, SandboxFailure
from ggp.sandbox.pool import POOL

#: The worker entry of a plain protocol host (this module).
HOST_ENTRY = "ggp.sandbox.hosted"


class HostFailure(GGPError):
    """The hosted model failed to load, or failed (raised, timed out, crashed) in a call."""


def load_guarded(source: str, filename: str, metadata: dict[str, Any] | None) -> WorldModel:
    """The model of ``source`` as a guarded :class:`WorldModel` carrying the game's public
    metadata (a synthesized model has none of its own). Runs in the child."""
    loaded = load_model_source(source, name="cwm", filename=filename)
    meta = GameMetadata(**metadata) if metadata else None
    return WorldModel(loaded.namespace, name="cwm", metadata=meta)


# --------------------------------------------------------------------------- child side
class ModelHost:
    """The model's protocol functions, one call each (runs in the sandboxed child).

    ``init`` holds ``source``, ``filename`` and ``metadata``. ``guarded`` is the model
    behind the guarded wrapper (copies of every state it is given, answers checked), for
    work that keeps states inside the child. The per-call methods use ``model``, the same
    namespace without copies: every state arrives freshly decoded from JSON and every
    answer leaves as JSON, so nothing the model could change is seen again (its answers
    are still checked for shape)."""

    def __init__(self, init: dict[str, Any]) -> None:
        self.init = init
        self.reload()

    def reload(self) -> None:
        """Load the model's code afresh (a worker reused for another match or run)."""
        self.guarded = load_guarded(self.init["source"], self.init["filename"],
                                    self.init.get("metadata"))
        self.model = WorldModel(self.guarded.namespace, name="cwm", trusted=True,
                                metadata=self.guarded.metadata)

    def initial_state(self) -> State:
        return self.model.initial_state()

    def current_player(self, state: State) -> int:
        return self.model.current_player(state)

    def player_name(self, player: int) -> str:
        return self.model.player_name(player)

    def legal_actions(self, state: State) -> list[str]:
        return self.model.legal_actions(state)

    def apply(self, state: State, action: str) -> State:
        return self.model.apply(state, action)

    def step(self, state: State, action: str) -> dict[str, Any]:
        """The next state (``"state"``) and what a match asks about it next: the player,
        the rewards, and at a decision point the observations and legal actions, at a
        chance node its outcomes. An answer the model fails to give is left out, so the
        failure shows when, and if, it is asked for."""
        nxt = self.model.apply(state, action)
        answers: dict[str, Any] = {"state": nxt}
        questions = ["current_player", "rewards"]
        with contextlib.suppress(GGPError):
            player = self.model.current_player(nxt)
            questions += (["chance_outcomes"] if player == CHANCE else [] if
                          player == TERMINAL else ["observations", "legal_actions"])
        for question in questions:
            with contextlib.suppress(GGPError):
                answers[question] = getattr(self, question)(nxt)
        return answers

    def rewards(self, state: State) -> list[float]:
        return self.model.rewards(state)

    def observations(self, state: State) -> list:
        return self.model.observations(state)

    def chance_outcomes(self, state: State) -> list:
        return [[a, p] for a, p in self.model.chance_outcomes(state)]


def make_handler(init: dict[str, Any]) -> ModelHost:
    """Worker entry point (:data:`HOST_ENTRY`)."""
    return ModelHost(init)


# -------------------------------------------------------------------------- parent side
#: What a ``step`` answer may hold besides the next state.
_STEP_ANSWERS = ("current_player", "rewards", "observations", "legal_actions",
                 "chance_outcomes")


class _Remote:
    """The protocol namespace forwarding each function to the worker.

    ``apply_action`` is one ``step`` call that brings back, with the next state, what a
    match asks about it next; questions about that very state object are answered from
    it. A match step is then one round trip instead of about five."""

    def __init__(self, host: HostedModel) -> None:
        self._host = host
        self.INITIAL_STATE = host.call("initial_state")
        self._known: tuple[Any, dict[str, Any]] | None = None  # (state object, answers)

    def _ask(self, question: str, state: Any) -> Any:
        known = self._known
        if known is not None and known[0] is state and question in known[1]:
            return known[1][question]
        return self._host.call(question, state=state)

    def get_current_player(self, state):
        return self._ask("current_player", state)

    def get_player_name(self, player_id):
        return self._host.call("player_name", player=player_id)

    def get_legal_actions(self, state):
        return self._ask("legal_actions", state)

    def apply_action(self, state, action):
        answers = self._host.call("step", state=state, action=action)
        if not (isinstance(answers, dict) and "state" in answers
                and set(answers) <= {"state", *_STEP_ANSWERS}):
            raise self._host.out_of_protocol("step")
        nxt = answers.pop("state")
        self._known = (nxt, answers)
        return nxt

    def get_rewards(self, state):
        return self._ask("rewards", state)

    def get_observations(self, state):
        return self._ask("observations", state)

    def get_chance_outcomes(self, state):
        outcomes = self._ask("chance_outcomes", state)
        if not (isinstance(outcomes, list)
                and all(isinstance(pair, list) and len(pair) == 2 for pair in outcomes)):
            raise self._host.out_of_protocol("chance_outcomes")
        return [tuple(pair) for pair in outcomes]


class HostedModel(WorldModel):
    """A model file run in a sandboxed worker; :meth:`close` hands the worker back.

    ``source`` is a run directory or ``.py`` file (:func:`model_file`), ``metadata`` the
    game's public metadata (a model file has none of its own). ``entry`` is the worker
    module: :data:`HOST_ENTRY`, or one whose handler extends :class:`ModelHost`.
    ``call_seconds`` bounds every call; ``cpu_seconds`` the worker's whole life.
    Raises :class:`HostFailure` when the model does not load."""

    def __init__(self, source: str | Path, metadata: GameMetadata, *,
                 entry: str = HOST_ENTRY, call_seconds: float = 10.0,
                 memory_mb: int = 1024, cpu_seconds: int = 3600) -> None:
        self.path, self.entry, self.call_seconds = model_file(source), entry, call_seconds
        init = {"source": self.path.read_text(encoding="utf-8"),
                "filename": str(self.path), "metadata": metadata.to_dict()}
        limits = Limits(memory_mb=memory_mb, cpu_seconds=cpu_seconds, restricted=True,
                        network=False)
        try:
            # a reused worker reloads the model's code, as a fresh one did at its start
            self.worker, _ = POOL.take_ready(
                entry, init,
                lambda worker, reused: worker.call("reload", timeout=60.0) if reused else None,
                start_timeout=60.0, limits=limits)
        except SandboxFailure as exc:
            raise HostFailure(f"the model {self.path} does not load ({exc.kind}): "
                              f"{exc.detail[-500:]}") from exc
        super().__init__(_Remote(self), name=f"hosted:{self.path.stem}", trusted=True,
                         metadata=metadata, rules="")

    def call(self, method: str, **params: Any) -> Any:
        """One call into the worker (a protocol function or an extra method of its
        entry), under ``call_seconds``."""
        try:
            return self.worker.call(method, params, timeout=self.call_seconds)
        except SandboxFailure as exc:
            raise HostFailure(f"the hosted model failed in {method} ({exc.kind}): "
                              f"{exc.detail[-500:]}") from exc

    def out_of_protocol(self, method: str) -> HostFailure:
        """The worker answered ``method`` with something of the wrong shape: it is killed
        (never reused) and the model fails."""
        self.worker.close()
        return HostFailure(f"the hosted model failed in {method} (protocol): its answer "
                           "is not shaped like one")

    def close(self) -> None:
        """Hand the worker back to the pool (kept only if still alive)."""
        POOL.give_back(self.worker)

    def __enter__(self) -> HostedModel:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


__all__ = ["HOST_ENTRY", "HostFailure", "HostedModel", "ModelHost", "load_guarded",
           "make_handler"]
