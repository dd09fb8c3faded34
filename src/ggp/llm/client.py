""":class:`LLMClient`: a backend plus retries, cache, budget, audit log and concurrency.

This is what the rest of ggp calls::

    client = make_client(load_config(model="gpt-4o-mini"), run_dir="runs/x")
    answer = client.complete([{"role": "user", "content": "Say hi"}], temperature=0.2)
    answer.text, answer.usage.total_tokens
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from ggp.llm.accounting import Accounting
from ggp.llm.base import Backend, Completion, LLMError, Message, SamplingParams, normalize_messages
from ggp.llm.cache import ResponseCache, request_key


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with jitter for transient errors.

    Attempt k (0-based) waits ``min(max_delay_s, base_delay_s * 2**k)`` scaled by a
    random factor in [0.5, 1], or longer when the server sent ``Retry-After``.
    """

    max_retries: int = 5
    base_delay_s: float = 1.0
    max_delay_s: float = 60.0

    def delay(self, attempt: int, error: LLMError) -> float:
        backoff = min(self.max_delay_s, self.base_delay_s * 2**attempt) * random.uniform(0.5, 1.0)
        hinted = getattr(error, "retry_after", None)
        return min(self.max_delay_s, max(backoff, hinted or 0.0))


class LLMClient:
    """Answers ``complete(messages, ...)`` through ``backend``; thread-safe.

    * ``defaults``: sampling parameters used where a call does not set them;
    * ``cache``: a :class:`ResponseCache` (None: no cache);
    * ``accounting``: budgets, totals and the call log (default: unlimited, no log);
    * ``retry``: how transient errors are retried;
    * ``concurrency``: at most this many requests in flight at once.
    """

    def __init__(
        self,
        backend: Backend,
        *,
        defaults: SamplingParams = SamplingParams(),
        cache: ResponseCache | None = None,
        accounting: Accounting | None = None,
        retry: RetryPolicy = RetryPolicy(),
        concurrency: int = 4,
    ):
        self.backend = backend
        self.defaults = defaults
        self.cache = cache
        self.accounting = accounting or Accounting()
        self.retry = retry
        self.concurrency = max(1, concurrency)
        self._slots = threading.BoundedSemaphore(self.concurrency)

    @property
    def model(self) -> str:
        return self.backend.model

    def complete(
        self,
        messages: str | list[Message],
        *,
        temperature: float | None = None,
        max_tokens: int | None = None,
        top_p: float | None = None,
        seed: int | None = None,
        stop: Sequence[str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> Completion:
        """One answer to ``messages`` (a list of chat messages, or a string: one user turn).

        Raises :class:`BudgetExceededError` before calling when the budget is used up,
        :class:`CacheMissError` on a miss in replay mode, and the backend's
        :class:`LLMError` when retries do not help.
        """
        messages = normalize_messages(messages)
        d = self.defaults
        params = SamplingParams(
            temperature=d.temperature if temperature is None else temperature,
            max_tokens=d.max_tokens if max_tokens is None else max_tokens,
            top_p=d.top_p if top_p is None else top_p,
            seed=d.seed if seed is None else seed,
            stop=tuple(stop) if stop is not None else d.stop,
            extra={**d.extra, **(extra or {})},
        )
        key = request_key(self.backend.name, self.backend.model, messages, params)
        nth = self.cache.occurrence(key) if self.cache is not None else 0
        entry = {
            "backend": self.backend.name,
            "model": self.backend.model,
            "key": key,
            "nth": nth,
            "messages": messages,
            "params": params.to_json(),
        }
        self.accounting.admit()
        try:
            completion = self._cached_or_fresh(key, nth, messages, params, entry)
        except BaseException as exc:
            self.accounting.release(entry, exc)
            raise
        self.accounting.record(completion, entry)
        return completion

    def complete_many(
        self, requests: Sequence[str | list[Message]], **params: Any
    ) -> list[Completion]:
        """Answer several requests in parallel (at most ``concurrency`` at once).

        Results come back in the order of ``requests``. If some fail, the others still
        finish (and are cached and accounted); then the first failure is raised.
        """
        with ThreadPoolExecutor(max_workers=self.concurrency) as pool:
            futures = [pool.submit(self.complete, request, **params) for request in requests]
        return [future.result() for future in futures]

    def usage(self) -> dict[str, Any]:
        """Totals so far (calls, cache hits, tokens, cost) and the budget."""
        return self.accounting.summary()

    def close(self) -> None:
        self.backend.close()
        if self.cache is not None:
            self.cache.close()

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals

    def _cached_or_fresh(
        self, key: str, nth: int, messages: list[Message], params: SamplingParams, entry: dict
    ) -> Completion:
        if self.cache is not None:
            first_user = next((m["content"] for m in messages if m["role"] == "user"), "")
            hit = self.cache.get(
                key, nth, f" (model {self.backend.model}, prompt {first_user[:60]!r}...)"
            )
            if hit is not None:
                return replace(hit, cached=True)
        completion = self._with_retries(messages, params, entry)
        if self.cache is not None:
            self.cache.put(
                key,
                nth,
                {k: entry[k] for k in ("backend", "model", "messages", "params")},
                completion,
            )
        return completion

    def _with_retries(
        self, messages: list[Message], params: SamplingParams, entry: dict
    ) -> Completion:
        attempt = 0
        while True:
            start = time.monotonic()
            try:
                with self._slots:
                    completion = self.backend.generate(messages, params)
                return replace(completion, latency_s=time.monotonic() - start)
            except LLMError as error:
                if not error.transient or attempt >= self.retry.max_retries:
                    if error.transient:
                        error.args = (f"{error} (gave up after {attempt + 1} attempt(s))",)
                    raise
                delay = self.retry.delay(attempt, error)
                self.accounting.log(
                    {
                        "event": "retry",
                        "backend": entry["backend"],
                        "model": entry["model"],
                        "key": entry["key"],
                        "attempt": attempt + 1,
                        "error": f"{type(error).__name__}: {error}",
                        "delay_s": delay,
                    }
                )
                time.sleep(delay)
                attempt += 1
