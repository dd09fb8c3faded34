"""Agram: trick rules, last-trick scoring, ground-truth inference."""

import random
from collections import Counter

import pytest

from ggp.belief.replay import replay_history
from ggp.check import check_model
from ggp.core.protocol import TERMINAL
from ggp.load import load_model
from tests.games.card_helpers import assert_inference_replays, random_histories


@pytest.fixture(scope="module")
def agram():
    return load_model("agram")


def dealt(model, hands):
    """A state right after dealing ``hands`` (player 0 first, round robin)."""
    state = model.initial_state()
    for i in range(6):
        for p in range(4):
            state = model.apply(state, f"Deal {hands[p][i]}")
    return state


HANDS = [
    ["AH", "3H", "10C", "9C", "4D", "5S"],
    ["10H", "9H", "8C", "7C", "3D", "6S"],
    ["8H", "7D", "6D", "5D", "4C", "7S"],
    ["6H", "AD", "AC", "3C", "8S", "9S"],
]


def test_deck_has_35_cards_without_ace_of_spades(agram):
    deck = agram.legal_actions(agram.initial_state())
    assert len(deck) == 35 and "Deal AS" not in deck and "Deal 10S" in deck


def test_must_follow_suit_and_highest_of_led_suit_wins(agram):
    state = dealt(agram, HANDS)
    assert agram.current_player(state) == 0
    state = agram.apply(state, "Play 3H")
    assert set(agram.legal_actions(state)) == {"Play 10H", "Play 9H"}
    state = agram.apply(state, "Play 9H")
    assert set(agram.legal_actions(state)) == {"Play 8H"}
    state = agram.apply(state, "Play 8H")
    state = agram.apply(state, "Play 6H")
    assert state["tricks"][0]["cards"] == ["3H", "9H", "8H", "6H"]
    assert agram.current_player(state) == 1  # 9H was highest


def test_off_suit_never_wins_and_ten_beats_nine(agram):
    state = dealt(agram, HANDS)
    for action in ["Play 10C", "Play 8C", "Play 4C", "Play AC"]:
        state = agram.apply(state, action)
    assert agram.current_player(state) == 3  # AC is the highest club
    state = agram.apply(state, "Play 9S")
    # Player 0 has only 5S in spades and must follow.
    assert agram.legal_actions(state) == ["Play 5S"]


def test_only_last_trick_counts(agram):
    rng = random.Random(3)
    state = agram.initial_state()
    while agram.current_player(state) != TERMINAL:
        state = agram.apply(state, rng.choice(agram.legal_actions(state)))
    last = state["tricks"][-1]
    winner = state["winner"]
    assert agram.rewards(state) == [1.0 if p == winner else 0.0 for p in range(4)]
    assert winner == agram.namespace._trick_winner(last)


def test_conformance(agram):
    assert check_model(agram, games=20).ok


def test_inference_replays_to_the_observations(agram):
    assert_inference_replays(agram, games=10)


def test_inference_respects_shown_voids(agram):
    # Every sampled deal must let opponents' off-suit plays be legal: replay checks it.
    checked = 0
    for state, player, history in random_histories(agram, seed=11, games=30):
        if len(state["tricks"]) >= 4:
            actions = agram.resample_history(history, player)
            replay_history(agram, actions, player, history)
            checked += 1
    assert checked > 50


def test_first_decision_posterior_is_uniform(agram):
    # At player 0's first move every unseen card is in each opponent's hand with
    # probability 6/29 and left undealt with probability 11/29.
    _, player, history = next(random_histories(agram, seed=5, games=1))
    assert player == 0
    counts = Counter()
    samples = 3000
    for _ in range(samples):
        actions = agram.resample_history(history, player)
        deals = [a.split()[1] for a in actions if a.startswith("Deal")]
        for i, card in enumerate(deals):
            counts[(i % 4, card)] += 1
    unseen = [c for c in agram.namespace.deck if c not in history[-1][0]["hand"]]
    for card in unseen[:10]:
        for p in (1, 2, 3):
            assert abs(counts[(p, card)] / samples - 6 / 29) < 0.035
