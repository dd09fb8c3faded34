"""Sandboxed worker entry for environments over an untrusted model (``ggp.sandbox.Worker``).

The child loads the model source (an LLM-written CWM) and answers two kinds of calls:

* batch calls — ``reset`` and ``step(actions)`` over ``n`` games of one seat against
  random opponents (:class:`ggp.env.games.BatchCore`): one round trip per vector step;
* protocol calls — ``initial_state``, ``current_player``, ... one function each, for
  :class:`ggp.env.sandboxed.SandboxedModel` (the AEC environment, random-play samples).

Everything here runs inside the sandboxed child; observations travel back as JSON and are
encoded by the trusted parent.
"""

from __future__ import annotations

from typing import Any

from ggp.core.model import WorldModel, load_model_source
from ggp.core.protocol import GameMetadata, State
from ggp.env.games import BatchCore
from ggp.env.samples import random_play_samples


class EnvHandler:
    def __init__(self, init: dict[str, Any]) -> None:
        loaded = load_model_source(init["source"], name="cwm", filename=init["filename"])
        meta = GameMetadata(**init["metadata"]) if init.get("metadata") else None
        self.model = WorldModel(loaded.namespace, name="cwm", metadata=meta)
        self.batch: BatchCore | None = None

    # ------------------------------------------------------------------ batches
    def open_batch(self, n: int, seat: int, seed: int) -> None:
        self.batch = BatchCore(self.model, n, seat, seed)

    def reset(self) -> list[dict[str, Any]]:
        return self.batch.reset()

    def step(self, actions: list[str]) -> list[dict[str, Any]]:
        return self.batch.step(actions)

    def samples(self, games: int, seed: int) -> dict[str, Any]:
        found = random_play_samples(self.model, games, seed)
        return {"observations": found.observations, "actions": sorted(found.actions)}

    # ----------------------------------------------------------------- protocol
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

    def rewards(self, state: State) -> list[float]:
        return self.model.rewards(state)

    def observations(self, state: State) -> list:
        return self.model.observations(state)

    def chance_outcomes(self, state: State) -> list:
        return [[a, p] for a, p in self.model.chance_outcomes(state)]


def make_handler(init: dict[str, Any]) -> EnvHandler:
    """Worker entry point."""
    return EnvHandler(init)
