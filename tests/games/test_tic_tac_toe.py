"""Tic-tac-toe: rules and a differential test against OpenSpiel."""

import pytest

from ggp.check import check_model
from ggp.core.protocol import TERMINAL
from ggp.load import load_model


@pytest.fixture(scope="module")
def ttt():
    return load_model("tic_tac_toe")


def play(model, actions):
    state = model.initial_state()
    for action in actions:
        state = model.apply(state, action)
    return state


def test_row_win_ends_game_with_rewards(ttt):
    state = play(ttt, ["x(0,0)", "o(1,0)", "x(0,1)", "o(1,1)", "x(0,2)"])
    assert ttt.current_player(state) == TERMINAL
    assert ttt.rewards(state) == [1.0, -1.0]
    assert ttt.legal_actions(state) == []


def test_diagonal_win_for_o(ttt):
    state = play(ttt, ["x(0,1)", "o(0,0)", "x(0,2)", "o(1,1)", "x(1,0)", "o(2,2)"])
    assert ttt.rewards(state) == [-1.0, 1.0]


def test_full_board_is_draw(ttt):
    moves = ["x(0,0)", "o(0,1)", "x(0,2)", "o(1,1)", "x(1,0)", "o(1,2)", "x(2,1)", "o(2,0)",
             "x(2,2)"]
    state = play(ttt, moves)
    assert ttt.current_player(state) == TERMINAL
    assert ttt.rewards(state) == [0.0, 0.0]


def test_occupied_cell_is_rejected(ttt):
    state = play(ttt, ["x(0,0)"])
    assert "o(0,0)" not in ttt.legal_actions(state)


def test_conformance(ttt):
    assert check_model(ttt, games=30).ok


def test_matches_openspiel(ttt):
    pytest.importorskip("pyspiel")
    from ggp.openspiel.differential import compare_with_openspiel

    report = compare_with_openspiel(ttt, "tic_tac_toe", games=300, seed=1)
    assert report.games == 300
    # Random games of tic-tac-toe end in every kind of result.
    assert {tuple(r) for r in report.returns} == {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}
