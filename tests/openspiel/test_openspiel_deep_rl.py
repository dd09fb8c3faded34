"""OpenSpiel's deep learners (its PyTorch DQN and NFSP) on ggp games through
``rl_environment``: a reference game in process and a recorded real-model CWM running in
the sandbox. A few hundred steps each: the check is that the learners run on the bridge's
tensors and update their networks (finite losses, weights changed), not that they learn
to play well in that time."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
torch = pytest.importorskip("torch")
pytest.importorskip("tree")  # dm-tree, which OpenSpiel's PyTorch learners import
from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.pytorch import dqn, nfsp  # noqa: E402

from ggp.load import load_model  # noqa: E402
from ggp.openspiel.game import register_world_model  # noqa: E402


@pytest.fixture(autouse=True)
def _one_thread():
    # tiny networks: several threads only contend on a shared machine
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _play(env, agents, steps: int) -> int:
    """Episodes until at least ``steps`` player moves; returns the moves made."""
    done = 0
    while done < steps:
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            time_step = env.step([agents[player].step(time_step).action])
            done += 1
        for agent in agents:
            agent.step(time_step)
    return done


def _weights(module: torch.nn.Module) -> list[torch.Tensor]:
    return [p.detach().clone() for p in module.parameters()]


def _changed(before: list[torch.Tensor], module: torch.nn.Module) -> bool:
    return any(not torch.equal(a, b) for a, b in zip(before, module.parameters()))


def test_dqn_self_play_on_a_ggp_game() -> None:
    game = register_world_model(load_model("tic_tac_toe"), "ggp_test_dqn_ttt", tensor_games=50)
    env = rl_environment.Environment(game)
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    agents = [dqn.DQN(p, size, actions, hidden_layers_sizes=[32], batch_size=16,
                      replay_buffer_capacity=500, min_buffer_size_to_learn=32, learn_every=4,
                      update_target_network_every=50, epsilon_decay_duration=300, seed=p)
              for p in range(2)]
    before = [_weights(a._q_network) for a in agents]
    assert _play(env, agents, 300) >= 300
    for agent, weights in zip(agents, before):
        assert agent.loss is not None and np.isfinite(float(agent.loss))
        assert _changed(weights, agent._q_network)
    # the greedy policy answers with a legal move from the bridge's tensors
    time_step = env.reset()
    step = agents[0].step(time_step, is_evaluation=True)
    assert step.action in time_step.observations["legal_actions"][0]


def test_nfsp_on_a_sandboxed_cwm() -> None:
    """The recorded real-model Leduc CWM runs in the sandbox; NFSP sees it as a pyspiel
    game with tensors (action lists from random play)."""
    from openspiel_fixtures import recorded_leduc_game

    with recorded_leduc_game("ggp_test_nfsp_cwm_leduc") as game:
        env = rl_environment.Environment(game)
        size = env.observation_spec()["info_state"][0]
        actions = env.action_spec()["num_actions"]
        agents = [nfsp.NFSP(p, size, actions, hidden_layers_sizes=[32],
                            reservoir_buffer_capacity=1000, anticipatory_param=0.5,
                            batch_size=16, min_buffer_size_to_learn=16, learn_every=8,
                            replay_buffer_capacity=1000, epsilon_decay_duration=300, seed=p)
                  for p in range(2)]
        before = [_weights(a._avg_network) for a in agents]
        assert _play(env, agents, 300) >= 300
        for agent, weights in zip(agents, before):
            sl_loss, rl_loss = agent.loss
            assert sl_loss is not None and np.isfinite(float(sl_loss))
            assert rl_loss is not None and np.isfinite(float(rl_loss))
            assert _changed(weights, agent._avg_network)
