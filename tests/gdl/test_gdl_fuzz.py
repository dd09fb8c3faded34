"""Malformed input never crashes: it parses, or fails with a located GDL error."""

import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ggp.gdl.description import parse_description
from ggp.gdl.compiled import CompiledReasoner
from ggp.gdl.errors import GDLError
from ggp.gdl.infix import parse_infix
from ggp.gdl.kif import parse_kif
from ggp.gdl.validate import check, validate

from test_gdl_parse import COIN_INFIX

TICTACTOE_KIF = """(role x) (role o) (init (cell 1 b)) (init (cell 2 b)) (init (control x))
(<= (legal ?p (mark ?c)) (true (cell ?c b)) (true (control ?p)))
(<= (legal ?p noop) (role ?p) (not (true (control ?p))))
(<= (next (cell ?c ?p)) (does ?p (mark ?c)))
(<= (next (cell ?c ?m)) (true (cell ?c ?m)) (distinct ?m b))
(<= (next (cell ?c b)) (true (cell ?c b)) (not (marked ?c)))
(<= (marked ?c) (does ?p (mark ?c)))
(<= (next (control o)) (true (control x)))
(<= (next (control x)) (true (control o)))
(<= terminal (not (true (cell 1 b))) (not (true (cell 2 b))))
(<= (goal ?p 50) (role ?p))
"""

KIF_TOKENS = st.sampled_from(["(", ")", "(", ")", "<=", "not", "or", "distinct", "true",
                              "does", "role", "?x", "?y", "a", "b", "1", "next", "legal",
                              "goal", "terminal", "init", ";c\n", "\r\n", " ", "\n", "?"])
INFIX_TOKENS = st.sampled_from(["(", ")", ",", "&", "~", ":-", ".", "X", "Y", "a", "b", "1",
                                "role", "legal", "true", "does", "distinct", "or", "not",
                                "next", "goal", "terminal", "init", "\n", " ", ";c\n", "'q'"])


def _located(exc: GDLError) -> None:
    assert exc.line >= 1 and exc.col >= 1, (exc, exc.line, exc.col)


def _mutate(text: str, data) -> str:
    """Delete, duplicate or insert a few characters at random places."""
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text)))
        op = data.draw(st.sampled_from(["delete", "insert", "cut"]))
        if op == "delete":
            text = text[:i] + text[i + 1:]
        elif op == "insert":
            text = text[:i] + data.draw(st.sampled_from(list("()?;~&,. \nAx1") + ["<=", ":-"])) + text[i:]
        else:
            text = text[:i]
    return text


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(KIF_TOKENS, max_size=40).map(" ".join))
def test_kif_token_soup(text):
    try:
        validate(parse_kif(text))
    except GDLError as exc:
        _located(exc)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(INFIX_TOKENS, max_size=40).map(" ".join))
def test_infix_token_soup(text):
    try:
        validate(parse_infix(text))
    except GDLError as exc:
        _located(exc)


@settings(max_examples=120, deadline=None)
@given(st.text(alphabet=string.printable + "\u00e9\u2603", max_size=80))
def test_arbitrary_text(text):
    for parser in (parse_kif, parse_infix):
        try:
            validate(parser(text))
        except GDLError as exc:
            _located(exc)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_games_load_or_fail_with_location(data):
    source = data.draw(st.sampled_from([TICTACTOE_KIF, COIN_INFIX]))
    text = _mutate(source, data)
    try:
        desc = parse_description(text)
        check(desc)
    except GDLError as exc:
        _located(exc)
        return
    reasoner = CompiledReasoner(desc.rules)  # a valid mutant can be reasoned about
    state = reasoner.initial_state()
    for _ in range(5):
        if reasoner.is_terminal(state):
            break
        legal = reasoner.legal_moves(state)
        if not all(legal.values()):
            break
        state = reasoner.next_state(state, {r: m[0] for r, m in legal.items()})
        reasoner.goals(state)
