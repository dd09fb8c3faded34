"""Opponent counterfactual values taken from the previous search (continual resolving)."""

import pytest

pytest.importorskip("pyspiel")

from ggp.sepot.exact import ExactValues, cfr_plus_policy, exploitability, tabular_policy  # noqa: E402
from ggp.sepot.games import load_sepot_game  # noqa: E402
from ggp.sepot.resolve import (  # noqa: E402
    history_values,
    previous_search_cfvs,
    public_state,
    resolve,
)
from ggp.sepot.search import SePoTPolicy, SepotSearchError, search_tabular_policy  # noqa: E402

J, Q, K = 0, 1, 2
PASS, BET = 0, 1


def _after(spec, actions):
    state = spec.game.new_initial_state()
    for a in actions:
        state.apply_action(a)
    return state


def _kuhn_equilibrium(iterations=1000):
    spec = load_sepot_game("kuhn")
    return spec, cfr_plus_policy(spec, iterations)


def _solve_whole_kuhn():
    """Resolve the first public state with no depth limit: this solves the whole game."""
    spec = load_sepot_game("kuhn")
    uniform = ExactValues(spec, tabular_policy(spec))
    sub, sol = resolve(spec, _after(spec, [K, J]), uniform, depth_limit=0, iterations=1000)
    return spec, uniform, sub, sol


def test_previous_search_values_match_the_values_of_its_solution():
    # The reused values are iterate values averaged over CFR+ iterations; on a solved
    # subgame they agree with the values of the average policy.
    spec, uniform, sub, sol = _solve_whole_kuhn()
    # Player 1 must act after player 0 bets; player 0 is the opponent of this search.
    roots = public_state(spec, _after(spec, [K, J, BET]), uniform)
    cfvs = previous_search_cfvs(history_values(sub, sol), roots, opponent=0)
    # The same numbers from a tree walk of the solved policy.
    table = tabular_policy(spec)
    for (_, info), probs in sol.policy.items():
        for a, p in probs.items():
            table.action_probability_array[table.state_lookup[info], a] = p
    exact = ExactValues(spec, table)
    for info in ("0b", "1b", "2b"):
        mine = [r for r in roots if r.state.information_state_string(0) == info]
        weights = [r.reach_player * r.reach_chance for r in mine]
        truth = sum(w * exact.values([r.state])[0][0] for w, r in zip(weights, mine))
        assert cfvs[info] == pytest.approx(truth / sum(weights), abs=0.01)


def test_previous_search_values_are_the_known_kuhn_values():
    # In every Kuhn equilibrium player 1 calls a bet with K, with Q a third of the time
    # and never with J, so after betting player 0 expects K: 7/6, Q: -1/2, J: -1.
    spec, uniform, sub, sol = _solve_whole_kuhn()
    roots = public_state(spec, _after(spec, [K, J, BET]), uniform)
    cfvs = previous_search_cfvs(history_values(sub, sol), roots, opponent=0)
    assert cfvs["2b"] == pytest.approx(7 / 6, abs=0.02)
    assert cfvs["1b"] == pytest.approx(-1 / 2, abs=0.02)
    assert cfvs["0b"] == pytest.approx(-1, abs=0.02)


def test_a_history_outside_the_previous_subgame_gives_none():
    spec = load_sepot_game("kuhn")
    uniform = ExactValues(spec, tabular_policy(spec))
    # A depth-1 search at the root stops before player 0's second move ("pb").
    sub, sol = resolve(spec, _after(spec, [K, J]), uniform, depth_limit=1, iterations=10)
    later = public_state(spec, _after(spec, [K, J, PASS, BET]), uniform)
    assert previous_search_cfvs(history_values(sub, sol), later, opponent=1) is not None
    sub2, sol2 = resolve(spec, _after(spec, [K, J, BET]), uniform, depth_limit=1,
                         iterations=10)
    assert previous_search_cfvs(history_values(sub2, sol2), later, opponent=1) is None


@pytest.mark.parametrize("depth", [0, 1])
def test_continual_resolving_of_kuhn_stays_near_equilibrium(depth):
    spec, table = _kuhn_equilibrium()
    exact = ExactValues(spec, table)
    search = SePoTPolicy(spec, exact, depth_limit=depth, iterations=500,
                         cfv_source="previous", ranges="played")
    combined, counts = search_tabular_policy(spec, table.__copy__(), search)
    assert counts == {"searched": 4, "network": 0, "cfv_fallback": 0}
    assert exploitability(spec, combined) < 5e-3


def test_continual_resolving_differs_from_the_critic_source():
    # With a bad (uniform) blueprint the two sources give different gadget values, so
    # the combined policies differ.
    spec = load_sepot_game("kuhn")
    uniform = ExactValues(spec, tabular_policy(spec))
    policies = []
    for source in ("critic", "previous"):
        search = SePoTPolicy(spec, uniform, depth_limit=1, iterations=200, cfv_source=source)
        table, _ = search_tabular_policy(spec, tabular_policy(spec), search)
        policies.append(table.action_probability_array.copy())
    assert abs(policies[0] - policies[1]).max() > 1e-3


def test_unknown_options_are_refused():
    spec = load_sepot_game("kuhn")
    uniform = ExactValues(spec, tabular_policy(spec))
    with pytest.raises(SepotSearchError, match="cfv_source"):
        SePoTPolicy(spec, uniform, cfv_source="oracle")
    with pytest.raises(SepotSearchError, match="ranges"):
        SePoTPolicy(spec, uniform, ranges="uniform")
