"""Kuhn poker: rules, conformance and OpenSpiel agreement."""

import pytest

from ggp.check import check_model
from ggp.core.protocol import CHANCE, TERMINAL
from ggp.load import load_model


@pytest.fixture(scope="module")
def kuhn():
    return load_model("kuhn_poker")


def play(model, actions):
    state = model.initial_state()
    for action in actions:
        state = model.apply(state, action)
    return state


def test_deal_is_uniform_without_replacement(kuhn):
    state = kuhn.initial_state()
    assert kuhn.current_player(state) == CHANCE
    assert kuhn.chance_outcomes(state) == [("Deal J", 1 / 3), ("Deal Q", 1 / 3),
                                           ("Deal K", 1 / 3)]
    state = kuhn.apply(state, "Deal Q")
    assert sorted(a for a, _ in kuhn.chance_outcomes(state)) == ["Deal J", "Deal K"]
    assert kuhn.current_player(kuhn.apply(state, "Deal K")) == 0


@pytest.mark.parametrize("moves, cards, returns, showdown", [
    (["Pass", "Pass"], ("K", "J"), [1.0, -1.0], True),
    (["Pass", "Pass"], ("J", "Q"), [-1.0, 1.0], True),
    (["Bet", "Pass"], ("J", "K"), [1.0, -1.0], False),
    (["Bet", "Bet"], ("Q", "K"), [-2.0, 2.0], True),
    (["Pass", "Bet", "Pass"], ("K", "J"), [-1.0, 1.0], False),
    (["Pass", "Bet", "Bet"], ("K", "Q"), [2.0, -2.0], True),
])
def test_every_betting_line(kuhn, moves, cards, returns, showdown):
    state = play(kuhn, [f"Deal {cards[0]}", f"Deal {cards[1]}"] + moves)
    assert kuhn.current_player(state) == TERMINAL
    assert kuhn.rewards(state) == returns
    assert kuhn.observation(state, 0)["showdown_cards"] == (list(cards) if showdown else None)


def test_observation_hides_opponent_card(kuhn):
    state = play(kuhn, ["Deal K", "Deal J", "Bet"])
    obs = kuhn.observation(state, 1)
    assert obs["my_card"] == "J" and "K" not in str(obs)
    assert obs["betting"] == [[0, "Bet"]] and obs["contributions"] == [2, 1]


def test_conformance(kuhn):
    assert check_model(kuhn, games=100).ok
