"""Goofspiel (imperfect information): rules unit tests and a differential test against
OpenSpiel's ``goofspiel(imp_info=True)``."""

from __future__ import annotations

import random

import pytest

from ggp.core.protocol import CHANCE, TERMINAL
from ggp.core.registry import make_game


def _play(model, actions):
    state = model.initial_state()
    for action in actions:
        assert action in model.legal_actions(state), (action, state)
        state = model.apply(state, action)
    return state


def test_descending_order_has_no_chance_and_starts_with_top_card():
    model = make_game("goofspiel(num_cards=4,points_order=descending)")
    state = model.initial_state()
    assert model.current_player(state) == 0
    assert model.observation(state, 0)["current_point_card"] == 4
    assert set(model.legal_actions(state)) == {"Bid 1", "Bid 2", "Bid 3", "Bid 4"}


def test_tie_discards_the_point_card():
    model = make_game("goofspiel(num_cards=3,points_order=descending,returns_type=total_points)")
    state = _play(model, ["Bid 2", "Bid 2"])
    obs = model.observation(state, 1)
    assert obs["round_winners"] == ["tie"]
    assert obs["points"] == [0, 0]
    assert obs["current_point_card"] == 2
    # 3 v 1 for the 2, then the last round (1 v 3 for the 1) plays itself.
    state = _play(model, ["Bid 2", "Bid 2", "Bid 3", "Bid 1"])
    assert model.is_terminal(state)
    assert model.observation(state, 0)["round_winners"] == ["tie", 0, 1]
    assert model.rewards(state) == [2.0, 1.0]


def test_all_ties_is_a_draw_and_win_loss_signs():
    model = make_game("goofspiel(num_cards=3,points_order=ascending)")
    assert model.rewards(_play(model, ["Bid 1", "Bid 1", "Bid 2", "Bid 2"])) == [0.0, 0.0]
    # ascending: point 1 to player 1 (bids 1 v 3), point 2 to player 0 (3 v 2), point 3: 2 v 1.
    state = _play(model, ["Bid 1", "Bid 3", "Bid 3", "Bid 2"])
    assert model.observation(state, 0)["points"] == [5, 1]
    assert model.rewards(state) == [1.0, -1.0]
    diff = make_game("goofspiel(num_cards=3,points_order=ascending,returns_type=point_difference)")
    assert diff.rewards(_play(diff, ["Bid 1", "Bid 3", "Bid 3", "Bid 2"])) == [2.0, -2.0]


def test_player1_does_not_see_player0_pending_bid():
    model = make_game("goofspiel(num_cards=4,points_order=descending)")
    start = model.initial_state()
    views = {model.same(model.observation(model.apply(start, f"Bid {k}"), 1),
                        model.observation(model.apply(start, "Bid 1"), 1)) for k in (1, 2, 3, 4)}
    assert views == {True}
    after = model.apply(start, "Bid 3")
    assert model.observation(after, 0)["my_bids"] == [3]
    assert model.observation(after, 1)["my_bids"] == []


def test_random_order_chance_is_uniform_over_unused_cards():
    model = make_game("goofspiel(num_cards=4)")
    state = model.initial_state()
    assert model.current_player(state) == CHANCE
    state = model.apply(state, "Point card 3")
    state = _play_from(model, state, ["Bid 1", "Bid 2"])
    outcomes = dict(model.chance_outcomes(state))
    assert outcomes == {"Point card 1": 1 / 3, "Point card 2": 1 / 3, "Point card 4": 1 / 3}


def _play_from(model, state, actions):
    for action in actions:
        state = model.apply(state, action)
    return state


def test_bad_parameters_are_reported():
    from ggp.core.errors import ModelLoadError

    with pytest.raises(ModelLoadError):
        make_game("goofspiel(points_order=sideways)")
    with pytest.raises(ModelLoadError):
        make_game("goofspiel(num_cards=1)")


# ---------------------------------------------------------------- OpenSpiel differential
VARIANTS = [
    (n, order, returns)
    for n in (3, 4, 5, 6)
    for order in ("random", "descending", "ascending")
    for returns in ("win_loss", "point_difference", "total_points")
]


def _parse_line(info: str, prefix: str) -> list[str]:
    line = next(li for li in info.splitlines() if li.startswith(prefix))
    return line[len(prefix):].split()


@pytest.mark.parametrize("num_cards,order,returns", VARIANTS)
def test_matches_openspiel(num_cards, order, returns):
    pyspiel = pytest.importorskip("pyspiel")
    params = f"num_cards={num_cards},points_order={order},returns_type={returns}"
    ours = make_game(f"goofspiel({params})")
    theirs = pyspiel.load_game(f"goofspiel(imp_info=True,{params})")
    rng = random.Random(num_cards * 1000 + len(order) * 10 + len(returns))
    for _ in range(25):  # 36 variants x 25 = 900 games
        state, ref = ours.initial_state(), theirs.new_initial_state()
        pending = None
        while not ours.is_terminal(state):
            player = ours.current_player(state)
            legal = ours.legal_actions(state)
            if player == CHANCE:
                assert ref.is_chance_node()
                mapped = {f"Point card {a + 1}" for a, _ in ref.chance_outcomes()}
                assert set(legal) == mapped
                assert {f"Point card {a + 1}": p for a, p in ref.chance_outcomes()} == \
                    pytest.approx(dict(ours.chance_outcomes(state)))
                action = rng.choice(legal)
                ref.apply_action(int(action.split()[-1]) - 1)
            else:
                assert not ref.is_chance_node() and not ref.is_terminal()
                their_legal = {ref.action_to_string(player, a).replace(f"[P{player}]Bid: ", "Bid ")
                               for a in ref.legal_actions(player)}
                assert set(legal) == their_legal
                action = rng.choice(legal)
                if player == 0:
                    pending = int(action.split()[-1]) - 1
                else:
                    ref.apply_actions([pending, int(action.split()[-1]) - 1])
            state = ours.apply(state, action)
            if player == 1 or ref.is_terminal():
                info = ref.information_state_string(0)
                obs = ours.observation(state, 0)
                winners = [{"0": 0, "1": 1, "-3": "tie"}[w]
                           for w in _parse_line(info, "Win sequence:")]
                assert obs["round_winners"] == winners
                assert obs["points"] == [int(x) for x in _parse_line(info, "Points:")]
        assert ref.is_terminal()
        assert ours.rewards(state) == pytest.approx(ref.returns())
        assert ours.metadata.min_utility <= min(ref.returns())
        assert max(ref.returns()) <= ours.metadata.max_utility


@pytest.mark.parametrize("num_cards,order", [(3, "random"), (4, "random"), (5, "descending")])
def test_observations_partition_histories_like_openspiel_information_states(num_cards, order):
    """Over every decision point of the game, two histories look the same to a player in
    our model exactly when they share OpenSpiel's information state."""
    pyspiel = pytest.importorskip("pyspiel")
    from ggp.core.protocol import canonical_json

    params = f"num_cards={num_cards},points_order={order}"
    ours = make_game(f"goofspiel({params})")
    theirs = pyspiel.load_game(f"goofspiel(imp_info=True,{params})")
    pairs = set()

    def walk(state, ref, pending):
        player = ours.current_player(state)
        if player == TERMINAL:
            return
        for action in ours.legal_actions(state):
            card = int(action.split()[-1]) - 1
            child_ref = ref
            if player == CHANCE:
                child_ref = ref.child(card)
            else:
                pairs.add((player, canonical_json(ours.observation(state, player)),
                           ref.information_state_string(player)))
                if player == 1:
                    child_ref = ref.clone()
                    child_ref.apply_actions([pending, card])
            walk(ours.apply(state, action), child_ref, card if player == 0 else None)

    walk(ours.initial_state(), theirs.new_initial_state(), None)
    for player in (0, 1):
        mine = {(o, i) for p, o, i in pairs if p == player}
        assert len({o for o, _ in mine}) == len({i for _, i in mine}) == len(mine)
