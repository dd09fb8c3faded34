"""Sandbox worker entry that calls a synthesized policy prior, and nothing more.

Child side of the policy-prior checks (:mod:`ggp.synth.prior`). ``make_handler({"model":
source, "prior": source})`` loads the model with the candidate appended (the prior may
use the model's functions); :meth:`PriorBox.call` calls ``policy_prior(state, player)``
once and returns its answer as *raw data* — what came back, encoded so that it survives
JSON — or the exception it raised. It judges nothing: which keys are legal, whether a
weight is finite, whether the call was fast enough are decided in the parent, which
also holds the legal actions (taken from the model alone, in another box) and measures
the time of each call. Run it only through :class:`ggp.sandbox.Worker`.

Raw answer: ``{"raised": "Type: message"}`` or ``{"returned": R}``, with ``"after"``: the
state as it was after the call (the parent checks that the prior left it alone). ``R`` is
``{"type": name, "repr": text}`` for anything but a dict, and ``{"type": "dict", "size":
n, "items": [[key, weight], ...]}`` for a dict (at most :data:`MAX_ITEMS` items); a key
that is not a string and a weight that is not an ``int``/``float`` are sent as
``{"type", "repr"}``, a non-finite weight as the string ``"nan"``, ``"inf"`` or ``"-inf"``.
"""

from __future__ import annotations

import json
import math
from typing import Any

from ggp.core.model import load_model_source

#: Items of a returned dict that are sent back; more means illegal keys anyway for any
#: game with fewer legal actions, and the parent refuses a truncated answer.
MAX_ITEMS = 4096


def _described(value: Any) -> dict[str, str]:
    try:
        text = repr(value)[:120]
    except Exception as exc:  # noqa: BLE001 - untrusted __repr__
        text = f"<repr raised {type(exc).__name__}>"
    return {"type": type(value).__name__, "repr": text}


def _weight(value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return _described(value)
    try:
        number = float(value)
    except OverflowError:  # an int too large for a float
        return "inf" if value > 0 else "-inf"
    return number if math.isfinite(number) else repr(number)


def encode(answer: Any) -> dict[str, Any]:
    """``answer`` as JSON-safe raw data (see the module doc); judges nothing."""
    if not isinstance(answer, dict):
        return _described(answer)
    items = []
    for key, value in list(answer.items())[:MAX_ITEMS]:
        items.append([key if isinstance(key, str) else _described(key), _weight(value)])
    return {"type": "dict", "size": len(answer), "items": items}


class PriorBox:
    """The model and the candidate, loaded once; one :meth:`call` per request."""

    def __init__(self, init: dict[str, Any]) -> None:
        program = init["model"] + "\n\n# ---- policy prior candidate\n" + init["prior"]
        model = load_model_source(program, name="cwm", filename="cwm_with_prior.py")
        self._prior = getattr(model.namespace, "policy_prior", None)
        if not callable(self._prior):
            raise TypeError("the candidate defines no function policy_prior")

    def call(self, state: Any, player: int) -> dict[str, Any]:
        try:
            reply = {"returned": encode(self._prior(state, player))}
        except Exception as exc:  # noqa: BLE001 - untrusted code; reported, not judged
            reply = {"raised": f"{type(exc).__name__}: {str(exc)[:300]}"}
        reply["after"] = _as_json(state)  # the parent compares it with what it sent
        return reply


def _as_json(value: Any) -> Any:
    """``value`` as JSON would carry it, or a marker when JSON cannot hold it."""
    try:
        return json.loads(json.dumps(value))
    except Exception as exc:  # noqa: BLE001 - a state the prior filled with odd objects
        return {"unserializable": f"{type(exc).__name__}: {str(exc)[:100]}"}


def make_handler(init: dict[str, Any]) -> PriorBox:
    """Worker entry point."""
    return PriorBox(init)
