"""What the ggp-base interoperability run relies on or found, testable without ggp-base:
the checker (scripts/interop/check_ggpbase_matches.py) on match records in ggp-base's JSON
layout, the request log of `ggp serve -v`, and whole-second clocks in the manager's START
(ggp-base's players never answer a START whose clock is not an integer). The real
ggp-base run is test_ggpnet_interop.py."""

import importlib.util
import json
import logging
import sys
from pathlib import Path

import pytest
from ggpnet_helpers import gdl_file, quick_player, running
from hypothesis import given
from hypothesis import strategies as st

from ggp.cli.main import main as cli_main
from ggp.core.errors import GGPError
from ggp.gdl.match import load_match_game
from ggp.ggpnet.manager import LOCAL_RANDOM, MatchConfig, run_match
from ggp.ggpnet.messages import rules_list, start_message
from ggp.ggpnet.transport import send_message

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "interop" / "check_ggpbase_matches.py"
_spec = importlib.util.spec_from_file_location("check_ggpbase_matches", SCRIPT)
checker = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = checker  # dataclasses look their module up there
_spec.loader.exec_module(checker)


def record(errors, players=("ggp-python", "RandomGamer"), completed=True):
    """A match record shaped like ggp-base's Match.toJSON (only the fields we read)."""
    rec = {"matchId": "m", "isCompleted": completed, "playerNamesFromHost": list(players),
           "moves": [["noop"] * len(players) for _ in errors[1:]], "errors": errors}
    if completed:
        rec["goalValues"] = [100, 0]
    return rec


def test_clean_record_passes():
    check = checker.check_record(record([["", ""], ["", ""], ["", ""]]), "ggp-python")
    assert check.ok and check.our_seats == [0] and check.steps == 2
    assert check.errors == {"ggp-python": [], "RandomGamer": []}
    assert checker.describe(check).startswith("OK")


def test_our_errors_fail_and_theirs_do_not():
    errors = [["", ""], ["", "TO"], ["IL ( mark 1 1 )", ""], ["CE", ""]]
    ours_first = checker.check_record(record(errors), "ggp-python")
    assert not ours_first.ok
    assert ours_first.our_errors == ["step 2: IL ( mark 1 1 )", "step 3: CE"]
    assert ours_first.errors["RandomGamer"] == ["step 1: TO"]
    assert "FAIL" in checker.describe(ours_first)
    # the same errors with the seats swapped: only the other column is ours now
    swapped = checker.check_record(record(errors, ("RandomGamer", "ggp-python")), "ggp-python")
    assert swapped.our_errors == ["step 1: TO"] and not swapped.ok
    assert swapped.errors["RandomGamer"] == ["step 2: IL ( mark 1 1 )", "step 3: CE"]
    # errors of the other player only: our player passes
    theirs = checker.check_record(record([["", ""], ["", "TO"]]), "ggp-python")
    assert theirs.ok and theirs.errors["RandomGamer"] == ["step 1: TO"]


def test_start_timeout_incomplete_match_and_missing_player_fail():
    assert not checker.check_record(record([["TO", ""], ["", ""]]), "ggp-python").ok
    assert not checker.check_record(record([["", ""]], completed=False), "ggp-python").ok
    assert not checker.check_record(record([["", ""]]), "someone-else").ok


def test_self_play_keeps_both_seats_apart():
    check = checker.check_record(record([["", ""], ["", "TO"]], ("ggp-python",) * 2),
                                 "ggp-python")
    assert check.our_seats == [0, 1] and check.our_errors == ["step 1: TO"]
    assert not check.ok


@given(st.lists(st.lists(st.sampled_from(["", "", "TO", "CE", "IL noop"]), min_size=3,
                         max_size=3), min_size=1, max_size=12),
       st.integers(0, 2), st.booleans())
def test_checker_counts_exactly_our_column(errors, seat, completed):
    players = ["a", "b", "c"]
    players[seat] = "ours"
    check = checker.check_record(record(errors, players, completed), "ours")
    ours = [row[seat] for row in errors if row[seat]]
    assert [e.split(": ", 1)[1] for e in check.our_errors] == ours
    assert check.ok == (completed and not ours)


def test_main_exit_status(tmp_path, capsys):
    assert checker.main([str(tmp_path)]) == 2  # nothing to check is not a pass
    (tmp_path / "a.json").write_text(json.dumps(record([["", ""], ["", ""]])))
    assert checker.main([str(tmp_path)]) == 0
    (tmp_path / "b.json").write_text(json.dumps(record([["", ""], ["TO", ""]])))
    assert checker.main([str(tmp_path)]) == 1
    (tmp_path / "b.json").write_text("{ not json")
    assert checker.main([str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "unreadable match record" in out and "2 matches checked, 1 failed" in out


def test_every_exchange_is_logged(caplog):
    """`ggp serve -v` promises a log line per request: message, status, reply, time."""
    with caplog.at_level(logging.DEBUG, logger="ggp.ggpnet.transport"):
        with running(lambda text, received: (200, "ready")) as (server,):
            assert send_message(server.url, "( INFO )", 5).reply == "ready"
            assert send_message(server.url, "(play m1 NIL)", 5).reply == "ready"
    lines = [r.getMessage() for r in caplog.records if "POST" in r.getMessage()]
    assert len(lines) == 2
    # a line is written after its reply is sent, so the next request's line may come first
    assert any("'( INFO )' -> 200 'ready' in " in line for line in lines)
    assert any("'(play m1 NIL)' -> 200 'ready' in " in line for line in lines)
    # the interop checker reads these lines back for our player's reply times
    times = checker.reply_times("\n".join(f"DEBUG:ggp.ggpnet.transport:{line}" for line in lines))
    assert sorted(times) == ["INFO", "PLAY"] and all(len(t) == 1 for t in times.values())


def test_manager_refuses_fractional_clocks_unless_told(tmp_path, capsys):
    with pytest.raises(GGPError, match="whole seconds"):
        MatchConfig(start_clock=10, play_clock=1.5)
    with pytest.raises(GGPError, match="whole seconds"):
        MatchConfig(start_clock=2.5, play_clock=1)
    assert MatchConfig(start_clock=10, play_clock=1.5, fractional_clocks=True).play_clock == 1.5
    game = str(gdl_file("nim1.kif"))
    assert cli_main(["manage", game, "-p", "random", "-p", "random", "--play-clock", "1.5",
                     "--out", str(tmp_path / "a")]) == 2
    captured = capsys.readouterr()
    assert "whole seconds" in captured.err + captured.out


def test_start_carries_integer_clocks_a_strict_player_accepts():
    """A player that reads the clocks as ggp-base does (integers, else no answer)."""
    starts = []

    def strict(text, received):
        fields = text.strip("() ").split()
        if fields[0].upper() == "START":
            starts.append(text)
            int(text.rstrip(") ").split()[-1])  # ggp-base: Integer.valueOf, else no reply
            int(text.rstrip(") ").split()[-2])
            return 200, "ready"
        return 200, "noop" if fields[0].upper() == "PLAY" else "done"

    game = load_match_game(gdl_file("ticTacToe.kif"))
    with running(strict) as (server,):
        record = run_match(game, {"xplayer": LOCAL_RANDOM, "oplayer": server.url},
                           MatchConfig(start_clock=3, play_clock=1.0, seed=0))
    assert starts and starts[0].endswith(" 3 1)")
    assert record["start"]["oplayer"]["error"] is None


def test_checker_reads_our_managers_records(tmp_path, capsys):
    game = load_match_game(gdl_file("ticTacToe.kif"))
    rec = run_match(game, {"xplayer": LOCAL_RANDOM, "oplayer": LOCAL_RANDOM},
                    MatchConfig(start_clock=1, play_clock=1, seed=3))
    check = checker.check_manager_record(rec)
    assert check.ok and check.steps == len(rec["steps"]) and check.our_seats == [0, 1]
    rec["errors"].append({"turn": 2, "role": "oplayer", "kind": "illegal", "detail": None,
                          "reply": "busy", "seconds": 0.01, "substitute": "noop"})
    bad = checker.check_manager_record(rec)
    assert not bad.ok and bad.our_errors == ["step 3: illegal, reply 'busy'"]
    (tmp_path / "m.json").write_text(json.dumps(rec))
    (tmp_path / "tournament.json").write_text(json.dumps({"agents": ["a", "b"]}))  # skipped
    assert checker.main([str(tmp_path)]) == 1
    assert "[ggp manage] FAIL" in capsys.readouterr().out


def test_negative_control_must_show_errors(tmp_path, capsys):
    players = ("ggp-python", "SampleNoopGamer")
    path = tmp_path / "control.json"
    path.write_text(json.dumps(record([["", ""], ["", "IL NOOP"]], players)))
    assert checker.main([str(tmp_path), "--expect-errors", "SampleNoopGamer"]) == 0
    path.write_text(json.dumps(record([["", ""], ["", ""]], players)))  # errors not recorded
    assert checker.main([str(tmp_path), "--expect-errors", "SampleNoopGamer"]) == 1
    assert "must have errors -> NO" in capsys.readouterr().out


def test_a_missed_play_nil_does_not_lose_the_rest_of_the_match():
    """In the ggp-base run a 21 s stall made the player handle a match's PLAY NIL before
    its START ('busy'), and it then refused every later PLAY (409: the first PLAY must
    carry NIL). In GDL the next PLAY's joint move was made from the initial state, so
    the player now goes on from there."""
    game = load_match_game(gdl_file("ticTacToe.kif"))
    start = start_message("m1", "xplayer", rules_list(game.rules), 10, 1)
    player = quick_player()
    assert player.handle("(PLAY m1 NIL)") == (200, "busy")  # before the START
    assert player.handle(start) == (200, "ready")
    assert player.handle("(PLAY m1 ((mark 1 1) noop))") == (200, "noop")  # oplayer's turn
    status, move = player.handle("(PLAY m1 (noop (mark 2 2)))")
    state = game.initial()
    for joint in ({"xplayer": "(mark 1 1)", "oplayer": "noop"},
                  {"xplayer": "noop", "oplayer": "(mark 2 2)"}):
        state, _ = game.step(state, joint)
    assert status == 200 and move in game.legal(state)["xplayer"]
    assert player.handle("(PLAY m1 NIL)")[0] == 409  # NIL only ever comes first
    assert player.handle(f"(STOP m1 ({move} noop))") == (200, "done")


def test_gdl_ii_still_needs_its_first_play():
    game = load_match_game(gdl_file("montyhall.gdl"))
    start = start_message("m1", "candidate", rules_list(game.rules), 10, 1)
    player = quick_player()
    assert player.handle(start) == (200, "ready")
    assert player.handle("(PLAY m1 ((does random (hide_car 1))))")[0] == 409
    assert player.handle("(ABORT m1)") == (200, "aborted")
