"""How synthesis talks to a language model, and how a run's exchanges are recorded.

Synthesis needs only ``complete(messages, **params)`` returning an object with ``.text``
and ``.usage`` (``prompt_tokens`` / ``completion_tokens``): any :class:`ggp.llm.LLM`
(an :class:`~ggp.llm.LLMClient` with its cache and budgets, a backend, a fake).

Every exchange is appended to the run's ``exchanges.jsonl``; when a run is resumed (or
replayed into a new directory), requests already answered in that log are answered from
it in order, so an interrupted run continues exactly where it stopped and a finished run
replays without calling any model.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ggp.core.files import open_output
from ggp.core.errors import GGPError
from ggp.llm import LLM
from ggp.llm.config import SETUP_HELP


class ReplayMissError(GGPError):
    """A replay-only run met a request that its log does not hold."""


@dataclass(frozen=True)
class Answer:
    """One answered request as synthesis sees it."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    replayed: bool
    scripted: bool
    model: str


def request_key(messages: list[dict[str, str]], params: dict[str, Any]) -> str:
    """A stable hash of a request (messages and sampling parameters)."""
    blob = json.dumps({"messages": messages, "params": params}, sort_keys=True)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _tokens(usage: Any, name: str) -> int:
    if usage is None:
        return 0
    value = usage.get(name, 0) if isinstance(usage, dict) else getattr(usage, name, 0)
    return int(value or 0)


class RecordingLLM:
    """Wraps a model: answers from an earlier log where it can, records everything.

    ``model`` may be None for a replay-only run; a request the log cannot answer then
    raises :class:`ReplayMissError`. Every backend is replayed this way, the file exchange
    included (it finds its prompt files by content, so the requests the log answers are
    simply not asked again). Safe to call from several threads.
    """

    def __init__(self, model: LLM | None, log_path: Path,
                 replay_from: Path | None = None, params: dict[str, Any] | None = None):
        self.model = model
        self.log_path = Path(log_path)
        self.params = dict(params or {})
        self._lock = threading.Lock()
        self._recorded: dict[str, list[dict]] = {}
        self._seen: dict[str, int] = {}
        # Resuming in place keeps the log and appends to it; replaying another run's
        # log starts a new one that receives the replayed entries as they occur.
        self._in_place = replay_from is None or Path(replay_from) == self.log_path
        source = self.log_path if self._in_place else Path(replay_from)
        if source.is_file():
            with open(source, encoding="utf-8") as fh:
                for line in fh:
                    try:
                        entry = json.loads(line)
                    except json.JSONDecodeError:
                        continue  # blank, or cut short when the run was killed
                    self._recorded.setdefault(entry["key"], []).append(entry)
        if not self._in_place:
            self.log_path.write_text("", encoding="utf-8")
        elif self.log_path.is_file() and not self.log_path.read_bytes().endswith(b"\n"):
            with open_output(self.log_path, "a") as fh:
                fh.write("\n")
        self.calls = 0

    def complete(self, messages: list[dict[str, str]], *, purpose: str = "") -> Answer:
        key = request_key(messages, self.params)
        with self._lock:
            nth = self._seen.get(key, 0)
            self._seen[key] = nth + 1
            self.calls += 1
            index = self.calls
            old = self._recorded.get(key, [])
            entry = old[nth] if nth < len(old) else None
        if entry is not None:
            answer = Answer(entry["response"], entry["prompt_tokens"],
                            entry["completion_tokens"], True, entry.get("scripted", False),
                            entry.get("model", ""))
            seconds = 0.0
        else:
            if self.model is None and not self._recorded:  # nothing to replay: set one up
                raise ReplayMissError(SETUP_HELP)
            if self.model is None:
                raise ReplayMissError(
                    "This run is replaying its log without a language model, and the log "
                    f"holds no answer for request {index} ({purpose or 'synthesis'}). Give "
                    "a model (--backend and --model) to continue the run.")
            started = time.monotonic()
            completion = self.model.complete(messages, **self.params)
            seconds = time.monotonic() - started
            usage = getattr(completion, "usage", None)
            answer = Answer(str(completion.text), _tokens(usage, "prompt_tokens"),
                            _tokens(usage, "completion_tokens"), False,
                            bool(getattr(completion, "scripted", False)),
                            str(getattr(completion, "model", "")))
        if answer.replayed and self._in_place:
            return answer
        record = {"call": index, "key": key, "nth": nth, "purpose": purpose,
                  "messages": messages, "response": answer.text,
                  "prompt_tokens": answer.prompt_tokens,
                  "completion_tokens": answer.completion_tokens,
                  "model": answer.model, "scripted": answer.scripted,
                  "replayed": answer.replayed, "seconds": round(seconds, 3)}
        with self._lock, open(self.log_path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(record) + "\n")
        return answer
