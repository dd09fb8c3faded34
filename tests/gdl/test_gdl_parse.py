"""KIF and infix parsing, printing each other, located syntax errors."""

import pytest

from ggp.gdl.errors import GDLSyntaxError
from ggp.gdl.infix import description_to_infix, parse_infix
from ggp.gdl.kif import parse_kif, parse_kif_term
from ggp.gdl.terms import Var, description_to_kif, substitute, variables

from gdl_corpus import FILES

COIN_INFIX = """
; a coin game in the infix syntax
role(nature)
role(guesser)
side(heads)
side(tails)
init(round(1))
legal(nature, flip(S)) :- side(S) & true(round(1))
legal(guesser, guess(S)) :- side(S) & true(round(1))
legal(R, wait) :- role(R) & ~true(round(1))
next(shown(S)) :- does(nature, flip(S))
next(right) :- does(nature, flip(S)) & does(guesser, guess(S))
next(round(2)) :- true(round(1))
next(right) :- true(right)
sees(guesser, S) :- does(nature, flip(S)) & distinct(S, edge)
terminal :- true(round(2))
goal(guesser, 100) :- true(right)
goal(guesser, 0) :- ~true(right)
goal(nature, 0).
"""


def test_kif_case_comments_crlf_and_variables():
    desc = parse_kif("; comment\r\n(ROLE Xplayer)\r\n(<= (Legal ?P (MARK ?x 1)) ; trailing\r\n"
                     "   (true (Cell ?X 1 b)) (not (distinct ?p xplayer)))\r\n")
    role, rule = desc.rules
    assert role.head == ("role", "xplayer")
    assert rule.head == ("legal", Var("p"), ("mark", Var("x"), "1"))
    assert rule.body[0] == ("true", ("cell", Var("x"), "1", "b"))
    assert rule.body[1] == ("not", ("distinct", Var("p"), "xplayer"))
    assert (rule.loc.line, rule.loc.col) == (3, 5)
    assert (rule.body_locs[0].line, rule.body_locs[0].col) == (4, 4)


def test_infix_parses_to_the_same_representation_as_kif():
    infix = parse_infix("legal(W, mark(X, Y)) :- true(cell(X, Y, b)) & ~true(control(W))\n"
                        "role(white)")
    kif = parse_kif("(<= (legal ?w (mark ?x ?y)) (true (cell ?x ?y b)) (not (true (control ?w))))"
                    "(role white)")
    assert [r.head for r in infix.rules] == [
        ("legal", Var("W"), ("mark", Var("X"), Var("Y"))), ("role", "white")]
    assert description_to_kif(infix.rules) == description_to_kif(kif.rules)


def test_infix_game_with_periods_and_comments():
    desc = parse_infix(COIN_INFIX)
    assert len(desc.rules) == 17
    assert desc.rules[-1].head == ("goal", "nature", "0")
    assert desc.rules[7].body[1] == ("not", ("true", ("round", "1")))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_corpus_round_trips_through_both_syntaxes(path):
    rules = parse_kif(path.read_text()).rules
    infix_text = description_to_infix(rules)
    back = parse_infix(infix_text).rules
    kif_again = parse_kif(description_to_kif(back)).rules
    assert [_canonical(r) for r in kif_again] == [_canonical(r) for r in rules]


def _canonical(rule):
    """The rule with variables renamed by order of first occurrence."""
    names = {}
    for v in list(variables(rule.head)) + [v for lit in rule.body for v in variables(lit)]:
        names.setdefault(v, Var(f"v{len(names)}"))
    return substitute(rule.head, names), tuple(substitute(b, names) for b in rule.body)


@pytest.mark.parametrize(
    "text, line, col, words",
    [
        ("(role a)\n(init (cell 1)", 2, 1, "never closed"),
        ("(role a))", 1, 9, "no matching"),
        ("(role a)\n  (<= )", 2, 3, "needs a head"),
        ("(?x a)", 1, 2, "variable"),
        ("(role a)\n(not)", 2, 1, None),
        ("(<= p (not a b))", 1, 7, "exactly one"),
        ("(<= p (distinct a))", 1, 7, "two terms"),
        ("()", 1, 1, "empty"),
        ("(role ((a)))", 1, 8, "must start with a symbol"),
        ("(role a\u00e9)", 1, 8, "unexpected character"),
    ],
)
def test_kif_syntax_errors_are_located(text, line, col, words):
    try:
        parse_kif(text)
    except GDLSyntaxError as exc:
        assert (exc.line, exc.col) == (line, col), str(exc)
        if words:
            assert words in exc.message
    else:
        assert words is None  # '(not)' alone is a 0-ary term, read with a warning


@pytest.mark.parametrize(
    "text, line, col",
    [
        ("role(a)\nlegal(a, b) :- ", 2, 13),
        ("p :- q &", 1, 8),
        ("p(a,", 1, 4),
        ("X :- p", 1, 1),
        ("p :- F(a)", 1, 6),
        ("p(a b)", 1, 5),
        ("p :- q ? r", 1, 8),
    ],
)
def test_infix_syntax_errors_are_located(text, line, col):
    with pytest.raises(GDLSyntaxError) as info:
        parse_infix(text)
    assert (info.value.line, info.value.col) == (line, col), str(info.value)


def test_parse_kif_term():
    assert parse_kif_term("(MARK 1 (f a))") == ("mark", "1", ("f", "a"))
    assert parse_kif_term("noop") == "noop"
    with pytest.raises(GDLSyntaxError):
        parse_kif_term("a b")
