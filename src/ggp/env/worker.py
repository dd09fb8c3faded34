"""Sandboxed worker entry for environments over an untrusted model (``ggp.sandbox.Worker``).

:class:`EnvHost` is a :class:`~ggp.sandbox.hosted.ModelHost` (one protocol call at a
time, for the AEC environment) that also answers whole batches: ``batch_open``, then
``batch_reset`` and ``batch_step(actions)`` over ``n`` games of one seat against random
opponents (:class:`ggp.env.games.BatchCore`), one round trip per vector step, and
``samples`` for fitting an encoding. The parent side is
``HostedModel(path, metadata, entry=ENV_ENTRY)``.

Everything here runs inside the sandboxed child, on the guarded model (states stay in
the child between calls); observations travel back as JSON and are encoded by the
trusted parent.
"""

from __future__ import annotations

from typing import Any

from ggp.core.model import WorldModel
from ggp.env.games import BatchCore
from ggp.env.samples import random_play_samples
from ggp.sandbox.hosted import HostedModel, ModelHost

#: The worker entry of an environment host (this module).
ENV_ENTRY = "ggp.env.worker"


def batch_host(model: WorldModel) -> HostedModel | None:
    """``model`` if it is hosted by an :class:`EnvHost` (it answers batch calls)."""
    return model if isinstance(model, HostedModel) and model.entry == ENV_ENTRY else None


class EnvHost(ModelHost):
    """Protocol calls plus batch steps and samples (see the module doc)."""

    def reload(self) -> None:
        super().reload()
        self.batch: BatchCore | None = None

    def batch_open(self, n: int, seat: int, seed: int, max_steps: int = 10_000) -> None:
        self.batch = BatchCore(self.guarded, n, seat, seed, max_steps=max_steps)

    def batch_reset(self) -> list[dict[str, Any]]:
        return self.batch.reset()

    def batch_step(self, actions: list[str]) -> list[dict[str, Any]]:
        return self.batch.step(actions)

    def samples(self, games: int, seed: int) -> dict[str, Any]:
        found = random_play_samples(self.guarded, games, seed)
        return {"observations": found.observations, "actions": sorted(found.actions),
                "seat_actions": {str(p): sorted(a) for p, a in found.seat_actions.items()},
                "open_actions": found.open_actions}


def make_handler(init: dict[str, Any]) -> EnvHost:
    """Worker entry point (:data:`ENV_ENTRY`)."""
    return EnvHost(init)
