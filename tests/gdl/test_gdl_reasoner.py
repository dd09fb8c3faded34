"""Reasoner edge cases (the answers ggp-base's tests expect) and compiled vs naive agreement."""

import pytest

from ggp.gdl.compiled import CompiledReasoner
from ggp.gdl.kif import parse_kif, parse_kif_term
from ggp.gdl.naive import NaiveReasoner
from ggp.gdl.reasoner import first_disagreement
from ggp.gdl.terms import to_kif

from gdl_corpus import FILES, HEAVY, REJECTED, path

REASONERS = [CompiledReasoner, NaiveReasoner]


def load(name, cls=CompiledReasoner):
    return cls(parse_kif(path(name).read_text()).rules)


def moves(reasoner, state, role):
    return [to_kif(m) for m in reasoner.legal_moves(state)[role]]


def play(reasoner, state, **joint):
    return reasoner.next_state(state, {r: parse_kif_term(m) for r, m in joint.items()})


@pytest.mark.parametrize("cls", REASONERS)
def test_case_1a_time_invariant_goal(cls):
    r = load("test_case_1a.kif", cls)
    assert r.roles == ["you"]
    s = r.initial_state()
    assert not r.is_terminal(s) and r.goals(s) == [100]
    s = play(r, s, you="proceed")
    assert r.is_terminal(s) and r.goals(s) == [100]


@pytest.mark.parametrize("cls", REASONERS)
def test_case_3c_undefined_proposition(cls):
    r = load("test_case_3c.kif", cls)
    s = r.initial_state()
    assert moves(r, s, "xplayer") == ["win"]
    s = play(r, s, xplayer="win")
    assert r.is_terminal(s) and r.goals(s) == [100]


@pytest.mark.parametrize("cls", REASONERS)
@pytest.mark.parametrize("name", ["test_case_5a.kif", "test_case_5c.kif", "test_case_5d.kif"])
def test_case_5acd_recursion(cls, name):
    r = load(name, cls)
    s = r.initial_state()
    assert moves(r, s, "you") == ["proceed"]
    s = play(r, s, you="proceed")
    assert r.is_terminal(s) and r.goals(s) == [100]


@pytest.mark.parametrize("cls", REASONERS)
def test_case_5b_doubled_variables(cls):
    r = load("test_case_5b.kif", cls)
    s = r.initial_state()
    assert moves(r, s, "you") == ["(draw 1 1 1 2)"]
    assert r.is_terminal(play(r, s, you="(draw 1 1 1 2)"))


@pytest.mark.parametrize("cls", REASONERS)
def test_case_5e_seven_moves(cls):
    r = load("test_case_5e.kif", cls)
    assert sorted(moves(r, r.initial_state(), "robot")) == sorted(
        ["(reduce a 0)", "(reduce a 1)"] + [f"(reduce c {i})" for i in range(5)])


@pytest.mark.parametrize("cls", REASONERS)
def test_distinct_beginning_rule(cls):
    r = load("test_distinct_beginning_rule.kif", cls)
    s = r.initial_state()
    assert len(moves(r, s, "you")) == 2
    s = play(r, s, you="(do a b)")
    assert r.is_terminal(s) and r.goals(s) == [100]


@pytest.mark.parametrize("cls", REASONERS)
def test_case_3d_initial_state(cls):
    r = load("test_case_3d.kif", cls)
    s = r.initial_state()
    assert s == {("cell", "alpha")}
    assert moves(r, s, "xplayer") == ["win"]
    s = play(r, s, xplayer="win")
    assert r.is_terminal(s) and r.goals(s) == [100]


@pytest.mark.parametrize("cls", REASONERS)
def test_case_3a_both_propositions(cls):
    r = load("test_case_3a.kif", cls)
    assert moves(r, r.initial_state(), "xplayer") == ["(move correct_correct)"]


@pytest.mark.parametrize("cls", REASONERS)
def test_role_variables_in_legal_and_goal(cls):
    r = load("test_case_3f.kif", cls)
    s = r.initial_state()
    assert r.is_terminal(s)
    assert r.goals(s) == [100, 0, 100]
    assert {role: moves(r, s, role) for role in r.roles} == {
        "xplayer": ["xplayer"], "yplayer": ["yplayer"], "zplayer": ["zplayer"]}


@pytest.mark.parametrize("cls", REASONERS)
def test_not_distinct(cls):
    r = load("test_clean_not_distinct.kif", cls)
    s = play(r, r.initial_state(), player="proceed")
    assert r.is_terminal(s) and r.goals(s) == [100]


def test_tictactoe_first_moves():
    r = load("ticTacToe.kif")
    s = r.initial_state()
    assert len(moves(r, s, "xplayer")) == 9 and moves(r, s, "oplayer") == ["noop"]
    s = play(r, s, xplayer="(mark 2 2)", oplayer="noop")
    assert len(moves(r, s, "oplayer")) == 8 and moves(r, s, "xplayer") == ["noop"]
    assert ("cell", "2", "2", "x") in s


# the naive interpreter needs seconds to minutes per step on these (checked by hand with
# longer runs; see docs/gdl.md)
NAIVE_TOO_SLOW = HEAVY | {"knightThrough.kif", "breakthrough.kif", "kriegTTT_5x5.gdl",
                          "stratego.gdl", "pentago.kif", "hex.kif"}


@pytest.mark.parametrize("p", [f for f in FILES if f.name not in set(REJECTED) | NAIVE_TOO_SLOW],
                         ids=lambda p: p.name)
def test_compiled_agrees_with_naive_interpreter(p):
    rules = parse_kif(p.read_text()).rules
    assert first_disagreement(CompiledReasoner(rules), NaiveReasoner(rules), 12, seed=7) is None
