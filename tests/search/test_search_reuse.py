"""Tree reuse between moves keeps the search's semantics.

The claim tested: a search that inherits k < N root visits from the previous move's tree
and runs N - k new simulations plays like a fresh search of N simulations (the same move
distribution), because the subtree below any node grows as a Markov chain driven by
independent random draws, whichever search made them. Compared over many seeds with a
chi-square test of homogeneity; the inherited visits are checked to be substantial, so
the comparison is not between two fresh searches.

The small budget (15 simulations, 5 legal moves) keeps the move distribution spread and
sensitive to the simulation count. Measured once on this design with 600 runs: reused vs
fresh chi-square 2.1 (4 degrees of freedom), while fresh 15 vs fresh 21 simulations (what
"reuse adds the inherited visits on top" would amount to) gives 16.0: the test can tell
a few simulations apart, though not always at the p = 0.001 level it asserts.
"""

import random
from collections import Counter

from ggp.agents import make_agent
from ggp.agents.base import MatchInfo
from ggp.core.registry import make_game
from ggp.search.evaluators import RandomRolloutEvaluator
from ggp.search.mcts import MCTS

TTT = make_game("tic_tac_toe")

# chi-square critical values at p = 0.001 by degrees of freedom
CHI2_001 = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46, 7: 24.32, 8: 26.12}


def chi_square(a: Counter, b: Counter) -> tuple[float, int]:
    """Two-sample chi-square statistic and degrees of freedom (rare moves pooled)."""
    na, nb = sum(a.values()), sum(b.values())
    cells, rare = [], [0, 0]
    for key in set(a) | set(b):
        if a[key] + b[key] < 10:
            rare[0] += a[key]
            rare[1] += b[key]
        else:
            cells.append((a[key], b[key]))
    if sum(rare) > 0:
        cells.append(tuple(rare))
    stat = 0.0
    for x, y in cells:
        total = x + y
        for observed, n in ((x, na), (y, nb)):
            expected = total * n / (na + nb)
            stat += (observed - expected) ** 2 / expected
    return stat, len(cells) - 1


def position(*moves):
    state = TTT.initial_state()
    for m in moves:
        state = TTT.apply(state, m)
    return state


def test_reused_tree_plays_like_a_fresh_search_with_the_same_simulations():
    before = position("x(1,1)", "o(0,0)")  # the player's previous decision
    now = position("x(1,1)", "o(0,0)", "x(0,1)", "o(2,1)")  # after its move and a reply
    budget, runs = 15, 600
    reused, fresh, inherited = Counter(), Counter(), []
    for seed in range(runs):
        mcts = MCTS(TTT, RandomRolloutEvaluator(TTT, 1), simulations=200, solver=False,
                    rng=random.Random(seed))
        mcts.search(before)
        mcts.simulations = budget
        root = mcts.search(now)
        inherited.append(mcts.last_inherited)
        assert root.visits == budget and mcts.last_simulations == budget - mcts.last_inherited
        reused[mcts.choose(root)] += 1
        other = MCTS(TTT, RandomRolloutEvaluator(TTT, 1), simulations=budget, solver=False,
                     rng=random.Random(10_000 + seed), reuse=False)
        fresh[other.choose(other.search(now))] += 1
    # reuse really happened: most searches inherited visits, a good part of the budget
    assert sum(1 for k in inherited if k > 0) > runs * 0.8
    assert sum(inherited) / runs > 4  # about 5.8 of the 15
    assert len(fresh) > 1  # the fresh search's choice is spread: there is a distribution
    stat, df = chi_square(reused, fresh)
    assert stat < CHI2_001[df], (stat, df, reused, fresh)


def test_more_inherited_visits_than_the_budget_means_a_fresh_search():
    before = position("x(1,1)", "o(0,0)")
    now = position("x(1,1)", "o(0,0)", "x(0,1)", "o(2,1)")
    mcts = MCTS(TTT, RandomRolloutEvaluator(TTT, 1), simulations=4000, solver=False,
                rng=random.Random(0))
    mcts.search(before)
    mcts.simulations = 5
    root = mcts.search(now)
    assert mcts.last_inherited == 0 and root.visits == 5


def test_agent_reuses_its_tree_and_says_how_much():
    agent = make_agent("mcts:sims=300:rollouts=1", TTT)
    agent.start(MatchInfo(game="tic_tac_toe", seat=0, num_players=2, seed=0))
    state = TTT.initial_state()
    history = [(TTT.observation(state, 0), None)]
    move = agent.act(history)
    assert agent.search.last_inherited == 0
    state = TTT.apply(state, move)
    reply = TTT.legal_actions(state)[0]
    state = TTT.apply(state, reply)
    history = [(history[0][0], move), (TTT.observation(state, 0), None)]
    agent.act(history)
    assert agent.search.last_inherited > 0
    assert agent.search.last_simulations == 300 - agent.search.last_inherited
    assert agent.report["stats"]["simulations"] == 300 + agent.search.last_simulations
    assert agent.report["stats"]["inherited"] == agent.search.last_inherited
