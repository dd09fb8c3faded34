"""CFR+ resolving, the gadget and public-state reconstruction on Kuhn poker and Goofspiel."""

import pytest

pytest.importorskip("pyspiel")

from ggp.sepot.exact import (  # noqa: E402
    ExactValues,
    cfr_plus_policy,
    decision_states,
    exploitability,
    tabular_policy,
)
from ggp.sepot.games import load_sepot_game  # noqa: E402
from ggp.sepot.resolve import build_subgame, public_state, resolve  # noqa: E402
from ggp.sepot.search import SePoTPolicy, search_tabular_policy  # noqa: E402


def _kuhn_equilibrium(iterations=1000):
    spec = load_sepot_game("kuhn")
    return spec, cfr_plus_policy(spec, iterations)


def _after(spec, actions):
    state = spec.game.new_initial_state()
    for a in actions:
        state.apply_action(a)
    return state


def _fill(table, solution):
    for (_, key), pol in solution.policy.items():
        row = table.action_probability_array[table.state_lookup[key]]
        row[:] = 0.0
        for a, p in pol.items():
            row[a] = p
    return table


def test_cfr_plus_solves_whole_kuhn_from_the_root():
    # Resolving the first public state with no depth limit solves the whole game: the
    # known value is -1/18 and OpenSpiel's CFR+ reaches exploitability 1.19e-3 at 100 it.
    spec = load_sepot_game("kuhn")
    uniform = tabular_policy(spec)
    sub, sol = resolve(spec, _after(spec, [0, 1]), ExactValues(spec, uniform),
                       depth_limit=0, iterations=300)
    assert sub.kind[0] == 1 and len(sub.root_infosets) == 3  # chance root, 3 cards of p0
    table = _fill(tabular_policy(spec), sol)
    assert exploitability(spec, table) < 1e-3
    assert sol.root_value == pytest.approx(-1 / 18, abs=0.01)


def test_public_state_of_kuhn_after_a_bet():
    spec, table = _kuhn_equilibrium(200)
    roots = public_state(spec, _after(spec, [2, 0, 1]), ExactValues(spec, table))
    assert len(roots) == 6  # every deal is possible
    assert all(r.opponent_acted and r.reach_chance == pytest.approx(1 / 6) for r in roots)
    # player 1's reach is 1 (it has not acted); the range is over its own infosets
    assert {r.reach_player for r in roots} == {1.0}


def test_gadget_terminal_values_are_the_blueprint_counterfactual_values():
    spec, table = _kuhn_equilibrium(200)
    exact = ExactValues(spec, table)
    state = _after(spec, [2, 0, 0, 1])  # p0 holds K, p1 holds J; p0 passed, p1 bet
    roots = public_state(spec, state, exact)
    sub = build_subgame(spec, roots, exact, depth_limit=0)
    # Player 0 resolves; the gadget gives player 1 one infoset per card it may hold.
    gadget = [k for k in sub.infoset_keys if k[1].startswith("gadget|")]
    assert sorted(gadget) == [(1, "gadget|0pb"), (1, "gadget|1pb"), (1, "gadget|2pb")]
    # Its T leaf pays player 1's counterfactual value of holding J under the blueprint.
    j_roots = [r for r in roots if r.state.information_state_string(1) == "0pb"]
    w = [r.reach_player * r.reach_chance for r in j_roots]
    cfv_p1 = sum(-wi * exact.values([r.state])[0][0] for wi, r in zip(w, j_roots)) / sum(w)
    terminals = sub.utility[(sub.kind == 2) & (sub.depth == 2)]  # T leaves, player 0's view
    assert any(t == pytest.approx(-cfv_p1) for t in terminals)


def test_resolving_every_public_state_of_kuhn_stays_near_equilibrium():
    # Exact critic values and a near-equilibrium blueprint: the gadget keeps each resolve
    # safe, so the combined search policy is near-equilibrium too.
    spec, table = _kuhn_equilibrium()
    exact = ExactValues(spec, table)
    search = SePoTPolicy(spec, exact, depth_limit=0, iterations=500)
    combined, counts = search_tabular_policy(spec, table.__copy__(), search)
    assert counts == {"searched": 4, "network": 0, "cfv_fallback": 0}
    assert exploitability(spec, combined) < 5e-3


def test_depth_limited_leaves_let_the_opponent_pick_a_transformation():
    spec = load_sepot_game("goofspiel3")
    uniform = tabular_policy(spec)
    exact = ExactValues(spec, uniform)
    state = decision_states(spec)[0]
    assert state.current_player() == 0
    sub, sol = resolve(spec, spec.game.new_initial_state(), exact, depth_limit=1,
                       iterations=50)
    assert len(sub.leaf_nodes) == 9 and sub.leaf_values.shape == (9, 22)
    # Against a uniform blueprint the opponent's best transformation hurts player 0:
    # the subgame value is below the value of uniform play (0 by symmetry).
    assert sol.root_value < 0.0


def test_size_limit_raises():
    from ggp.sepot.resolve import SubgameTooLarge

    spec = load_sepot_game("kuhn")
    exact = ExactValues(spec, tabular_policy(spec))
    with pytest.raises(SubgameTooLarge):
        public_state(spec, _after(spec, [0, 1]), exact, limit=3)
    search = SePoTPolicy(spec, exact, max_histories=3)
    probs = search.action_probabilities(_after(spec, [0, 1]))
    assert not search.last_searched and probs == {0: 0.5, 1: 0.5}
