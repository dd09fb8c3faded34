"""The Ray backend gives the same results as the local one (a local Ray, one CPU)."""

from pathlib import Path

import pytest

from ggp.arena.store import read_records
from ggp.arena.tournament import TournamentConfig, run_tournament

ray = pytest.importorskip("ray")

COIN = str(Path(__file__).with_name("coin_game.py"))


def _outcomes(path):
    return {r["key"]: (r["seed"], r["returns"], r["forfeit"], r["moves"])
            for r in read_records(path / "results.jsonl")}


def test_ray_and_local_backends_agree(tmp_path):
    config = TournamentConfig(games=["tic_tac_toe", COIN], agents=["random"],
                              opponents=["random"], matches=3, seed=5,
                              fields=[("random", "mcts:sims=5:rollouts=1")])
    local = run_tournament(config, tmp_path / "local", workers=0)
    on_ray = run_tournament(config, tmp_path / "ray", backend="ray", workers=1)
    assert local.played == on_ray.played == 12 + 2 * 2 * 3
    assert _outcomes(tmp_path / "local") == _outcomes(tmp_path / "ray")
    assert not ray.is_initialized(), "a Ray started by the tournament is shut down"
