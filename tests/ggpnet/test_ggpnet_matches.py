"""Our manager against our player (and misbehaving players) over loopback HTTP."""

import json
import socket
import threading
import time

import pytest
from ggpnet_helpers import gdl_file, quick_player, running

from ggp.arena.report import write_report
from ggp.arena.stats import tabulate
from ggp.arena.store import read_records
from ggp.core.errors import GGPError
from ggp.gdl.match import load_match_game
from ggp.ggpnet.manager import LOCAL_RANDOM, MatchConfig, arena_row, run_match, run_series
from ggp.ggpnet.player import GGPPlayer
from ggp.ggpnet.transport import send_message

# play clock 1 s: at 0.5 s the well-behaved player was occasionally late itself when the
# suite ran in two processes on two loaded cores
QUICK = dict(start_clock=5, play_clock=1.0, grace=0.5, seed=1, fractional_clocks=True)


def play(game, handlers, **config):
    """Run one match with one server per handler, seats in role order (nature skipped)."""
    seats = [r for r in game.roles if r != game.nature]
    with running(*handlers) as servers:
        endpoints = dict(zip(seats, [s.url for s in servers]))
        return run_match(game, endpoints, MatchConfig(**{**QUICK, **config}))


def check_complete(record, game):
    assert record["aborted"] is None
    assert set(record["goals"]) == set(game.roles)
    assert all(0 <= v <= 100 for v in record["goals"].values())
    assert all(entry["reply"] == "done" for entry in record["stop"].values())
    for step in record["steps"]:
        assert set(step["moves"]) == set(game.roles)


@pytest.mark.parametrize("name, form, clock", [
    ("ticTacToe.kif", "gdl", 0.5), ("roshambo2.kif", "gdl", 0.5), ("nim1.kif", "gdl", 0.5),
    ("roshambo2.kif", "gdl2", 0.5),  # a GDL game in the GDL-II form: everyone sees all moves
    ("tictactoe_3player.kif", "gdl", 0.5),
    ("montyhall.gdl", "gdl2", 0.5), ("montyhall.gdl", "gdl2-legacy", 0.5),
    # belief updates between turns: room for a loaded machine (two test processes)
    ("kriegTTT_4x4.gdl", "gdl2", 1.0), ("kriegTTT_4x4.gdl", "gdl2-legacy", 1.0),
    ("guessSix.gdl", "gdl2", 0.5), ("guessSix.gdl", "gdl2-legacy", 0.5),
    ("numberguessing.gdl", "gdl2-legacy", 0.5),
    # 52 cards dealt by nature: tracking the hidden cards needs more than a split second
    ("blackjack.gdl", "gdl2", 3.0),
])
def test_our_players_complete_matches_without_errors(name, form, clock):
    game = load_match_game(gdl_file(name))
    players = [quick_player(i) for i in range(len(game.roles) - bool(game.nature))]
    record = play(game, [p.handle for p in players], form=form, upper=form != "gdl",
                  play_clock=clock)
    check_complete(record, game)
    assert record["errors"] == []
    assert record["form"] == form and record["gdl_ii"] == (form != "gdl")
    if record["gdl_ii"] and not game.gdl_ii:
        for step in record["steps"]:
            assert step["percepts"]["white"] == sorted(
                f"(did {r} {m})" for r, m in step["moves"].items())
    if game.gdl_ii:  # each player saw only its own percepts, recorded per step
        assert all(set(s["percepts"]) == set(game.roles) for s in record["steps"])


@pytest.mark.parametrize("name", ["ticTacToe.kif", "montyhall.gdl"])
def test_search_player_matches(name):
    game = load_match_game(gdl_file(name))
    seats = [r for r in game.roles if r != game.nature]
    ours = GGPPlayer("ours", seed=0, margin=0.3)
    handlers = [ours.handle] + [quick_player(i).handle for i in range(1, len(seats))]
    record = play(game, handlers, play_clock=0.8, grace=1.0)
    check_complete(record, game)
    assert record["errors"] == []


def misbehaving(kind, release):
    """A player that answers START/STOP properly but PLAY late, illegally, or badly."""
    def handle(text, received):
        head = text.strip("( ").split()[0].upper()
        if head == "START":
            return 200, "ready"
        if head in ("STOP", "ABORT"):
            return 200, "done"
        if kind == "late":
            release.wait(5)
            return 200, "noop"
        if kind == "illegal":
            return 200, "(fly away)"
        if kind == "garbage":
            return 200, "((("
        return 500, "error: broken"
    return handle


@pytest.mark.parametrize("name", ["ticTacToe.kif", "kriegTTT_4x4.gdl"])
@pytest.mark.parametrize("kind", ["late", "illegal", "garbage", "http", "dead"])
def test_bad_player_moves_are_replaced_and_recorded(name, kind):
    game = load_match_game(gdl_file(name))
    release = threading.Event()
    good = quick_player(7)
    try:
        if kind == "dead":
            with running(good.handle) as (server,):
                sock = socket.socket()
                sock.bind(("127.0.0.1", 0))
                dead = f"http://127.0.0.1:{sock.getsockname()[1]}/"
                sock.close()
                record = run_match(game, {game.roles[0]: dead, game.roles[1]: server.url},
                                   MatchConfig(**{**QUICK, "grace": 0.2}))
        else:
            record = play(game, [misbehaving(kind, release), good.handle], grace=0.2)
    finally:
        release.set()
    if kind != "dead":  # a dead player answers no STOP either
        check_complete(record, game)
    assert record["goals"] is not None and record["aborted"] is None
    bad = game.roles[0]
    errors = [e for e in record["errors"] if e["turn"] >= 0]
    assert errors and all(e["role"] == bad for e in errors)
    expected = {"late": "no reply", "dead": "no reply", "http": "no reply",
                "illegal": "illegal", "garbage": "unparseable"}[kind]
    assert {e["kind"] for e in errors} == {expected}
    for e in errors:  # the substitute is what was played
        step = record["steps"][e["turn"]]
        assert step["moves"][bad] == e["substitute"]
    if game.gdl_ii:  # Dresden: the first legal move; the player learns it via lastmove
        first = game.legal(game.initial())[bad][0]
        assert record["steps"][0]["moves"][bad] == first


def test_series_rotates_roles_and_writes_arena_rows(tmp_path):
    game = load_match_game(gdl_file("nim1.kif"))
    a, b = quick_player(1), quick_player(2)
    with running(a.handle, b.handle) as (sa, sb):
        rows = run_series(game, [sa.url, LOCAL_RANDOM], 2, MatchConfig(**QUICK), tmp_path,
                          labels={sa.url: "ours"})
    assert [r["seats"] for r in rows] == [["ours", "random"], ["random", "ours"]]
    lines = (tmp_path / "results.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in lines] == rows
    for i, row in enumerate(rows):
        record = json.loads((tmp_path / f"{row['key']}.json").read_text())
        assert row == {**arena_row(record, {sa.url: "ours"}), "index": i}
        assert sorted(row["returns"]) == [0.0, 100.0]  # nim: one winner
        assert row["forfeit"] is None and len(row["moves"]) == 2
    # the directory is an arena tournament directory: its statistics and report read it
    cells, errors = tabulate(read_records(tmp_path / "results.jsonl"))
    assert errors == 0 and {(c.agent, c.seat) for c in cells} == {
        ("ours", 0), ("ours", 1), ("random", 0), ("random", 1)}
    report = write_report(tmp_path, plots=False)["markdown"].read_text()
    assert "| ours | P0 | random | 1 |" in report
    with pytest.raises(GGPError):  # results are never mixed with an earlier series
        run_series(game, [LOCAL_RANDOM, LOCAL_RANDOM], 1, MatchConfig(**QUICK), tmp_path)


def test_step_limit_aborts_and_tells_the_players():
    game = load_match_game(gdl_file("nim1.kif"))
    players = [quick_player(1), quick_player(2)]
    record = play(game, [p.handle for p in players], max_steps=2)
    assert record["aborted"] and record["goals"] is None and len(record["steps"]) == 2
    assert all(p.matches_ended == 1 for p in players)  # each answered ABORT


def test_player_survives_hostile_traffic_during_a_match():
    """Garbage, oversized and foreign messages sent to our player in the middle of a
    match get error or busy replies, and the match goes on without a single error."""
    game = load_match_game(gdl_file("ticTacToe.kif"))
    ours = GGPPlayer("ours", seed=3, margin=0.2)
    result = {}
    with running(ours.handle, quick_player(4).handle, max_message=100_000) as (a, b):
        match = threading.Thread(target=lambda: result.update(record=run_match(
            game, {"xplayer": a.url, "oplayer": b.url}, MatchConfig(**QUICK))))
        match.start()
        try:
            for _ in range(200):  # until the match has started
                if "(status busy)" in (send_message(a.url, "(INFO)", 2).reply or ""):
                    break
                time.sleep(0.02)
            replies = [send_message(a.url, text, 2) for text in [
                "garbage (((", "(START other xplayer ((role xplayer)) 1 1)", "(PLAY other NIL)",
                "(PLAY " + "(" * 1000, "(STOP other NIL)", "x" * 200_000]]
        finally:
            match.join(60)
    record = result["record"]
    check_complete(record, game)
    assert record["errors"] == []
    statuses = [ex.error or ex.reply for ex in replies]
    assert statuses == ["http 400", "busy", "busy", "http 400", "busy", "http 413"]


def test_gdl_game_with_a_role_named_random():
    """ggp.org's beatMania.kif is plain GDL whose first role is called random: the
    player learns from the second PLAY that the server speaks GDL, not GDL-II."""
    game = load_match_game(gdl_file("beatMania.kif"))
    assert not game.gdl_ii and game.roles == ["random", "player"]
    ours = quick_player(5)
    seen = []

    def handle(text, received):
        reply = ours.handle(text, received)
        match = ours._match
        if match is not None and match.game is not None:
            seen.append(match.game.gdl_ii)
        return reply

    with running(handle) as (server,):
        record = run_match(game, {"random": LOCAL_RANDOM, "player": server.url},
                           MatchConfig(**{**QUICK, "max_steps": 30}))
    assert record["errors"] == [] and len(record["steps"]) >= 2
    assert seen[0] is True and seen[-1] is False  # GDL-II until the joint move came
