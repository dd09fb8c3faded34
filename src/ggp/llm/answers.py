"""Reading a move out of a model's free-text answer.

The LLM-as-policy prompt asks the model to end its reply with a line ``ACTION: <move>``.
:func:`parse_action` takes the text after the last ``ACTION:`` marker of the reply, up to
the end of its line (tolerating Markdown emphasis, code backticks and quotes around
it); a reply that is a single short line with no marker is taken as the move itself.
Anything else is unparseable (None): the parser never guesses a move from prose.
:func:`match_legal` then maps the move onto a legal action when they differ only in
letter case or spacing.
"""

from __future__ import annotations

import re

ANSWER_MARKER = "ACTION"
# Greedy ".*" so that the last marker of a line counts: "so ACTION: x" -> "x".
_ANSWER_LINE = re.compile(r"^.*\bACTION[*_`\s]*:\s*(.*?)\s*$", re.IGNORECASE | re.MULTILINE)
_WRAPPERS = "`*_\"' "
_MAX_BARE_ANSWER = 80


def parse_action(text: str) -> str | None:
    """The move in ``text``, or None when there is none (see module docs)."""
    found = [m.group(1) for m in _ANSWER_LINE.finditer(text)]
    if found:
        return _unwrap(found[-1])
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if len(lines) == 1 and len(lines[0]) <= _MAX_BARE_ANSWER:
        return _unwrap(lines[0])
    return None


def _unwrap(candidate: str) -> str | None:
    move = candidate.strip().strip(_WRAPPERS).strip()
    if move.endswith(".") and not move[:-1].endswith("."):
        move = move[:-1].rstrip()  # "ACTION: x(1,1)." -> "x(1,1)"
    return move or None


def match_legal(move: str, legal: list[str]) -> str | None:
    """``move`` itself if legal, else the one legal action equal to it up to case and
    whitespace, else None."""
    if move in legal:
        return move
    key = _loose(move)
    matches = [action for action in legal if _loose(action) == key]
    return matches[0] if len(matches) == 1 else None


def _loose(text: str) -> str:
    return re.sub(r"\s+", "", text).lower()
