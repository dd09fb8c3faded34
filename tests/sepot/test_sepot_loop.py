"""The whole loop for a few iterations: R-NaD + critic training, checkpoints, search, agents."""

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("pyspiel")

from ggp.sepot.exact import exploitability, tabular_policy  # noqa: E402
from ggp.sepot.rnad import EntropySchedule, RNaDConfig, RNaDLearner  # noqa: E402
from ggp.sepot.search import NetworkBlueprint, SePoTPolicy, search_tabular_policy  # noqa: E402
from ggp.sepot.train import train  # noqa: E402

SMALL = dict(batch_size=16, hidden=(32, 32), critic_hidden=(32, 32), seed=3)


def test_entropy_schedule_phases():
    schedule = EntropySchedule((2, 5), (2, 1))
    updates = [s for s in range(16) if schedule(s)[1]]
    assert updates == [1, 3, 8, 13]
    assert schedule(0)[0] == 0.0 and schedule(1)[0] == 1.0
    assert schedule(4)[0] == pytest.approx(0.0) and schedule(5)[0] == pytest.approx(0.4)


def test_training_runs_and_resumes_exactly(tmp_path):
    config = RNaDConfig(game="kuhn", **SMALL)
    straight = train(config, str(tmp_path / "a"), 4, verbose=False)
    train(config, str(tmp_path / "b"), 2, verbose=False)
    resumed = train(config, str(tmp_path / "b"), 4, verbose=False)
    assert resumed.step_count == 4
    for x, y in zip(straight.net.parameters(), resumed.net.parameters()):
        assert torch.equal(x, y)
    for x, y in zip(straight.critic.parameters(), resumed.critic.parameters()):
        assert torch.equal(x, y)


def test_batch_shapes_and_rewards_on_goofspiel():
    learner = RNaDLearner(RNaDConfig(game="goofspiel3", **SMALL))
    batch = learner.sample(8)
    T, B = batch.valid.shape
    assert B == 8 and batch.hist.shape == (T, B, 2 * learner.spec.info_size)
    # zero-sum win/loss: the returns of each game sum to 0 and are in {-1, 0, 1}
    totals = batch.rewards.sum(0)
    assert torch.all(totals.sum(-1) == 0)
    assert set(totals[:, 0].tolist()) <= {-1.0, 0.0, 1.0}
    targets = learner.critic_targets(batch)
    assert targets.shape == (T, B, learner.spec.num_outputs)
    assert torch.isfinite(targets).all()


def test_learning_beats_uniform_on_kuhn():
    learner = RNaDLearner(RNaDConfig(game="kuhn", batch_size=64, hidden=(64, 64),
                                     critic_hidden=(64, 64), learning_rate=1e-3, seed=0,
                                     schedule_sizes=(50, 200), schedule_repeats=(4, 1),
                                     target_gamma=0.05))  # evaluated policy = target net
    for _ in range(150):
        learner.step()
    spec = learner.spec
    assert exploitability(spec, tabular_policy(spec, learner.policy)) < 0.3  # uniform: 0.458


def test_search_on_the_trained_networks(tmp_path):
    learner = train(RNaDConfig(game="kuhn", **SMALL), str(tmp_path), 3, verbose=False)
    spec, blueprint = learner.spec, NetworkBlueprint(learner)
    search = SePoTPolicy(spec, blueprint, depth_limit=1, iterations=50)
    state = spec.game.new_initial_state()
    state.apply_action(0)
    state.apply_action(2)
    probs = search.action_probabilities(state)
    assert search.last_searched and sum(probs.values()) == pytest.approx(1.0)
    table, counts = search_tabular_policy(spec, tabular_policy(spec, learner.policy), search)
    assert counts["searched"] == 4
    assert 0.0 <= exploitability(spec, table) < 1.0


def test_agents_play_a_match(tmp_path):
    from ggp.agents import make_agent
    from ggp.arena.match import play_match
    from ggp.load import load_model

    train(RNaDConfig(game="kuhn", **SMALL), str(tmp_path), 2, verbose=False)
    checkpoint = str(tmp_path / "latest.pt")
    model = load_model("openspiel:kuhn_poker")
    agents = [make_agent(f"sepot:checkpoint={checkpoint}:iterations=20", model),
              make_agent(f"rnad:checkpoint={checkpoint}", model)]
    for seed in range(3):
        result = play_match(model, agents, seed=seed)
        assert result.forfeit is None and sum(result.returns) == 0


def test_agent_refuses_another_game(tmp_path):
    from ggp.agents import make_agent
    from ggp.agents.sepot_agents import SePoTAgentError
    from ggp.load import load_model

    train(RNaDConfig(game="kuhn", **SMALL), str(tmp_path), 1, verbose=False)
    with pytest.raises(SePoTAgentError):
        make_agent(f"rnad:checkpoint={tmp_path / 'latest.pt'}", load_model("openspiel:leduc_poker"))
