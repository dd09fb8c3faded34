"""PettingZoo's api_test over a few seeds on one game of each source (the full sweep, 100
seeds on every game, is bench/pettingzoo_api.py), and the reset convention that makes a
seeded run reproducible."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from ggp.env.conformance import api_test_seed, parallel_api_test_seed  # noqa: E402
from ggp.env.envs import Encoding  # noqa: E402
from ggp.env.factory import env, parallel_env, raw_env  # noqa: E402
from ggp.load import load_model  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GDL = ROOT / "src" / "ggp" / "gdl" / "games"
SEEDS = range(3)


@pytest.mark.parametrize("game", [
    "tic_tac_toe", "leduc_poker", "goofspiel", "bargaining", "backgammon",
    "openspiel:leduc_poker", str(GDL / "connect_four.kif"), str(GDL / "blind_tictactoe.gdl"),
])
def test_api_test_passes_over_seeds(game: str) -> None:
    if game.startswith("openspiel:"):
        pytest.importorskip("pyspiel")
    model = load_model(game)
    encoding = Encoding.for_model(model, games=30)
    for seed in SEEDS:
        api_test_seed(lambda: env(model, encoding=encoding), seed)
        if model.metadata.simultaneous:
            parallel_api_test_seed(lambda: parallel_env(model, encoding=encoding), seed)


def test_api_test_passes_over_seeds_on_a_sandboxed_cwm() -> None:
    from ggp.env.worker import ENV_ENTRY
    from ggp.sandbox.hosted import HostedModel

    truth = load_model("leduc_poker")
    with HostedModel(ROOT / "examples" / "recorded" / "leduc_poker", truth.metadata,
                     entry=ENV_ENTRY) as cwm:
        encoding = Encoding.for_model(cwm, games=30)
        for seed in SEEDS:
            api_test_seed(lambda: env(cwm, encoding=encoding), seed)


def _first_observations(aec, games: int) -> list[np.ndarray]:
    """The first observation of each of ``games`` games, the first reset seeded."""
    seen = []
    for game in range(games):
        aec.reset(seed=7 if game == 0 else None)
        seen.append(aec.observe(aec.agent_selection)["observation"])
        for agent in aec.agent_iter():
            obs, _, term, trunc, _ = aec.last()
            aec.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    return seen


def test_an_unseeded_reset_continues_the_seeded_generator() -> None:
    model = load_model("leduc_poker")  # chance deals the cards
    encoding = Encoding.for_model(model, games=10)
    first = _first_observations(raw_env(model, encoding=encoding), 6)
    again = _first_observations(raw_env(model, encoding=encoding), 6)
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    assert len({a.tobytes() for a in first}) > 1  # later games are not replays of the first
