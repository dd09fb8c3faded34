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
(``unknown="error"``, the default), or is dropped from the encoding (``unknown="ignore"``:
the offending part encodes as zeros). Numbers larger than seen are not errors: they encode
as values above 1.

:class:`ActionIndex` is the sorted union of actions seen in trajectories and in legal-action
lists. A legal action outside it cannot be chosen by a policy; :meth:`ActionIndex.mask`
raises for it (``unknown="error"``) or leaves it out of the mask (``"ignore"``), and always
raises when *no* legal action is in the index.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Literal

import numpy as np

from ggp.core.errors import GGPError

Unknown = Literal["error", "ignore"]
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

    def finish(self, max_categories: int) -> None:
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
        size = len(self.types) if len(self.types) > 1 else 0
        size += len(self.categories) + (1 if self.numeric else 0)
        if self.element is not None:
            self.element.finish(max_categories)
            size += self.max_len * (1 + self.element.size)
        for child in self.keys.values():
            child.finish(max_categories)
            size += child.size
        size += len(self.optional)
        self.size = size

    # ----------------------------------------------------------------- encoding
    def encode(self, value: Any, out: np.ndarray, at: int, path: str, unknown: Unknown) -> None:
        try:
            kind = _json_type(value)
        except EncodingError as exc:
            raise EncodingError(f"{path}: {exc}") from exc
        if kind not in self.types:
            self._miss(unknown, f"{path}: a {kind} where the schema has {'/'.join(self.types)}")
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
            self._miss(unknown, f"{path}: {json.dumps(value)} was never seen here "
                                f"(seen: {', '.join(json.dumps(c) for c in self.categories[:8])}"
                                f"{', ...' if len(self.categories) > 8 else ''})")
            return
        at += len(self.categories)
        if self.numeric:
            if kind == "number":
                out[at] = float(value) / self.scale
            at += 1
        if kind == "list":
            if len(value) > self.max_len:
                self._miss(unknown, f"{path}: a list of {len(value)} items; the schema "
                                    f"allows at most {self.max_len}")
            step = 1 + self.element.size
            for i, item in enumerate(value[:self.max_len]):
                out[at + i * step] = 1.0
                self.element.encode(item, out, at + i * step + 1, f"{path}[{i}]", unknown)
            return
        if self.element is not None:
            at += self.max_len * (1 + self.element.size)
        if kind == "dict":
            extra = [k for k in value if k not in self.keys]
            if extra:
                self._miss(unknown, f"{path}: unknown key {extra[0]!r}")
            for key, child in self.keys.items():
                if key in value:
                    child.encode(value[key], out, at, f"{path}.{key}", unknown)
                at += child.size
            for i, key in enumerate(self.optional):
                out[at + i] = 1.0 if key in value else 0.0

    @staticmethod
    def _miss(unknown: Unknown, message: str) -> None:
        if unknown == "error":
            raise EncodingError(f"observation outside the schema at {message}")

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
        size = len(node.types) if len(node.types) > 1 else 0
        size += len(node.categories) + (1 if node.numeric else 0)
        if node.element is not None:
            size += node.max_len * (1 + node.element.size)
        size += sum(c.size for c in node.keys.values()) + len(node.optional)
        node.size = size
        return node


class SchemaEncoder:
    """Observation → fixed-length ``float32`` vector, from a schema fitted on examples."""

    kind = "schema"

    def __init__(self, root: _Node, unknown: Unknown = "error") -> None:
        if root.size == 0:
            raise EncodingError("the observations carry no information (empty schema)")
        self.root, self.unknown = root, unknown

    @classmethod
    def fit(cls, observations: Iterable[Any], *, max_categories: int = 16,
            unknown: Unknown = "error") -> "SchemaEncoder":
        """Learn the schema from example observations (at least one)."""
        root, count = _Node(), 0
        for observation in observations:
            root.add(observation)
            count += 1
        if count == 0:
            raise EncodingError("no observations to learn a schema from")
        root.finish(max_categories)
        return cls(root, unknown)

    @property
    def size(self) -> int:
        """The length of every encoded vector."""
        return self.root.size

    def encode(self, observation: Any) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        self.root.encode(observation, out, 0, "observation", self.unknown)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "unknown": self.unknown, "schema": self.root.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "SchemaEncoder":
        return cls(_Node.from_dict(data["schema"]), data.get("unknown", "error"))


class ActionIndex:
    """A fixed numbering of actions: the sorted union of every action seen."""

    def __init__(self, actions: Iterable[str], unknown: Unknown = "error") -> None:
        self.actions = sorted(set(actions))
        if not self.actions:
            raise EncodingError("the action index is empty: no actions were seen")
        self.ids = {a: i for i, a in enumerate(self.actions)}
        self.unknown = unknown

    def __len__(self) -> int:
        return len(self.actions)

    def id(self, action: str) -> int:
        try:
            return self.ids[action]
        except KeyError:
            raise EncodingError(f"action {action!r} is not in the action index "
                                f"({len(self.actions)} actions)") from None

    def mask(self, legal: Iterable[str]) -> np.ndarray:
        """1 for each legal action in the index; see the module doc for the others."""
        mask = np.zeros(len(self.actions), dtype=np.int8)
        legal = list(legal)
        for action in legal:
            i = self.ids.get(action)
            if i is None:
                if self.unknown == "error":
                    raise EncodingError(f"legal action {action!r} is not in the action "
                                        "index; refit it on more games or use unknown=ignore")
                continue
            mask[i] = 1
        if legal and not mask.any():
            raise EncodingError(f"none of the legal actions {legal[:5]} is in the action "
                                "index")
        return mask

    def to_dict(self) -> dict[str, Any]:
        return {"actions": self.actions, "unknown": self.unknown}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ActionIndex":
        return cls(data["actions"], data.get("unknown", "error"))


def encoder_from_dict(data: dict[str, Any]):
    """The encoder a checkpoint stored (``kind`` schema or llm)."""
    if data.get("kind") == "llm":
        from ggp.env.llm_encoder import LLMEncoder

        return LLMEncoder.from_dict(data)
    return SchemaEncoder.from_dict(data)


__all__ = ["ActionIndex", "EncodingError", "SchemaEncoder", "encoder_from_dict"]
