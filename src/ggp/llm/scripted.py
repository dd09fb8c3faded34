"""An in-process fake language model for unit tests: :class:`ScriptedLLM`.

It answers from a script, never from a model, and labels every answer as such
(``Completion.scripted`` is True, ``model`` starts with ``"scripted"``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

from ggp.llm.base import (
    Backend,
    Completion,
    LLMError,
    Message,
    SamplingParams,
    ScriptExhaustedError,
    Usage,
)

Responder = Callable[[list[Message]], "str | BaseException"]


class ScriptedLLM(Backend):
    """A fake LLM that answers from ``script``.

    ``script`` is either a sequence of answers, consumed in order (an item that is an
    exception is raised instead, e.g. ``LLMRateLimitError("slow down")`` to exercise
    retries), or a callable ``responder(messages) -> str`` asked for every request.
    Asking a sequence for more answers than it holds raises :class:`ScriptExhaustedError`.

    It can be used directly (``fake.complete(messages)``) or as the backend of an
    :class:`~ggp.llm.client.LLMClient`. ``requests`` records every message list received.
    Token usage counts whitespace-separated words, so budgets can be tested.
    """

    name = "scripted"

    def __init__(
        self, script: Iterable[str | BaseException] | Responder, *, model: str = "scripted"
    ):
        self.model = model
        self._responder = script if callable(script) else None
        self._queue = None if callable(script) else list(script)
        self._lock = threading.Lock()
        self.requests: list[list[Message]] = []

    def generate(self, messages: list[Message], params: SamplingParams) -> Completion:
        with self._lock:
            self.requests.append(messages)
            if self._responder is not None:
                answer: Any = self._responder(messages)
            elif self._queue:
                answer = self._queue.pop(0)
            else:
                raise ScriptExhaustedError(
                    f"ScriptedLLM ran out of answers after {len(self.requests) - 1} requests."
                )
        if isinstance(answer, BaseException):
            raise answer
        if not isinstance(answer, str):
            raise LLMError(f"A ScriptedLLM script must give strings, got {answer!r}.")
        prompt_words = sum(len(m["content"].split()) for m in messages)
        return Completion(
            text=answer,
            usage=Usage(prompt_words, len(answer.split())),
            model=f"scripted:{self.model}" if self.model != "scripted" else "scripted",
            backend=self.name,
            finish_reason="stop",
            scripted=True,
        )

    @property
    def remaining(self) -> int | None:
        """Answers left in a sequence script (None for a callable script)."""
        return None if self._queue is None else len(self._queue)
