"""Hand-verified facts about the novel suite's games: known lines with their outcomes,
probabilities and payoffs worked out by hand from each game's rules text."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

from ggp.load import load_model

GAMES = Path(__file__).parents[2] / "benchmarks" / "novel" / "games"


def model(name):
    return load_model(str(GAMES / f"{name}.py"), trusted=True)  # our own code


def play(m, actions):
    """The state after ``actions`` and the returns collected on the way."""
    state, total = m.initial_state(), [0.0] * m.num_players
    for action in actions:
        assert action in m.legal_actions(state), (action, m.legal_actions(state))
        state = m.apply(state, action)
        total = [a + b for a, b in zip(total, m.rewards(state))]
    return state, total


def chance_probability(m, actions):
    """The probability of the chance moves along ``actions``."""
    state, p = m.initial_state(), 1.0
    for action in actions:
        if m.current_player(state) == -1:
            p *= dict(m.chance_outcomes(state))[action]
        state = m.apply(state, action)
    return p


def test_ember_duel_spending_everything_early_loses_the_last_two_rounds():
    m = model("ember_duel")
    state, total = play(m, ["Commit 5", "Commit 0", "Commit 0", "Commit 1", "Commit 0",
                            "Commit 1"])
    assert m.is_terminal(state) and total == [-1.0, 1.0]
    # player 1 never sees player 0's pending commitment
    mid, _ = play(m, ["Commit 3"])
    assert m.observations(mid)[1]["my_pending"] is None
    assert m.observations(mid)[0]["my_pending"] == 3


def test_grid_chase_a_hunter_walking_to_a_still_runner_catches_it_in_round_six():
    m = model("grid_chase")
    assert sorted(m.legal_actions(play(m, ["Stay"])[0])) == ["North", "Stay", "West"]
    steps = ["South"] * 3 + ["East"] * 3
    state, total = play(m, [a for step in steps for a in (step, "Stay")])
    assert m.is_terminal(state) and state["round"] == 6 and total == [1.0, -1.0]
    # swapping cells is a catch too: hunter (0,0)->(0,1) while runner (0,1)->(0,0)
    state = {"pos": [[0, 0], [0, 1]], "round": 0, "pending": None, "caught": False,
             "rewards": [0.0, 0.0]}
    state = m.apply(m.apply(state, "East"), "West")
    assert m.is_terminal(state) and m.rewards(state) == [1.0, -1.0]


def test_sealed_auction_payoffs_are_value_minus_price_and_ties_sell_nothing():
    m = model("sealed_auction")
    _, total = play(m, ["Bid 3", "Bid 2", "Bid 2", "Bid 0", "Bid 0", "Bid 0",
                        "Bid 0", "Bid 5", "Bid 5"])
    assert total == [3.0, 0.0, 0.0]  # lot 6 bought for 3; lot 4 and lot 8 tied


def test_commons_fishing_overfishing_collapses_the_lake():
    m = model("commons_fishing")
    line = ["Catch 3"] * 3 + ["Grow 4"] + ["Catch 3"] * 3
    state, total = play(m, line)
    assert m.is_terminal(state) and state["collapsed"]
    assert total == [3.0, 3.0, 3.0]  # 12 - 9 + 4 = 7 fish < 9 demanded
    assert chance_probability(m, line) == pytest.approx(0.3)


def test_lowest_unique_number():
    m = model("lowest_unique")
    assert len(m.legal_actions(m.initial_state())) == 120
    assert play(m, ["Pick 5", "Pick 5", "Pick 7"])[1] == [-1.0, -1.0, 2.0]
    assert play(m, ["Pick 3", "Pick 3", "Pick 3"])[1] == [0.0, 0.0, 0.0]


def test_sum_bluff_a_claim_of_six_holds_for_6_of_16_rolls():
    m = model("sum_bluff")
    wins = sum(play(m, [f"Roll {a}", f"Roll {b}", "Claim 6", "Challenge"])[1][0] == 1.0
               for a in range(1, 5) for b in range(1, 5))
    assert wins == 6  # totals 6, 7, 8: 3 + 2 + 1 of 16
    state, total = play(m, ["Roll 4", "Roll 4", "Claim 8", "Challenge"])
    assert total == [1.0, -1.0] and m.observations(state)[1]["dice"] == [4, 4]


def test_fortune_teller_always_guessing_sun_is_worth_0_4_to_the_guesser():
    m = model("fortune_teller")
    value = sum(p * play(m, [coin, "Say Moon", "Guess Sun"])[1][1]
                for coin, p in m.chance_outcomes(m.initial_state()))
    assert value == pytest.approx(0.7 - 0.3)
    assert play(m, ["Toss Moon", "Say Sun", "Guess Sun"])[1] == [1.0, -1.0]


def test_color_code_feedback_and_a_second_player_win():
    m = model("color_code")
    assert len(m.legal_actions(m.initial_state())) == 27  # a first guess hits 1 in 27
    state, total = play(m, ["Code RRG", "Guess RRR", "Guess RRG"])
    assert state["guesses"][0] == [0, "RRR", 2] and total == [-1.0, 1.0]


def test_suspect_card_a_no_answer_reveals_the_middle_card():
    m = model("suspect_card")
    deal = ["Deal 3", "Deal 1", "Deal 2", "Deal 4", "Deal 5"]
    state, total = play(m, deal + ["Ask 3", "Ask 1", "Accuse 3"])
    assert state["log"][:2] == [[0, "Ask 3", "no"], [1, "Ask 1", "yes"]]
    assert total == [1.0, -1.0]
    assert play(m, deal + ["Accuse 4"])[1] == [-1.0, 1.0]


def test_cheat_claim_deal_odds_doubts_and_an_honest_win():
    m = model("cheat_claim")
    assert chance_probability(m, ["Deal 1", "Deal 1"]) == pytest.approx(2 / 6 * 1 / 5)
    deal = ["Deal 1", "Deal 1", "Deal 2", "Deal 2", "Deal 3", "Deal 3"]
    # player 1 lies (plays a 3 when 2 is called) and is caught: it takes the pile
    state, _ = play(m, deal + ["Play 1", "Accept", "Play 3", "Doubt"])
    assert state["hands"][1] == [1, 2, 1, 3] and state["pile"] == []
    # honest plays of 1, 3 and 2 on called ranks 1, 3 and 2 empty player 0's hand
    state, total = play(m, deal + ["Play 1", "Accept", "Play 2", "Accept", "Play 3",
                                   "Accept", "Play 1", "Accept", "Play 2", "Accept"])
    assert m.is_terminal(state) and total == [1.0, -1.0]


def test_trick_mini_must_follow_suit_and_scores_tricks_minus_one():
    m = model("trick_mini")
    deal = [f"Deal {c}" for c in ("a3", "b1", "c1", "a2", "b2", "c2", "a1", "b3", "c3")]
    state, _ = play(m, deal + ["Play a3"])
    assert m.legal_actions(state) == ["Play a2"]
    state, total = play(m, deal + ["Play a3", "Play a2", "Play a1", "Play b1", "Play b2",
                                   "Play b3", "Play c3", "Play c1", "Play c2"])
    assert state["won"] == [1, 0, 2] and total == [0.0, -1.0, 1.0]


def test_weighted_race_walking_wins_on_turn_29_and_dashes_never_go_below_zero():
    m = model("weighted_race")
    state, total = play(m, ["Walk"] * 29)
    assert m.is_terminal(state) and total == [1.0, -1.0]
    state, _ = play(m, ["Dash", "Dash -1"])
    assert state["pos"] == [0, 0]
    assert dict(m.chance_outcomes(play(m, ["Dash"])[0]))["Dash +3"] == 0.5


def test_mine_dig_odds_and_banking():
    m = model("mine_dig")
    assert chance_probability(m, ["Dig", "Rock", "Dig", "Rock", "Dig", "Rock"]) == \
        pytest.approx(0.3 ** 3)
    survive = 1 - dict(m.chance_outcomes(play(m, ["Dig"])[0]))["Cave-in"]
    assert survive ** 5 == pytest.approx(0.32768)  # five digs without a cave-in
    state, total = play(m, ["Dig", "Gold", "Dig", "Cave-in", "Leave", "Leave"])
    assert m.is_terminal(state) and total == [2.0, 0.0, 0.0]


def test_hot_potato_burst_odds_grow_with_every_pass():
    m = model("hot_potato")
    line = ["Left", "Safe", "Across", "Safe", "Right", "Burst"]
    assert chance_probability(m, line) == pytest.approx(0.9 * 0.8 * 0.3)
    state, total = play(m, line)
    assert state["holder"] == 2 and total == [1.0, 1.0, -4.0, 1.0, 1.0]


def test_frog_crossing_knock_back_and_a_159_move_win():
    m = model("frog_crossing")
    state, _ = play(m, ["Frog 0 +2", "Frog 0 +2"])
    assert state["pads"] == [[0, 0, 0, 0], [2, 0, 0, 0]]
    line = []
    for k in range(80):  # player 0 races its frogs one after the other; player 1 paddles
        line.append(f"Frog {k // 20} +2")
        if k < 79:
            line.append(f"Frog {0 if k < 40 else 1} +1")
    state, total = play(m, line)
    assert m.is_terminal(state) and len(line) == 159 and total == [1.0, -1.0]


def test_stone_mill_taking_two_every_time_gives_player_1_the_bonus():
    m = model("stone_mill")
    state, total = play(m, ["Take 2"] * 180)
    assert state["points"] == [18, 20] and total == [-1.0, 1.0]


def test_drift_race_rowing_boats_finish_on_turn_238():
    m = model("drift_race")
    state, total = play(m, ["Row"] * 238)
    assert m.is_terminal(state) and total == [2.0, -1.0, -1.0]
    assert chance_probability(m, ["Sail", "Wind 5"]) == 0.2


def test_square_claim_a_2x2_block_scores_one_point():
    m = model("square_claim")
    assert len(m.legal_actions(m.initial_state())) == 121
    state, _ = play(m, ["Place 0,0", "Place 10,10", "Place 0,1", "Place 10,8", "Place 1,0",
                        "Place 8,10", "Place 1,1"])
    assert state["points"] == [1, 0]


def test_budget_split_the_backward_induction_offer():
    m = model("budget_split")
    assert len(m.legal_actions(m.initial_state())) == 121
    # round 3: player 0 keeps 30; so player 1 offers 30 of 60; so player 0 offers 30 of 120
    assert play(m, ["Offer 30", "Accept"])[1] == [90.0, 30.0]
    assert play(m, ["Offer 0", "Reject", "Offer 30", "Accept"])[1] == [30.0, 30.0]
    state, total = play(m, ["Offer 0", "Reject", "Offer 0", "Reject", "Offer 0", "Reject"])
    assert m.is_terminal(state) and total == [0.0, 0.0]


def test_coordinate_hunt_distances_and_inference():
    m = model("coordinate_hunt")
    state, total = play(m, ["Hide 5,7", "Probe 0,0", "Probe 5,7"])
    assert state["probes"] == [[0, "0,0", 12], [1, "5,7", 0]] and total == [-1.0, 1.0]
    state, _ = play(m, ["Hide 5,7", "Probe 0,0"])
    history = [(m.observations(state)[1], None)]
    for _ in range(10):
        hidden = m.namespace.resample_history(history, 1)[0]
        r, c = (int(x) for x in hidden.split()[1].split(","))
        assert r + c == 12


def test_bluff_dice_poker_payoffs():
    m = model("bluff_dice_poker")
    rolls = ["Roll 6", "Roll 6", "Roll 1", "Roll 1"]
    assert play(m, rolls + ["Bet", "Call"])[1] == [3.0, -3.0]
    assert play(m, rolls + ["Check", "Bet", "Fold"])[1] == [-1.0, 1.0]
    assert play(m, rolls + ["Bet", "Fold"])[1] == [1.0, -1.0]
    assert play(m, ["Roll 3", "Roll 4", "Roll 5", "Roll 2", "Check", "Check"])[1] == [0, 0]


def test_chain_count_no_three_after_three_and_31_loses():
    m = model("chain_count")
    assert "Add 3" not in m.legal_actions(play(m, ["Add 3"])[0])
    state, total = play(m, ["Add 3", "Add 2"] * 6 + ["Add 1"])
    assert state["count"] == 31 and total == [-3.0, 1.0, 1.0, 1.0]


def test_stag_hunt_cooperation_pays_twenty():
    m = model("stag_hunt")
    assert play(m, ["Stag", "Stag"] * 5)[1] == [20.0, 20.0]
    assert play(m, ["Stag", "Hare"] * 5)[1] == [0.0, 15.0]


def test_lights_duel_corners_then_centre_darkens_the_grid():
    m = model("lights_duel")
    state, total = play(m, ["Press 0,0", "Press 0,2", "Press 2,0", "Press 2,2", "Press 1,1"])
    assert m.is_terminal(state) and total == [1.0, -1.0]


def test_domino_line_player_0_goes_out_first():
    m = model("domino_line")
    deal = [f"Deal {t}" for t in ("0-0", "0-1", "1-1", "1-2", "2-2", "2-3")]
    state, total = play(m, deal + ["Play 0-0", "Play 0-1 right", "Play 1-1 right",
                                   "Play 1-2 right", "Play 2-2 right"])
    assert state["line"] == [[0, 0], [0, 1], [1, 1], [1, 2], [2, 2]]
    assert m.is_terminal(state) and total == [1.0, -1.0]


def test_signal_match_best_pure_strategies_score_0_8():
    m = model("signal_match")
    colors = ["Red", "Green", "Blue"]
    best = 0.0
    for signals in itertools.product("AB", repeat=3):
        for names in itertools.product(colors, repeat=2):
            value = sum(p * play(m, [c, f"Signal {signals[i]}",
                                     f"Name {names['AB'.index(signals[i])]}"])[1][0]
                        for i, (c, p) in enumerate(m.chance_outcomes(m.initial_state())))
            best = max(best, value)
    assert best == pytest.approx(0.5 + 0.3)


def test_chip_vote_two_yes_votes_pass_a_proposal():
    m = model("chip_vote")
    assert len(m.legal_actions(m.initial_state())) == math.comb(11, 3)
    assert play(m, ["Propose 5-1-2-0", "Yes", "Yes", "No"])[1] == [5.0, 1.0, 2.0, 0.0]
    state, total = play(m, ["Propose 8-0-0-0", "No", "No", "Yes",
                            "Propose 0-8-0-0", "No", "No", "Yes"])
    assert m.is_terminal(state) and total == [0.0, 0.0, 0.0, 0.0]


def test_territory_paint_equal_runs_draw():
    m = model("territory_paint")
    state, total = play(m, [f"Paint {i}-{i + 1}" for i in range(0, 12, 2)])
    assert state["strip"] == "001100110011" and total == [0.0, 0.0]


def test_mole_hunt_mole_cannot_repeat_and_two_hits_win():
    m = model("mole_hunt")
    state, _ = play(m, ["Hide 1", "Whack 3"])
    assert "Hide 1" not in m.legal_actions(state)
    line = [a for hole in (1, 2, 1, 2, 1, 2) for a in (f"Hide {hole}", "Whack 1")]
    state, total = play(m, line)
    assert state["hits"] == 3 and total == [-1.0, 1.0]


def test_stock_ticker_a_share_bought_at_10_and_held_to_12():
    m = model("stock_ticker")
    line = ["Buy", "Hold", "Up 2"] + ["Hold", "Hold", "Flat"] * 5
    state, total = play(m, line)
    assert m.is_terminal(state) and total == [2.0, 0.0]
    assert chance_probability(m, line) == pytest.approx(0.35 * 0.4 ** 5)
    state, _ = play(m, ["Hold", "Hold", "Down 3"] * 4)
    assert state["price"] == 1
