"""Sandboxed entry for LLM-written encoders (runs only in the child).

``main(payload)`` encodes ``payload["observations"]`` or decodes ``payload["vectors"]``
and returns the raw results (:func:`ggp.env.llm_encoder.check_encoder` judges them); ``make_handler(init)`` serves ``encode`` for
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
    """Raw results only (the verdict is made by the parent,
    :func:`ggp.env.llm_encoder.check_encoder`): with ``"observations"``, the tensor of
    each (``{"vector": [...]}`` or ``{"error": text}``, stopping at the first error);
    with ``"vectors"``, ``tensor_to_observation`` of each (``{"restored": value}`` or
    ``{"error": text}``). The two run in separate boxes, so the decoder never sees the
    observations it must give back."""
    to_tensor, back = _load(payload["source"])
    rows: list[dict[str, Any]] = []
    if "vectors" in payload:
        for vector in payload["vectors"]:
            try:
                rows.append({"restored": canonical_json(back(list(vector)))})
            except Exception as exc:  # noqa: BLE001 - report any failure of the code
                rows.append({"error": f"{type(exc).__name__}: {exc}"[:500]})
                break
        return {"rows": rows}
    for observation in payload["observations"]:
        try:
            rows.append({"vector": _vector(to_tensor, observation)})
        except Exception as exc:  # noqa: BLE001 - report any failure of the code
            rows.append({"error": f"{type(exc).__name__}: {exc}"[:500]})
            break
    return {"rows": rows}


class _Handler:
    def __init__(self, init: dict[str, Any]) -> None:
        self.to_tensor, _ = _load(init["source"])

    def encode(self, observations: list[Any]) -> list[list[float]]:
        return [_vector(self.to_tensor, o) for o in observations]


def make_handler(init: dict[str, Any]) -> _Handler:
    return _Handler(init)
