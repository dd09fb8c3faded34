"""Reading moves out of free-text answers (property tests)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ggp.llm.answers import match_legal, parse_action

# Moves as games write them: no line breaks, no surrounding quotes/markup, no final dot.
moves = (
    st.text(
        alphabet=st.characters(
            blacklist_categories=("Cc", "Cs", "Zl", "Zp"),
            blacklist_characters="\r\n\x1c\x1d\x1e\x85",
        ),
        min_size=1,
        max_size=40,
    )
    .map(str.strip)
    .filter(lambda m: m and m[0] not in "`*_\"' " and m[-1] not in "`*_\"' .")
)
prose = st.text(max_size=300).filter(lambda t: "action" not in t.lower())


@given(prose, moves)
def test_the_last_action_line_wins(reasoning, move):
    assert parse_action(f"{reasoning}\nACTION: {move}\n") == move
    assert parse_action(f"ACTION: earlier\n{reasoning}\nAction:   {move}  ") == move


@given(
    moves,
    st.sampled_from(
        ["**ACTION:** {}", "ACTION: `{}`", '> Action: "{}"', "*Action*: {}.", "- ACTION: {}"]
    ),
)
def test_markup_around_the_answer_is_ignored(move, template):
    assert parse_action("Some thinking first.\n" + template.format(move)) == move


@given(st.text(max_size=500))
def test_never_raises(text):
    result = parse_action(text)
    assert result is None or (result and "\n" not in result)


def test_bare_single_line_and_junk():
    assert parse_action("  x(1,1)\n") == "x(1,1)"
    assert parse_action("I think the centre is best.\nIt controls the board.") is None
    assert parse_action("") is None
    assert parse_action("ACTION:") is None
    assert parse_action("a" * 200) is None


@given(st.lists(moves, min_size=1, max_size=10, unique=True), st.data())
def test_match_legal_accepts_case_and_spacing_variants(legal, data):
    move = data.draw(st.sampled_from(legal))
    assert match_legal(move, legal) == move
    variant = " ".join(move.upper())
    matched = match_legal(variant, legal)
    assert matched is None or matched.replace(" ", "").lower() == move.replace(" ", "").lower()


def test_match_legal_refuses_ambiguity_and_strangers():
    assert match_legal("X(1, 1)", ["x(1,1)", "x(2,2)"]) == "x(1,1)"
    assert (
        match_legal("ab", ["AB", "ab "]) is None
    )  # equal up to case/spacing: ambiguous, and neither is "ab"
    assert match_legal("raise", ["fold", "call"]) is None


def test_marker_inside_a_sentence():
    assert parse_action("After all that, my ACTION: x(0,2)") == "x(0,2)"
    assert parse_action("ACTION: a, no wait, ACTION: b") == "b"
