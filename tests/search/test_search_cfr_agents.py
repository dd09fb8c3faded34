"""CFR+ against known game values, and the search agents through the registry and CLI."""

import pytest
from search_kuhn_fixture import kuhn_model

from ggp.agents import AgentSpecError, agent_names, make_agent
from ggp.arena.match import play_match
from ggp.cli.main import main
from ggp.core.errors import GGPError
from ggp.core.registry import make_game
from ggp.search.cfr import CFRPlusSolver, build_tree, expected_returns, nash_conv

KUHN = kuhn_model()


def test_cfr_plus_solves_kuhn():
    solver = CFRPlusSolver(KUHN)
    solver.run(500)
    policy = solver.average_policy()
    assert expected_returns(solver.root, policy)[0] == pytest.approx(-1 / 18, abs=2e-3)
    assert nash_conv(solver.root, policy) < 0.01


def test_best_response_exploits_a_uniform_policy():
    root = build_tree(KUHN)
    solver = CFRPlusSolver(KUHN)
    uniform = solver.average_policy()  # no iterations yet: uniform everywhere
    assert nash_conv(root, uniform) > 0.5


def test_cfr_on_exploding_bomb():
    ask = CFRPlusSolver(make_game("exploding_bomb"))
    ask.run(200)
    assert expected_returns(ask.root, ask.average_policy())[0] == pytest.approx(90, abs=0.5)
    tell = CFRPlusSolver(make_game("exploding_bomb(variant=tell)"))
    tell.run(200)
    policy = tell.average_policy()
    assert expected_returns(tell.root, policy)[0] == pytest.approx(50, abs=0.5)
    assert nash_conv(tell.root, policy) < 0.1


def test_cfr_refuses_large_games():
    with pytest.raises(GGPError):
        build_tree(make_game("tic_tac_toe"), max_nodes=1000)


def test_all_search_agents_are_registered():
    assert {"mcts", "ismcts", "moismcts", "pimc", "clairvoyant", "cfr"} <= set(agent_names())
    with pytest.raises(AgentSpecError):
        make_agent("ismcts:simulations=3", KUHN)


@pytest.mark.parametrize("spec", ["ismcts:sims=60", "moismcts:sims=60", "pimc:sims=60",
                                  "ismcts:sims=60:belief=exact", "cfr:iterations=50",
                                  "mcts:sims=30:rollouts=2"])
def test_agents_play_kuhn_reproducibly(spec):
    def run():
        agents = [make_agent(spec, KUHN), make_agent("random", KUHN)]
        return [play_match(KUHN, agents, seed=s) for s in range(6)]

    first, second = run(), run()
    assert all(r.forfeit is None for r in first)
    assert [r.steps for r in first] == [r.steps for r in second]


def test_time_budget_setting():
    agent = make_agent("mcts:sims=0:time=0.02", make_game("tic_tac_toe"))
    result = play_match(make_game("tic_tac_toe"), [agent, make_agent("random",
                        make_game("tic_tac_toe"))], seed=0)
    assert result.forfeit is None


def test_clairvoyant_refuses_to_play_without_the_true_state():
    from ggp.agents.base import MatchInfo

    agent = make_agent("clairvoyant:sims=20", make_game("monty_hall"))
    agent.start(MatchInfo("monty_hall", 0, 1, 0))
    with pytest.raises(GGPError, match="true state"):
        agent.act([({"pick": None, "opened": None, "final": None, "car": None}, None)])


def test_ggp_play_with_search_agents(capsys):
    assert main(["play", "exploding_bomb(variant=tell)", "--players",
                 "ismcts:sims=50,cfr:iterations=50"]) == 0
    assert main(["play", "monty_hall", "--players", "ismcts:sims=50:belief=exact"]) == 0
    assert "+10" in capsys.readouterr().out  # ismcts tells, the told opponent defuses


def test_value_function_evaluator_and_setting():
    import random
    import types

    from ggp.core.model import WorldModel
    from ggp.search.evaluators import ValueFunctionEvaluator
    from ggp.search.mcts import MCTS

    ttt = make_game("tic_tac_toe")
    calls = []

    def value_function(state, player):
        calls.append(player)
        return 0.0

    ns = types.SimpleNamespace(**{k: getattr(ttt.namespace, k) for k in dir(ttt.namespace)
                                  if not k.startswith("__")}, value_function=value_function)
    valued = WorldModel(ns, name="ttt_valued", trusted=True)
    MCTS(valued, ValueFunctionEvaluator(valued), simulations=10,
         rng=random.Random(0)).search(valued.initial_state())
    assert len(calls) == 20  # both players, once per new non-terminal leaf
    assert make_agent("mcts:sims=10:value=true", valued)
    with pytest.raises(GGPError, match="value_function"):
        make_agent("mcts:value=true", ttt)


def test_planners_work_on_untrusted_models():
    """Untrusted models go through the guarded wrapper (copies, typed errors, JSON keys)."""
    import random
    from pathlib import Path

    import ggp.games.monty_hall as monty
    from ggp.belief.sampler import make_sampler
    from ggp.core.model import load_model_file
    from ggp.search.ismcts import ISMCTS, action_values

    model = load_model_file(Path(monty.__file__), trusted=False)
    assert not model.trusted
    state = model.initial_state()
    for action in ("car(0)", "pick(1)"):
        if action.startswith("pick"):
            first = (model.observation(state, 0), action)
        state = model.apply(state, action)
    state = model.apply(state, "open(2)")
    history = [first, (model.observation(state, 0), None)]
    for observer in ("single", "multiple"):
        for belief in ("exact", "generic"):
            search = ISMCTS(model, make_sampler(model, belief), observer=observer,
                            simulations=300, rng=random.Random(0))
            values = action_values(search.search(history, 0))
            assert values["switch"][0] > values["stay"][0]
