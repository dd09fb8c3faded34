"""Connect four: gravity, wins in every direction, full board, and OpenSpiel agreement."""

import pytest

from ggp.check import check_model
from ggp.core.protocol import TERMINAL
from ggp.load import load_model


@pytest.fixture(scope="module")
def c4():
    return load_model("connect_four")


def play(model, actions):
    state = model.initial_state()
    for action in actions:
        state = model.apply(state, action)
    return state


def test_marks_fall_to_the_bottom(c4):
    state = play(c4, ["x3", "o3", "x3"])
    column = [row[3] for row in state["board"]]
    assert column == [".", ".", ".", "x", "o", "x"]


def test_vertical_win(c4):
    state = play(c4, ["x0", "o1", "x0", "o1", "x0", "o1", "x0"])
    assert c4.current_player(state) == TERMINAL
    assert c4.rewards(state) == [1.0, -1.0]


def test_horizontal_win_for_o(c4):
    state = play(c4, ["x0", "o1", "x0", "o2", "x0", "o3", "x6", "o4"])
    assert state["winner"] == 1
    assert c4.rewards(state) == [-1.0, 1.0]


def test_diagonal_win_completed_in_the_middle(c4):
    # x at (5,0), (4,1), (2,3) first, then (3,2) completes the rising diagonal.
    moves = ["x0", "o1", "x1", "o2", "x6", "o3", "x3", "o3", "x3", "o6", "x2", "o6", "x2"]
    state = play(c4, moves)
    assert state["winner"] == 0 and c4.current_player(state) == TERMINAL


def test_full_column_is_not_legal(c4):
    state = play(c4, ["x2", "o2", "x2", "o2", "x2", "o2"])
    assert "x2" not in c4.legal_actions(state)
    assert len(c4.legal_actions(state)) == 6


def test_full_board_draw(c4):
    # Columns filled in pairs with the pattern x o x o x o / o x o x o x avoid any line.
    order = [0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 2, 3, 2, 3, 2, 3, 3, 2, 3, 2, 3, 2,
             4, 5, 4, 5, 4, 5, 5, 4, 5, 4, 5, 4, 6, 6, 6, 6, 6, 6]
    state = c4.initial_state()
    for i, col in enumerate(order):
        state = c4.apply(state, f"{'xo'[i % 2]}{col}")
    assert c4.current_player(state) == TERMINAL
    assert state["winner"] is None and c4.rewards(state) == [0.0, 0.0]


def test_conformance(c4):
    assert check_model(c4, games=20).ok


def test_matches_openspiel(c4):
    pytest.importorskip("pyspiel")
    from ggp.openspiel.differential import compare_with_openspiel

    report = compare_with_openspiel(c4, "connect_four", games=300, seed=3)
    assert report.games == 300
    assert {tuple(r) for r in report.returns} >= {(1.0, -1.0), (-1.0, 1.0)}
