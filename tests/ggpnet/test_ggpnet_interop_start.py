"""START timing found in the ggp-base interoperability run: the full garbage collection
postponed during a match used to start while the next START was parsed and prepared, and
held every thread past the start clock (ggp-base gives START no grace). The player now
runs it right after a match ends (background thread, after the reply), again first
thing in the start clock when there is time, and then holds the collector.
Tests check that order, not times."""

import gc
import threading
import time

import pytest
from ggpnet_helpers import gdl_file, quick_player

from ggp.ggpnet import player as player_module
from ggp.gdl.match import load_match_game
from ggp.ggpnet.messages import rules_list, start_message

HELD = 1_000_000  # the generation-2 threshold while a match holds the collector


def start_text(match_id: str, role: str = "xplayer") -> str:
    game = load_match_game(gdl_file("ticTacToe.kif"))
    return start_message(match_id, role, rules_list(game.rules), 10, 1)


def restored(thresholds, within: float = 30.0) -> bool:
    """Whether the normal thresholds come back (after the background collection)."""
    end = time.monotonic() + within
    while gc.get_threshold() != thresholds and time.monotonic() < end:
        time.sleep(0.02)
    return gc.get_threshold() == thresholds


@pytest.fixture
def events(monkeypatch):
    """Record, in order, the player's full collections and its rule compilations (with
    the generation-2 threshold in force while compiling)."""
    seen = []
    real_collect = player_module._QuietGC.collect
    real_load = player_module.GGPPlayer._load

    def collect(self, until):
        ran = real_collect(self, until)
        seen.append(("collect", ran))
        return ran

    def load(self, match, gdl_ii):
        seen.append(("load", gc.get_threshold()[2]))
        return real_load(self, match, gdl_ii)

    monkeypatch.setattr(player_module._QuietGC, "collect", collect)
    monkeypatch.setattr(player_module.GGPPlayer, "_load", load)
    return seen


def test_start_collects_first_then_holds_the_collector_until_the_match_ends(events):
    if player_module._QuietGC._holders:
        pytest.skip("a match left running by an earlier test holds the collector")
    before = gc.get_threshold()
    player = quick_player()
    for match_id in ("m1", "m2"):  # the second START follows a finished match
        assert player.handle(start_text(match_id)) == (200, "ready")
        assert gc.get_threshold()[2] == HELD
        assert player.handle(f"(STOP {match_id} NIL)") == (200, "done")
        assert restored(before)
    assert events == [("collect", True), ("load", HELD)] * 2


def test_refused_start_gives_the_collector_back(events):
    if player_module._QuietGC._holders:
        pytest.skip("a match left running by an earlier test holds the collector")
    before = gc.get_threshold()
    player = quick_player()
    status, body = player.handle(start_text("m1", role="nobody"))
    assert status == 400 and "nobody" in body
    assert restored(before)
    assert events[0] == ("collect", True)


def test_collection_is_skipped_without_time_or_during_another_match():
    if player_module._QuietGC._holders:
        pytest.skip("a match left running by an earlier test holds the collector")
    quiet = player_module._QuietGC()
    assert not quiet.collect(until=time.monotonic())  # the start clock is (nearly) over
    other = player_module._QuietGC()
    other.hold()
    try:
        assert not quiet.collect(until=time.monotonic() + 60)  # another match is running
    finally:
        other.release()
    assert quiet.collect(until=time.monotonic() + 60)


def test_the_match_garbage_is_collected_right_after_the_match():
    if player_module._QuietGC._holders:
        pytest.skip("a match left running by an earlier test holds the collector")
    collected = threading.Event()

    def seen(phase, info):
        if (phase == "stop" and info["generation"] == 2
                and threading.current_thread().name == "ggp-gc-after-match"):
            collected.set()

    player = quick_player()
    assert player.handle(start_text("m1")) == (200, "ready")
    gc.callbacks.append(seen)
    try:
        assert gc.get_threshold()[2] == HELD
        assert player.handle("(STOP m1 NIL)") == (200, "done")
        assert collected.wait(30)
    finally:
        gc.callbacks.remove(seen)


def test_each_turn_collects_the_previous_turns_garbage_when_there_is_time(monkeypatch):
    if player_module._QuietGC._holders:
        pytest.skip("a match left running by an earlier test holds the collector")
    # the estimate is per process: a slow collection in an earlier test must not decide
    monkeypatch.setattr(player_module._QuietGC, "_turn_seconds", 0.0)
    in_turn = threading.Event()

    def seen(phase, info):
        if (phase == "stop" and info["generation"] == 2
                and threading.current_thread().name.startswith("ggp-play-")):
            in_turn.set()

    player = quick_player()
    game = load_match_game(gdl_file("ticTacToe.kif"))
    start = start_message("m1", "xplayer", rules_list(game.rules), 10, 5)
    assert player.handle(start) == (200, "ready")
    gc.callbacks.append(seen)
    try:
        status, move = player.handle("(PLAY m1 NIL)")
        assert status == 200 and move.startswith("(mark")
        assert in_turn.is_set()  # ran in the worker before it chose the move
    finally:
        gc.callbacks.remove(seen)
        player.handle("(STOP m1 NIL)")
