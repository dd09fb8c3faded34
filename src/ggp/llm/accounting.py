"""Per-run budgets, usage totals and the audit log of every call.

A :class:`Budget` caps the calls, tokens and (where a price is configured) the cost of one
run. Budgets count *logical* calls, including answers replayed from the cache, so a
replayed run stops at exactly the same place as the recorded one; the totals report
cache hits and real calls separately.

A call is admitted only while every total is below its cap, so a run may overshoot the
token or cost cap by the size of the calls already in flight — never start a call after
the cap is reached.

The audit log is a JSONL file (one object per attempt: request, answer or error,
latency, tokens, whether it came from the cache). API keys never reach it.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ggp.core.files import open_output
from ggp.llm.base import BudgetExceededError, Completion

CALL_LOG_NAME = "llm_calls.jsonl"


@dataclass(frozen=True)
class Budget:
    """Caps for one run; None means unlimited."""

    max_calls: int | None = None
    max_tokens: int | None = None
    max_cost: float | None = None


@dataclass(frozen=True)
class Price:
    """US dollars per million prompt (input) and completion (output) tokens."""

    input_per_mtok: float
    output_per_mtok: float

    def cost(self, completion: Completion) -> float:
        usage = completion.usage
        return (
            usage.prompt_tokens * self.input_per_mtok
            + usage.completion_tokens * self.output_per_mtok
        ) / 1e6


@dataclass
class Totals:
    """What a run has used so far."""

    calls: int = 0
    real_calls: int = 0
    cache_hits: int = 0
    failed_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class Accounting:
    """Admits calls under a :class:`Budget`, adds up usage and writes the call log.

    Thread-safe. ``log_path`` None disables the log. ``price`` None means cost is not
    tracked (a cost cap then raises at the first call, to avoid silent overspending).
    """

    def __init__(
        self, budget: Budget = Budget(), price: Price | None = None, log_path: Path | None = None
    ):
        self.budget = budget
        self.price = price
        self.totals = Totals()
        self.log_path = log_path
        self._in_flight = 0
        self._lock = threading.Lock()
        if log_path is not None:
            log_path.parent.mkdir(parents=True, exist_ok=True)

    def admit(self) -> None:
        """Reserve one call, or raise :class:`BudgetExceededError`."""
        with self._lock:
            reason = self._exhausted()
            if reason:
                raise BudgetExceededError(f"LLM budget exhausted: {reason}.")
            self._in_flight += 1

    def _exhausted(self) -> str | None:
        b, t = self.budget, self.totals
        if b.max_calls is not None and t.calls + self._in_flight >= b.max_calls:
            return f"{t.calls} of at most {b.max_calls} calls made"
        if b.max_tokens is not None and t.tokens >= b.max_tokens:
            return f"{t.tokens} tokens used, the cap is {b.max_tokens}"
        if b.max_cost is not None:
            if self.price is None:
                return "a cost cap is set but no price is configured for this model"
            if t.cost >= b.max_cost:
                return f"${t.cost:.4f} spent, the cap is ${b.max_cost:.4f}"
        return None

    def record(self, completion: Completion, entry: dict[str, Any]) -> None:
        """Account a finished admitted call and log it."""
        with self._lock:
            self._in_flight -= 1
            t = self.totals
            t.calls += 1
            t.cache_hits += completion.cached
            t.real_calls += not completion.cached
            t.prompt_tokens += completion.usage.prompt_tokens
            t.completion_tokens += completion.usage.completion_tokens
            if self.price is not None:
                t.cost += self.price.cost(completion)
        self.log({**entry, "completion": completion.to_json()})

    def release(self, entry: dict[str, Any], error: BaseException) -> None:
        """An admitted call failed for good: free its slot and log the error."""
        with self._lock:
            self._in_flight -= 1
            self.totals.failed_calls += 1
        self.log({**entry, "error": f"{type(error).__name__}: {error}"})

    def log(self, entry: dict[str, Any]) -> None:
        """Append one JSON line to the call log (flushed at once, for crash safety)."""
        if self.log_path is None:
            return
        line = json.dumps({"time": time.time(), **entry}, ensure_ascii=False, default=str)
        with self._lock, open_output(self.log_path, "a") as handle:
            handle.write(line + "\n")

    def summary(self) -> dict[str, Any]:
        """Totals and caps as a JSON-ready dict."""
        with self._lock:
            data = asdict(self.totals)
        data["tokens"] = data["prompt_tokens"] + data["completion_tokens"]
        data["budget"] = asdict(self.budget)
        return data
