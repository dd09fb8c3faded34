"""Grounding gives up when the process's memory grows past its budget (issue 30): a few
hundred bytes of rules can ask the relaxed fixpoint for millions of atoms."""

from __future__ import annotations

import resource

import pytest

from ggp.gdl.adapter import load_gdl_text
from ggp.gdl.description import parse_description
from ggp.gdl.ground import GroundingLimits, NotGroundable, ground

BOMB = """
(role a) (role b)
(d 0) (d 1) (d 2) (d 3) (d 4) (d 5) (d 6) (d 7) (d 8) (d 9)
(<= (big ?p ?q ?r ?s ?t ?u ?v) (d ?p) (d ?q) (d ?r) (d ?s) (d ?t) (d ?u) (d ?v))
(init (cell 0))
(<= (legal a (mark ?p)) (big ?p ?q ?r ?s ?t ?u ?v))
(<= (legal b noop))
(<= (next (cell ?p)) (does a (mark ?p)))
(<= terminal (true (cell 9)))
(<= (goal a 100) (true (cell 9)))
(<= (goal b 0) (true (cell 9)))
(<= (goal a 0) (not (true (cell 9))))
(<= (goal b 100) (not (true (cell 9))))
"""

TINY = """
(role a) (init (s 0)) (<= (legal a go) (true (s 0))) (<= (next (s 1)) (does a go))
(<= terminal (true (s 1))) (<= (goal a 100) (true (s 1)))
"""


def test_grounding_stops_at_its_memory_budget():
    rules = parse_description(BOMB, "bomb", "kif").rules
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    with pytest.raises(NotGroundable, match="more than 50 MB of memory"):
        ground(rules, GroundingLimits(max_memory_mb=50, seconds=60))
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - before
    assert grown < 300


def test_small_games_ground_under_the_default_budget():
    assert ground(parse_description(TINY, "tiny", "kif").rules).fluents
    model = load_gdl_text(TINY, name="tiny", syntax="kif")
    assert model.metadata.extra["engine"] in ("grounded", "compiled")
