"""File-exchange backend: prompts go out as files, answers come back as files.

For people who paste prompts into a chat window, human-in-the-loop runs and batch
workflows. Each new request gets the next free number N (six digits, from 1) in the
exchange folder, which receives

* ``prompt_000001.md``   the messages, each under a ``### system`` / ``### user`` /
  ``### assistant`` heading, ready to paste;
* ``prompt_000001.json`` the exact request: ``{"model", "messages", "params"}``;

and the backend waits until ``response_000001.md`` appears there. The whole content of that
file is the answer (one trailing newline is dropped). A response counts as complete once
its size and modification time have stayed the same for ``settle_s`` seconds; writing it
under another name (e.g. ``response_000001.md.part``) and renaming it is the safest way.

Prompt files are found by their content, so one folder serves many runs, processes and
matches at once (a tournament of LLM-policy matches, a synthesis and its resumption): a
request already written there reuses its number and its response, and a new request takes
the next free number. The n-th identical request of one backend object maps to the n-th
prompt file holding it, so a process asking the same question twice gets two prompts
(two samples), and a rerun gets the same answers in the same order. Numbers are taken
under a lock file (``.lock``), so processes sharing the folder never take the same one.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from ggp.core.files import open_output, refuse_link
from ggp.core.protocol import canonical_json
from ggp.llm.base import (
    Backend,
    Completion,
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
    reported as 0: nobody counts tokens in a file. Safe to share ``folder`` between
    threads and processes (see the module docs).
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
        self._lock = threading.Lock()
        self._index: dict[str, list[int]] = {}  # canonical request -> its prompt numbers
        self._scanned: set[int] = set()
        self._seen: dict[str, int] = {}  # canonical request -> times asked by this object

    def generate(self, messages: list[Message], params: SamplingParams) -> Completion:
        request = {"model": self.model, "messages": messages, "params": params.to_json()}
        number = self._number_for(request, messages)
        text = self._wait_for_response(number)
        return Completion(text=text, usage=Usage(), model=self.model, backend=self.name)

    def _number_for(self, request: dict, messages: list[Message]) -> int:
        """The prompt number answering ``request``: the matching file already in the
        folder, else a new prompt written under the next free number."""
        key = canonical_json(request)
        with self._lock, self._folder_lock():
            self._rescan()
            nth = self._seen.get(key, 0)
            self._seen[key] = nth + 1
            known = self._index.get(key, [])
            if nth < len(known):
                return known[nth]
            number = max(self._scanned, default=0) + 1
            rendered = "".join(f"### {m['role']}\n\n{m['content']}\n\n" for m in messages)
            _write_atomically(prompt_md_path(self.folder, number), rendered)
            _write_atomically(prompt_json_path(self.folder, number),
                              json.dumps(request, indent=2, ensure_ascii=False))
            self._scanned.add(number)
            self._index.setdefault(key, []).append(number)
            return number

    def _rescan(self) -> None:
        """Index the prompt files written since the last scan (they never change).

        A prompt's ``.md`` takes its number as well as its ``.json`` twin: a folder whose
        twins were left out (as recorded folders are committed) must never have its
        prompts overwritten or its answers handed to different questions. (A response
        with no prompt takes none: it answers the prompt that will get its number.)"""
        for path in self.folder.glob("prompt_*.*"):
            match = _PROMPT_NAME.fullmatch(path.name)
            if not match or int(match.group(1)) in self._scanned:
                continue
            number = int(match.group(1))
            twin = prompt_json_path(self.folder, number)
            try:
                key = canonical_json(json.loads(twin.read_text(encoding="utf-8")))
            except (OSError, ValueError):
                key = f"unmatchable:{number}"  # no readable request: occupies its number
            self._scanned.add(number)
            self._index.setdefault(key, []).append(number)
        for numbers in self._index.values():
            numbers.sort()

    @contextmanager
    def _folder_lock(self):
        with open(self.folder / ".lock", "a+") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

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


_PROMPT_NAME = re.compile(r"prompt_(\d+)\.(json|md)")


def _write_atomically(path: Path, text: str) -> None:
    # a fresh temporary renamed over the target; a link planted at either is refused
    # (the exchange folder is shared with whoever answers the prompts)
    temporary = path.with_name(path.name + ".part")
    if os.path.lexists(temporary) and temporary.is_symlink():
        temporary.unlink()  # removing a link never touches its target
    with open_output(temporary, "w") as fh:
        fh.write(text)
    refuse_link(path)
    os.replace(temporary, path)
