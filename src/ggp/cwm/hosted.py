"""A code world model hosted in a sandboxed worker, usable as the "true" game of a match.

:func:`hosted_model` returns a :class:`~ggp.core.model.WorldModel` whose protocol
functions are calls into a :mod:`ggp.cwm.worker` child (role ``host``), so
:func:`ggp.arena.match.play_match` can play on a synthesized model without running its
code in this process. Each call is a round trip over a pipe (about a millisecond); a
failure of the hosted code raises :class:`HostFailure`. Workers come from, and go back
to, the process's pool (:mod:`ggp.sandbox.pool`): consecutive matches on one model (the
rejection tournament, value-function duels) reuse one worker, which reloads the model's
code for each.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import GameMetadata
from ggp.cwm.rundir import model_file, model_source
from ggp.sandbox import Limits, SandboxFailure, Worker
from ggp.sandbox.pool import POOL


class HostFailure(GGPError):
    """The hosted model failed (raised, timed out, crashed) during a match."""


class _Remote:
    """The protocol namespace forwarding each function to the worker.

    ``apply_action`` brings back, with the next state, what a match asks about it next
    (player, rewards, observations, legal actions or chance outcomes); questions about
    that very state object are answered from it. A match step is then one round trip
    instead of about five."""

    def __init__(self, worker: Worker, seconds: float) -> None:
        self._worker, self._seconds = worker, seconds
        self.INITIAL_STATE = self._call("initial_state")
        self._known: tuple[Any, dict[str, Any]] | None = None  # (state object, answers)

    def _call(self, method: str, **params: Any) -> Any:
        try:
            return self._worker.call(method, params, timeout=self._seconds)
        except SandboxFailure as exc:
            raise HostFailure(f"the hosted model failed in {method} ({exc.kind}): "
                              f"{exc.detail[-500:]}") from exc

    def _ask(self, question: str, state: Any) -> Any:
        known = self._known
        if known is not None and known[0] is state and question in known[1]:
            return known[1][question]
        return self._call(question, state=state)

    def get_current_player(self, state):
        return self._ask("current_player", state)

    def get_player_name(self, player_id):
        return self._call("player_name", player=player_id)

    def get_legal_actions(self, state):
        return self._ask("legal_actions", state)

    def apply_action(self, state, action):
        answers = self._call("step", state=state, action=action)
        nxt = answers.pop("state")
        self._known = (nxt, answers)
        return nxt

    def get_rewards(self, state):
        return self._ask("rewards", state)

    def get_observations(self, state):
        return self._ask("observations", state)

    def get_chance_outcomes(self, state):
        return [tuple(pair) for pair in self._ask("chance_outcomes", state)]


class HostedModel(WorldModel):
    """A :class:`WorldModel` over a worker; :meth:`close` stops the worker."""

    def __init__(self, source: str | Path, metadata: GameMetadata, *,
                 call_seconds: float = 10.0, memory_mb: int = 1024) -> None:
        path = model_file(source)
        init = {"role": "host", "source": model_source(path), "filename": str(path),
                "metadata": metadata.to_dict()}
        limits = Limits(memory_mb=memory_mb, cpu_seconds=3600, restricted=True, network=False)
        try:
            # a reused worker reloads the model's code, as a fresh one did at its start
            self.worker, _ = POOL.take_ready(
                "ggp.cwm.worker", init,
                lambda worker, reused: worker.call("reset", timeout=60.0) if reused else None,
                start_timeout=60.0, limits=limits)
        except SandboxFailure as exc:
            raise HostFailure(f"the model {path} does not load ({exc.kind}): "
                              f"{exc.detail[-500:]}") from exc
        namespace = _Remote(self.worker, call_seconds)
        super().__init__(namespace, name=f"hosted:{path.parent.name}", trusted=True,
                         metadata=metadata, rules="")

    def close(self) -> None:
        """Hand the worker back to the pool (kept only if still alive; the next
        :class:`HostedModel` of the same model reloads its code)."""
        POOL.give_back(self.worker)


def hosted_model(source: str | Path, metadata: GameMetadata, **kwargs: Any) -> HostedModel:
    """Start a worker hosting the model of ``source`` (a run directory or ``.py`` file)."""
    return HostedModel(source, metadata, **kwargs)


__all__ = ["HostFailure", "HostedModel", "hosted_model"]
