"""Blind tic-tac-toe: the GDL-II rules of seed 003 §17.3, round by round."""

from __future__ import annotations

from ggp.core.protocol import CHANCE, TERMINAL
from ggp.core.registry import make_game

MODEL = make_game("blind_tic_tac_toe")


def play(actions):
    state = MODEL.initial_state()
    for action in actions:
        assert action in MODEL.legal_actions(state), (action, MODEL.legal_actions(state))
        state = MODEL.apply(state, action)
    return state


def oks(state, player):
    return [t["ok"] for t in MODEL.observation(state, player)["my_tries"]]


def test_different_cells_both_succeed():
    state = play(["mark(1,1)", "mark(2,3)"])
    assert state["board"] == [["x", "b", "b"], ["b", "b", "o"], ["b", "b", "b"]]
    assert oks(state, 0) == [True] and oks(state, 1) == [True]
    assert MODEL.current_player(state) == 0


def test_same_blank_cell_is_decided_by_a_fair_coin():
    state = play(["mark(2,2)", "mark(2,2)"])
    assert MODEL.current_player(state) == CHANCE
    assert dict(MODEL.chance_outcomes(state)) == {"tiebreak(x)": 0.5, "tiebreak(o)": 0.5}
    white = MODEL.apply(state, "tiebreak(x)")
    assert white["board"][1][1] == "x"
    assert oks(white, 0) == [True] and oks(white, 1) == [False]
    black = MODEL.apply(state, "tiebreak(o)")
    assert black["board"][1][1] == "o"
    assert oks(black, 0) == [False] and oks(black, 1) == [True]


def test_trying_a_marked_cell_has_no_effect_and_no_ok():
    state = play(["mark(1,1)", "mark(3,3)", "mark(3,3)", "mark(1,1)"])
    assert state["board"][0][0] == "x" and state["board"][2][2] == "o"
    assert oks(state, 0) == [True, False] and oks(state, 1) == [True, False]
    # Both try the same cell that is already marked: no coin is tossed.
    state = play(["mark(1,1)", "mark(3,3)", "mark(1,2)", "mark(1,1)"])
    assert MODEL.current_player(state) == 0
    assert oks(state, 1) == [True, False]


def test_legal_moves_are_the_untried_cells_even_if_marked():
    state = play(["mark(1,1)", "mark(2,2)"])
    white = set(MODEL.legal_actions(state))
    assert "mark(1,1)" not in white and "mark(2,2)" in white and len(white) == 8


def test_percepts_hide_the_opponent_and_the_coin():
    a = play(["mark(1,1)", "mark(2,2)"])
    b = play(["mark(1,1)", "mark(1,2)"])
    assert MODEL.same(MODEL.observation(a, 0), MODEL.observation(b, 0))
    # Black cannot tell whether white collided with it and lost the coin toss.
    c = MODEL.apply(play(["mark(2,2)", "mark(2,2)"]), "tiebreak(o)")
    d = play(["mark(1,1)", "mark(2,2)"])
    assert MODEL.same(MODEL.observation(c, 1), MODEL.observation(d, 1))
    assert not MODEL.same(MODEL.observation(c, 0), MODEL.observation(d, 0))


def test_lines_and_goals():
    # White completes the top row while black plays elsewhere.
    state = play(["mark(1,1)", "mark(2,1)", "mark(1,2)", "mark(2,2)", "mark(1,3)", "mark(3,3)"])
    assert MODEL.current_player(state) == TERMINAL and MODEL.rewards(state) == [1.0, -1.0]
    # Both complete a line in the same round: a draw (GDL goal 50 each).
    state = play(["mark(1,1)", "mark(2,1)", "mark(1,2)", "mark(2,2)", "mark(1,3)", "mark(2,3)"])
    assert MODEL.current_player(state) == TERMINAL and MODEL.rewards(state) == [0.0, 0.0]
    # Black wins a line by a coin toss.
    state = play(["mark(3,1)", "mark(1,1)", "mark(3,3)", "mark(1,2)", "mark(1,3)", "mark(1,3)",
                  "tiebreak(o)"])
    assert MODEL.current_player(state) == TERMINAL and MODEL.rewards(state) == [-1.0, 1.0]


def test_full_board_without_line_is_a_draw():
    # Ends as  x o x / x o o / o x x.
    moves = [("mark(1,1)", "mark(1,2)"), ("mark(1,3)", "mark(2,2)"), ("mark(2,1)", "mark(2,3)"),
             ("mark(3,2)", "mark(3,1)")]
    state = play([a for pair in moves for a in pair])
    assert MODEL.current_player(state) == 0
    state = play([a for pair in moves for a in pair] + ["mark(3,3)", "mark(3,3)", "tiebreak(x)"])
    assert MODEL.current_player(state) == TERMINAL
    assert MODEL.rewards(state) == [0.0, 0.0]
