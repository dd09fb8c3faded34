"""Sandboxed entry for LLM-written encoders (runs only in the child).

``main(payload)`` checks the bijection on ``payload["observations"]`` (for
:func:`ggp.env.llm_encoder.check_encoder`); ``make_handler(init)`` serves ``encode`` for
:class:`ggp.env.llm_encoder.LLMEncoder`.
"""

from __future__ import annotations

import math
from typing import Any

from ggp.core.protocol import canonical_json


def _load(source: str) -> tuple[Any, Any]:
    namespace: dict[str, Any] = {"__name__": "llm_encoder"}
    exec(compile(source, "llm_encoder.py", "exec"), namespace)  # noqa: S102 - sandboxed
    to_tensor = namespace.get("observation_to_tensor")
    back = namespace.get("tensor_to_observation")
    if not callable(to_tensor) or not callable(back):
        raise ValueError("the code must define observation_to_tensor and "
                         "tensor_to_observation")
    return to_tensor, back


def _vector(to_tensor: Any, observation: Any) -> list[float]:
    tensor = to_tensor(observation)
    values = [float(x) for x in tensor]
    if not all(math.isfinite(x) for x in values):
        raise ValueError("the tensor holds a value that is not a finite number")
    return values


def main(payload: dict[str, Any]) -> dict[str, Any]:
    to_tensor, back = _load(payload["source"])
    size = None
    for i, observation in enumerate(payload["observations"]):
        where = f"example {i} ({canonical_json(observation)[:300]})"
        try:
            vector = _vector(to_tensor, observation)
            restored = back(list(vector))
        except Exception as exc:  # noqa: BLE001 - report any failure of the code
            return {"ok": False, "reason": f"{where}: {type(exc).__name__}: {exc}"}
        if size is None:
            size = len(vector)
        if len(vector) != size:
            return {"ok": False, "reason": f"{where}: a tensor of length {len(vector)}, "
                                           f"but the first example gave {size}"}
        if canonical_json(restored) != canonical_json(observation):
            return {"ok": False, "reason": f"{where}: tensor_to_observation gave back "
                                           f"{canonical_json(restored)[:300]}"}
    if not size:
        return {"ok": False, "reason": "the tensors are empty"}
    return {"ok": True, "size": size}


class _Handler:
    def __init__(self, init: dict[str, Any]) -> None:
        self.to_tensor, _ = _load(init["source"])

    def encode(self, observations: list[Any]) -> list[list[float]]:
        return [_vector(self.to_tensor, o) for o in observations]


def make_handler(init: dict[str, Any]) -> _Handler:
    return _Handler(init)
