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
        if not (isinstance(rows, list) and len(rows) == len(observations)
                and all(isinstance(row, list) and all(
                    isinstance(x, (int, float)) and not isinstance(x, bool) for x in row)
                    for row in rows)):
            self._worker.close()  # out of protocol: never asked again
            raise EncodingError("the LLM-written encoder's box answered out of protocol")
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
    ``(0, reason)``. The code runs in two fresh restricted boxes, one encoding the
    observations and one decoding the tensors (it never sees the observations), and the
    round trip is compared here: an encoder cannot report itself as passing."""
    from ggp.core.protocol import canonical_json

    def raw(payload: dict[str, Any], key: str) -> tuple[list, str]:
        result = run_entry("ggp.env.llm_encoder_worker", {"source": source, **payload},
                           timeout=timeout, limits=_LIMITS)
        if not result.ok:
            return [], f"{result.kind}: {result.detail[-800:]}"
        rows = result.value.get("rows") if isinstance(result.value, dict) else None
        if not isinstance(rows, list) or not all(
                isinstance(r, dict) and len(r) == 1 and ({key, "error"} & r.keys())
                for r in rows):
            return [], "protocol: the encoder's box answered out of protocol"
        return rows, ""

    encoded, problem = raw({"observations": observations}, "vector")
    if problem:
        return 0, problem
    size = None
    vectors = []
    for i, (observation, row) in enumerate(zip(observations, encoded)):
        where = f"example {i} ({canonical_json(observation)[:300]})"
        vector = row.get("vector")
        if "error" in row:
            return 0, f"{where}: {row['error']}"
        if not (isinstance(vector, list) and all(
                isinstance(x, (int, float)) and not isinstance(x, bool) for x in vector)):
            return 0, f"{where}: the tensor is not a list of numbers"
        size = len(vector) if size is None else size
        if len(vector) != size:
            return 0, f"{where}: a tensor of length {len(vector)}, but the first example " \
                      f"gave {size}"
        vectors.append(vector)
    if len(encoded) != len(observations):
        return 0, "protocol: the encoder's box gave a tensor count that is not one per example"
    if not size:
        return 0, "the tensors are empty"
    decoded, problem = raw({"vectors": vectors}, "restored")
    if problem:
        return 0, problem
    for i, (observation, row) in enumerate(zip(observations, decoded)):
        where = f"example {i} ({canonical_json(observation)[:300]})"
        if "error" in row:
            return 0, f"{where}: {row['error']}"
        if row["restored"] != canonical_json(observation):
            return 0, f"{where}: tensor_to_observation gave back {str(row['restored'])[:300]}"
    if len(decoded) != len(observations):
        return 0, "protocol: the encoder's box gave back a wrong number of observations"
    return size, ""


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
