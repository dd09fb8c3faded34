"""Run untrusted Python in a limited subprocess (see docs/sandbox.md).

Two ways to use it, both speaking JSON:

* :func:`run_entry` — one call: start a fresh child, pass it a JSON payload, get the
  return value of the entry module's ``main(payload)`` (or why it failed), the tail of
  what it printed and how long it took. For running candidate code against tests.
* :class:`Worker` — a long-lived child: the entry module's ``make_handler(init)`` builds
  an object whose methods the parent calls with per-call deadlines. For agents that play
  a whole match.

Every child runs in a bubblewrap box: its own PID, IPC, UTS and mount namespaces (and
network namespace with ``Limits(network=False)``), a read-only view of the interpreter,
its libraries and ``ggp`` only, a private writable directory and ``/tmp``, a uid of its
own below a root parent, death with its parent; inside, a fresh ``python -I`` with rlimits
on memory, CPU time, file size, open files, processes and core dumps, an environment
holding only ``PATH`` and a locale, a wall-clock deadline and a cap on captured output.
``Limits(restricted=True)`` is for code that only computes (LLM-written code): no
processes or threads, standard library and ``ggp`` only, plus a Python guard as defence in
depth. Where bubblewrap cannot run, untrusted code is refused
(:class:`SandboxUnavailable`) unless ``GGP_ALLOW_WEAK_SANDBOX=1`` allows the weaker mode.
``ggp sandbox selftest`` checks it on this machine. Linux only; see docs/sandbox.md.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ggp.sandbox.process import (
    BASE_ENV,
    FAILURE_KINDS,
    Limits,
    SandboxFailure,
    SandboxProcess,
    SandboxUnavailable,
    box_problem,
    network_isolation_available,
    sandbox_mode,
)

__all__ = [
    "BASE_ENV",
    "FAILURE_KINDS",
    "Limits",
    "SandboxFailure",
    "SandboxResult",
    "SandboxUnavailable",
    "Worker",
    "box_problem",
    "network_isolation_available",
    "sandbox_mode",
    "run_entry",
]


@dataclass
class SandboxResult:
    """What one :func:`run_entry` call produced.

    ``ok`` tells whether ``value`` holds the entry's return value; otherwise ``kind`` (one
    of :data:`FAILURE_KINDS`) and ``detail`` say why. ``stdout``/``stderr`` are the tails
    kept under ``Limits.output_bytes``; ``stdout_bytes``/``stderr_bytes`` count everything
    printed.
    """

    ok: bool
    value: Any
    kind: str
    detail: str
    stdout: str
    stderr: str
    stdout_bytes: int
    stderr_bytes: int
    seconds: float


def run_entry(
    entry: str,
    payload: Any,
    *,
    timeout: float = 60.0,
    limits: Limits = Limits(),
    env: dict[str, str] | None = None,
    sys_path: tuple[str, ...] = (),
    files: dict[str, str] | None = None,
) -> SandboxResult:
    """Run ``entry.main(payload)`` in a fresh sandboxed child and return its result.

    ``entry`` is an importable module name or a path to a ``.py`` file defining
    ``main(payload) -> JSON value`` (relative paths are taken in the private directory,
    where ``files`` — name -> text — are written first). ``timeout`` is the wall-clock
    budget for the whole run, interpreter start and imports included. Never raises for
    failures of the code being run: they are reported in the result.
    """
    started = time.monotonic()
    process = SandboxProcess(entry, "call", limits, env=env, sys_path=sys_path,
                             files=files)
    try:
        value = process.request({"params": payload}, timeout)
        ok, kind, detail = True, "ok", ""
    except SandboxFailure as failure:
        value, ok, kind, detail = None, False, failure.kind, failure.detail
    finally:
        process.close(grace=0.2)
    return SandboxResult(
        ok=ok, value=value, kind=kind, detail=detail,
        stdout=process.stdout.text(wait=True), stderr=process.stderr.text(wait=True),
        stdout_bytes=process.stdout_total, stderr_bytes=process.stderr_total,
        seconds=time.monotonic() - started,
    )


class Worker:
    """A long-lived sandboxed child serving method calls.

    The entry module defines ``make_handler(init) -> object``; :meth:`call` runs
    ``handler.method(**params)`` in the child and returns its JSON result. Any failure
    raises :class:`SandboxFailure` and leaves the worker dead (:attr:`alive` is False);
    an exception raised by the handler is reported the same way (kind ``exception`` or
    ``memory``) and also ends the worker, since its state can no longer be trusted.

    Args:
        entry: module name or ``.py`` path defining ``make_handler``.
        init: JSON value passed to ``make_handler``.
        start_timeout: wall-clock budget for interpreter start, imports and
            ``make_handler``.
        limits, env, sys_path, files: as for :func:`run_entry`.
    """

    def __init__(
        self,
        entry: str,
        init: Any = None,
        *,
        start_timeout: float = 60.0,
        limits: Limits = Limits(),
        env: dict[str, str] | None = None,
        sys_path: tuple[str, ...] = (),
        files: dict[str, str] | None = None,
    ) -> None:
        self._process = SandboxProcess(entry, "serve", limits, env=env, sys_path=sys_path,
                                       files=files)
        self.alive = True
        self._send({"params": init}, start_timeout)

    def call(self, method: str, params: dict[str, Any] | None = None, *,
             timeout: float = 60.0) -> Any:
        """Call ``handler.method(**params)`` in the child with a wall-clock deadline."""
        if not self.alive:
            raise SandboxFailure("crash", "the worker has already stopped")
        return self._send({"method": method, "params": params or {}}, timeout)

    def _send(self, message: dict[str, Any], timeout: float) -> Any:
        try:
            return self._process.request(message, timeout)
        except SandboxFailure:
            self.close()
            raise

    @property
    def stdout(self) -> str:
        """The tail of what the child printed to stdout so far."""
        return self._process.stdout.text()

    @property
    def stderr(self) -> str:
        """The tail of what the child printed to stderr so far."""
        return self._process.stderr.text()

    def close(self) -> None:
        """Stop the child (its whole process group) and remove its temporary directory."""
        if self.alive:
            self.alive = False
            self._process.close()

    def __enter__(self) -> Worker:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
