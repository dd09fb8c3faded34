"""Deliberate newcomer mistakes get one line that names the cause and the fix."""

import re
import subprocess
import sys
from pathlib import Path

from ggp.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
NIM = ROOT / "examples" / "games" / "nim.py"
CONNECT_FOUR = ROOT / "src" / "ggp" / "gdl" / "games" / "connect_four.kif"


def test_play_of_a_py_game_suggests_only_options_play_has(capsys):
    assert main(["play", str(NIM)]) == 2
    err = capsys.readouterr().err
    assert "--trusted" in err and f"ggp check {NIM}" in err
    assert "-a cwm_mcts" not in err  # 'ggp play' has no -a
    assert "--players cwm_mcts:run=" in err


def test_play_of_a_missing_file_says_so(tmp_path, capsys):
    missing = tmp_path / "nosuchfile.py"
    assert main(["play", str(missing)]) == 2
    err = capsys.readouterr().err
    assert f"No such file: {missing}" in err and "sandbox" not in err


def test_a_cwm_of_another_game_is_named_in_one_line():
    proc = subprocess.run(
        [sys.executable, "-m", "ggp.cli.main", "play", "kuhn_poker", "--players",
         f"cwm_mcts:run={NIM}:sims=10,random", "--seed", "1"],
        capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr
    flat = " ".join(proc.stdout.split())  # the terminal width may wrap the line
    forfeit = flat[flat.index("forfeits"):flat.index("Returns:")]
    assert "not of this game (observation mismatch)" in forfeit, flat
    assert "'my_card'" in forfeit and "'pile'" in forfeit  # the two games' observations
    assert "Traceback" not in proc.stdout + proc.stderr


def test_a_gdl_keyword_typo_is_a_clear_error(tmp_path, capsys):
    typo = tmp_path / "typo.kif"
    typo.write_text(re.sub(r"\(init ", "(int ", CONNECT_FOUR.read_text()))
    assert main(["play", str(typo)]) == 2
    err = capsys.readouterr().err
    assert "a typo for 'init'?" in err and "steps" not in err
    assert main(["gdl", "validate", str(typo)]) != 0


def test_check_names_the_file_it_checked(capsys):
    assert main(["check", str(NIM), "--games", "2"]) == 0
    assert f"OK {NIM}:" in " ".join(capsys.readouterr().out.split())
