"""Generalized tic-tac-toe: k-in-a-row rules, parameters, and OpenSpiel's mnk."""

import pytest

from ggp.check import check_model
from ggp.core.errors import ModelLoadError
from ggp.core.protocol import TERMINAL
from ggp.load import load_model


@pytest.fixture(scope="module")
def gttt():
    return load_model("generalized_tic_tac_toe")


def play(model, actions):
    state = model.initial_state()
    for action in actions:
        state = model.apply(state, action)
    return state


def test_default_board_is_6x6_with_36_moves(gttt):
    state = gttt.initial_state()
    assert len(state["board"]) == 6 and all(len(row) == 6 for row in state["board"])
    assert len(gttt.legal_actions(state)) == 36


def test_three_in_a_row_does_not_win_but_four_does(gttt):
    state = play(gttt, ["x(0,0)", "o(5,5)", "x(0,1)", "o(5,4)", "x(0,2)", "o(4,4)"])
    assert gttt.current_player(state) == 0
    state = gttt.apply(state, "x(0,3)")
    assert gttt.current_player(state) == TERMINAL
    assert gttt.rewards(state) == [1.0, -1.0]


def test_anti_diagonal_win_for_o(gttt):
    moves = ["x(0,0)", "o(2,5)", "x(0,1)", "o(3,4)", "x(5,0)", "o(5,2)", "x(0,4)", "o(4,3)"]
    state = play(gttt, moves)
    assert state["winner"] == 1 and gttt.rewards(state) == [-1.0, 1.0]


def test_parameters_change_the_board():
    model = load_model("generalized_tic_tac_toe(rows=3,cols=4,k=3)")
    state = model.initial_state()
    assert len(model.legal_actions(state)) == 12
    assert "x(2,3)" in model.legal_actions(state)
    assert "3x4" in model.rules and "3 (or more)" in model.rules


def test_bad_parameters_are_a_clear_error():
    with pytest.raises(ModelLoadError, match="k"):
        load_model("generalized_tic_tac_toe(rows=3,cols=3,k=5)")


def test_conformance(gttt):
    assert check_model(gttt, games=20).ok


@pytest.mark.parametrize("rows,cols,k,games", [(6, 6, 4, 200), (3, 5, 3, 100), (4, 3, 3, 100)])
def test_matches_openspiel_mnk(rows, cols, k, games):
    pytest.importorskip("pyspiel")
    from ggp.openspiel.differential import compare_with_openspiel

    model = load_model(f"generalized_tic_tac_toe(rows={rows},cols={cols},k={k})")
    report = compare_with_openspiel(model, f"mnk(m={cols},n={rows},k={k})", games=games,
                                    seed=rows * 10 + cols)
    assert report.games == games
    assert {tuple(r) for r in report.returns} >= {(1.0, -1.0), (-1.0, 1.0)}
