"""The GGP message parser: examples from ggp-base, Dresden and seed 003, and properties."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ggp.ggpnet.messages import (
    MAX_DEPTH,
    Abort,
    Info,
    MessageError,
    Play,
    Preview,
    Start,
    info_reply,
    parse_message,
    play2_message,
    play_message,
    rules_list,
    start_message,
)


def test_ggp_base_forms_with_spaces_after_parentheses():
    assert parse_message("( INFO )") == Info()
    assert parse_message("( PLAY m1 NIL )") == Play("m1", None)
    assert parse_message("( PLAY m1 ((mark 1 1) noop ) )") == Play("m1", ("(mark 1 1)", "noop"))
    assert parse_message("( STOP m1 (noop (mark 3 3)) )") == Play("m1", ("noop", "(mark 3 3)"),
                                                                  stop=True)
    assert parse_message("( ABORT m1 )") == Abort("m1")
    start = parse_message("( START m1 xplayer ((role xplayer) (init (cell 1 1 b))) 30 15)")
    assert start == Start("m1", "xplayer", "(role xplayer)\n(init (cell 1 1 b))", 30.0, 15.0)
    assert parse_message("(PREVIEW ((role a)) 5)") == Preview("(role a)", 5.0)


def test_start_with_extra_fields_is_accepted_as_ggp_base_does():
    msg = parse_message("(START m r ((role r)) 10 5 extra (stuff))")
    assert isinstance(msg, Start) and msg.play_clock == 5.0


def test_dresden_gdl2_forms_upper_case():
    assert parse_message("(PLAY M23 0 NIL NIL)") == Play("m23", (), 0, None)
    assert parse_message("(PLAY M23 1 (MARK 1 1) (OK))") == Play("m23", ("ok",), 1, "(mark 1 1)")
    assert parse_message("(PLAY M23 2 (MARK 2 2) NIL)") == Play("m23", (), 2, "(mark 2 2)")
    assert parse_message("(STOP M23 3 (MARK 3 3) ( ))") == Play("m23", (), 3, "(mark 3 3)", True)
    # the older (2010) GDL-II form is the 3-field form with percepts
    assert parse_message("(PLAY M23 ((SEES X) OK))") == Play("m23", ("(sees x)", "ok"))


@pytest.mark.parametrize("text", [
    "", "INFO", "()", "(info) (info)", "((info))", "(hello)", "(PLAY m)", "(PLAY m 1 2)",
    "(PLAY m -1 nil nil)", "(PLAY m x nil nil)", "(START m r rules 1 2)", "(START m r (x) a b)",
    "(START m (r) ((role r)) 1 2)", "(START m r ((role r)) nan 2)", "(START m r ((role r)) inf 2)",
    "(ABORT)", "(PLAY m (a b)", "(PLAY m a))", "(PLAY m \u00e9)", "(PLAY m\x00 nil)",
    "(PREVIEW x 1)", "(PLAY m 0 nil notalist)",
])
def test_malformed_messages_raise_message_error(text):
    with pytest.raises(MessageError):
        parse_message(text)


def test_deep_nesting_is_refused():
    with pytest.raises(MessageError):
        parse_message("(PLAY m " + "(" * (MAX_DEPTH + 5) + "a" + ")" * (MAX_DEPTH + 5) + ")")
    with pytest.raises(MessageError):
        parse_message("(" * 100_000)


def test_written_messages():
    rules = rules_list("; comment\r\n(role x)\n(<= (legal x a)\n   (true b))\n")
    assert rules == "((role x) (<= (legal x a) (true b)))"
    assert start_message("m", "x", rules, 10, 0.5) == \
        "(START m x ((role x) (<= (legal x a) (true b))) 10 0.5)"
    assert play_message("m", None) == "(PLAY m NIL)"
    assert play_message("m", ["a", "(b c)"], stop=True) == "(STOP m (a (b c)))"
    assert play2_message("m", 0, None, None) == "(PLAY m 0 NIL NIL)"
    assert play2_message("m", 2, "(mark 1 1)", []) == "(PLAY m 2 (mark 1 1) ())"
    assert info_reply("p", False) == "((name p) (status available) (species python))"


# ---------------------------------------------------------------------------- properties
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
symbols = st.builds(lambda a, b: a + b, st.sampled_from(_LETTERS),
                    st.text(alphabet=_LETTERS + "0123456789_-", max_size=5)).filter(
    lambda s: s != "nil")
terms = st.recursive(symbols, lambda inner: st.builds(
    lambda f, args: "(" + " ".join([f] + args) + ")", symbols,
    st.lists(inner, min_size=1, max_size=3)), max_leaves=8)
ids = symbols
term_lists = st.lists(terms, max_size=4)


@st.composite
def messages(draw):
    kind = draw(st.sampled_from(["play", "stop", "play2", "stop2", "start", "abort", "info"]))
    mid = draw(ids)
    if kind in ("play", "stop"):
        items = draw(st.none() | term_lists)
        return play_message(mid, items, stop=kind == "stop"), Play(
            mid, None if items is None else tuple(items), stop=kind == "stop")
    if kind in ("play2", "stop2"):
        turn = draw(st.integers(0, 10_000))
        last = draw(st.none() | terms)
        percepts = draw(st.none() | term_lists)
        stop = kind == "stop2"
        return (play2_message(mid, turn, last, percepts, stop=stop),
                Play(mid, tuple(percepts or ()), turn, last, stop))
    if kind == "start":
        role = draw(symbols)
        clocks = draw(st.tuples(st.integers(0, 3600), st.integers(0, 3600)))
        rules = draw(st.lists(terms, min_size=1, max_size=5))
        text = start_message(mid, role, "(" + " ".join(rules) + ")", *clocks)
        return text, Start(mid, role, "\n".join(rules), float(clocks[0]), float(clocks[1]))
    if kind == "abort":
        return f"(ABORT {mid})", Abort(mid)
    return "(INFO)", Info()


@settings(max_examples=150, deadline=None)
@given(messages())
def test_written_messages_parse_back(case):
    text, expected = case
    assert parse_message(text) == expected


@st.composite
def respelled(draw):
    """A message with random letter case and random (legal) whitespace."""
    text, expected = draw(messages())
    out = []
    for ch in text:
        if ch.isalpha() and draw(st.booleans()):
            ch = ch.swapcase()
        out.append(ch)
        if ch in "() " and draw(st.integers(0, 4)) == 0:
            out.append(draw(st.sampled_from([" ", "\r\n", "\t", "  "])))
    return "".join(out), expected


@settings(max_examples=150, deadline=None)
@given(respelled())
def test_case_and_whitespace_do_not_matter(case):
    text, expected = case
    assert parse_message(text) == expected


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("()PLAYSTOPINFOnil 01?;\n\x00\u00e9ab")), max_size=60)
       | st.text(max_size=60))
def test_any_text_parses_or_raises_message_error(text):
    try:
        message = parse_message(text)
    except MessageError:
        return
    assert isinstance(message, (Info, Preview, Start, Play, Abort))


def test_a_huge_start_is_read_without_parsing_its_rules():
    # megabytes of rules: the fields are found directly (the full parse took minutes)
    from ggp.ggpnet.messages import QUICK_START_BYTES, Start, parse_message

    facts = " ".join(f"(fact{i} a{i} (b c))" for i in range(QUICK_START_BYTES // 15))
    start = parse_message(f"(START m7 XPlayer ((role xplayer) {facts}) 10 5)")
    assert isinstance(start, Start)
    assert (start.match_id, start.role, start.start_clock, start.play_clock) == \
        ("m7", "xplayer", 10.0, 5.0)
    assert start.rules.startswith("(role xplayer) (fact0 a0 (b c))")
