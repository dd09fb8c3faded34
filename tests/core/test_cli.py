"""End-to-end tests of the core CLI commands."""

import json
import subprocess
import sys
from pathlib import Path

from ggp.cli.main import main

BROKEN = Path(__file__).parent / "broken_models"


def test_games_lists_tic_tac_toe(capsys):
    assert main(["games"]) == 0
    assert "tic_tac_toe" in capsys.readouterr().out


def test_check_exit_status(capsys):
    assert main(["check", "tic_tac_toe", "--games", "5"]) == 0
    assert main(["check", str(BROKEN / "mutating.py"), "--games", "5"]) == 1
    out = capsys.readouterr().out
    assert "mutates-input" in out and "reproduce with" in out


def test_check_writes_json(tmp_path):
    target = tmp_path / "report.json"
    main(["check", str(BROKEN / "raising.py"), "--games", "5", "--json", str(target)])
    data = json.loads(target.read_text())
    assert data["violations"][0]["kind"] == "exception"


def test_bad_inputs_get_one_paragraph_errors(capsys):
    assert main(["play", "no_such_game"]) == 2
    assert main(["check", str(BROKEN / "syntax_error.py")]) == 2
    assert main(["check", str(BROKEN / "missing_function.py")]) == 2
    assert main(["play", "tic_tac_toe", "--players", "random,nobody"]) == 2
    err = capsys.readouterr().err
    assert "There is no game called 'no_such_game'" in err
    assert "syntax error at line 25" in err
    assert "missing get_observations" in err
    assert "Unknown agent 'nobody'" in err
    assert "Traceback" not in err


def test_play_records_a_match(tmp_path, capsys):
    record = tmp_path / "match.json"
    assert main(["play", "tic_tac_toe", "--players", "random,random", "--seed", "3",
                 "--output", str(record)]) == 0
    data = json.loads(record.read_text())
    assert data["agents"] == ["random", "random"]
    assert sum(data["returns"]) == 0
    assert "Returns:" in capsys.readouterr().out


def test_human_player_is_reprompted_on_bad_input():
    # A person types junk, then an occupied cell number out of range, then a legal move.
    moves = "junk\n99\nx(1,1)\n" + "\n".join(["0"] * 5) + "\n"
    proc = subprocess.run(
        [sys.executable, "-m", "ggp.cli.main", "play", "tic_tac_toe", "--players",
         "human,random", "--seed", "1"],
        input=moves, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "'junk' is not a legal move" in proc.stdout
    assert "'99' is not a legal move" in proc.stdout
    assert "x(1,1)" in proc.stdout


def test_debug_shows_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "ggp.cli.main", "--debug", "play", "no_such_game"],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode != 0 and "Traceback" in proc.stderr
