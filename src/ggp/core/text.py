"""Neutralizing text that models, agents or remote players chose.

Agent names, a model's error message, an LLM's answer, a GDL player's reply: any of it may
hold terminal escape sequences (``ESC [2K`` erases a line, ``CR`` returns to its start:
together they can print a fake ``OK`` over a ``FAILED``), newlines where one line is
expected (a new Markdown row, a forged log line, a shell line in a script), or Unicode
direction overrides that reorder what a reader sees. :func:`clean_text` removes all of
them; it is applied where such text leaves ggp — the CLI's consoles
(:mod:`ggp.cli.output`), report writers and logs.
"""

from __future__ import annotations

import logging
import re
from typing import Any

# ESC-introduced sequences: CSI (ESC [ ... final), OSC/DCS/PM/APC/SOS strings (ended by
# BEL or ESC \), and two-character escapes; then the 8-bit CSI/OSC forms.
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"            # CSI
    r"|\x1b[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC, DCS, SOS, PM, APC
    r"|\x1b[ -/]*[0-~]"                   # other ESC sequences
    r"|\x9b[0-?]*[ -/]*[@-~]"             # 8-bit CSI
    r"|\x9d[^\x07\x9c]*(?:\x07|\x9c)?"    # 8-bit OSC
)
# what is left after the sequences: C0 controls but tab and newline, DEL, C1 controls,
# Unicode bidirectional overrides and isolates, and line/paragraph separators
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e"
                       "\u2066-\u2069\u2028\u2029]")


def clean_text(text: Any, *, single_line: bool = False, limit: int | None = None) -> str:
    """``text`` (``str()`` of anything) without escape sequences or control characters.

    ``single_line``: newlines and tabs become spaces (for a name, a table cell, one log
    line). ``limit``: cut to that many characters, ending with ``...``."""
    text = text if isinstance(text, str) else str(text)
    text = _CONTROLS.sub("", _ESCAPES.sub("", text.replace("\r\n", "\n")))
    if single_line:
        text = " ".join(text.split("\n")).replace("\t", " ")
    if limit is not None and len(text) > limit:
        text = text[: max(0, limit - 3)] + "..."
    return text


def clean_line(text: Any, limit: int | None = None) -> str:
    """One line of outside text: :func:`clean_text` with ``single_line``."""
    return clean_text(text, single_line=True, limit=limit)


def is_clean(text: str) -> bool:
    """Whether ``text`` holds no escape sequence and no control character but tab and
    newline."""
    return clean_text(text) == text.replace("\r\n", "\n")


_installed = False


def clean_log_records() -> None:
    """Make every log record's message one clean line from now on (the ``ggp`` CLI calls
    this): a model's message logged with ``%s`` cannot forge a log line or send escapes to
    a terminal. Tracebacks (``exc_info``) are formatted separately and keep their lines.
    Installed once, as a record factory, so it holds whatever handler prints the record."""
    global _installed
    if _installed:
        return
    _installed = True
    make = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a bad format is logging's to report
            return record
        record.msg, record.args = clean_line(message), None
        return record

    logging.setLogRecordFactory(factory)


__all__ = ["clean_line", "clean_log_records", "clean_text", "is_clean"]
