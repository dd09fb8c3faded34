"""Policy priors: guarded normalization, PUCT in MCTS and ISMCTS, and the agents' and
the CWM worker's ``prior`` settings."""

import math
import random

import pytest

from ggp.agents import make_agent
from ggp.belief.sampler import make_sampler
from ggp.core.errors import GGPError
from ggp.core.registry import make_game
from ggp.search.evaluators import RandomRolloutEvaluator
from ggp.search.ismcts import ISMCTS, most_visited
from ggp.search.mcts import MCTS
from ggp.search.priors import GuardedPrior

GTTT = make_game("generalized_tic_tac_toe")
# X to move with (0,0), (0,1), (0,2): x(0,3) wins at once, among 30 legal moves
MOVES = ["x(0,0)", "o(5,0)", "x(0,1)", "o(5,1)", "x(0,2)", "o(5,3)"]
WIN = "x(0,3)"


def win_position():
    state = GTTT.initial_state()
    for m in MOVES:
        state = GTTT.apply(state, m)
    return state


def pointing(state, player):
    """A hand-written prior: all weight on the winning move."""
    return {WIN: 1.0}


# ---------------------------------------------------------------- the guard
def test_guard_normalizes_floors_and_ignores_illegal_actions():
    guard = GuardedPrior(lambda s, p: {"a": 3.0, "b": 1.0, "nope": 100.0}, floor=0.1)
    probs = guard({}, 0, ["a", "b", "c"])
    assert math.isclose(sum(probs.values()), 1.0)
    assert probs["c"] == pytest.approx(0.1 / 3)  # missing: the floor's share only
    assert probs["a"] == pytest.approx(0.9 * 0.75 + 0.1 / 3)
    assert guard.errors == 0


@pytest.mark.parametrize("bad", [
    lambda s, p: 1 / 0,  # raises
    lambda s, p: ["a"],  # not a mapping
    lambda s, p: {"a": -1.0},  # negative
    lambda s, p: {"a": float("nan")},  # not finite
    lambda s, p: {"a": "high"},  # not a number
])
def test_a_broken_prior_falls_back_to_uniform_and_is_counted(bad):
    guard = GuardedPrior(bad)
    assert guard({}, 0, ["a", "b"]) == {"a": 0.5, "b": 0.5}
    assert guard.errors == 1 and guard.last_error


def test_the_prior_gets_a_copy_of_the_state_unless_trusted():
    def vandal(state, player):
        state["board"] = None
        return {}

    state = {"board": [1, 2]}
    GuardedPrior(vandal)(state, 0, ["a"])
    assert state == {"board": [1, 2]}


# ---------------------------------------------------------------- PUCT in MCTS
def test_prior_pointing_at_the_win_makes_fewer_simulations_prove_it():
    """A win in three plies (an open three on a free row): with the solver on, the search
    stops once the win is proven, so the simulations it ran measure how fast it found the
    win. UCT spreads them over all 32 moves; PUCT follows the prior to the winning move
    (its replies get a uniform prior: the hand-written prior knows only the winning move)."""
    state = GTTT.initial_state()
    for m in ["x(2,1)", "o(5,5)", "x(2,2)", "o(5,0)"]:
        state = GTTT.apply(state, m)
    win = "x(2,3)"
    used = {}
    for prior in (None, lambda s, p: {win: 1.0}):
        runs = []
        for seed in range(5):
            mcts = MCTS(GTTT, RandomRolloutEvaluator(GTTT, 1), simulations=5000,
                        rng=random.Random(seed), prior=prior)
            root = mcts.search(state)
            assert mcts.choose(root) == win and root.proven is not None
            runs.append(mcts.last_simulations)
        used[prior is not None] = sum(runs) / len(runs)
    assert used[True] * 5 < used[False], used  # measured: 63 vs about 870


def test_puct_without_the_solver_finds_the_win_with_a_small_budget():
    state = win_position()
    hits = {}
    for prior in (None, pointing):
        hits[prior is not None] = sum(
            MCTS(GTTT, RandomRolloutEvaluator(GTTT, 1), simulations=12, solver=False,
                 rng=random.Random(seed), prior=prior).best_action(state) == WIN
            for seed in range(10))
    assert hits[True] == 10 and hits[False] < 10


def test_a_broken_prior_in_mcts_is_uniform_and_counted():
    mcts = MCTS(GTTT, RandomRolloutEvaluator(GTTT, 1), simulations=50,
                rng=random.Random(0), prior=lambda s, p: 1 / 0)
    root = mcts.search(win_position())
    assert mcts.prior_errors > 0 and root.priors == {a: 1 / 30 for a in root.priors}


# ---------------------------------------------------------------- PUCT in ISMCTS
@pytest.mark.parametrize("observer", ["single", "multiple"])
def test_ismcts_uses_the_prior(observer):
    state = win_position()
    history = [(GTTT.observation(state, 0), None)]
    hits = {}
    for prior in (None, pointing):
        count = 0
        for seed in range(8):
            search = ISMCTS(GTTT, make_sampler(GTTT, "perfect"),
                            RandomRolloutEvaluator(GTTT, 1), observer=observer,
                            simulations=12, rng=random.Random(seed), prior=prior)
            count += most_visited(search.search(history, 0)) == WIN
        hits[prior is not None] = count
    assert hits[True] == 8 and hits[False] < 8


def test_ismcts_plays_leduc_with_a_broken_prior():
    model = make_game("leduc_poker")
    agent = make_agent("ismcts:sims=50:rollouts=1", model)
    agent.prior = lambda s, p: {"nope": 1.0}  # covers no legal action: uniform
    from ggp.arena.match import play_match

    result = play_match(model, [agent, make_agent("random", model)], seed=0)
    assert result.forfeit is None


# ---------------------------------------------------------------- agent settings
def test_prior_true_needs_a_policy_prior():
    with pytest.raises(GGPError, match="policy_prior"):
        make_agent("mcts:prior=true", GTTT)


# ---------------------------------------------------------------- informed playouts
def _line_return(state, prior, seed=0):
    evaluator = RandomRolloutEvaluator(GTTT, 1, policy=GuardedPrior(prior, floor=0.0))
    return evaluator.evaluate(state, random.Random(seed))


def test_prior_playouts_follow_the_prior():
    """With all weight on the win (floor 0), every playout from the position plays it:
    X's return is 1 for every seed, which random playouts do not give."""
    state = win_position()
    assert all(_line_return(state, pointing, seed) == [1.0, -1.0] for seed in range(10))
    random_returns = {tuple(RandomRolloutEvaluator(GTTT, 1).evaluate(state, random.Random(s)))
                      for s in range(10)}
    assert random_returns != {(1.0, -1.0)}


def test_a_broken_prior_in_playouts_plays_uniformly_and_is_counted():
    guard = GuardedPrior(lambda s, p: 1 / 0)
    evaluator = RandomRolloutEvaluator(GTTT, 3, policy=guard)
    values = evaluator.evaluate(win_position(), random.Random(0))
    assert len(values) == 2 and guard.errors > 0


def test_an_untrusted_playout_prior_cannot_change_the_state_a_node_holds():
    def vandal(state, player):
        state["board"][0][4] = "o"  # blocks nothing the search sees: it gets a copy
        return {}

    state = win_position()
    before = [row[:] for row in state["board"]]
    RandomRolloutEvaluator(GTTT, 2, policy=GuardedPrior(vandal)).evaluate(state, random.Random(0))
    assert state["board"] == before


def test_playout_setting_of_the_search_agents():
    with pytest.raises(GGPError, match="playout=prior needs prior=true"):
        make_agent("mcts:playout=prior", GTTT)
    with pytest.raises(GGPError, match="playout=greedy must be one of random, prior"):
        make_agent("ismcts:playout=greedy", make_game("leduc_poker"))
    agent = make_agent("mcts:playout=random", GTTT)
    assert agent.evaluator.policy is None
