"""Bottle Imp: price rules, bottle penalty, exchange, inference."""

import pytest

from ggp.check import check_model
from ggp.games.bottle_imp import COINS, DECK, BottleImp, name
from ggp.load import load_model
from tests.games.card_helpers import assert_inference_replays


def trick_state(game, price, cards, leader=0, price_owner=None):
    state = dict(game.INITIAL_STATE)
    state.update({"deck": [], "price": price, "price_owner": price_owner,
                  "won": [[] for _ in range(game.n)], "tricks": [],
                  "trick": {"leader": leader, "cards": cards}})
    return state


def test_deck_suits_and_coins():
    assert len(DECK) == 36 and 19 not in DECK
    assert sum(COINS[c] for c in DECK) == 126
    assert name(7) == "7Y" and name(21) == "21B" and name(37) == "37R"


def test_all_above_price_highest_card_wins_whatever_its_suit():
    game = BottleImp()
    state = trick_state(game, 19, ["20R", "37R", "21B", "24Y"], leader=1)
    game._finish_trick(state)
    assert state["tricks"][0]["winner"] == 2  # 37R played by the second player after 1
    assert state["price"] == 19 and state["holder"] is None


def test_highest_card_below_price_takes_bottle_and_becomes_price():
    game = BottleImp()
    state = trick_state(game, 19, ["20R", "12Y", "18Y", "24Y"])
    game._finish_trick(state)
    assert state["holder"] == 2 and state["price"] == 18
    assert set(state["won"][2]) == {"20R", "24Y", "12Y"}
    # A later lower card takes the bottle; the old price card returns to its player.
    state["trick"] = {"leader": 0, "cards": ["9Y", "30B", "2Y", "4B"]}
    game._finish_trick(state)
    assert state["holder"] == 0 and state["price"] == 9
    assert "18Y" in state["won"][2]


def test_thesis_variant_counts_all_cards_for_the_winner():
    game = BottleImp(variant="ludii_thesis")
    state = trick_state(game, 19, ["20R", "12Y", "18Y", "24Y"])
    game._finish_trick(state)
    assert state["scores"][2] == COINS[20] + COINS[12] + COINS[18] + COINS[24]
    assert state["price"] == 18


def test_exchange_moves_cards_left_and_right_and_bottle_holder_pays_imp():
    model = load_model("bottle_imp")
    game = model.namespace
    hands = [[name(c) for c in DECK[i::4]] for i in range(4)]
    state = model.initial_state()
    for i in range(36):
        state = model.apply(state, f"Deal {hands[i % 4][i // 4]}")
    for q in range(4):
        state = model.apply(state, f"Imp {hands[q][0]}")
    for q in range(4):
        state = model.apply(state, f"Left {hands[q][1]}")
        state = model.apply(state, f"Right {hands[q][2]}")
    assert hands[0][1] in state["hands"][1] and hands[0][2] in state["hands"][3]
    obs = model.observation(state, 1)
    assert obs["received"] == [hands[0][1], hands[2][2]]
    assert all(len(h) == 8 for h in state["hands"])
    final = dict(state, holder=2, won=[[], [], ["30B"], []], tricks=[None] * 7,
                 trick={"leader": 0, "cards": ["37R", "36R", "35R", "34B"]}, price=19)
    game._finish_trick(final)
    imp_coins = sum(COINS[int(c[:-1])] for c in state["imp"])
    assert final["rewards"][2] == -imp_coins


@pytest.mark.parametrize("game", ["bottle_imp", "bottle_imp(num_players=3)",
                                  "bottle_imp(variant=ludii_thesis)"])
def test_conformance_and_inference(game):
    model = load_model(game)
    assert check_model(model, games=8).ok
    assert_inference_replays(model, games=5)
