"""The grounder's semi-naive fixpoint gives the ground programs the naive one gave."""

import hashlib

import pytest

from ggp.gdl import ground as ground_module
from ggp.gdl.compiled import CompiledReasoner
from ggp.gdl.ground import GroundingLimits
from ggp.gdl.kif import parse_kif
from ggp.gdl.terms import to_kif

from gdl_corpus import FILES, HEAVY, REJECTED, path

ROOMY = GroundingLimits(seconds=60)
# games that exceed the default caps (test_gdl_grounded.TOO_BIG) or take long to ground
SKIP = HEAVY | {"hex.kif", "quarto.kif", "twogenerals.gdl", "knightThrough.kif"}
# sha256 prefixes of ground programs built by the naive grounder (main at 3c016f3)
DIGESTS = {"ticTacToe.kif": "9fa38ae17052", "nim1.kif": "7fceba81b094",
           "montyhall.gdl": "2e4f61ef1bc4", "backgammon.gdl": "6d2b12a580a7"}


def rules_of(p):
    return parse_kif(p.read_text()).rules


def digest(program) -> str:
    """Order-independent digest of the fluents and the ground rules of each head."""
    h = hashlib.sha256()
    h.update(repr(sorted(map(to_kif, program.fluents))).encode())
    for head in sorted(program.rules, key=repr):
        h.update(repr((head, sorted(program.rules[head], key=repr))).encode())
    return h.hexdigest()[:12]


def as_comparable(program):
    return (program.roles, program.init, program.fluents, program.moves,
            {head: set(bodies) for head, bodies in program.rules.items()},
            program.num_rules)


@pytest.mark.parametrize("p", [f for f in FILES if f.name not in set(REJECTED) | SKIP],
                         ids=lambda p: p.name)
def test_semi_naive_grounding_equals_naive_grounding(p, monkeypatch):
    rules = rules_of(p)
    fast = ground_module._ground(rules, ROOMY)
    monkeypatch.setattr(ground_module._Budgeted, "semi_naive", False)
    slow = ground_module._ground(rules, ROOMY)
    assert as_comparable(fast) == as_comparable(slow)


@pytest.mark.parametrize("name", sorted(DIGESTS))
def test_ground_programs_are_those_of_the_naive_grounder(name):
    assert digest(ground_module._ground(rules_of(path(name)), ROOMY)) == DIGESTS[name]


RECURSIVE = """
(role r)
(edge a b) (edge b c) (edge c d) (edge d b) (edge e e)
(<= (path ?x ?y) (edge ?x ?y))
(<= (path ?x ?z) (path ?x ?y) (path ?y ?z))
(<= (even ?x ?y) (edge ?x ?y) (edge ?y ?x))
(<= (loop ?x) (path ?x ?x))
(<= (ping ?x) (pong ?x))
(<= (pong ?x) (ping ?x))
(<= (ping a) (loop b))
(<= (legal r (go ?x)) (loop ?x))
(<= (legal r (go ?x)) (ping ?x))
(goal r 100)
terminal
"""


class _SemiNaive(CompiledReasoner):
    semi_naive = True


def test_semi_naive_strata_match_naive_strata():
    # non-linear recursion (path from two path literals) and mutual recursion (ping/pong)
    rules = parse_kif(RECURSIVE).rules
    naive, fast = CompiledReasoner(rules), _SemiNaive(rules)
    assert naive._static == fast._static
    assert naive._static["path/2"] == {(x, y) for x in "abcd" for y in "bcd"} | {("e", "e")}
    assert fast._static["ping/1"] == {("a",)}
    assert not any("$new" in k for k in fast._static)
