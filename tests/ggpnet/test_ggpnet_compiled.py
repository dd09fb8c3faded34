"""The GGP player planning on a compiled model while its reasoner stays the truth (issue 33,
item 3): ``ggp serve --chooser compiled --compiled RUN``.

The compiled models are the hand-written Python programs of the tiny GDL games
``tests/synth/fixtures/take_two.kif`` and ``coin.gdl`` (the SCRIPTED correct answers of the
GDL synthesis tests: one in the reasoner's state layout, one in a fast layout of its own,
which the player drives from the match's moves) and deliberately wrong copies of them."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from ggp.core.errors import GGPError
from ggp.ggpnet.choosers import make_chooser
from ggp.ggpnet.compiled import CompiledChooser
from ggp.ggpnet.player import GGPPlayer

FIXTURES = Path(__file__).resolve().parents[1] / "synth" / "fixtures"
KIF = FIXTURES / "take_two.kif"
GOOD = (FIXTURES / "take_two_cwm.py").read_text()
FAST = (FIXTURES / "take_two_fast_cwm.py").read_text()  # its own state layout
RULES = " ".join(re.sub(r";.*", "", KIF.read_text()).split())


def _match(chooser: CompiledChooser, match_id: str) -> list[str]:
    """One match as white against a black that always takes one counter; our replies."""
    player = GGPPlayer("compiled", chooser, margin=0.2, seed=0)
    try:
        assert player.handle(f"(START {match_id} white ({RULES}) 30 2)") == (200, "ready")
        status, move = player.handle(f"(PLAY {match_id} NIL)")
        replies = [move]
        pile, last = 3 - int(move.strip("()").split()[1]), (move, "noop")
        while pile > 0:  # black takes one counter, then white moves (or noop)
            status, move = player.handle(f"(PLAY {match_id} ({last[0]} {last[1]}))")
            assert status == 200 and move == "noop"
            pile -= 1
            last = ("noop", "(take 1)")
            if pile == 0:
                break
            status, move = player.handle(f"(PLAY {match_id} ({last[0]} {last[1]}))")
            assert status == 200 and move in ("(take 1)", "(take 2)")
            replies.append(move)
            pile -= int(move.strip("()").split()[1])
            last = (move, "noop")
        assert player.handle(f"(STOP {match_id} ({last[0]} {last[1]}))") == (200, "done")
        return replies
    finally:
        player.close()


@pytest.mark.parametrize("code", [GOOD, FAST])
def test_the_player_plans_on_a_correct_compiled_model(tmp_path, code):
    program = tmp_path / "cwm.py"
    program.write_text(code)
    chooser = CompiledChooser(tmp_path, seed=0)  # a run folder: its cwm.py
    replies = _match(chooser, "good")
    assert all(r in ("(take 1)", "(take 2)") for r in replies)
    [record] = chooser.report
    assert record["program"] == "compiled" and record["divergence"] is None
    assert record["compiled_moves"] == record["decisions"] >= 1 and record["checked"] > 0


@pytest.mark.parametrize("good, wrong, where", [
    # the winner is paid nothing: seen at the end of a walk from the real state
    (GOOD, ("100.0 if role == winner else 0.0", "0.0 if role == winner else 100.0"),
     "rewards"),
    # one counter left is not taken at once: the successor states differ
    (GOOD, ("while not _terminal(state) and len(get_legal_actions(state)) == 1",
            "while False"), "current players"),
    # the same two mistakes in the program with its own state layout
    (FAST, ("100.0 if state[2] == i else 0.0", "0.0 if state[2] == i else 100.0"),
     "rewards"),
    (FAST, ("if state[0] == 1:", "if False:"), "current players"),
])
def test_a_wrong_compiled_model_is_caught_and_the_reasoner_plays_on(tmp_path, caplog,
                                                                  good, wrong, where):
    code = good.replace(*wrong)
    assert code != good
    program = tmp_path / "wrong.py"
    program.write_text(code)
    chooser = CompiledChooser(program, seed=0)
    with caplog.at_level(logging.WARNING, logger="ggp.ggpnet"):
        replies = _match(chooser, "wrong")
    assert all(r in ("(take 1)", "(take 2)") for r in replies)  # legal moves throughout
    [record] = chooser.report
    assert record["program"] == "reasoner" and record["compiled_moves"] == 0
    assert record["divergence"]["decision"] == 1 and where in record["divergence"]["reason"]
    assert "planning on the reasoner for the rest of the match" in caplog.text
    # the next match starts on the compiled model again (and diverges again)
    _match(chooser, "again")
    assert len(chooser.report) == 2 and chooser.report[1]["divergence"] is not None


def test_the_compiled_chooser_needs_a_model():
    with pytest.raises(GGPError, match="--compiled"):
        make_chooser("compiled", 0)
    with pytest.raises(GGPError, match="No code world model"):
        make_chooser("compiled", 0, compiled="/nonexistent/model.py")


COIN_RULES = " ".join(re.sub(r";.*", "", (FIXTURES / "coin.gdl").read_text()).split())
COIN = (FIXTURES / "coin_cwm.py").read_text()
COIN_FAST = (FIXTURES / "coin_fast_cwm.py").read_text()


@pytest.mark.parametrize("code, planned", [
    (COIN, True),
    (COIN_FAST, True),
    # the guesser is told "saw" where the game says "fell": its observations differ
    (COIN.replace('f"(fell {coin})"', 'f"(saw {coin})"'), False),
    (COIN_FAST.replace('f"(fell {SIDES[state[0]]})"', 'f"(saw {SIDES[state[0]]})"'), False),
    # a resample_history that leaves nature's toss out: its history is impossible
    (COIN_FAST.replace('return [f"(toss {side})", *own]', "return own"), False),
])
def test_gdl_ii_roots_come_from_the_programs_own_history_draws(tmp_path, code, planned):
    program = tmp_path / "coin.py"
    program.write_text(code)
    chooser = CompiledChooser(program, seed=0)
    player = GGPPlayer("compiled", chooser, margin=0.2, seed=0)
    try:
        assert player.handle(f"(START c guesser ({COIN_RULES}) 30 2)") == (200, "ready")
        assert player.handle("(PLAY c 0 NIL NIL)") == (200, "noop")  # nature tosses
        status, move = player.handle("(PLAY c 1 noop NIL)")
        assert status == 200 and move in ("(call heads)", "(call tails)")
    finally:
        player.close()
    [record] = chooser.report
    assert (record["compiled_moves"] == 1) is planned
    assert planned or re.search("observations differ|errors differ|resample_history",
                                record["divergence"]["reason"])
