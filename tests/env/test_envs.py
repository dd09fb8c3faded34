"""PettingZoo api_test and Gymnasium check_env on reference games, a GDL game and a
real-model CWM run in the sandbox; the vector environment in and out of the sandbox."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from ggp.core.model import WorldModel  # noqa: E402
from ggp.env.envs import Encoding, GameAECEnv, SeatEnv, VectorSeatEnv  # noqa: E402
from ggp.env.worker import ENV_ENTRY  # noqa: E402
from ggp.load import load_model  # noqa: E402
from ggp.rundir import ModelSourceError  # noqa: E402
from ggp.sandbox.hosted import HostedModel  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
LEDUC_CWM = ROOT / "examples" / "recorded" / "leduc_poker"
GAMES = ["tic_tac_toe", "connect_four", "leduc_poker", "kuhn_poker", "bargaining",
         "quadranto", str(ROOT / "src" / "ggp" / "gdl" / "games" / "connect_four.kif")]


def _checks(model, seat: int = 0) -> None:
    encoding = Encoding.for_model(model, games=30, unknown="ignore")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(GameAECEnv(model, encoding), num_cycles=100)
        check_env(SeatEnv(model, seat, encoding), skip_render_check=True)


@pytest.mark.parametrize("game", GAMES)
def test_library_checks_pass(game: str) -> None:
    _checks(load_model(game), seat=1)


def test_sandboxed_cwm_passes_the_library_checks() -> None:
    truth = load_model("leduc_poker")
    with HostedModel(LEDUC_CWM, truth.metadata, entry=ENV_ENTRY) as model:
        _checks(model)


def test_aec_plays_a_whole_game_with_rewards_summing_to_returns() -> None:
    model = load_model("leduc_poker")
    env = GameAECEnv(model, Encoding.for_model(model, games=50))
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        assert "json" in info and isinstance(info["json"], dict)
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    assert env.agents == []
    assert abs(sum(totals.values())) < 1e-9 and max(totals.values()) > 0  # zero-sum, decided


def test_illegal_action_is_a_forfeit() -> None:
    model = load_model("tic_tac_toe")
    env = SeatEnv(model, 0, Encoding.for_model(model, games=50))
    _, info = env.reset(seed=0)
    _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])  # an occupied cell
    _, reward, done, _, info = env.step(illegal)
    assert done and info["illegal"] and reward == model.metadata.min_utility
    assert env.step  # the AEC form scores the opponent too (zero-sum), see below


def test_aec_forfeit_keeps_a_zero_sum_game_zero_sum() -> None:
    model = load_model("tic_tac_toe")
    env = GameAECEnv(model, Encoding.for_model(model, games=20))
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[0]))
    mask = env.observe("player_1")["action_mask"]
    env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert all(env.terminations.values()) and env.infos["player_1"]["illegal"]


def test_vector_env_sandboxed_matches_in_process() -> None:
    """The same CWM in-process and in the sandbox gives the same games for the same seed."""
    truth = load_model("leduc_poker")
    local = WorldModel(load_model(str(LEDUC_CWM / "cwm.py")).namespace, name="cwm",
                       metadata=truth.metadata)
    encoding = Encoding.for_model(truth, games=100)
    runs = []
    with HostedModel(LEDUC_CWM, truth.metadata, entry=ENV_ENTRY) as sandboxed:
        for model in (local, sandboxed):
            env = VectorSeatEnv(model, encoding, 4, seat=1, seed=7)
            obs, mask = env.reset()
            trace = [obs.copy()]
            for _ in range(20):
                actions = np.array([np.flatnonzero(m)[0] for m in mask])
                obs, mask, reward, done, finished = env.step(actions)
                trace += [obs.copy(), reward.copy(), done.copy()]
            runs.append(trace)
    for a, b in zip(*runs):
        np.testing.assert_array_equal(a, b)


def test_missing_cwm_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelSourceError, match="No code world model"):
        HostedModel(tmp_path, load_model("leduc_poker").metadata, entry=ENV_ENTRY)
