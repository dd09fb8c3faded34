"""The GGP player planning on a compiled model while its reasoner stays the truth (issue 33,
item 3): ``ggp serve --chooser compiled --compiled RUN``.

The compiled models are the hand-written Python program of the tiny GDL game
``tests/synth/fixtures/take_two.kif`` (the SCRIPTED correct answer of the GDL synthesis
tests) and deliberately wrong copies of it."""

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


def test_the_player_plans_on_a_correct_compiled_model(tmp_path):
    program = tmp_path / "cwm.py"
    program.write_text(GOOD)
    chooser = CompiledChooser(tmp_path, seed=0)  # a run folder: its cwm.py
    replies = _match(chooser, "good")
    assert all(r in ("(take 1)", "(take 2)") for r in replies)
    [record] = chooser.report
    assert record["program"] == "compiled" and record["divergence"] is None
    assert record["compiled_moves"] == record["decisions"] >= 1 and record["checked"] > 0


@pytest.mark.parametrize("wrong, where", [
    # the winner is paid nothing: seen at the end of a walk from the real state
    (("100.0 if role == winner else 0.0", "0.0 if role == winner else 100.0"), "rewards"),
    # one counter left is not taken at once: the successor states differ
    ("while not _terminal(state) and len(get_legal_actions(state)) == 1",
     "current players"),
])
def test_a_wrong_compiled_model_is_caught_and_the_reasoner_plays_on(tmp_path, caplog,
                                                                  wrong, where):
    if isinstance(wrong, str):
        code = GOOD.replace(wrong, "while False")
    else:
        code = GOOD.replace(*wrong)
    assert code != GOOD
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


@pytest.mark.parametrize("code, planned", [
    (COIN, True),
    # the guesser is told "saw" where the game says "fell": its observations differ
    (COIN.replace('f"(fell {coin})"', 'f"(saw {coin})"'), False),
])
def test_gdl_ii_roots_come_from_the_players_hypotheses(tmp_path, code, planned):
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
    assert planned or "observations differ" in record["divergence"]["reason"]
