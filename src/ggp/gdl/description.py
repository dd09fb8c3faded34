"""Reading a game description: KIF or infix text into a :class:`ggp.gdl.terms.Description`.

Below both the world-model adapter (:mod:`ggp.gdl.adapter`) and the match layer
(:mod:`ggp.gdl.match`), which both read descriptions; until 2026-11-27 this lived in the
adapter, and the match layer importing it closed the circle adapter -> match -> adapter.
"""

from __future__ import annotations

from ggp.core.errors import ModelLoadError
from ggp.gdl.infix import parse_infix
from ggp.gdl.kif import parse_kif
from ggp.gdl.terms import Description

#: The GDL-II role that is nature (the chance player); an ordinary role in plain GDL.
NATURE = "random"


def detect_syntax(text: str) -> str:
    """"kif" when the first significant character (comments skipped) is ``(``, else
    "infix"."""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and stripped[0] not in ";%":
            return "kif" if stripped[0] == "(" else "infix"
    return "infix"


def parse_description(text: str, source: str = "", syntax: str = "auto") -> Description:
    """Parse KIF or infix text (``syntax`` "kif", "infix" or "auto": see
    :func:`detect_syntax`)."""
    if syntax == "auto":
        syntax = detect_syntax(text)
    if syntax == "kif":
        return parse_kif(text, source)
    if syntax == "infix":
        return parse_infix(text, source)
    raise ModelLoadError(f"unknown GDL syntax {syntax!r} (expected kif, infix or auto)")
