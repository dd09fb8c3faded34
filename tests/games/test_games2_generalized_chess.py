"""Generalized chess army5x5a: piece moves, captures, capture-the-general, PASS, ply limit."""

from __future__ import annotations

from ggp.core.registry import make_game

MODEL = make_game("generalized_chess")


def board_state(rows, player=0, ply=0):
    return {"board": [list(r) for r in rows], "current_player": player, "ply": ply,
            "winner": None, "rewards": [0.0, 0.0]}


def moves_from(state, square):
    return {a.split("_to_")[1] for a in MODEL.legal_actions(state) if a.startswith(square + "_")}


EMPTY = [".....", ".....", ".....", ".....", "....."]


def test_start_position_and_first_moves():
    state = MODEL.initial_state()
    assert ["".join(r) for r in state["board"]] == ["V.X.V", ".III.", ".....", ".iii.", "v.x.v"]
    legal = set(MODEL.legal_actions(state))
    assert "PASS" in legal
    assert "B3_to_D3" in legal  # infantry two forward captures at once
    assert moves_from(state, "A1") == {"A4", "C2", "D1"}  # cavalry; B3 is own piece
    assert moves_from(state, "A3") == {"A2", "A4"}  # general; B3, A1, A5 own, row -1 off


def test_player0_offsets():
    rows = [".....", ".....", "..X..", ".....", "....."]
    assert moves_from(board_state(rows), "C3") == {"D3", "B3", "C4", "C2", "C1", "C5"}
    rows = [".....", "..I..", ".....", ".....", "....."]
    assert moves_from(board_state(rows), "B3") == {"C3", "D3", "C2", "C4", "A3"}
    rows = ["V....", ".....", ".....", ".....", "....."]
    assert moves_from(board_state(rows), "A1") == {"A4", "B3", "C2", "D1"}


def test_player1_offsets_are_flipped():
    rows = [".....", ".....", ".....", "..i..", "....."]
    assert moves_from(board_state(rows, player=1), "D3") == {"C3", "B3", "C4", "C2", "E3"}
    rows = [".....", ".....", ".....", ".....", "....v"]
    assert moves_from(board_state(rows, player=1), "E5") == {"E2", "D3", "C4", "B5"}
    rows = [".....", ".....", "..x..", ".....", "....."]
    assert moves_from(board_state(rows, player=1), "C3") == {"B3", "D3", "C2", "C4", "C1", "C5"}


def test_pieces_jump_and_cannot_land_on_own_pieces():
    rows = ["V.I..", "I....", ".....", ".....", "....."]
    # The cavalry jumps over A3 to A4; the infantry on B1 blocks nothing for the jump to D1.
    assert moves_from(board_state(rows), "A1") == {"A4", "B3", "C2", "D1"}
    rows = ["V..I.", ".....", ".....", ".....", "....."]
    assert "A4" not in moves_from(board_state(rows), "A1")


def test_capture_removes_the_piece_and_capturing_the_general_wins():
    rows = ["..X..", "..I..", ".....", "..i..", "..x.."]
    state = MODEL.apply(board_state(rows), "B3_to_D3")
    assert "".join(state["board"][3]) == "..I.." and MODEL.current_player(state) == 1
    assert not MODEL.is_terminal(state)
    state = MODEL.apply(state, "PASS")
    state = MODEL.apply(state, "D3_to_E3")  # infantry takes the general
    assert MODEL.is_terminal(state)
    assert state["winner"] == 0 and MODEL.rewards(state) == [1.0, -1.0]
    # The general's sideways jump of two squares also captures.
    won = MODEL.apply(board_state(["x.X..", *EMPTY[1:]]), "A3_to_A1")
    assert MODEL.is_terminal(won) and MODEL.rewards(won) == [1.0, -1.0]


def test_player1_wins_by_capture():
    rows = ["X....", "v....", ".....", ".....", "....x"]
    # Player 1's cavalry moves (0,-3) (-1,-2) (-2,-1) (-3,0): from B1 it has no move.
    assert moves_from(board_state(rows, player=1), "B1") == set()
    rows = ["X....", ".....", ".....", "x....", "....."]
    state = board_state(rows, player=1)
    for action in ["D1_to_C1", "PASS", "C1_to_B1", "PASS", "B1_to_A1"]:
        state = MODEL.apply(state, action)
    assert MODEL.is_terminal(state) and MODEL.rewards(state) == [-1.0, 1.0]


def test_pass_is_always_legal_and_the_ply_limit_draws():
    state = MODEL.initial_state()
    for _ in range(99):
        assert "PASS" in MODEL.legal_actions(state)
        state = MODEL.apply(state, "PASS")
    assert not MODEL.is_terminal(state)
    state = MODEL.apply(state, "PASS")
    assert MODEL.is_terminal(state) and MODEL.rewards(state) == [0.0, 0.0]
    assert MODEL.legal_actions(state) == []
