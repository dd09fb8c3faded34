"""Demand transformation of the compiled reasoner (ggp.gdl.demand): same answers as the
full bottom-up evaluation and the naive interpreter, on games made to exercise it and on
the corpus; and the engine race's bound on a slow engine."""

import random
import time

import pytest

from ggp.gdl.compiled import CompiledReasoner
from ggp.gdl.demand import transform
from ggp.gdl.kif import parse_kif
from ggp.gdl.naive import NaiveReasoner
from ggp.gdl.program import dependencies, normalize, strata

from gdl_corpus import FILES, REJECTED

# A line of five cells: the piece slides right over empty cells, "ignoring" the square it
# leaves (an argument every use binds, recursive); "safe" is used in a negation with all
# arguments bound, and once in a rule whose variables only a does literal binds.
SLIDE = """
(role p)
(init (at 1)) (init (cell 3 x))
(succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
(idx 1) (idx 2) (idx 3) (idx 4) (idx 5)
(<= (empty ?c) (idx ?c) (not (true (at ?c))) (not (true (cell ?c x))))
(<= (clear_ig ?a ?b ?ig) (succ ?a ?b) (idx ?ig))
(<= (clear_ig ?a ?c ?ig) (succ ?a ?b) (empty ?b) (clear_ig ?b ?c ?ig))
(<= (clear_ig ?a ?c ?b) (succ ?a ?b) (clear_ig ?b ?c ?b))
(<= (reach ?x ?y) (true (at ?x)) (idx ?y) (clear_ig ?x ?y ?x))
(<= (attacked ?y ?ig) (true (cell ?z x)) (idx ?y) (idx ?ig) (succ ?z ?y))
(<= (safe ?y ?ig) (idx ?y) (idx ?ig) (not (attacked ?y ?ig)))
(<= (legal p (go ?y)) (reach ?x ?y) (empty ?y) (safe ?y ?x))
(<= (legal p (kill ?c)) (true (cell ?c x)) (true (at ?x)) (not (attacked ?c ?x)))
(legal p wait)
(<= (next (at ?y)) (does p (go ?y)))
(<= (next (at ?x)) (true (at ?x)) (not (moved)))
(<= moved (does p (go ?y)))
(<= (next (cell ?c x)) (true (cell ?c x)) (not (does p (kill ?c))))
(<= (next (mark ?y)) (does p (go ?y)) (safe ?y ?y))
(<= (next (count ?n)) (true (count ?m)) (succ ?m ?n))
(init (count 1))
(<= terminal (true (count 5)))
(<= (goal p 100) (true (at 5)))
(<= (goal p 0) (not (true (at 5))))
"""

# demand rules in a cycle through a negation: p's demand reads (not (q ?y)) and q's
# demand reads (p ?x), so p and q must lose their demand (the rules would not be stratified)
NEGATED_CYCLE = """
(role r)
(init (on 1)) (init (off 2))
(idx 1) (idx 2) (idx 3)
(<= (p ?x) (true (on ?x)))
(<= (q ?x) (true (off ?x)))
(<= (legal r (a ?x)) (idx ?x) (p ?x) (q ?x))
(<= (legal r (b ?y)) (idx ?y) (not (q ?y)) (p ?y))
(<= (legal r (c ?y)) (idx ?y) (not (q ?y)))
(<= (next (on ?x)) (does r (c ?x)))
(<= (next (off ?x)) (true (on ?x)))
(<= terminal (true (off 3)))
(goal r 50)
"""


def playouts(reasoner, seed: int, steps: int = 30) -> list:
    rng, out = random.Random(seed), []
    state = reasoner.initial_state()
    for _ in range(steps):
        if reasoner.is_terminal(state):
            out.append(reasoner.goals(state))
            break
        legal = reasoner.legal_moves(state)
        out.append(legal)
        state, percepts = reasoner.step(state, {r: rng.choice(m) for r, m in legal.items()})
        out.append((state, percepts))
    return out


def agree(rules, seeds=range(5), steps: int = 30, naive: bool = True) -> CompiledReasoner:
    fast = CompiledReasoner(rules, demand=True)
    full = CompiledReasoner(rules, demand=False)
    for seed in seeds:
        expected = playouts(full, seed, steps)
        assert playouts(fast, seed, steps) == expected
        if naive:
            assert playouts(NaiveReasoner(rules), seed, steps) == expected
    return fast


def test_demand_restricts_relations_the_uses_bind_and_keeps_the_answers():
    rules = parse_kif(SLIDE).rules
    r = agree(rules, seeds=range(20))
    # clear_ig is used with all arguments bound (its own recursion included); attacked
    # is only ever tested with both arguments known
    assert r.demanded["clear_ig/3"] == (0, 1, 2)
    assert r.demanded["attacked/2"] == (0, 1)
    assert "reach/2" not in r.demanded  # legal uses it with nothing bound
    # in next's rule only a does literal binds ?y, and a demand rule leaves does out
    # (it would make safe depend on the joint move): nothing is bound at that use
    assert "safe/2" not in r.demanded


def test_demand_computes_fewer_facts():
    rules = parse_kif(SLIDE).rules
    fast, full = CompiledReasoner(rules), CompiledReasoner(rules, demand=False)
    state = fast.initial_state()
    fast.legal_moves(state), full.legal_moves(state)
    small = fast._state_ctx(state).rel["clear_ig/3"]
    big = full._state_ctx(state).rel["clear_ig/3"]
    assert small < big


def test_demand_through_a_negation_in_a_cycle_is_dropped_until_stratified():
    rules = normalize(parse_kif(NEGATED_CYCLE).rules)
    out, demanded = transform(rules)
    assert "q/1" not in demanded and "p/1" not in demanded
    graph = dependencies(out)
    for comp in strata(graph):
        assert not any(neg and d in comp for k in comp for d, neg in graph.get(k, {}).items())
    agree(parse_kif(NEGATED_CYCLE).rules)


def test_nothing_to_demand_leaves_the_rules_alone():
    rules = normalize(parse_kif("(role a) (init p) (<= (q ?x) (true ?x)) "
                                "(<= (legal a (m ?x)) (q ?x)) (<= (next ?x) (true ?x)) "
                                "(<= terminal (true z)) (goal a 1)").rules)
    assert transform(rules) == (rules, {})


CORPUS = [f for f in FILES if f.name not in REJECTED]


@pytest.mark.parametrize("p", CORPUS, ids=lambda p: p.name)
def test_demand_agrees_with_full_evaluation_on_the_corpus(p):
    rules = parse_kif(p.read_text()).rules
    agree(rules, seeds=range(2), steps=15, naive=False)


def test_the_race_stops_an_engine_that_used_its_budget():
    """A step can take longer than the whole race; such an engine plays no more slices
    (the race used to play at least one step per slice: five such steps per engine)."""
    from ggp.gdl.reasoner import measure_speeds

    rules = parse_kif(SLIDE).rules
    calls = []

    class Slow(CompiledReasoner):
        def next_state(self, state, joint):
            calls.append(1)
            end = time.thread_time() + 0.05
            while time.thread_time() < end:
                pass
            return super().next_state(state, joint)

    speeds = measure_speeds({"ok": CompiledReasoner(rules), "slow": Slow(rules)}, 0.02)
    assert len(calls) == 1 and 0 < speeds["slow"] < speeds["ok"]


def test_deep_static_recursion_is_evaluated_semi_naively():
    """"greater" over a chain of 150 numbers (checkers's step counter): computed once at
    load, semi-naively (re-running every rule each round took rounds x facts: 1.8 s of
    CPU in checkersTiny); the same relation and playouts with play semi-naive (the
    default) or not."""
    succ = " ".join(f"(succ {i} {i + 1})" for i in range(150))
    text = (f"(role a) {succ} (init (n 0)) (<= (greater ?a ?b) (succ ?b ?a)) "
            "(<= (greater ?a ?b) (succ ?c ?a) (greater ?c ?b)) "
            "(<= (legal a (to ?m)) (true (n ?k)) (greater ?m ?k) (succ ?k ?m)) "
            "(<= (next (n ?m)) (does a (to ?m))) (<= terminal (true (n 150))) "
            "(<= (goal a 100) (true (n 150)))")
    rules = parse_kif(text).rules
    r = CompiledReasoner(rules)
    assert len(r._static["greater/2"]) == 150 * 151 // 2
    stratum = r._stratum_of["greater/2"]
    assert r._compiled[stratum][3]  # evaluated semi-naively
    plain = CompiledReasoner(rules)
    plain.semi_naive = False  # static strata stay semi-naive; dynamic ones re-run
    assert r._static["greater/2"] == plain._static["greater/2"]
    assert r._static["greater/2"] == {(str(a), str(b)) for a in range(151) for b in range(a)}
    assert playouts(r, 0, 200) == playouts(plain, 0, 200)


BIG_STATIC = """
(role a)
(v 1) (v 2) (v 3) (v 4) (v 5) (v 6) (v 7) (v 8)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
(<= (spread ?a ?b ?c ?d ?e ?f) (v ?a) (v ?b) (v ?c) (v ?d) (v ?e) (v ?f) (distinct ?a ?b)
    (distinct ?e ?f))
(<= (ok ?x ?b ?c ?d ?e ?f) (spread ?x ?b ?c ?d ?e ?f))
(init (at 1 2 3 4 5 6)) (init (n 0))
(<= (legal a (go ?x)) (v ?x) (true (at ?y ?b ?c ?d ?e ?f)) (ok ?x ?b ?c ?d ?e ?f))
(<= (next (at ?x ?y ?c ?d ?e ?f)) (does a (go ?x)) (true (at ?y ?b ?c ?d ?e ?f)))
(<= (next (n ?m)) (true (n ?k)) (succ ?k ?m))
(<= terminal (true (n 5)))
(<= (goal a 100) (true (at 1 ?b ?c ?d ?e ?f)))
(<= (goal a 0) (not (true (at 1 ?b ?c ?d ?e ?f))))
"""


def test_a_static_relation_too_big_for_the_load_gets_demand(monkeypatch):
    """"spread" is static, 8^6 tuples, and only ever used (through the static "ok") with
    all arguments bound: past its time at load (STATIC_SECONDS, made tiny here) it is
    abandoned and, with its static callers, given demand; the answers are the same as
    computing it completely."""
    import ggp.gdl.compiled as compiled

    monkeypatch.setattr(compiled, "STATIC_SECONDS", 0.0)
    monkeypatch.setattr(compiled, "_TICK_EVERY", 10)
    rules = parse_kif(BIG_STATIC).rules
    r = CompiledReasoner(rules)
    assert r.demanded["spread/6"] == (0, 1, 2, 3, 4, 5)
    assert r.demanded["ok/6"] == (0, 1, 2, 3, 4, 5)
    assert "spread/6" not in r._static
    full = CompiledReasoner(rules, demand=False)
    assert len(full._static["spread/6"]) == 8 ** 4 * 7 * 7
    for seed in range(3):
        assert playouts(r, seed) == playouts(full, seed)


def test_grounding_stops_inside_a_long_rule():
    """The grounder's deadline is checked inside rule evaluation, not only between rules:
    one rule over 8^6 tuples no longer runs to its end."""
    from ggp.gdl.ground import GroundingLimits, NotGroundable, ground

    rules = parse_kif(BIG_STATIC).rules
    started = time.thread_time()
    with pytest.raises(NotGroundable, match="in time"):
        ground(rules, GroundingLimits(seconds=0.01))
    assert time.thread_time() - started < 0.5
