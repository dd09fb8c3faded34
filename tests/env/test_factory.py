"""Gymnasium ids, PettingZoo factories, the parallel form, truncation and agent opponents."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
import gymnasium  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

import ggp.env  # noqa: E402,F401 - registers the ids
from ggp.core.errors import GGPError  # noqa: E402
from ggp.env.factory import env, parallel_env, raw_env  # noqa: E402

GDL = Path(__file__).resolve().parents[2] / "src" / "ggp" / "gdl" / "games"


def _quiet(check, *args, **kwargs) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(*args, **kwargs)


def test_gymnasium_make_on_registered_ids_passes_check_env() -> None:
    assert "ggp/tic_tac_toe-v0" in gymnasium.registry and "ggp/Game-v0" in gymnasium.registry
    made = gymnasium.make("ggp/tic_tac_toe-v0", seat=1, fit_games=20)
    _quiet(check_env, made.unwrapped, skip_render_check=True)
    space = made.observation_space
    assert np.isfinite(space.low).all() and np.isfinite(space.high).all()
    assert made.action_space.n == 9  # one index for both marks
    bridged = gymnasium.make("ggp/Game-v0", game="openspiel:leduc_poker", fit_games=10)
    assert bridged.reset(seed=0)[0].shape == (30,)


def test_truncation_at_the_horizon() -> None:
    made = gymnasium.make("ggp/connect_four-v0", max_steps=4, fit_games=5)
    _, info = made.reset(seed=0)
    for _ in range(10):
        _, _, terminated, truncated, info = made.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated or truncated:
            break
    assert truncated and not terminated
    aec = raw_env("connect_four", max_steps=3, fit_games=5)
    aec.reset(seed=0)
    for agent in aec.agent_iter():
        obs, _, term, trunc, _ = aec.last()
        aec.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert aec.num_moves == 3


@pytest.mark.parametrize("game", ["tic_tac_toe", "kuhn_poker", "goofspiel",
                                  "openspiel:leduc_poker", "openspiel:goofspiel",
                                  str(GDL / "connect_four.kif"),
                                  str(GDL / "blind_tic_tac_toe.kif")])
def test_pettingzoo_api_test_on_the_factories(game: str) -> None:
    if game.startswith("openspiel:"):
        pytest.importorskip("pyspiel")
    wrapped = env(game, fit_games=10)
    assert wrapped.unwrapped.possible_agents[0] == "player_0"
    _quiet(api_test, wrapped, num_cycles=20)
    simultaneous = raw_env(game, fit_games=5).metadata["is_parallelizable"]
    if simultaneous:
        par = parallel_env(game, fit_games=10)
        _quiet(parallel_api_test, par, num_cycles=20)
        observations, _ = par.reset(seed=0)
        assert all(o["action_mask"].any() for o in observations.values())  # all move at once
    else:
        with pytest.raises(GGPError, match="not a simultaneous-move game"):
            parallel_env(game, fit_games=5)


def test_any_agent_spec_as_the_opponent() -> None:
    made = gymnasium.make("ggp/tic_tac_toe-v0", opponent="gt_mcts:sims=30", fit_games=10)
    returns = []
    for game in range(4):
        _, info = made.reset(seed=game)
        done, total = False, 0.0
        while not done:
            _, reward, term, trunc, info = made.step(int(np.flatnonzero(info["action_mask"])[0]))
            done, total = term or trunc, total + reward
        returns.append(total)
    assert np.mean(returns) < 0  # always the first free cell loses to a searcher
    with pytest.raises(GGPError):
        gymnasium.make("ggp/tic_tac_toe-v0", opponent="no_such_agent", fit_games=5)


def test_seed_tests_pass_on_chance_games() -> None:
    from pettingzoo.test import parallel_seed_test, seed_test

    from ggp.env.envs import Encoding
    from ggp.load import load_model

    leduc = load_model("leduc_poker")
    encoding = Encoding.for_model(leduc, games=10)
    _quiet(seed_test, lambda: env(leduc, encoding=encoding), num_cycles=20)
    goofspiel = load_model("goofspiel")
    encoding = Encoding.for_model(goofspiel, games=10)
    _quiet(parallel_seed_test, lambda: parallel_env(goofspiel, encoding=encoding), num_cycles=20)
