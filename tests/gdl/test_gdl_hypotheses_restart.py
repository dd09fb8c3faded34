"""Getting a GDL-II belief back: fresh forward passes in turn with the depth-first search,
a match that goes on rules out terminal states, and relaxed hypotheses get a short budget."""

import random
import time

import pytest
from test_gdl_hypotheses_weights import _FACE_DOWN, _fluent_texts, _replays

from ggp.gdl import hypotheses as hypotheses_module
from ggp.gdl.hypotheses import HypothesisTracker
from ggp.gdl.match import MatchGame


# nature picks one of 40 options; the match ends at once unless it picked 7
_ONLY_SEVEN_GOES_ON = "\n".join([
    "(role player) (role random)",
    *[f"(opt {i})" for i in range(1, 41)],
    "(init (phase 0))",
    "(<= (legal random (pick ?x)) (true (phase 0)) (opt ?x))",
    "(<= (legal random noop) (true (phase 1)))",
    "(<= (legal player noop) (true (phase 0)))",
    "(<= (legal player noop) (true (phase 1)))",
    "(<= (next (chosen ?x)) (does random (pick ?x)))",
    "(<= (next (chosen ?x)) (true (chosen ?x)))",
    "(<= (next (phase 1)) (true (phase 0)))",
    "(<= (next (phase 2)) (true (phase 1)))",
    "(<= terminal (true (phase 1)) (not (true (chosen 7))))",
    "(<= terminal (true (phase 2)))",
    "(goal player 0) (goal random 0)",
])


@pytest.mark.parametrize("deadline", [None, 20.0])
def test_a_match_that_goes_on_rules_out_terminal_hypotheses(monkeypatch, deadline) -> None:
    """No hypothesis drew the 7 and all are terminal; the match going on rules them out,
    and a fresh forward pass of the filter finds the 7 (the depth-first search is not
    needed)."""
    def no_search(*args, **kwargs):
        raise AssertionError("the depth-first search was not needed")

    game = MatchGame(_ONLY_SEVEN_GOES_ON, gdl_ii=True, name="seven")
    for seed in range(100):
        tracker = HypothesisTracker(game, "player", rng=random.Random(seed))
        tracker.observe("noop", [])
        if all(game.is_terminal(h.state) for h in tracker.hypotheses):
            break  # no hypothesis drew the 7 (about 3 seeds in 10)
    else:
        pytest.fail("every seed drew the 7")
    assert tracker.exact and tracker.ensure() == tracker.hypotheses  # the match may be over
    monkeypatch.setattr(tracker, "_depth_first", no_search)
    hypotheses = tracker.ensure(None if deadline is None else time.monotonic() + deadline,
                                going_on=True)
    assert tracker.exact and hypotheses
    assert all("(chosen 7)" in _fluent_texts(game, h.state) for h in hypotheses)
    assert all(_replays(game, "player", tracker.record, h) for h in hypotheses)
    assert tracker.levels[-1] == hypotheses


def test_relaxed_hypotheses_get_a_short_budget_for_new_percepts(monkeypatch) -> None:
    game = MatchGame(_FACE_DOWN, gdl_ii=True, name="face_down")
    tracker = HypothesisTracker(game, "player", rng=random.Random(0))
    budgets = []
    advance = tracker._advance

    def timed_advance(hypotheses, move, seen, deadline):
        if seen is not None:
            budgets.append(None if deadline is None else deadline - time.monotonic())
        return advance(hypotheses, move, seen, deadline)

    monkeypatch.setattr(tracker, "_advance", timed_advance)
    tracker.observe("noop", [])
    assert budgets == [None]  # consistent hypotheses: the caller's deadline (none)
    tracker.exact = False
    tracker.observe("noop", [])
    assert budgets[1] is not None
    assert budgets[1] <= hypotheses_module._INEXACT_SECONDS
