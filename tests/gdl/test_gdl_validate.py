"""Validation: located errors and warnings; the whole corpus is accepted or rejected as recorded."""

import pytest

from ggp.gdl.errors import GDLValidationError
from ggp.gdl.infix import parse_infix
from ggp.gdl.kif import parse_kif
from ggp.gdl.validate import check, validate

from gdl_corpus import FILES, REJECTED

BASE = "(role a)\n(init p)\n(legal a go)\n(<= (next q) (true p))\n(<= terminal (true q))\n(goal a 100)\n"


def issues(text, severity="error", gdl_ii=None):
    return [i for i in validate(parse_kif(text), gdl_ii) if i.severity == severity]


def test_minimal_game_is_valid():
    assert issues(BASE) == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_corpus_file_validates_or_is_rejected_as_recorded(path):
    errors = issues(path.read_text())
    if path.name in REJECTED:
        assert errors and REJECTED[path.name] in errors[0].message
    else:
        assert errors == [], errors[:3]


def test_arity_mismatch_is_located_and_names_the_first_use():
    found = issues(BASE + "(foo bar)\n(foo bar bar)\n", "warning")
    assert len(found) == 1
    assert (found[0].line, found[0].col) == (8, 1)
    assert "relation 'foo'" in found[0].message and "line 7, column 1" in found[0].message


def test_function_arity_mismatch():
    found = issues(BASE + "(legal a (m 1))\n(legal a (m 1 2))\n", "warning")
    assert any("function 'm'" in i.message and i.line == 8 for i in found)


def test_unsafe_variables():
    found = issues(BASE + "(<= (r ?x ?y) (p ?x))\n(<= (s ?x) (p ?x) (not (q ?z)) (distinct ?x ?w))\n")
    messages = [(i.line, i.message.split(":")[0]) for i in found]
    assert (7, "unsafe variable ?y") in messages
    assert (8, "unsafe variable ?w") in messages
    # a variable only under 'not' means "for no value": a warning, not an error
    assert not any("?z" in m for _, m in messages)


def test_unsafe_head_variable_in_a_move_is_reported_as_invalid_gdl():
    # oneCardGame.gdl's random move (leadAndDeal (lead ?Player) ...) binds ?Player nowhere:
    # a move inside a term is not a role position, so its instances are not ground
    text = BASE + "(<= (legal a (lead ?p)) (true p))\n"
    [found] = issues(text)
    assert found.line == 7 and "unsafe variable ?p" in found.message
    assert "invalid GDL" in found.message and "(role ?p)" in found.message


def test_unsafe_role_variable_ranges_over_roles():
    text = BASE + "(<= (goal ?p 0) (true q))\n"
    assert issues(text) == []
    assert any("range over the roles" in i.message for i in issues(text, "warning"))


def test_recursion_through_negation():
    found = issues(BASE + "(<= (r ?x) (p ?x) (not (s ?x)))\n(<= (s ?x) (p ?x) (not (r ?x)))\n(p 1)\n")
    assert found and "recursion through negation" in found[0].message
    assert found[0].line in (7, 8)


def test_missing_required_relations():
    found = issues("(role a)\n(init p)\n")
    text = " ".join(i.message for i in found)
    for word in ("legal", "goal", "terminal"):
        assert f"no '{word}'" in text
    assert issues("(legal a b)")[0].message.startswith("no roles")


@pytest.mark.parametrize(
    "extra, words",
    [
        ("(<= (true p) (true q))", "'true' cannot be the head"),
        ("(<= (legal a go) (does a go))", "'legal' must not depend on does"),
        ("(<= (init q) (true p))", "'init' must not depend on true"),
        ("(goal a 100 7)", "'goal' takes 2"),
        ("(<= (role b) (true p))", "roles must be declared by facts"),
        ("(goal a 200)", "not an integer in 0..100"),
        ("(legal a (f (not x)))", "logical keyword"),
    ],
)
def test_keyword_misuse(extra, words):
    found = issues(BASE + extra + "\n")
    assert any(words in i.message for i in found), found
    assert all(i.line >= 1 and i.col >= 1 for i in found)


def test_random_is_nature_only_in_gdl_ii():
    plain = BASE.replace("(role a)", "(role a)\n(role random)") + "(legal random go)\n(goal random 0)\n"
    assert issues(plain) == []
    # in GDL-II, does/legal of random need (role random)
    gdl2 = BASE + "(<= (sees a x) (does random go))\n"
    found = issues(gdl2, gdl_ii=True)
    assert found and "(role random) is" in found[0].message


def test_check_raises_with_location():
    with pytest.raises(GDLValidationError) as info:
        check(parse_infix("role(a)\nlegal(a, go)\nterminal :- p(X)\ngoal(a, X) :- q"))
    assert info.value.line == 4 and info.value.col == 1
    assert "unsafe variable ?X" in str(info.value)
