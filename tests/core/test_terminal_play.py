"""Terminal play as a person meets it: a pseudo-terminal, no hidden information on screen."""

import os
import pty
import re
import select
import subprocess
import sys
import time

import pytest

from ggp.agents.human import ambiguity, match_move

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def _play_in_pty(args: list[str], answer, timeout: float = 60.0) -> str:
    """Run ``ggp`` on a pseudo-terminal; at each ``Your move:`` prompt type
    ``answer(screen so far)``. Returns everything the screen showed, without colours."""
    master, slave = pty.openpty()
    env = dict(os.environ, COLUMNS="100", TERM="xterm")
    proc = subprocess.Popen([sys.executable, "-m", "ggp.cli.main", *args], stdin=slave,
                            stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    screen, answered = "", 0
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                screen += _ANSI.sub("", chunk.decode("utf-8", "replace"))
                if screen.count("Your move:") > answered:
                    answered += 1
                    os.write(master, (answer(screen) + "\n").encode())
            elif proc.poll() is not None:
                break
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    assert proc.returncode == 0, screen
    return screen


@pytest.mark.parametrize("seed", [2, 5])
def test_kuhn_human_sees_no_hidden_card_until_the_showdown(seed):
    # seat 1 calls whatever seat 0 did (Pass after Pass, Bet after Bet): always a showdown
    def call(screen: str) -> str:
        turn = screen.rsplit("Your observation:", 1)[-1]
        # the betting log reads "player 0: Bet"; move names in any case are accepted
        return "bet" if "player 0: Bet" in turn else "pass"

    screen = _play_in_pty(["play", "kuhn_poker", "-p", "random,human", "--seed", str(seed)],
                          call)
    before, marker, after = screen.partition("Final position")
    assert marker, screen
    mine = re.search(r"my card: \[(\w)\]", before)[1]
    shown = re.search(r"showdown cards: \[(\w)\] \[(\w)\]", after)
    assert shown, after
    theirs = shown[1] if shown[2] == mine else shown[2]
    assert theirs != mine
    assert "Deal" not in before and f"[{theirs}]" not in before  # nothing of the deal leaks
    assert re.search(r"You (won|lost) \(your return: [+-][12]\)", after), after


def test_perfect_information_games_still_show_every_move():
    moves = "\n".join(["0"] * 5) + "\n"
    proc = subprocess.run(
        [sys.executable, "-m", "ggp.cli.main", "play", "tic_tac_toe", "--players",
         "random,human", "--seed", "1"], input=moves, capture_output=True, text=True,
        timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^\s+\S+: x\(\d,\d\)$", proc.stdout, re.M)  # the opponent's moves
    assert "Final position" in proc.stdout and re.search(r"You (won|lost)|Draw", proc.stdout)


def test_moves_are_typed_by_name_not_by_position():
    legal = ["x(1,1)", "x(2,0)", "noop"]
    assert match_move("x(2,0)", legal) == "x(2,0)"
    assert match_move("X( 2, 0 )", legal) == "x(2,0)"
    assert match_move("2,0", legal) == "x(2,0)"
    assert match_move("(1,1)", legal) == "x(1,1)"
    assert match_move("NOOP", legal) == "noop"
    assert match_move("1", legal) == "x(2,0)"  # a position is only a shortcut
    assert match_move("3", ["1", "3", "5"]) == "3"  # a move named 3 beats position 3
    assert match_move("9,9", legal) is None
    gdl = ["(drop 1)", "(drop 2)", "(drop 3)"]
    assert match_move("drop 2", gdl) == "(drop 2)" and match_move("(DROP 3)", gdl) == "(drop 3)"
    assert match_move("3", gdl) == "(drop 3)"  # its arguments, not position 3 (none)
    assert ambiguity("2", gdl) and "(drop 2)" in ambiguity("2", gdl)  # or [2] (drop 3)?
    assert ambiguity("drop 2", gdl) is None and ambiguity("1", ["a", "b"]) is None
