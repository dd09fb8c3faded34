"""OpenSpiel's RL side on ggp games: tensors through the bridge, rl_environment and a
tabular Q-learner, and tensors that raise when the game was registered without them."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import tabular_qlearner  # noqa: E402

from ggp.load import load_model  # noqa: E402
from ggp.openspiel.game import register_world_model  # noqa: E402


def _play(env, agents, episodes: int) -> int:
    steps = 0
    for _ in range(episodes):
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            time_step = env.step([agents[player].step(time_step).action])
            steps += 1
        for agent in agents:
            agent.step(time_step)
    return steps


def test_rl_environment_and_q_learning_run_on_a_ggp_game() -> None:
    game = register_world_model(load_model("kuhn_poker"), "ggp_test_rl_kuhn", tensor_games=50)
    native = pyspiel.load_game("kuhn_poker")
    assert game.max_game_length() == native.max_game_length() == 3  # player moves only
    env = rl_environment.Environment(game)  # failed: "observation_tensor not supported"
    spec = env.observation_spec()
    assert spec["info_state"] == (game.information_state_tensor_size(),)
    agents = [tabular_qlearner.QLearner(player_id=p, num_actions=env.action_spec()["num_actions"])
              for p in range(2)]
    steps = _play(env, agents, 250)
    assert steps >= 500
    time_step = env.reset()
    info = np.asarray(time_step.observations["info_state"][0])
    assert info.shape == spec["info_state"] and np.isfinite(info).all()
    # tensors tell players and histories apart: the two seats see different cards
    state = game.new_initial_state()
    for outcome, _ in state.chance_outcomes()[:1]:
        state.apply_action(outcome)
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.information_state_tensor(0) != state.information_state_tensor(1)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()


def test_gdl_game_tensors_through_the_bridge() -> None:
    from pathlib import Path

    kif = Path(__file__).resolve().parents[2] / "src" / "ggp" / "gdl" / "games"
    model = load_model(str(kif / "blind_tic_tac_toe.kif"))
    moves = sorted(f"(mark {r} {c})" for r in (1, 2, 3) for c in (1, 2, 3))
    game = register_world_model(model, "ggp_test_rl_blind", tensor_games=20, actions=moves,
                                chance_actions=["(tiebreak x)", "(tiebreak o)"],
                                max_game_length=20)
    env = rl_environment.Environment(game)
    assert env.observation_spec()["info_state"][0] > 0
    from open_spiel.python.algorithms import random_agent

    agents = [random_agent.RandomAgent(p, env.action_spec()["num_actions"]) for p in range(2)]
    assert _play(env, agents, 30) >= 30


def test_asking_for_tensors_of_a_game_without_them_raises() -> None:
    game = register_world_model(load_model("kuhn_poker"), "ggp_test_rl_strings",
                                tensor_games=0)
    assert not game.get_type().provides_information_state_tensor
    with pytest.raises(ValueError, match="not supported"):
        rl_environment.Environment(game)
    state = game.new_initial_state()
    with pytest.raises(Exception, match="registered without tensors"):
        state.information_state_tensor(0)


def test_q_learning_on_a_sandboxed_cwm_through_the_bridge() -> None:
    """The recorded real-model Leduc CWM runs in the sandbox; OpenSpiel's learner sees it
    as a pyspiel game with tensors (action lists from random play, no full exploration)."""
    from openspiel_fixtures import recorded_leduc_game

    with recorded_leduc_game("ggp_test_rl_cwm_leduc") as game:
        env = rl_environment.Environment(game)
        agents = [tabular_qlearner.QLearner(player_id=p,
                                            num_actions=env.action_spec()["num_actions"])
                  for p in range(2)]
        assert _play(env, agents, 100) >= 200
