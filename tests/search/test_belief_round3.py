"""Issue 31, round three: five hidden-information games written after the design freeze
by an evaluator who did not read the sampler (benchmarks/belief_unseen/round3). Each test
plays a scripted match, checks a rule by hand, and checks that every particle of the
generic belief agrees with a fact a player can work out from their own view."""

from __future__ import annotations

import random
from pathlib import Path

from ggp.belief.sampler import GenericSampler
from ggp.load import load_model

ROUND3 = Path(__file__).resolve().parents[2] / "benchmarks" / "belief_unseen" / "round3"


def play(name, actions):
    """The model, the state after ``actions`` and every player's history at that state
    (their (observation, action) pairs, the last with action None)."""
    model = load_model(str(ROUND3 / f"{name}.py"))
    state = model.initial_state()
    histories = [[] for _ in range(model.num_players)]
    for action in actions:
        player = model.current_player(state)
        if player >= 0:
            histories[player].append((model.observation(state, player), action))
        state = model.apply(state, action)
    return model, state, histories


def believed(model, state, histories):
    """The states the generic belief holds for the player to move."""
    player = model.current_player(state)
    history = histories[player] + [(model.observation(state, player), None)]
    sampler = GenericSampler(model, time_limit=30.0)
    sampler.belief(history, player, random.Random(0))
    states = [s for s, _ in sampler.last_particles()]
    assert states
    return states


def deal(*cards):
    return [f"Deal {c}" for c in cards]


def test_blind_pass_the_third_player_infers_the_directions():
    """Player 2 was never handed a card, so player 0 passed left and player 1 right: the
    two discards (2, then 1) left players 0 and 1 with four cards, none of them 1 or 2."""
    model, state, hist = play("blind_pass", deal(1, 2, 3, 5, 6, 7, 9, 10, 11)
                              + ["Pass 9 left", "Pass 6 right"])
    assert state["hands"] == [[5, 6], [9, 10], [3, 7, 11]]
    assert model.observation(state, 2)["log"] == [["passed", 0, 2], ["passed", 1, 1]]
    for s in believed(model, state, hist):
        assert s["hands"][2] == [3, 7, 11]
        assert s["logs"][0][0][:3] == ["gave", s["logs"][0][0][1], 1]
        assert s["logs"][1][1][:3] == ["gave", s["logs"][1][1][1], 0]
        others = s["hands"][0] + s["hands"][1]
        assert len(others) == 4 and not {1, 2} & set(others)


def test_mole_vote_one_fail_on_a_team_names_the_mole_to_its_innocent_member():
    """Team 1 3 played one Fail; player 1 played Pass, so to player 1 the mole is 3; to
    player 0 it is 1 or 3."""
    model, state, hist = play("mole_vote", ["Mole 3", "Team 1 3", "Yes", "Yes", "Yes",
                                            "Yes", "Pass", "Fail"])
    assert state["record"] == [[[1, 3], ["Yes"] * 4, 1]] and state["fails"] == 1
    assert model.current_player(state) == 1  # leads mission 1
    assert {s["mole"] for s in believed(model, state, hist)} == {3}
    _, state, hist = play("mole_vote", ["Mole 3", "Team 1 3", "Yes", "Yes", "Yes", "Yes",
                                        "Pass", "Fail", "Team 0 2"])
    assert model.current_player(state) == 0  # votes on mission 1
    assert {s["mole"] for s in believed(model, state, hist)} <= {1, 3}


def test_mole_vote_the_mole_alone_most_accused_loses():
    moves = ["Mole 3", "Team 1 3", "No", "No", "No", "No", "Team 0 2", "No", "No", "No",
             "No", "Team 0 1", "No", "No", "No", "No"]
    model, state, _ = play("mole_vote", moves + ["Accuse 3", "Accuse 3", "Accuse 0",
                                                 "Accuse 0"])
    assert model.rewards(state) == [0.0, 0.0, 0.0, 1.0]  # a tie at the top: mole not caught
    model, state, _ = play("mole_vote", moves + ["Accuse 3", "Accuse 3", "Accuse 3",
                                                 "Accuse 0"])
    assert model.is_terminal(state) and model.rewards(state) == [1.0, 1.0, 1.0, 0.0]


def test_dice_hints_shown_dice_and_parity_constrain_the_opponent():
    """Player 1 showed two sixes and their total is even: to player 0 their other two dice
    add up to an even number."""
    rolls = [f"Roll {f}" for f in (1, 2, 3, 6, 6, 6, 5, 1)]
    model, state, hist = play("dice_hints", rolls + ["Show 6", "Show 6", "Pass", "Show 6"])
    assert model.observation(state, 0)["parity"] == [0, 0]
    for s in believed(model, state, hist):
        assert s["dice"][0] == [1, 2, 3, 6]
        assert s["dice"][1].count(6) >= 2 and sum(s["dice"][1]) % 2 == 0
    model, state, _ = play("dice_hints", rolls + ["Pass"] * 6 + ["Guess 18", "Guess 10"])
    assert model.rewards(state) == [1.0, -1.0]  # 18 is exact; 10 misses 12 by 2


def test_blind_swap_the_swapper_knows_where_their_card_went():
    """Player 0 swapped 1 for 7 and player 1 kept: to player 0 the pile holds 1 and player
    1's hand is three of 4, 5, 6, 8, 9, 10."""
    model, state, hist = play("blind_swap", deal(1, 8, 2, 9, 3, 10)
                              + ["Swap 1", "Draw 7", "Keep"])
    assert state["hands"] == [[2, 3, 7], [8, 9, 10]] and state["pile"] == [1, 4, 5, 6]
    assert model.observation(state, 1)["log"] == [[0, "swap"], [1, "keep"]]
    for s in believed(model, state, hist):
        assert s["hands"][0] == [2, 3, 7] and 1 in s["pile"]
        assert len(s["hands"][1]) == 3 and set(s["hands"][1]) <= {4, 5, 6, 8, 9, 10}


def test_memory_pairs_a_missed_second_card_is_seen_by_its_flipper_only():
    """Player 0 missed with 0 (A) and 2 (B), player 1 with 4 (C) and 6 (unseen by player
    0): player 0 knows position 2 is B and that 6 is not C."""
    layout = [f"Place {x}" for x in "AABBCCDD"]
    model, state, hist = play("memory_pairs", layout + ["Flip 0", "Flip 2", "Flip 4",
                                                        "Flip 6"])
    assert model.observation(state, 0)["log"][1] == [1, 4, "C", 6, None]
    for s in believed(model, state, hist):
        assert s["layout"][0] == "A" and s["layout"][2] == "B"
        assert s["layout"][4] == "C" and s["layout"][6] != "C"
    model, state, _ = play("memory_pairs", layout + ["Flip 0", "Flip 1"])
    assert state["score"] == [1, 0] and model.current_player(state) == 0  # goes again
