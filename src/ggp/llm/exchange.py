"""File-exchange backend: prompts go out as files, answers come back as files.

For people who paste prompts into a chat window, human-in-the-loop runs and batch
workflows. For the n-th request of a run (n = 1, 2, ...; six digits) it writes, in the
exchange folder:

* ``prompt_000001.md``   the messages, each under a ``### system`` / ``### user`` /
  ``### assistant`` heading, ready to paste;
* ``prompt_000001.json`` the exact request: ``{"model", "messages", "params"}``;

and waits until ``response_000001.md`` appears there. The whole content of that file is
the answer (one trailing newline is dropped). A response counts as complete once its size
and modification time have stayed the same for ``settle_s`` seconds; writing it under
another name (e.g. ``response_000001.md.part``) and renaming it is the safest way.

Re-running a run with the same folder resumes it: when ``prompt_N.json`` already holds the
same request, its existing response is used; a *different* request there is an error (use
a fresh folder).
"""

from __future__ import annotations

import itertools
import json
import os
import threading
import time
from pathlib import Path

from ggp.core.protocol import canonical_json
from ggp.llm.base import (
    Backend,
    Completion,
    LLMConfigError,
    LLMTimeoutError,
    Message,
    SamplingParams,
    Usage,
)


class ExchangeTimeoutError(LLMTimeoutError):
    """No response file appeared in time. Not retried: a retry would ask a new number."""

    transient = False


def prompt_md_path(folder: Path, number: int) -> Path:
    return folder / f"prompt_{number:06d}.md"


def prompt_json_path(folder: Path, number: int) -> Path:
    return folder / f"prompt_{number:06d}.json"


def response_path(folder: Path, number: int) -> Path:
    return folder / f"response_{number:06d}.md"


class ExchangeBackend(Backend):
    """Answers come from whoever writes ``response_N.md`` files into ``folder``.

    ``timeout_s`` (None: wait forever) bounds the wait for each response. Token usage is
    reported as 0: nobody counts tokens in a file.
    """

    name = "exchange"

    def __init__(
        self,
        folder: str | Path,
        *,
        model: str = "exchange",
        timeout_s: float | None = None,
        poll_s: float = 0.2,
        settle_s: float = 0.5,
    ):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.model = model
        self.timeout_s = timeout_s
        self.poll_s = poll_s
        self.settle_s = settle_s
        self._numbers = itertools.count(1)
        self._lock = threading.Lock()

    def generate(self, messages: list[Message], params: SamplingParams) -> Completion:
        with self._lock:
            number = next(self._numbers)
        self._write_prompt(number, messages, params)
        text = self._wait_for_response(number)
        return Completion(text=text, usage=Usage(), model=self.model, backend=self.name)

    def _write_prompt(self, number: int, messages: list[Message], params: SamplingParams) -> None:
        request = {"model": self.model, "messages": messages, "params": params.to_json()}
        json_path = prompt_json_path(self.folder, number)
        if json_path.exists():
            previous = json.loads(json_path.read_text(encoding="utf-8"))
            if canonical_json(previous) == canonical_json(request):
                return  # resuming: the same request was written by an earlier run
            raise LLMConfigError(
                f"{json_path} holds a different request from an earlier run. "
                "Use an empty exchange folder for a new run."
            )
        rendered = "".join(f"### {m['role']}\n\n{m['content']}\n\n" for m in messages)
        _write_atomically(prompt_md_path(self.folder, number), rendered)
        _write_atomically(json_path, json.dumps(request, indent=2, ensure_ascii=False))

    def _wait_for_response(self, number: int) -> str:
        path = response_path(self.folder, number)
        deadline = None if self.timeout_s is None else time.monotonic() + self.timeout_s
        last_seen: tuple[int, int] | None = None
        while True:
            if path.exists():
                stat = path.stat()
                seen = (stat.st_size, stat.st_mtime_ns)
                if seen == last_seen:
                    text = path.read_text(encoding="utf-8")
                    return text[:-1] if text.endswith("\n") else text
                last_seen = seen
                wait = self.settle_s
            else:
                wait = self.poll_s
            if deadline is not None and time.monotonic() + wait > deadline:
                raise ExchangeTimeoutError(
                    f"No complete {path.name} appeared in {self.folder} within {self.timeout_s} s."
                )
            time.sleep(wait)


def _write_atomically(path: Path, text: str) -> None:
    temporary = path.with_name(path.name + ".part")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
