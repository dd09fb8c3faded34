"""Untrusted models (LLM-written CWMs) behind the sandbox, for the environments.

:class:`SandboxedModel` is a :class:`~ggp.core.model.WorldModel` whose protocol functions
are calls into a :mod:`ggp.env.worker` child: one pipe round trip per call. It serves the
AEC environment and random-play samples. The vector environment instead asks the same
kind of child for a whole batch step at once (:meth:`SandboxedModel.batch_step`), which is
what makes training inside a sandboxed CWM affordable.

The child is a restricted, offline sandbox (``Limits(restricted=True, network=False)``,
docs/sandbox.md): a CWM only computes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import GameMetadata
from ggp.sandbox import Limits, SandboxFailure, Worker


class SandboxedModelError(GGPError):
    """The sandboxed model failed to load or failed during a call."""


def cwm_file(source: str | Path) -> Path:
    """The model file of a synthesis run directory (its ``cwm.py``) or a ``.py`` file."""
    path = Path(source).expanduser().resolve()
    if path.is_dir():
        path = path / "cwm.py"
    if not path.is_file() or path.suffix != ".py":
        raise SandboxedModelError(f"No code world model at {source}: give a synthesis run "
                                  "directory holding cwm.py, or a .py model file.")
    return path


class _Remote:
    """The protocol namespace forwarding each function to the worker."""

    def __init__(self, owner: "SandboxedModel") -> None:
        self._owner = owner
        self.INITIAL_STATE = owner.call("initial_state")

    def get_current_player(self, state):
        return self._owner.call("current_player", state=state)

    def get_player_name(self, player_id):
        return self._owner.call("player_name", player=player_id)

    def get_legal_actions(self, state):
        return self._owner.call("legal_actions", state=state)

    def apply_action(self, state, action):
        return self._owner.call("apply", state=state, action=action)

    def get_rewards(self, state):
        return self._owner.call("rewards", state=state)

    def get_observations(self, state):
        return self._owner.call("observations", state=state)

    def get_chance_outcomes(self, state):
        return [tuple(pair) for pair in self._owner.call("chance_outcomes", state=state)]


class SandboxedModel(WorldModel):
    """A CWM file run in a sandboxed worker; :meth:`close` stops the worker.

    ``metadata`` is the game's public metadata (a CWM file has none of its own).
    """

    def __init__(self, source: str | Path, metadata: GameMetadata, *,
                 call_seconds: float = 30.0, memory_mb: int = 1024,
                 cpu_seconds: int = 24 * 3600) -> None:
        path = cwm_file(source)
        self.path, self.call_seconds = path, call_seconds
        init = {"source": path.read_text(encoding="utf-8"), "filename": str(path),
                "metadata": metadata.to_dict()}
        limits = Limits(memory_mb=memory_mb, cpu_seconds=cpu_seconds, restricted=True,
                        network=False)
        try:
            self.worker = Worker("ggp.env.worker", init, start_timeout=60.0, limits=limits)
        except SandboxFailure as exc:
            raise SandboxedModelError(f"the model {path} does not load ({exc.kind}): "
                                      f"{exc.detail[-500:]}") from exc
        super().__init__(_Remote(self), name=f"sandboxed:{path.stem}", trusted=True,
                         metadata=metadata, rules="")

    def call(self, method: str, **params: Any) -> Any:
        try:
            return self.worker.call(method, params, timeout=self.call_seconds)
        except SandboxFailure as exc:
            raise SandboxedModelError(f"the sandboxed model failed in {method} ({exc.kind}): "
                                      f"{exc.detail[-500:]}") from exc

    def close(self) -> None:
        self.worker.close()

    def __enter__(self) -> "SandboxedModel":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


__all__ = ["SandboxedModel", "SandboxedModelError", "cwm_file"]
