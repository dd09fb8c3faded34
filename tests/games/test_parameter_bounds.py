"""Game parameters are bounded before anything is built from them (issue 30): a small
input such as generalized_tic_tac_toe(rows=100000,cols=100000) once grew to 22 GB."""

from __future__ import annotations

import resource

import pytest

from ggp.core.errors import ModelLoadError
from ggp.core.registry import MAX_TEXT_PARAMETER, make_game, registered_games


@pytest.mark.parametrize("name", sorted(registered_games()))
def test_every_numeric_parameter_declares_its_range(name):
    entry = registered_games()[name]
    numeric = {k for k, v in entry.parameters.items()
               if isinstance(v, (int, float)) and not isinstance(v, bool)}
    assert numeric <= set(entry.ranges), f"{name}: no range for {numeric - set(entry.ranges)}"
    for key, (low, high) in entry.ranges.items():
        assert key in entry.parameters and low <= entry.parameters[key] <= high


@pytest.mark.parametrize("spec", [
    "generalized_tic_tac_toe(rows=100000,cols=100000)",
    "generalized_tic_tac_toe(rows=6,cols=6,k=1000000)",
    "goofspiel(num_cards=1000000)",
    "battleship(board_height=100000,board_width=100000)",
    "backgammon(max_turns=10000000000)",
    "bargaining(max_turns=1e12)",
])
def test_parameter_bombs_are_one_line_errors_before_any_building(spec):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(ModelLoadError, match="out of bounds") as refused:
        make_game(spec)
    assert "\n" not in str(refused.value)
    assert (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) < 50 * 1024


def test_long_text_parameters_are_refused_and_bounds_hold_at_their_edges():
    with pytest.raises(ModelLoadError, match="characters"):
        make_game("battleship(ship_sizes=[" + ";".join(["1"] * MAX_TEXT_PARAMETER) + "])")
    assert make_game("generalized_tic_tac_toe(rows=30,cols=30,k=5)").initial_state()


def test_the_cli_refuses_a_parameter_bomb_in_one_line(capsys):
    from ggp.cli.main import main

    status = main(["play", "generalized_tic_tac_toe(rows=100000,cols=100000)",
                   "--players", "random,random"])
    err = capsys.readouterr().err
    assert status != 0 and "out of bounds" in err and "Traceback" not in err
