"""SQLite response cache: record a run's LLM answers once, replay them exactly.

A request's key is the SHA-256 of the canonical JSON of (backend, model, messages,
sampling parameters). The cache also counts how often each key was asked *in this run*:
the n-th identical request is stored under ``(key, n)``. So a program that asks the same
prompt five times for five samples gets five different recorded answers, and a re-run
replays all five in order.

Modes: ``off`` (no cache), ``read-write`` (answer from the cache when recorded, else ask
the backend and record), ``replay`` (answer only from the cache; a miss raises
:class:`~ggp.llm.base.CacheMissError` — what CI uses). Writes are single transactions in
WAL mode, so a crash loses at most the request in flight.

When requests run in parallel, identical requests racing each other may swap their
occurrence numbers between runs; the set of answers is the same.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from ggp.core.protocol import canonical_json
from ggp.llm.base import CacheMissError, Completion, LLMConfigError, Message, SamplingParams

CACHE_MODES = ("off", "read-write", "replay")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT NOT NULL,
    nth INTEGER NOT NULL,
    request TEXT NOT NULL,
    completion TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (key, nth)
)
"""


def request_key(backend: str, model: str, messages: list[Message], params: SamplingParams) -> str:
    """The cache key of a request (hex SHA-256)."""
    payload = {"backend": backend, "model": model, "messages": messages, "params": params.to_json()}
    return hashlib.sha256(canonical_json(payload).encode()).hexdigest()


class ResponseCache:
    """The cache of one run (see the module docs). Thread-safe."""

    def __init__(self, path: str | Path, mode: str = "read-write"):
        if mode not in CACHE_MODES or mode == "off":
            raise LLMConfigError(f"Cache mode must be 'read-write' or 'replay', not {mode!r}.")
        self.path = Path(path)
        self.mode = mode
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._connection = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._connection.execute("PRAGMA journal_mode=WAL")
        self._connection.execute("PRAGMA busy_timeout=10000")
        self._connection.execute(_SCHEMA)
        self._seen: Counter[str] = Counter()
        self._lock = threading.Lock()

    def occurrence(self, key: str) -> int:
        """Claim the next occurrence number (0, 1, ...) of ``key`` in this run."""
        with self._lock:
            nth = self._seen[key]
            self._seen[key] += 1
            return nth

    def get(self, key: str, nth: int, describe: str = "") -> Completion | None:
        """The recorded completion, or None; in replay mode a miss raises."""
        with self._lock:
            row = self._connection.execute(
                "SELECT completion FROM responses WHERE key = ? AND nth = ?", (key, nth)
            ).fetchone()
        if row is None:
            if self.mode == "replay":
                raise CacheMissError(
                    f"Replay-only cache {self.path} has no answer for occurrence {nth + 1} of "
                    f"this request{describe}. Record it first with cache mode 'read-write'."
                )
            return None
        return Completion.from_json(json.loads(row[0]))

    def put(self, key: str, nth: int, request: dict[str, Any], completion: Completion) -> None:
        """Record a completion (the first record of ``(key, nth)`` wins)."""
        with self._lock, self._connection:
            self._connection.execute(
                "INSERT OR IGNORE INTO responses VALUES (?, ?, ?, ?, ?)",
                (
                    key,
                    nth,
                    canonical_json(request),
                    canonical_json(completion.to_json()),
                    time.time(),
                ),
            )

    def __len__(self) -> int:
        with self._lock:
            return self._connection.execute("SELECT COUNT(*) FROM responses").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._connection.close()
