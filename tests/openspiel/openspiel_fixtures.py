"""Shared by the OpenSpiel learner tests: the recorded real-model Leduc CWM, hosted in its
sandbox and registered as a pyspiel game."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ggp.core.model import random_walk
from ggp.env.worker import ENV_ENTRY
from ggp.load import load_model
from ggp.openspiel.game import register_world_model
from ggp.sandbox.hosted import HostedModel

LEDUC_CWM = Path(__file__).resolve().parents[2] / "examples" / "recorded" / "leduc_poker"


@contextmanager
def recorded_leduc_game(name: str) -> Iterator:
    """The pyspiel game ``name`` over the sandboxed Leduc CWM, alive inside the ``with``.
    Its action lists come from 100 random walks (no full exploration of the tree)."""
    truth = load_model("leduc_poker")
    with HostedModel(LEDUC_CWM, truth.metadata, entry=ENV_ENTRY) as cwm:
        rng, actions, chance = random.Random(0), set(), set()
        for _ in range(100):
            for state, player, legal in random_walk(cwm, rng, 100):
                if player == -1:
                    chance.update(a for a, _ in cwm.chance_outcomes(state))
                actions.update(legal if player >= 0 else [])
        yield register_world_model(cwm, name, actions=sorted(actions),
                                   chance_actions=sorted(chance), max_game_length=12,
                                   tensor_games=30)
