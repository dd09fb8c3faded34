"""START timing found in the ggp-base interoperability run: the full garbage collection
postponed during a match used to start during the next START's preparation, at any
moment, and held every thread past the start clock (ggp-base gives START no grace). The
player now runs it itself first thing in the start clock and then holds the collector.
Tests check that order, not times."""

import gc
import time

import pytest
from ggpnet_helpers import gdl_file, quick_player

from ggp.ggpnet import player as player_module
from ggp.ggpnet.game import load_match_game
from ggp.ggpnet.messages import rules_list, start_message

HELD = 1_000_000  # the generation-2 threshold while a match holds the collector


def start_text(match_id: str, role: str = "xplayer") -> str:
    game = load_match_game(gdl_file("ticTacToe.kif"))
    return start_message(match_id, role, rules_list(game.rules), 10, 1)


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
        assert gc.get_threshold() == before
    assert events == [("collect", True), ("load", HELD)] * 2


def test_refused_start_gives_the_collector_back(events):
    if player_module._QuietGC._holders:
        pytest.skip("a match left running by an earlier test holds the collector")
    before = gc.get_threshold()
    player = quick_player()
    status, body = player.handle(start_text("m1", role="nobody"))
    assert status == 400 and "nobody" in body
    assert gc.get_threshold() == before
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
