"""98, Golf and Hearts: tricky rules and ground-truth inference."""

import random

import pytest

from ggp.belief.replay import replay_history
from ggp.check import check_model
from ggp.core.protocol import CHANCE, TERMINAL
from ggp.load import load_model
from tests.games.card_helpers import (
    assert_inference_replays,
    deal_for,
    random_histories,
)


def deal_round_robin(hands, verb="Deal"):
    return [f"{verb} {hands[i % len(hands)][i // len(hands)]}"
            for i in range(len(hands) * len(hands[0]))]


@pytest.mark.parametrize("game", [
    "ninety_eight", "golf", "hearts", "golf(drawn_card_public=false,discards_public=true)",
    "ninety_eight(turn_cap=8)",
])
def test_conformance_and_inference(game):
    model = load_model(game)
    assert check_model(model, games=8).ok
    assert_inference_replays(model, games=5)


# ------------------------------------------------------------------------- 98
def test_ninety_eight_card_effects_and_bust():
    model = load_model("ninety_eight")
    hands = [["KS", "9C", "2D", "AH"], ["10S", "QC", "3D", "4H"],
             ["JS", "5C", "6D", "7H"], ["8S", "9D", "9H", "2C"]]
    state = deal_for(model, deal_round_robin(hands))
    state = model.apply(state, "Play KS")
    assert state["total"] == 98 and model.current_player(state) == CHANCE
    state = model.apply(state, "Draw 3C")
    assert "3C" in state["hands"][0]
    state = model.apply(model.apply(state, "Play 10S"), "Draw 4C")
    assert state["total"] == 88
    state = model.apply(model.apply(state, "Play JS"), "Draw 4D")
    assert state["total"] == 88
    state = model.apply(state, "Play 9H")  # 97: still alive
    state = model.apply(state, "Draw 5D")
    state = model.apply(state, "Play 2D")  # 99: player 0 busts
    assert model.current_player(state) == TERMINAL
    assert model.rewards(state) == [0.0, 1.0, 1.0, 1.0]


def test_ninety_eight_opponent_hands_are_hidden():
    model = load_model("ninety_eight")
    state = deal_for(model, deal_round_robin([["KS", "9C", "2D", "AH"],
                                              ["10S", "QC", "3D", "4H"],
                                              ["JS", "5C", "6D", "7H"],
                                              ["8S", "9D", "9H", "2C"]]))
    obs = model.observations(state)
    assert obs[1]["hand"] == sorted(["10S", "QC", "3D", "4H"])
    assert "KS" not in str(obs[1])


# ------------------------------------------------------------------------- Golf
def test_golf_values_and_rank_utilities():
    golf = load_model("golf").namespace
    from ggp.games.golf import card_value, rank_utilities
    assert [card_value(c) for c in ["AS", "7H", "10C", "JD", "QS", "KH"]] == [1, 7, 10, 10, 10, 0]
    assert rank_utilities([5, 10, 20]) == [1.0, 0.5, 0.0]
    assert rank_utilities([5, 5, 20]) == [0.75, 0.75, 0.0]
    assert rank_utilities([7, 7, 7]) == [0.5, 0.5, 0.5]
    assert golf.INITIAL_STATE["turn"] == 0


def test_golf_discarding_a_slot_card_keeps_the_drawn_card_and_hides_the_discard():
    model = load_model("golf")
    hands = [["KS", "9C", "2D", "AH"], ["10S", "QC", "3D", "4H"], ["JS", "5C", "6D", "7H"]]
    state = deal_for(model, deal_round_robin(hands) + ["Draw 8H"])
    assert model.current_player(state) == 0
    assert set(model.legal_actions(state)) == {"Discard KS", "Discard 9C", "Discard 2D",
                                               "Discard AH", "Discard 8H"}
    state = model.apply(state, "Discard 9C")
    assert state["slots"][0] == ["KS", "8H", "2D", "AH"]
    other = model.observation(state, 1)["log"][0]
    assert other == {"player": 0, "drew": "8H", "slot": 1, "discarded": None}


def test_golf_game_lasts_forty_turns():
    model = load_model("golf")
    rng = random.Random(2)
    state, turns = model.initial_state(), 0
    while model.current_player(state) != TERMINAL:
        action = rng.choice(model.legal_actions(state))
        turns += action.startswith("Discard")
        state = model.apply(state, action)
    assert turns == 40
    assert abs(sum(model.rewards(state)) - 1.5) < 1e-9


# ------------------------------------------------------------------------- Hearts
def hearts_after_pass(model, hands, passes):
    state = deal_for(model, deal_round_robin(hands))
    for q in range(4):
        for card in passes[q]:
            state = model.apply(state, f"Pass {card}")
    return state


SUIT_HANDS = [
    [r + "C" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]],
    [r + "D" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]],
    [r + "H" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]],
    [r + "S" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]],
]


def test_hearts_pass_goes_to_next_player_and_is_hidden_until_exchange():
    model = load_model("hearts")
    state = deal_for(model, deal_round_robin(SUIT_HANDS))
    for card in ["2C", "3C", "4C"]:
        state = model.apply(state, f"Pass {card}")
    assert model.current_player(state) == 1
    assert "2C" not in str(model.observation(state, 1))
    state = hearts_after_pass(model, SUIT_HANDS,
                              [["2C", "3C", "4C"], ["2D", "3D", "4D"], ["2H", "3H", "4H"],
                               ["QS", "3S", "4S"]])
    assert {"2C", "3C", "4C"} <= set(state["hands"][1])
    assert {"QS", "3S", "4S"} <= set(state["hands"][0])
    assert model.observation(state, 0)["received"] == ["QS", "3S", "4S"]
    assert model.current_player(state) == 0


def test_hearts_follow_suit_and_breaking():
    model = load_model("hearts")
    state = hearts_after_pass(model, SUIT_HANDS,
                              [["2C", "3C", "4C"], ["2D", "3D", "4D"], ["2H", "3H", "4H"],
                               ["QS", "3S", "4S"]])
    # Player 0 holds clubs plus QS, 3S, 4S received from player 3.
    assert "Play QS" in model.legal_actions(state)
    state = model.apply(state, "Play 5C")
    # Player 1 (diamonds + 2C,3C,4C) must follow clubs.
    assert set(model.legal_actions(state)) == {"Play 2C", "Play 3C", "Play 4C"}
    state = model.apply(state, "Play 2C")
    # Player 2 (hearts + 2D..4D) has no clubs: may discard anything.
    assert len(model.legal_actions(state)) == 13
    state = model.apply(state, "Play 5H")
    assert state["hearts_broken"]


def test_hearts_moon_shot_scores_plus_26():
    from ggp.games import hearts

    state = {**hearts.INITIAL_STATE, "points": [26, 0, 0, 0], "tricks": [None] * 12,
             "trick": {"leader": 0, "cards": ["AS", "2S", "3S", "4S"]}}
    hearts._finish_trick(state)  # a pointless trick ends the hand
    assert state["rewards"] == [26.0, 0.0, 0.0, 0.0]
    state = {**hearts.INITIAL_STATE, "points": [13, 10, 3, 0], "tricks": [None] * 12,
             "trick": {"leader": 0, "cards": ["AS", "2S", "3S", "4S"]}}
    hearts._finish_trick(state)
    assert state["rewards"] == [-13.0, -10.0, -3.0, 0.0]


def test_hearts_inference_respects_voids_late_in_the_hand():
    model = load_model("hearts")
    checked = 0
    for state, player, history in random_histories(model, seed=4, games=6):
        if len(state["tricks"]) >= 8:
            replay_history(model, model.resample_history(history, player), player, history)
            checked += 1
    assert checked > 20


def test_hearts_queen_does_not_break_and_unbroken_hearts_cannot_be_led():
    model = load_model("hearts")
    state = hearts_after_pass(model, SUIT_HANDS,
                              [["2C", "3C", "4C"], ["2D", "3D", "4D"], ["2H", "3H", "4H"],
                               ["5S", "3S", "4S"]])
    # Trick 1: player 0 leads a club; player 3 (spades + 2H..4H) has no club and
    # discards the queen of spades, which does not break hearts.
    for action in ["Play 5C", "Play 2C", "Play 2D", "Play QS"]:
        state = model.apply(state, action)
    assert not state["hearts_broken"] and state["points"][0] == 13
    # Player 0 won and leads again: hearts are not broken, it holds no heart anyway.
    # Make player 2 lead later: check directly that a hand with hearts and others
    # cannot lead a heart.
    from ggp.games import hearts
    probe = {**state, "hands": [["2H", "5C"], [], [], []],
             "trick": {"leader": 0, "cards": []}}
    assert hearts._playable(probe, 0) == ["5C"]
    probe["hands"] = [["2H", "9H"], [], [], []]
    assert hearts._playable(probe, 0) == ["2H", "9H"]


def test_sample_hands_finds_tight_deals_and_detects_impossible_ones():
    from ggp.games._cards import sample_hands

    rng = random.Random(0)
    cards = [f"{r}{s}" for s in "CDHS" for r in "23456789"]

    def allowed(p, card):  # player 1 holds only hearts, player 2 no hearts or clubs
        return card[-1] == "H" if p == 1 else card[-1] not in "HC" if p == 2 else True

    for _ in range(50):
        hands = sample_hands(cards, {1: 8, 2: 16, 3: 8}, allowed, rng, tries=3)
        assert sorted(sum(hands.values(), [])) == sorted(cards)
        assert all(allowed(p, c) for p, hand in hands.items() for c in hand)
    assert sample_hands(cards, {1: 9, 2: 16, 3: 7}, allowed, rng, tries=3) is None
