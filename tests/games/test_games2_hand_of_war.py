"""Hand of war: deal probabilities, battles, repeated showdowns with burned cards, both end
conditions, hidden information, and the inference distribution at the first decisions."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from ggp.core.protocol import CHANCE
from ggp.core.registry import make_game

MODEL = make_game("hand_of_war")


def deal(pile0: str, pile1: str) -> list[str]:
    """Chance actions giving player 0 the draw pile ``pile0`` and player 1 ``pile1``
    (8 ranks each, top card first)."""
    assert len(pile0) == len(pile1) == 8
    return [f"Deal {card}" for pair in zip(pile0, pile1) for card in pair]


def play(actions, model=MODEL):
    state = model.initial_state()
    for action in actions:
        assert action in model.legal_actions(state), (action, model.legal_actions(state))
        state = model.apply(state, action)
    return state


def test_deal_probabilities_follow_the_remaining_cards():
    state = play(["Deal A", "Deal A", "Deal A"])
    assert MODEL.current_player(state) == CHANCE
    assert dict(MODEL.chance_outcomes(state)) == pytest.approx(
        {"Deal A": 1 / 13, "Deal K": 4 / 13, "Deal Q": 4 / 13, "Deal J": 4 / 13})
    state = play(["Deal A"] * 4)
    assert "Deal A" not in MODEL.legal_actions(state)


def test_opening_hands_and_a_simple_battle():
    state = play(deal("AKQJAKQJ", "JQKAJQKA"))
    assert state["hands"] == [["A", "K", "Q"], ["K", "Q", "J"]]
    assert MODEL.current_player(state) == 0
    assert set(MODEL.legal_actions(state)) == {"Play A", "Play K", "Play Q"}
    state = play(deal("AKQJAKQJ", "JQKAJQKA") + ["Play Q", "Play K"])
    obs = MODEL.observation(state, 0)
    assert obs["win_pile_sizes"] == [0, 2]
    assert obs["log"][-2] == {"event": "battle", "cards": ["Q", "K"], "winner": 1}
    assert obs["hand"] == ["A", "K", "J"]  # refilled with the J on top of the pile
    assert obs["my_draws"] == [["A", "K", "Q"], ["J"]]
    assert obs["draw_pile_sizes"] == [4, 4]


def test_player1_does_not_see_player0_choice():
    start = play(deal("AKQJAKQJ", "JQKAJQKA"))
    views = [MODEL.observation(MODEL.apply(start, a), 1) for a in MODEL.legal_actions(start)]
    assert all(MODEL.same(v, views[0]) for v in views)


# Player 0: A K Q in hand, burns J then J, draws A A J later.
SHOWDOWN = deal("KQAJJAAJ", "KQJQQKKA")


def test_repeated_showdown_winner_takes_all_cards_at_stake():
    state = play(SHOWDOWN + ["Play K", "Play K"])
    obs = MODEL.observation(state, 1)
    assert obs["log"][-2:] == [{"event": "battle", "cards": ["K", "K"], "winner": "tie"},
                               {"event": "burn"}]
    assert obs["cards_at_stake"] == 4 and obs["hand_sizes"] == [2, 2]
    assert obs["draw_pile_sizes"] == [4, 4]  # burned, not refilled
    state = play(SHOWDOWN + ["Play K", "Play K", "Play Q", "Play Q"])
    assert MODEL.observation(state, 0)["cards_at_stake"] == 8
    state = play(SHOWDOWN + ["Play K", "Play K", "Play Q", "Play Q", "Play A", "Play J"])
    obs = MODEL.observation(state, 0)
    assert obs["win_pile_sizes"] == [10, 0]  # 3 pairs played + 2 pairs burned
    assert obs["cards_at_stake"] == 0
    assert obs["hand"] == ["A", "A", "J"] and obs["draw_pile_sizes"] == [0, 0]
    assert obs["revealed_cards"] == ["K", "K", "Q", "Q", "A", "J"]
    # Burned cards are seen by nobody: they are not in anyone's observation.
    assert "burned" not in str(obs)
    # Another tie now needs a burn from an empty pile: the game ends, 10 v 0.
    end = play(SHOWDOWN + ["Play K", "Play K", "Play Q", "Play Q", "Play A", "Play J",
                           "Play A", "Play A"])
    assert MODEL.is_terminal(end)
    assert end["end_reason"] == "player 0 cannot burn a card"
    assert MODEL.rewards(end) == [1.0, -1.0]


def test_showdown_with_empty_hand_ends_the_game():
    state = play(deal("KQJAAKQJ", "KQJJAKQA") + ["Play K", "Play K", "Play Q", "Play Q",
                                                 "Play J", "Play J"])
    assert MODEL.is_terminal(state)
    assert state["end_reason"] == "no card left in hand for the showdown"
    assert MODEL.rewards(state) == [0.0, 0.0]  # nobody won a card


def test_capturing_all_cards_ends_the_game():
    # Player 0 wins three battles with aces, then two ties and a win with its last card.
    actions = deal("AAAKQAKQ", "JJJKQJKQ") + ["Play A", "Play J"] * 3
    actions += ["Play K", "Play K", "Play Q", "Play Q", "Play A", "Play J"]
    state = play(actions)
    assert MODEL.is_terminal(state)
    assert state["end_reason"] == "all cards"
    assert [len(p) for p in state["win_piles"]] == [16, 0]
    assert MODEL.rewards(state) == [1.0, -1.0]


def test_empty_draw_pile_ends_the_game_by_win_pile_count():
    actions = deal("AAAAKKKK", "QQQQJJJJ")
    state = play(actions)
    for _ in range(6):
        assert not MODEL.is_terminal(state)
        state = MODEL.apply(state, MODEL.legal_actions(state)[0])
        state = MODEL.apply(state, MODEL.legal_actions(state)[0])
    assert MODEL.is_terminal(state)
    assert state["end_reason"] == "player 0 cannot draw"
    assert [len(p) for p in state["win_piles"]] == [12, 0]
    assert MODEL.rewards(state) == [1.0, -1.0]
    assert MODEL.observation(state, 1)["hand_sizes"] == [2, 2]


def _first_decision(model, rng, player):
    """Deal at random and play to ``player``'s first decision (player 0 picks at random)."""
    state = model.initial_state()
    while model.current_player(state) == CHANCE:
        state = model.apply(state, model.sample_chance(state, rng))
    if player == 1:
        state = model.apply(state, rng.choice(model.legal_actions(state)))
    return state


def test_first_decision_inference_matches_exact_enumeration():
    """The opponent's hidden hand at each player's first decision. Exactly: the opponent's
    opening hand is 3 cards drawn in order from the 13 physical cards the player does not
    hold, all orders equally likely; when player 1 decides, player 0's pending choice
    multiplies each hand by its number of distinct ranks (uniform over histories)."""
    stats = pytest.importorskip("scipy.stats")
    rng = random.Random(5)
    for player in (0, 1):
        obs = MODEL.observation(_first_decision(MODEL, rng, player), player)
        held = Counter(obs["hand"])
        unseen = [r for r in "AKQJ" for _ in range(4 - held[r])]
        exact = Counter()
        for cards in itertools.permutations(unseen, 3):
            exact[_statistic(cards)] += len(set(cards)) if player == 1 else 1
        draws = 1500
        samples = Counter()
        for _ in range(draws):
            state = play(MODEL.resample_history([(obs, None)], player, rng=rng))
            opp = 1 - player
            cards = state["hands"][opp] + ([state["pending_card"]] if player == 1 else [])
            samples[_statistic(cards)] += 1
        keys = sorted(exact)
        assert set(samples) <= set(keys)
        total = sum(exact.values())
        expected = [draws * exact[k] / total for k in keys]
        p_value = stats.chisquare([samples[k] for k in keys], expected).pvalue
        assert p_value > 1e-4, (player, keys, samples, expected)


def _second_decision(model, rng, player):
    """Random deals until the first battle is decisive; then ``player``'s second decision
    and its obs-action history."""
    while True:
        state = _first_decision(model, rng, 0)
        history = []
        for p in (0, 1):
            action = rng.choice(model.legal_actions(state))
            if p == player:
                history.append((model.observation(state, p), action))
            state = model.apply(state, action)
        if state["log"][-2]["winner"] != "tie":
            break
    if player == 1:
        state = model.apply(state, rng.choice(model.legal_actions(state)))
    history.append((model.observation(state, player), None))
    return history


def test_second_decision_inference_matches_exact_enumeration():
    """After one decisive battle the opponent has drawn 4 cards, the first 3 of which held
    the card it played. Exactly: its first 4 pile cards are an ordered draw of distinct
    physical cards among the 12 the player has not seen, conditioned on that; its held
    cards are those 4 minus the played one (weighted by the pending choices for player 1)."""
    stats = pytest.importorskip("scipy.stats")
    rng = random.Random(8)
    for player in (0, 1):
        history = _second_decision(MODEL, rng, player)
        obs = history[-1][0]
        played = obs["log"][-2]["cards"][1 - player]
        seen = Counter(c for draw in obs["my_draws"] for c in draw)
        unseen = [r for r in "AKQJ" for _ in range(4 - seen[r])]
        exact = Counter()
        for cards in itertools.permutations(unseen, 4):
            if played in cards[:3]:
                held = list(cards)
                held.remove(played)
                exact[_statistic(held)] += len(set(held)) if player == 1 else 1
        samples = Counter()
        draws = 1500
        for _ in range(draws):
            state = play(MODEL.resample_history(history, player, rng=rng))
            opp = 1 - player
            held = state["hands"][opp] + ([state["pending_card"]] if player == 1 else [])
            samples[_statistic(held)] += 1
        keys = sorted(exact)
        assert set(samples) <= set(keys)
        total = sum(exact.values())
        expected = [draws * exact[k] / total for k in keys]
        p_value = stats.chisquare([samples[k] for k in keys], expected).pvalue
        assert p_value > 1e-4, (player, keys, samples, expected)


def _statistic(cards):
    """How many distinct ranks, and the highest rank, among some cards."""
    return (len(set(cards)), min(cards, key="AKQJ".index))
