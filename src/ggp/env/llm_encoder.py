"""Seed 000's variant of the observation encoder: written by a language model.

:func:`request_llm_encoder` asks a model (through :mod:`ggp.llm`) for two functions,

    observation_to_tensor(observation) -> list[float]      # always the same length
    tensor_to_observation(tensor) -> observation

showing it example observations (distinct ones from recorded or random games). The answer
is untrusted code: it is checked in a restricted, offline sandbox (:func:`ggp.sandbox.run_entry`)
to map *every* example to a list of finite numbers of one length and back to an equal
observation (canonical JSON), i.e. to be a bijection on the examples. A failing answer is
sent back with the reason, up to ``attempts`` requests.

:class:`LLMEncoder` then encodes in a long-lived sandboxed worker: :meth:`encode_batch`
costs one round trip for a whole vector step. An observation the code cannot encode (it
raises, or returns the wrong length) raises :class:`~ggp.env.encoding.EncodingError`.
"""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np

from ggp.core.protocol import canonical_json
from ggp.env.encoding import EncodingError
from ggp.sandbox import Limits, SandboxFailure, Worker, run_entry

_FENCE = re.compile(r"```[ \t]*(?:python|py|python3)?[^\n]*\n(.*?)(?:```|\Z)", re.S)
_LIMITS = Limits(memory_mb=1024, cpu_seconds=600, restricted=True, network=False)

PROMPT = """You are writing a fixed-size numeric encoding of a game's observations for a \
neural network.
Game: {game}

Write two Python functions (standard library only):

    def observation_to_tensor(observation) -> list[float]
    def tensor_to_observation(tensor) -> dict

observation_to_tensor must return a list of floats of the SAME length for every \
observation of this game, and tensor_to_observation must invert it exactly: \
tensor_to_observation(observation_to_tensor(o)) == o for every observation o. Prefer \
one-hot codes for categorical values and keep the tensor small.

Here are {count} example observations (JSON, one per line):
{examples}

Answer with one ```python code block."""

FEEDBACK = """Your code failed the check on the example observations:
{reason}
Fix it and answer with the whole corrected ```python code block."""


class LLMEncoder:
    """An LLM-written encoder run in a sandboxed worker; see the module doc."""

    kind = "llm"

    def __init__(self, source: str, size: int, scripted: bool = False) -> None:
        self.source, self.size, self.scripted = source, int(size), bool(scripted)
        self._worker: Worker | None = None

    def _call(self, observations: list[Any]) -> list[list[float]]:
        if self._worker is None or not self._worker.alive:
            self._worker = Worker("ggp.env.llm_encoder_worker", {"source": self.source},
                                  limits=_LIMITS)
        try:
            rows = self._worker.call("encode", {"observations": observations}, timeout=60.0)
        except SandboxFailure as exc:
            raise EncodingError(f"the LLM-written encoder failed ({exc.kind}): "
                                f"{exc.detail[-300:]}") from exc
        for row in rows:
            if len(row) != self.size:
                raise EncodingError(f"the LLM-written encoder returned {len(row)} numbers "
                                    f"instead of {self.size}")
        return rows

    def encode(self, observation: Any) -> np.ndarray:
        return np.asarray(self._call([observation])[0], dtype=np.float32)

    def encode_batch(self, observations: list[Any]) -> np.ndarray:
        return np.asarray(self._call(list(observations)), dtype=np.float32)

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "source": self.source, "size": self.size,
                "scripted": self.scripted}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "LLMEncoder":
        return cls(data["source"], data["size"], data.get("scripted", False))


def check_encoder(source: str, observations: list[Any], timeout: float = 60.0) -> tuple[int, str]:
    """``(size, "")`` when ``source`` is a bijection on ``observations``, else
    ``(0, reason)``. Runs in a fresh restricted sandbox."""
    result = run_entry("ggp.env.llm_encoder_worker", {"source": source,
                                                      "observations": observations},
                       timeout=timeout, limits=_LIMITS)
    if not result.ok:
        return 0, f"{result.kind}: {result.detail[-800:]}"
    value = result.value
    return (int(value["size"]), "") if value["ok"] else (0, value["reason"])


def distinct(observations: list[Any], limit: int) -> list[Any]:
    seen, out = set(), []
    for observation in observations:
        key = canonical_json(observation)
        if key not in seen:
            seen.add(key)
            out.append(observation)
    return out[:limit]


def request_llm_encoder(llm: Any, observations: list[Any], *, game: str = "",
                        examples: int = 20, check_on: int = 1000,
                        attempts: int = 3) -> LLMEncoder:
    """Ask ``llm`` (anything with ``complete(messages)``) for an encoder; see the module
    doc. Raises :class:`EncodingError` when no answer passes within ``attempts``."""
    pool = distinct(observations, check_on)
    if not pool:
        raise EncodingError("no observations to show the language model")
    shown = pool[:: max(1, len(pool) // examples)][:examples]
    messages: list[dict[str, str]] = [{"role": "user", "content": PROMPT.format(
        game=game or "(unnamed)", count=len(shown),
        examples="\n".join(json.dumps(o) for o in shown))}]
    reason = ""
    for _ in range(attempts):
        answer = llm.complete(messages)
        blocks = _FENCE.findall(answer.text)
        source = blocks[0] if blocks else answer.text
        size, reason = check_encoder(source, pool)
        if size:
            return LLMEncoder(source, size, scripted=bool(getattr(answer, "scripted", False)))
        messages += [{"role": "assistant", "content": answer.text},
                     {"role": "user", "content": FEEDBACK.format(reason=reason)}]
    raise EncodingError(f"no LLM-written encoder passed the bijection check in {attempts} "
                        f"attempts; last failure: {reason}")


__all__ = ["LLMEncoder", "check_encoder", "request_llm_encoder"]
