"""Observations and actions as bags of tokens: the generic sampler's only view of a game.

An observation (any JSON value) is flattened into leaf tokens, each counted twice: with
its key path and list positions (``("p", "/slots/2", "JD")``) and with list positions
dropped (``("m", "/hand/*", "KH")``, so a hand also compares as a multiset). An action
string is split into words (``"Deal KH"`` -> ``Deal``, ``KH``). Nothing here knows a game:
values are matched as strings, wherever they appear.
"""

from __future__ import annotations

import functools
import re
from collections import Counter

from ggp.core.protocol import canonical_json


class _Target:
    """The player's next recorded observation, flattened for scoring."""

    def __init__(self, observation) -> None:
        self.observation = observation
        self.json = canonical_json(observation)
        self.tokens: Counter = Counter()
        _tokens(observation, "", "", self.tokens)
        self.values = Counter(key[2] for key in self.tokens if key[0] == "m")

    def matches(self, observation) -> bool:
        return observation == self.observation or canonical_json(observation) == self.json


def _leaf(value) -> str:
    return str(value) if isinstance(value, (str, int, float)) and not isinstance(value, bool) \
        else repr(value)


def _tokens(value, pos: str, multi: str, out: Counter, sign: int = 1) -> None:
    """Count the leaf tokens of a JSON value into ``out`` (``sign`` -1 uncounts them).

    Each leaf gives two tokens: ``("p", path with list positions, leaf)``, so a card in
    the wrong slot counts as wrong, and ``("m", path without list positions, leaf)``, so
    a hand is also compared as a multiset, whatever its order or length."""
    if isinstance(value, dict):
        for key, item in value.items():
            _tokens(item, f"{pos}/{key}", f"{multi}/{key}", out, sign)
    elif isinstance(value, (list, tuple)):
        sub = multi + "/*"
        for i, item in enumerate(value):
            _tokens(item, f"{pos}/{i}", sub, out, sign)
    else:
        leaf = _leaf(value)
        out[("p", pos, leaf)] += sign
        out[("m", multi, leaf)] += sign


def _diff(old, new, pos: str, multi: str, out: Counter) -> None:
    """``out`` += tokens(new) - tokens(old), walking only the parts that differ."""
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old.keys() | new.keys():
            if key not in new:
                _tokens(old[key], f"{pos}/{key}", f"{multi}/{key}", out, -1)
            elif key not in old:
                _tokens(new[key], f"{pos}/{key}", f"{multi}/{key}", out)
            else:
                _diff(old[key], new[key], f"{pos}/{key}", f"{multi}/{key}", out)
    elif isinstance(old, list) and isinstance(new, list):
        # position by position: a card inserted into a sorted hand shifts the positions
        # after it, whose multiset tokens cancel out in ``out``
        sub = multi + "/*"
        for i in range(max(len(old), len(new))):
            if i >= len(new):
                _tokens(old[i], f"{pos}/{i}", sub, out, -1)
            elif i >= len(old):
                _tokens(new[i], f"{pos}/{i}", sub, out)
            else:
                _diff(old[i], new[i], f"{pos}/{i}", sub, out)
    else:
        _tokens(old, pos, multi, out, -1)
        _tokens(new, pos, multi, out)


_WORDS = re.compile(r"[^\s,;:()\[\]{}=|/'\"]+")


@functools.lru_cache(maxsize=65536)
def _words(action: str) -> tuple[str, ...]:
    """The words of an action (``"Deal KH"`` -> ``("Deal", "KH")``)."""
    return tuple(_WORDS.findall(action))


def _delta(old, new) -> Counter:
    out: Counter = Counter()
    _diff(old, new, "", "", out)
    return out


def _token_counts(value) -> Counter:
    out: Counter = Counter()
    _tokens(value, "", "", out)
    return out


def mismatch(observation, target: _Target) -> int:
    """Tokens by which ``observation`` and ``target`` differ (symmetric difference of their
    token bags; 0 exactly when they are equal up to canonical JSON for the values that
    matter). A graded distance: a history one card off scores lower than one ten off.

    Only the parts that differ are flattened (:func:`_diff`): a long log shared with the
    target costs one equality test, not a walk over every entry."""
    if observation == target.observation:
        return 0
    n = sum(abs(c) for c in _delta(target.observation, observation).values())
    if n == 0 and canonical_json(observation) == target.json:
        return 0
    return max(1, n)


def surplus(observation, target: _Target) -> Counter:
    """tokens(``observation``) - tokens(``target``), zeros included (walks only the parts
    that differ)."""
    return _delta(target.observation, observation)


def exchange(first: str, second: str) -> dict[str, str] | None:
    """The values two actions exchange, word by word where they differ:
    ``("Deal QS", "Draw 4C")`` -> ``{Deal: Draw, QS: 4C}`` and back; None when their
    words do not pair up (different counts) or nothing differs."""
    a, b = _words(str(first)), _words(str(second))
    if len(a) != len(b):
        return None
    mapping: dict[str, str] = {}
    for u, v in zip(a, b):
        if u != v:
            mapping[u], mapping[v] = v, u
    return mapping or None


def renamed(action: str, mapping: dict[str, str]) -> str:
    """``action`` with each word replaced by its image under ``mapping``."""
    return _WORDS.sub(lambda m: mapping.get(m.group(0), m.group(0)), str(action))
