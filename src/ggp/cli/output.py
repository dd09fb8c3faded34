"""The consoles every CLI module prints through.

Rich assumes 80 columns when output is piped or captured, which squeezes the wide tables of
``ggp games`` and ``ggp arena`` into unreadable columns; piped output gets 160 instead.
Emoji codes are off: rich would print ``game.kif:100:5`` as ``game.kif💯5``.

Every console made here (:func:`make_console`) neutralizes what it prints: text reaching
the terminal is stripped of escape sequences and control characters
(:func:`ggp.core.text.clean_text`), so a model's error message or an agent's name cannot
move the cursor, erase a ``FAILED`` line or retitle the terminal. Rich's own control codes
(colours, progress bars redrawing themselves) are kept: they are separate segments.
"""

from __future__ import annotations

import sys
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.console import RenderHook
from rich.segment import Segment

from ggp.core.text import clean_line, clean_text


class _Clean:
    """A renderable whose text segments are cleaned as they are rendered."""

    def __init__(self, renderable: RenderableType) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for segment in console.render(self.renderable, options):
            if segment.control or not segment.text:
                yield segment
            else:
                yield Segment(clean_text(segment.text), segment.style, segment.control)


class CleanOutput(RenderHook):
    """Wraps everything a console prints in :class:`_Clean`."""

    def process_renderables(self, renderables: list[RenderableType]) -> list[RenderableType]:
        return [_Clean(r) for r in renderables]


def make_console(*, stderr: bool = False, **settings: Any) -> Console:
    """A console with ggp's defaults (width when piped, no emoji) that prints clean text."""
    stream = sys.stderr if stderr else sys.stdout
    settings.setdefault("width", None if stream.isatty() else 160)
    settings.setdefault("emoji", False)
    made = Console(stderr=stderr, **settings)
    made.push_render_hook(CleanOutput())
    return made


console = make_console()
err_console = make_console(stderr=True)

__all__ = ["CleanOutput", "clean_line", "clean_text", "console", "err_console",
           "make_console"]


def report_markdown(text: str) -> RenderableType:
    """``text`` (a Markdown report) for the terminal, with table cells that fold onto more
    lines instead of ending in an ellipsis: an agent spec has no spaces to wrap at, and a
    cut one (``cwm_mcts:run=runs/quickstar…``) no longer says which agent it was."""
    from rich.markdown import Markdown, TableElement
    from rich.table import Table

    class _FoldingTable(TableElement):
        def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
            for part in super().__rich_console__(console, options):
                if isinstance(part, Table):
                    for column in part.columns:
                        column.overflow = "fold"
                yield part

    class _ReportMarkdown(Markdown):
        elements = {**Markdown.elements, "table_open": _FoldingTable}

    return _ReportMarkdown(text)
