"""The consoles every CLI module prints through.

Rich assumes 80 columns when output is piped or captured, which squeezes the wide tables of
``ggp games`` and ``ggp arena`` into unreadable columns; piped output gets 160 instead.
Emoji codes are off: rich would print ``game.kif:100:5`` as ``game.kif💯5``.
"""

from __future__ import annotations

import sys

from rich.console import Console

console = Console(width=None if sys.stdout.isatty() else 160, emoji=False)
err_console = Console(stderr=True, width=None if sys.stderr.isatty() else 160, emoji=False)
