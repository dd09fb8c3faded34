"""GGP match messages: parsing what a game server sends, and writing what a manager sends.

The grammar (docs/ggp_protocol.md has the full table) is KIF S-expressions, with a
case-insensitive head:

* ``(INFO)``, ``(PREVIEW (rules...) clock)``, ``(ABORT id)``
* ``(START id role (rules...) startclock playclock)`` (extra fields are ignored, as
  ggp-base does)
* ``(PLAY id moves)`` / ``(STOP id moves)``: the 3-field form. For a GDL game the list
  holds the last joint move in role order (``NIL`` before the first move); in the older
  GDL-II form (2010 Dresden controller) it holds the player's percepts.
* ``(PLAY id turn lastmove percepts)`` / ``(STOP ...)``: the 5-field GDL-II form; on the
  first PLAY ``turn`` is 0 and both other fields are ``NIL``.

Terms are returned as canonical lower-case KIF text (``"(mark 1 1)"``, ``"noop"``), so a
move or percept compares equal however the server spelled or spaced it. Every malformed
message raises :class:`MessageError`; nothing else escapes :func:`parse_message`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ggp.core.errors import GGPError
from ggp.gdl.errors import GDLSyntaxError
from ggp.gdl.kif import read_sexps

MAX_DEPTH = 100  # GDL rules nest a few levels; deeper input is hostile or broken
NIL = "nil"


class MessageError(GGPError):
    """A GGP message that is not well formed (bad syntax, unknown head, wrong fields)."""


# A parsed S-expression: a lower-case symbol or a list of S-expressions.
Sexp = str | list


@dataclass(frozen=True)
class Info:
    """``(INFO)``: a presence check."""


@dataclass(frozen=True)
class Preview:
    """``(PREVIEW rules clock)``: a chance to look at a game before matches are set up."""

    rules: str
    clock: float


@dataclass(frozen=True)
class Start:
    """``(START id role rules startclock playclock)``; ``rules`` is KIF text."""

    match_id: str
    role: str
    rules: str
    start_clock: float
    play_clock: float


@dataclass(frozen=True)
class Play:
    """A PLAY or STOP message (``stop`` tells which).

    3-field form: ``turn`` is None and ``items`` is the list (None for ``NIL``): the last
    joint move of a GDL game, or the percepts in the older GDL-II form.
    5-field form: ``turn``, ``last_move`` (None for ``NIL``) and ``items`` = percepts
    (``NIL`` and ``()`` both give ``[]``).
    """

    match_id: str
    items: tuple[str, ...] | None
    turn: int | None = None
    last_move: str | None = None
    stop: bool = False

    @property
    def five_field(self) -> bool:
        return self.turn is not None


@dataclass(frozen=True)
class Abort:
    """``(ABORT id)``: the match is over without a result."""

    match_id: str


Message = Info | Preview | Start | Play | Abort


# ---------------------------------------------------------------------------- reading
def read_sexp(text: str) -> Sexp:
    """Exactly one S-expression from ``text`` (symbols lower-cased)."""
    try:
        nodes = read_sexps(text)
    except GDLSyntaxError as exc:
        raise MessageError(f"not an S-expression: {exc}") from None
    if len(nodes) != 1:
        raise MessageError(f"expected one S-expression, found {len(nodes)}")
    return _convert(nodes[0])


def _convert(node, depth: int = 1) -> Sexp:
    """A ``read_sexps`` node as plain nested lists, refusing deep nesting."""
    if isinstance(node, tuple):
        return node[0].lower()
    if depth > MAX_DEPTH:
        raise MessageError(f"message nested deeper than {MAX_DEPTH} levels")
    return [_convert(child, depth + 1) for child in node[2]]


def sexp_text(sexp: Sexp) -> str:
    """Canonical KIF text of an S-expression: lower case, single spaces."""
    if isinstance(sexp, str):
        return sexp
    return "(" + " ".join(sexp_text(item) for item in sexp) + ")"


# A large START is read without parsing its rules (7.9 MB of them took 52 s, five start
# clocks, in pure Python): the fields around the rules list are found by these patterns,
# and the rules, kept as received (lower-cased), are parsed by the player's preparation in
# the background. Smaller STARTs get the canonical rules text of the full parser.
QUICK_START_BYTES = 1 << 20
_START_HEAD = re.compile(r"\s*\(\s*start\s+([^\s();]+)\s+([^\s();]+)\s*\(", re.IGNORECASE)
_START_TAIL = re.compile(r"\)\s*([^\s();]+)\s+([^\s();]+)\s*\)\s*\Z")


def _quick_start(text: str) -> Start | None:
    """The START in ``text`` with its rules as raw (lower-cased) text, or None when the
    message does not have that simple shape (then the full parser reads it)."""
    head = _START_HEAD.match(text)
    tail = _START_TAIL.search(text, head.end() - 1) if head else None
    if tail is None or ";" in text:
        return None
    rules = text[head.end():tail.start()]
    if rules.count("(") != rules.count(")"):
        return None
    return Start(head[1].lower(), head[2].lower(), rules.lower(), _clock(tail[1]),
                 _clock(tail[2]))


def parse_message(text: str) -> Message:
    """Parse one message from a game server. Raises :class:`MessageError`."""
    quick = _quick_start(text) if len(text) > QUICK_START_BYTES else None
    if quick is not None:
        return quick
    sexp = read_sexp(text)
    if not isinstance(sexp, list) or not sexp or not isinstance(sexp[0], str):
        raise MessageError("a message is a list starting with its name, e.g. (INFO)")
    head, args = sexp[0], sexp[1:]
    if head == "info":
        return Info()
    if head == "preview":
        _need(head, args, 2)
        return Preview(_rules(args[0]), _clock(args[1]))
    if head == "start":
        if len(args) < 5:
            raise MessageError(f"START needs 5 fields (id role rules startclock playclock), "
                               f"got {len(args)}")
        return Start(_symbol(args[0], "match id"), _symbol(args[1], "role"), _rules(args[2]),
                     _clock(args[3]), _clock(args[4]))
    if head in ("play", "stop"):
        stop = head == "stop"
        if len(args) == 2:
            return Play(_symbol(args[0], "match id"), _items(args[1], "moves"), stop=stop)
        if len(args) == 4:
            last = None if args[2] == NIL else sexp_text(args[2])
            percepts = _items(args[3], "percepts") or ()
            return Play(_symbol(args[0], "match id"), percepts, _turn(args[1]), last, stop)
        raise MessageError(f"{head.upper()} has 2 fields (id moves) or 4 (id turn lastmove "
                           f"percepts), got {len(args)}")
    if head == "abort":
        _need(head, args, 1)
        return Abort(_symbol(args[0], "match id"))
    raise MessageError(f"unknown message {head.upper()!r} (expected INFO, PREVIEW, START, "
                       "PLAY, STOP or ABORT)")


def _need(head: str, args: list, n: int) -> None:
    if len(args) != n:
        raise MessageError(f"{head.upper()} takes {n} field(s), got {len(args)}")


def _symbol(value: Sexp, what: str) -> str:
    if not isinstance(value, str):
        raise MessageError(f"the {what} must be a symbol, got a list")
    return value


def _clock(value: Sexp) -> float:
    try:
        clock = float(_symbol(value, "clock"))
    except ValueError:
        raise MessageError(f"a clock must be a number of seconds, got {value!r}") from None
    if not 0 <= clock <= 1e6:  # also refuses nan and inf
        raise MessageError(f"a clock must be between 0 and 1e6 seconds, got {value!r}")
    return clock


def _turn(value: Sexp) -> int:
    text = _symbol(value, "turn")
    if not text.isdigit() or len(text) > 9:
        raise MessageError(f"the turn must be a small non-negative integer, got {text!r}")
    return int(text)


def _rules(value: Sexp) -> str:
    if not isinstance(value, list):
        raise MessageError("the rules must be a list of GDL sentences")
    return "\n".join(sexp_text(rule) for rule in value)


def _items(value: Sexp, what: str) -> tuple[str, ...] | None:
    if value == NIL:
        return None
    if not isinstance(value, list):
        raise MessageError(f"the {what} must be a list or NIL, got {value!r}")
    return tuple(sexp_text(item) for item in value)


# ---------------------------------------------------------------------------- writing
def rules_list(rules: str) -> str:
    """KIF rules text as the one-line list a START carries (comments dropped)."""
    try:
        return "(" + " ".join(sexp_text(_convert(n)) for n in read_sexps(rules)) + ")"
    except GDLSyntaxError as exc:
        raise MessageError(f"the rules are not KIF: {exc}") from None


def start_message(match_id: str, role: str, rules: str, start_clock: float,
                  play_clock: float) -> str:
    """``(START id role (rules) sc pc)``; ``rules`` is a :func:`rules_list`."""
    return f"(START {match_id} {role} {rules} {_num(start_clock)} {_num(play_clock)})"


def play_message(match_id: str, moves: list[str] | None, *, stop: bool = False) -> str:
    """GDL form: ``(PLAY id (m1 m2 ...))`` or ``(PLAY id NIL)`` before the first move."""
    head = "STOP" if stop else "PLAY"
    return f"({head} {match_id} {_list(moves)})"


def play2_message(match_id: str, turn: int, last_move: str | None,
                  percepts: list[str] | None, *, stop: bool = False) -> str:
    """GDL-II form: ``(PLAY id turn lastmove percepts)``; NIL fields on turn 0."""
    head = "STOP" if stop else "PLAY"
    return f"({head} {match_id} {turn} {last_move or 'NIL'} {_list(percepts)})"


def abort_message(match_id: str) -> str:
    return f"(ABORT {match_id})"


def info_reply(name: str, busy: bool) -> str:
    return f"((name {name}) (status {'busy' if busy else 'available'}) (species python))"


def _list(items: list[str] | None) -> str:
    return "NIL" if items is None else "(" + " ".join(items) + ")"


def _num(seconds: float) -> str:
    return str(int(seconds)) if float(seconds).is_integer() else repr(float(seconds))
