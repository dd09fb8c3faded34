"""Readable views of observations and states, shared by the terminal and the web page.

:func:`render` turns one JSON observation (or state) into a *view*: a JSON-serializable
dict ``{"parts": [...]}`` whose parts are

* ``{"kind": "grid", "label", "cells": [[str]], "rows": [str], "cols": [str]}`` — a board
  (tic-tac-toe, connect four, generalized tic-tac-toe and chess, blind tic-tac-toe, GDL
  games whose facts place pieces on ``(f X Y piece)`` cells);
* ``{"kind": "cards", "label", "cards": [str]}`` — a row of cards (hands, table, tricks);
* ``{"kind": "fields", "items": [[label, text]]}`` — everything else, one compact line each;
  a move log (a list of ``[player, move]`` pairs, or a list of such lists, one per betting
  round) reads ``player 0: Bet, player 1: Pass`` (rounds: ``round 1: ...; round 2: ...``).

:func:`to_text` writes a view as plain text for the terminal ``human`` agent; the web page
draws the same view as HTML (``ggp/web/static/app.js``). A view shows only what it is given:
render a player's observation and it holds nothing else.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["outcome_text", "render", "to_text"]

View = dict[str, Any]

# card strings of the reference card games: rank then an optional suit letter
# ("J", "Jh", "10C", "Tc", "37R")
_CARD = re.compile(r"^(10|[2-9TJQKA]|[1-9][0-9]?)[CDHSRYBcdhs]?$")
_CARD_KEYS = ("hand", "card", "pile", "slots", "drawn", "upcard", "showdown", "revealed",
              "imp", "passed", "received")
_GDL_CELL = re.compile(r"^\((\w+) (\d+) (\d+) ([^()\s]+)\)$")
_MARK = re.compile(r"mark\((\d+),(\d+)\)")


def render(obs: Any, game: str = "") -> View:
    """The view of ``obs``, an observation or state of ``game`` (a registered name, a file
    name or ``""``: the shape of ``obs`` decides then)."""
    parts: list[dict[str, Any]] = []
    if not isinstance(obs, dict):
        return {"parts": [{"kind": "fields", "items": [["value", _compact(obs)]]}]}
    rest = dict(obs)
    base = game.rsplit("/", 1)[-1].split("(")[0].lower()
    if "blind" in base and "my_marks" in rest:
        parts.append(_blind_board(rest))
    elif _is_board(rest.get("board")):
        parts.append(_grid("board", rest.pop("board")))
    elif isinstance(rest.get("true"), list):
        grid = _gdl_grid(rest["true"])
        if grid is not None:
            parts.append(grid)
            others = [f for f in rest.pop("true") if not (
                isinstance(f, str) and f.startswith(f"({grid['label']} ")
                and _GDL_CELL.match(f))]
            if others:
                rest["other facts"] = others
    if "my_ships" in rest and "shots" in rest:
        parts.extend(_battleship(rest))
    parts.extend(_cards(rest))
    items = [[key, _move_log(value) or _compact(value)] for key, value in rest.items()]
    if items:
        parts.append({"kind": "fields", "items": items})
    return {"parts": parts}


def to_text(view: View) -> str:
    """Plain text of a view (boards as character grids, cards in brackets)."""
    lines: list[str] = []
    for part in view["parts"]:
        if part["kind"] == "grid":
            width = max([len(c) for row in part["cells"] for c in row] + [1])
            label_w = max([len(r) for r in part["rows"]] + [1])
            lines.append(f"{part['label']}:")
            lines.append(" " * (label_w + 2) + " ".join(c.ljust(width) for c in part["cols"]))
            for label, row in zip(part["rows"], part["cells"]):
                cells = " ".join((c or ".").ljust(width) for c in row)
                lines.append(f"{label.rjust(label_w)}  {cells}".rstrip())
        elif part["kind"] == "cards":
            cards = " ".join(f"[{c}]" for c in part["cards"]) or "(none)"
            lines.append(f"{part['label']}: {cards}")
        else:
            width = max(len(k) for k, _ in part["items"])
            lines.extend(f"{k.ljust(width)}  {v}" for k, v in part["items"])
    return "\n".join(lines)


def outcome_text(returns: list[float], seat: int) -> str:
    """One line for ``seat`` at the end: won, lost or drew, and its return."""
    mine = returns[seat]
    best_other = max((r for s, r in enumerate(returns) if s != seat), default=mine)
    word = ("You won" if mine > best_other else "You lost" if mine < best_other
            else "Draw")
    return f"{word} (your return: {mine:+g})."


# --------------------------------------------------------------------- parts
def _compact(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(", ", ": "))


def _is_move(value: Any) -> bool:
    return (isinstance(value, list) and len(value) == 2 and isinstance(value[0], int)
            and not isinstance(value[0], bool) and isinstance(value[1], str))


def _move_log(value: Any) -> str | None:
    """A readable move log, or None when ``value`` is not one (see the module docstring)."""
    if not isinstance(value, list) or not value:
        return None
    if all(_is_move(m) for m in value):
        return ", ".join(f"player {p}: {move}" for p, move in value)
    if all(isinstance(r, list) and all(_is_move(m) for m in r) for r in value) \
            and any(value):
        return "; ".join(f"round {i}: " + ", ".join(f"player {p}: {m}" for p, m in r)
                         for i, r in enumerate(value, 1) if r)
    return None


def _is_board(value: Any) -> bool:
    return (isinstance(value, list) and bool(value)
            and all(isinstance(row, list) and row for row in value)
            and all(isinstance(c, (str, int)) or c is None for row in value for c in row))


def _grid(label: str, board: list[list[Any]]) -> dict[str, Any]:
    cells = [["" if c in (".", None, " ") else str(c) for c in row] for row in board]
    width = max(len(row) for row in cells)
    cells = [row + [""] * (width - len(row)) for row in cells]
    return {"kind": "grid", "label": label, "cells": cells,
            "rows": [str(r) for r in range(len(cells))],
            "cols": [str(c) for c in range(width)]}


def _gdl_grid(facts: list[Any]) -> dict[str, Any] | None:
    """A board from GDL facts ``(f A B piece)`` (the most common such ``f``): A is the row
    and B the column, except for connect four's ``(disc column height piece)``, drawn
    with the highest row on top. Blanks (``b``, ``blank``, ``empty``) are empty cells."""
    found: dict[str, list[tuple[int, int, str]]] = {}
    for fact in facts:
        match = _GDL_CELL.match(fact) if isinstance(fact, str) else None
        if match:
            name, x, y, piece = match.groups()
            found.setdefault(name, []).append((int(x), int(y), piece))
    if not found:
        return None
    name = max(found, key=lambda k: len(found[k]))
    disc = name == "disc"
    board = {((b, a) if disc else (a, b)): p for a, b, p in found[name]}  # (row, column)
    rows = range(min(r for r, _ in board), max(r for r, _ in board) + 1)
    cols = range(min(c for _, c in board), max(c for _, c in board) + 1)
    rows = list(reversed(rows)) if disc else list(rows)
    grid = [[_blank(board.get((r, c), "")) for c in cols] for r in rows]
    return {"kind": "grid", "label": name, "cells": grid, "rows": [str(r) for r in rows],
            "cols": [str(c) for c in cols]}


def _blank(piece: str) -> str:
    return "" if piece.lower() in ("b", "blank", "empty") else piece


def _blind_board(obs: dict[str, Any]) -> dict[str, Any]:
    """Blind tic-tac-toe: own marks, and cells where a try failed (the opponent's)."""
    mark = str(obs.get("mark", "x"))
    other = "o" if mark == "x" else "x"
    cells = [["" for _ in range(3)] for _ in range(3)]
    for try_ in obs.get("my_tries", []):
        found = _MARK.search(str(try_.get("cell", "")))
        if found and not try_.get("ok"):
            cells[int(found[1]) - 1][int(found[2]) - 1] = other + "?"
    for cell in obs.pop("my_marks"):
        found = _MARK.search(str(cell))
        if found:
            cells[int(found[1]) - 1][int(found[2]) - 1] = mark
    return {"kind": "grid", "label": f"your marks ({mark}; {other}? = a failed try)",
            "cells": cells, "rows": ["1", "2", "3"], "cols": ["1", "2", "3"]}


def _battleship(obs: dict[str, Any]) -> list[dict[str, Any]]:
    seat = obs.get("player", 0)
    cells = [tuple(c) for ship in obs.pop("my_ships") for c in ship.get("cells", [])]
    shots = obs.pop("shots")
    size = 1 + max([v for c in cells for v in c]
                   + [v for s in shots for v in s.get("cell", [])] + [2])
    mine = [["" for _ in range(size)] for _ in range(size)]
    theirs = [["" for _ in range(size)] for _ in range(size)]
    for r, c in cells:
        mine[r][c] = "#"
    for shot in shots:
        r, c = shot["cell"]
        hit = "X" if shot.get("result") == "hit" else "o"
        if shot.get("player") == seat:
            theirs[r][c] = hit
        else:
            mine[r][c] = hit
    labels = [str(i) for i in range(size)]
    return [{"kind": "grid", "label": "your ships (# ship, X hit, o miss)", "cells": mine,
             "rows": labels, "cols": labels},
            {"kind": "grid", "label": "your shots (X hit, o miss)", "cells": theirs,
             "rows": labels, "cols": labels}]


def _is_cards(value: Any) -> bool:
    if isinstance(value, str):
        return bool(_CARD.match(value))
    return (isinstance(value, list)
            and all(isinstance(v, str) and _CARD.match(v) for v in value))


def _cards(obs: dict[str, Any]) -> list[dict[str, Any]]:
    """Card rows: keys naming cards whose values are card strings, and the current trick."""
    parts = []
    for key in list(obs):
        value = obs[key]
        if any(word in key for word in _CARD_KEYS) and value not in (None, []) \
                and _is_cards(value):
            cards = [value] if isinstance(value, str) else value
            parts.append({"kind": "cards", "label": key.replace("_", " "), "cards": cards})
            del obs[key]
    trick = obs.get("trick")
    if isinstance(trick, dict) and _is_cards(trick.get("cards")):
        label = "trick" + (f" (led by player {trick['leader']})" if "leader" in trick else "")
        parts.append({"kind": "cards", "label": label, "cards": trick["cards"]})
        del obs["trick"]
    return parts
