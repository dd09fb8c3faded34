"""Fixed-size tensors for JSON observations, and a fixed action index.

No language model is involved: :class:`SchemaEncoder` learns a schema from example
observations (recorded trajectories, random play) and maps every observation that fits it
to a float vector of one fixed length.

The schema is a tree that mirrors the JSON:

* a **dict** node knows every key it has seen (sorted); a key missing from an observation
  encodes as zeros plus a cleared presence bit (keys that were always present have none);
* a **list** node knows the longest list it has seen and one element schema merged over
  all positions; each position gets a presence bit, so ``[]`` and ``[0]`` differ;
* a **leaf** is categorical (strings, booleans, ``null`` and integers with at most
  ``max_categories`` distinct values: one-hot) or numeric (other numbers: the value
  divided by the largest magnitude seen);
* a node that has held values of several JSON types (``[0, "Call"]`` pairs) gets a type
  one-hot and one sub-encoding per type.

An observation outside the schema — an unseen key, string or small integer, a longer list,
a JSON type never seen at that place — raises :class:`EncodingError` naming the path
(``unknown="error"``, the default of :meth:`SchemaEncoder.fit`), is dropped from the
encoding (``unknown="ignore"``: the offending part encodes as zeros), or goes to an
overflow slot (``unknown="overflow"``, what the environments fit by default: every
categorical leaf gets one extra "other" slot, longer lists are cut, unknown keys and types
are dropped). ``ignore`` and ``overflow`` never fail at run time; both count what they met
in :attr:`SchemaEncoder.unseen` (``{path: count}``). Numbers larger than seen are not
errors: they encode as values above 1, clipped at :data:`NUMERIC_BOUND` so that every
encoding lies in a bounded box (:attr:`SchemaEncoder.low`, :attr:`SchemaEncoder.high`).

:class:`ActionIndex` is the sorted union of actions seen in trajectories and in legal-action
lists. A legal action outside it: :meth:`ActionIndex.mask` raises for it
(``unknown="error"``), leaves it out of the mask (``"ignore"``: the policy cannot choose
it), or marks one extra last slot, *other* (``"overflow"``), which plays the first such
legal action. Without the other slot, a state where *no* legal action is in the index
raises. :meth:`ggp.env.envs.Encoding.fit` adds the other slot where the examples show an
open action set (new actions still appeared in their second half:
:attr:`ggp.env.samples.Samples.open_actions`; backgammon's moves, gin rummy's melds), so a
closed game keeps exactly its own actions (tic-tac-toe: 9).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Literal

import numpy as np

from ggp.core.errors import GGPError

Unknown = Literal["error", "ignore", "overflow"]
#: scaled numbers are clipped to ±this many times the largest magnitude seen when fitting
NUMERIC_BOUND = 4.0
_TYPES = ("null", "bool", "number", "string", "list", "dict")


class EncodingError(GGPError):
    """An observation or an action lies outside the learned schema or index."""


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "list"
    if isinstance(value, dict):
        return "dict"
    raise EncodingError(f"{type(value).__name__} is not a JSON value")


@dataclass
class _Node:
    """One place in the JSON tree: the types seen there and what they held."""

    types: list[str] = field(default_factory=list)
    categories: list[Any] = field(default_factory=list)  # null/bool/string/int values
    numbers: set = field(default_factory=set)            # distinct numbers (while fitting)
    scale: float = 1.0
    numeric: bool = False                                  # numbers encoded as scalars
    max_len: int = 0
    element: "_Node | None" = None
    keys: dict[str, "_Node"] = field(default_factory=dict)
    key_counts: dict[str, int] = field(default_factory=dict)
    dict_count: int = 0
    optional: list[str] = field(default_factory=list)     # keys that were sometimes absent
    overflow: bool = False                                 # one "other" category slot
    size: int = 0

    # ------------------------------------------------------------------ fitting
    def add(self, value: Any) -> None:
        kind = _json_type(value)
        if kind not in self.types:
            self.types.append(kind)
        if kind in ("null", "bool", "string"):
            if not any(type(c) is type(value) and c == value for c in self.categories):
                self.categories.append(value)
        elif kind == "number":
            self.numbers.add(value)
        elif kind == "list":
            self.max_len = max(self.max_len, len(value))
            if self.element is None:
                self.element = _Node()
            for item in value:
                self.element.add(item)
        else:
            self.dict_count += 1
            for key, item in value.items():
                self.keys.setdefault(key, _Node()).add(item)
                self.key_counts[key] = self.key_counts.get(key, 0) + 1

    def finish(self, max_categories: int, overflow: bool = False) -> None:
        self.types.sort(key=_TYPES.index)
        if self.numbers:
            ints = all(float(x).is_integer() for x in self.numbers)
            if ints and len(self.numbers) <= max_categories:
                self.categories.extend(sorted(int(x) for x in self.numbers))
            else:
                self.numeric = True
                self.scale = max(1.0, max(abs(float(x)) for x in self.numbers))
        self.numbers = set()
        self.categories = sorted(self.categories, key=lambda c: (type(c).__name__, str(c)))
        self.optional = sorted(k for k, n in self.key_counts.items() if n < self.dict_count)
        self.keys = dict(sorted(self.keys.items()))
        self.overflow = overflow and bool(self.categories)
        if self.element is not None:
            self.element.finish(max_categories, overflow)
        for child in self.keys.values():
            child.finish(max_categories, overflow)
        self.size = self._size()

    def _size(self) -> int:
        size = len(self.types) if len(self.types) > 1 else 0
        size += len(self.categories) + int(self.overflow) + (1 if self.numeric else 0)
        if self.element is not None:
            size += self.max_len * (1 + self.element.size)
        return size + sum(c.size for c in self.keys.values()) + len(self.optional)

    # ----------------------------------------------------------------- encoding
    def encode(self, value: Any, out: np.ndarray, at: int, path: str, unknown: Unknown,
               unseen: dict[str, int]) -> None:
        try:
            kind = _json_type(value)
        except EncodingError as exc:
            raise EncodingError(f"{path}: {exc}") from exc
        if kind not in self.types:
            self._miss(unknown, unseen, path,
                       f"{path}: a {kind} where the schema has {'/'.join(self.types)}")
            return
        if len(self.types) > 1:
            out[at + self.types.index(kind)] = 1.0
            at += len(self.types)
        if kind in ("null", "bool", "string") or kind == "number" and not self.numeric:
            for i, category in enumerate(self.categories):
                if type(category) is type(value) and category == value or (
                        kind == "number" and type(category) is int and category == value):
                    out[at + i] = 1.0
                    return
            if self.overflow and unknown != "error":
                out[at + len(self.categories)] = 1.0
            self._miss(unknown, unseen, path,
                       f"{path}: {json.dumps(value)} was never seen here "
                       f"(seen: {', '.join(json.dumps(c) for c in self.categories[:8])}"
                       f"{', ...' if len(self.categories) > 8 else ''})")
            return
        at += len(self.categories) + int(self.overflow)
        if self.numeric:
            if kind == "number":
                out[at] = min(NUMERIC_BOUND, max(-NUMERIC_BOUND, float(value) / self.scale))
            at += 1
        if kind == "list":
            if len(value) > self.max_len:
                self._miss(unknown, unseen, path,
                           f"{path}: a list of {len(value)} items; the schema "
                           f"allows at most {self.max_len}")
            step = 1 + self.element.size
            for i, item in enumerate(value[:self.max_len]):
                out[at + i * step] = 1.0
                self.element.encode(item, out, at + i * step + 1, f"{path}[{i}]", unknown,
                                    unseen)
            return
        if self.element is not None:
            at += self.max_len * (1 + self.element.size)
        if kind == "dict":
            extra = [k for k in value if k not in self.keys]
            if extra:
                self._miss(unknown, unseen, path, f"{path}: unknown key {extra[0]!r}")
            for key, child in self.keys.items():
                if key in value:
                    child.encode(value[key], out, at, f"{path}.{key}", unknown, unseen)
                at += child.size
            for i, key in enumerate(self.optional):
                out[at + i] = 1.0 if key in value else 0.0

    @staticmethod
    def _miss(unknown: Unknown, unseen: dict[str, int], path: str, message: str) -> None:
        if unknown == "error":
            raise EncodingError(f"observation outside the schema at {message}")
        unseen[path] = unseen.get(path, 0) + 1

    # ------------------------------------------------------------ serialization
    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"types": self.types}
        if self.categories:
            data["categories"] = self.categories
        if self.numeric:
            data["scale"] = self.scale
        if self.element is not None:
            data["max_len"], data["element"] = self.max_len, self.element.to_dict()
        if self.keys:
            data["keys"] = {k: c.to_dict() for k, c in self.keys.items()}
        if self.optional:
            data["optional"] = self.optional
        if self.overflow:
            data["overflow"] = True
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "_Node":
        node = cls(types=list(data["types"]), categories=list(data.get("categories", [])))
        node.numeric = "scale" in data
        node.scale = float(data.get("scale", 1.0))
        if "element" in data:
            node.max_len, node.element = int(data["max_len"]), cls.from_dict(data["element"])
        node.keys = {k: cls.from_dict(v) for k, v in data.get("keys", {}).items()}
        node.optional = list(data.get("optional", []))
        node.overflow = bool(data.get("overflow", False))
        node.size = node._size()
        return node

    def has_numbers(self) -> bool:
        return self.numeric or any(c.has_numbers() for c in self.keys.values()) or (
            self.element is not None and self.element.has_numbers())


class SchemaEncoder:
    """Observation → fixed-length ``float32`` vector, from a schema fitted on examples."""

    kind = "schema"

    def __init__(self, root: _Node, unknown: Unknown = "error") -> None:
        if root.size == 0:
            raise EncodingError("the observations carry no information (empty schema)")
        self.root, self.unknown = root, unknown
        #: ``{path: count}`` of observation parts outside the schema met so far
        #: (``unknown`` ignore/overflow); an error is raised instead under ``error``
        self.unseen: dict[str, int] = {}
        numbers = root.has_numbers()
        self.low = -NUMERIC_BOUND if numbers else 0.0
        self.high = NUMERIC_BOUND if numbers else 1.0

    @classmethod
    def fit(cls, observations: Iterable[Any], *, max_categories: int = 16,
            unknown: Unknown = "error") -> "SchemaEncoder":
        """Learn the schema from example observations (at least one); ``unknown``
        ``"overflow"`` adds an "other" slot to every categorical leaf."""
        root, count = _Node(), 0
        for observation in observations:
            root.add(observation)
            count += 1
        if count == 0:
            raise EncodingError("no observations to learn a schema from")
        root.finish(max_categories, overflow=unknown == "overflow")
        return cls(root, unknown)

    @property
    def size(self) -> int:
        """The length of every encoded vector."""
        return self.root.size

    def encode(self, observation: Any) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        self.root.encode(observation, out, 0, "observation", self.unknown, self.unseen)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "unknown": self.unknown, "schema": self.root.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "SchemaEncoder":
        return cls(_Node.from_dict(data["schema"]), data.get("unknown", "error"))


_WORD = re.compile(r"[A-Za-z0-9_]+")


def _strip_token(action: str, token: "str | list[str]") -> str:
    """``action`` without the mover's identity: a whole word ``token`` (first occurrence,
    spacing tidied), or for a prefix rule ``[common, identity]`` the ``identity`` right
    after the ``common`` prefix that every seat's moves share."""
    if isinstance(token, list):
        common, identity = token
        head = common + identity
        return common + action[len(head):] if action.startswith(head) else action
    out = re.sub(rf"(?<![A-Za-z0-9_]){re.escape(token)}(?![A-Za-z0-9_])", "", action, count=1)
    out = re.sub(r"\s+", " ", re.sub(r"\[\]|\(\)|\{\}", "", out))  # "[P0]Bid" → "Bid"
    return re.sub(r"([(\[{]) ", r"\1", re.sub(r" ([)\]}])", r"\1", out)).strip()


def seat_tokens(by_seat: dict[int, set[str]], names: list[str] | None = None) -> dict[int, Any]:
    """The mover's identity token in each seat's action names, where the moves show one.

    The rule: seat ``p``'s token is a word that occurs in *every* action ``p`` was seen to
    take and in *no* action of any other seat (the player's name first, e.g. ``x`` in
    ``"x(1,1)"``, else the first such word in sorted order). Tokens are used only when
    every seat with actions has one, stripping is one-to-one within each seat, and the
    stripped names of the seats overlap (the moves really are the same moves); otherwise
    ``{}`` (the raw names are the index). When no word qualifies, a *prefix* rule is tried:
    each seat's moves share a prefix, the seats' prefixes differ, and the letters after the
    part common to all seats are the identity (``"x3"``/``"o3"`` → ``"3"``). A GDL
    ``"(mark 1 1)"`` or OpenSpiel's Leduc ``"Call"`` carry no identity: nothing is stripped.
    """
    seats = {p: a for p, a in by_seat.items() if a}
    if len(seats) < 2:
        return {}
    for rule in (_word_tokens, _prefix_tokens):
        tokens = rule(seats, names)
        if tokens and _shared(seats, tokens):
            return tokens
    return {}


def _word_tokens(seats: dict[int, set[str]], names: list[str] | None) -> dict[int, Any]:
    words = {p: [set(_WORD.findall(a)) for a in acts] for p, acts in seats.items()}
    any_words = {p: set().union(*w) for p, w in words.items()}
    tokens: dict[int, Any] = {}
    for p, sets in words.items():
        common = set.intersection(*sets)
        others = set().union(*(any_words[q] for q in seats if q != p))
        candidates = sorted(common - others)
        name = (names[p] if names and p < len(names) else "").lower()
        preferred = [c for c in candidates if c.lower() == name]
        if not candidates:
            return {}
        tokens[p] = (preferred or candidates)[0]
    return tokens


def _prefix_tokens(seats: dict[int, set[str]], names: list[str] | None) -> dict[int, Any]:
    """Fused identities such as connect four's ``"x3"``: each seat's moves share a prefix
    that differs between seats; the part after what all seats share is the identity, cut
    short where it would reach into the move itself (a digit or bracket)."""
    prefixes = {p: os.path.commonprefix(sorted(acts)) for p, acts in seats.items()}
    common = os.path.commonprefix(list(prefixes.values()))
    tokens: dict[int, Any] = {}
    for p, prefix in prefixes.items():
        identity = re.match(r"[A-Za-z_]*", prefix[len(common):]).group(0)
        if not identity:
            return {}
        tokens[p] = [common, identity]
    if len({t[1] for t in tokens.values()}) < len(tokens):
        return {}
    return tokens


def _shared(seats: dict[int, set[str]], tokens: dict[int, Any]) -> bool:
    """Stripping is one-to-one per seat and the seats' stripped moves overlap."""
    stripped = {p: {_strip_token(a, tokens[p]) for a in acts} for p, acts in seats.items()}
    if any(len(stripped[p]) != len(seats[p]) or "" in stripped[p] for p in seats):
        return False
    ps = list(seats)
    return not any(not stripped[a] & stripped[b] for a in ps for b in ps if a < b)


class ActionIndex:
    """A fixed numbering of actions: the sorted union of every action seen.

    With ``tokens`` (``{seat: identity token}``, see :func:`seat_tokens`) the index holds
    *canonical* names, the mover's token stripped (tic-tac-toe's ``"x(1,1)"`` and
    ``"o(1,1)"`` are both ``"(1,1)"``), so one index — and one network — serves every seat;
    :meth:`mask` and :meth:`action` translate for the seat that moves.
    """

    def __init__(self, actions: Iterable[str], unknown: Unknown = "error",
                 tokens: dict[int, Any] | None = None) -> None:
        self.tokens = {int(p): t for p, t in (tokens or {}).items()}
        self.actions = sorted({self._canon(a, None) for a in actions})
        if not self.actions:
            raise EncodingError("the action index is empty: no actions were seen")
        self.ids = {a: i for i, a in enumerate(self.actions)}
        self.unknown = unknown
        #: legal actions met outside the index (``unknown`` ignore/overflow)
        self.unseen = 0

    @property
    def other(self) -> int | None:
        """The *other* slot (the last one) for legal actions outside the index, if any."""
        return len(self.actions) if self.unknown == "overflow" else None

    def _canon(self, action: str, seat: int | None) -> str:
        if not self.tokens:
            return action
        if seat is not None:
            token = self.tokens.get(seat)
            return _strip_token(action, token) if token else action
        for token in self.tokens.values():  # fitting: whichever seat's token it carries
            stripped = _strip_token(action, token)
            if stripped != action:
                return stripped
        return action

    def __len__(self) -> int:
        return len(self.actions) + (self.other is not None)

    def id(self, action: str, seat: int | None = None) -> int:
        try:
            return self.ids[self._canon(action, seat)]
        except KeyError:
            raise EncodingError(f"action {action!r} is not in the action index "
                                f"({len(self.actions)} actions)") from None

    def action(self, i: int, legal: Iterable[str] | None = None,
               seat: int | None = None) -> str | None:
        """The model's action for index ``i`` (the one among ``legal`` whose canonical
        name it is, for seat ``seat``; for the other slot, the first of ``legal`` outside
        the index); None for an index outside the range or one with no legal action
        behind it."""
        if self.other is not None and int(i) == self.other:
            return next((a for a in legal or () if self._canon(a, seat) not in self.ids),
                        None)
        if not 0 <= int(i) < len(self.actions):
            return None
        name = self.actions[int(i)]
        if not self.tokens:
            return name
        for action in legal or ():
            if self._canon(action, seat) == name:
                return action
        return None

    def mask(self, legal: Iterable[str], seat: int | None = None) -> np.ndarray:
        """1 for each legal action in the index; see the module doc for the others."""
        mask = np.zeros(len(self), dtype=np.int8)
        legal = list(legal)
        for action in legal:
            i = self.ids.get(self._canon(action, seat))
            if i is None:
                if self.unknown == "error":
                    raise EncodingError(f"legal action {action!r} is not in the action "
                                        "index; refit it on more games or use unknown=ignore")
                self.unseen += 1
                i = self.other
                if i is None:
                    continue
            mask[i] = 1
        if legal and not mask.any():
            raise EncodingError(f"none of the legal actions {legal[:5]} is in the action "
                                "index; refit it on more games or use unknown=overflow")
        return mask

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"actions": self.actions, "unknown": self.unknown}
        if self.tokens:
            data["tokens"] = {str(p): t for p, t in self.tokens.items()}
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ActionIndex":
        index = cls.__new__(cls)
        index.tokens = {int(p): t for p, t in data.get("tokens", {}).items()}
        index.actions = list(data["actions"])
        index.ids = {a: i for i, a in enumerate(index.actions)}
        index.unknown, index.unseen = data.get("unknown", "error"), 0
        return index


__all__ = ["ActionIndex", "EncodingError", "SchemaEncoder", "seat_tokens"]
