"""A limited child process: the primitive under :func:`~ggp.sandbox.run_entry` and
:class:`~ggp.sandbox.Worker`.

The child is a fresh ``python -I`` interpreter running :mod:`ggp.sandbox._child`, started
in its own session (so the whole process group, forks included, can be killed at once)
with resource limits set between fork and exec, an environment holding only ``PATH``
(plus thread caps for numerical libraries), and a private temporary working directory.
Requests go to the child's stdin as JSON lines; replies come back on a dedicated pipe so
that whatever the child prints cannot corrupt them. The child's stdout and stderr are
drained by threads that keep only a tail of each and kill the child when it prints more
than allowed.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import json
import os
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ggp.core.errors import GGPError

#: The environment a sandboxed child sees. The thread caps keep OpenBLAS/OpenMP from
#: reserving per-core buffers that would not fit under ``RLIMIT_AS`` on big machines.
BASE_ENV = {
    "PATH": "/usr/bin:/bin",
    "OPENBLAS_NUM_THREADS": "1",
    "OMP_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}

#: Why a sandboxed call failed (``SandboxFailure.kind``).
FAILURE_KINDS = ("exception", "memory", "timeout", "cpu", "output", "crash", "protocol")

_MAX_REPLY_BYTES = 64 * 1024 * 1024
_MIB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """Resource limits of one sandboxed child process.

    Attributes:
        memory_mb: address-space limit (``RLIMIT_AS``); allocations beyond it raise
            ``MemoryError`` in the child.
        cpu_seconds: CPU time over the child's whole life (``RLIMIT_CPU``; the kernel
            kills it with SIGXCPU, then SIGKILL one second later). None: no limit.
        file_mb: largest file the child may write (``RLIMIT_FSIZE``).
        open_files: most file descriptors open at once (``RLIMIT_NOFILE``).
        output_bytes: how much of the tail of stdout and of stderr is kept.
        max_output_bytes: the child is killed once it has printed more than this in
            total (stdout + stderr). None: never killed for output (the excess is dropped).
        network: False runs the child in a network namespace of its own, with no
            interfaces up (``unshare -n``; needs root or user namespaces). Where that is
            not possible the child runs with the network and a warning is issued once.
    """

    memory_mb: int = 2048
    cpu_seconds: int | None = 600
    file_mb: int = 16
    open_files: int = 64
    output_bytes: int = 64 * 1024
    max_output_bytes: int | None = 4 * _MIB
    network: bool = True


class SandboxFailure(GGPError):
    """A sandboxed call did not return a value.

    ``kind`` is one of :data:`FAILURE_KINDS`: ``exception`` (the code raised; ``detail``
    holds the exception and its traceback), ``memory`` (``MemoryError``), ``timeout``
    (wall-clock deadline passed, process group killed), ``cpu`` (CPU-time limit), ``output``
    (printed more than ``Limits.max_output_bytes``), ``crash`` (the process died) or
    ``protocol`` (it answered something that is not a JSON reply).
    """

    def __init__(self, kind: str, detail: str, *, stdout: str = "", stderr: str = "") -> None:
        super().__init__(f"sandboxed code failed ({kind}): {detail}")
        self.kind = kind
        self.detail = detail
        self.stdout = stdout
        self.stderr = stderr


class _Tail:
    """Drains one pipe in a thread, keeping the last ``keep`` bytes."""

    def __init__(self, stream, keep: int, on_bytes) -> None:
        self.data = bytearray()
        self.total = 0
        self._keep = keep
        self._on_bytes = on_bytes
        self._thread = threading.Thread(target=self._drain, args=(stream,), daemon=True)
        self._thread.start()

    def _drain(self, stream) -> None:
        while chunk := stream.read1(65536):
            self.total += len(chunk)
            self.data += chunk
            if len(self.data) > self._keep:
                del self.data[: len(self.data) - self._keep]
            self._on_bytes()
        stream.close()

    def text(self, wait: bool = False) -> str:
        """The kept tail; ``wait`` first lets the thread drain a pipe whose writer died."""
        if wait:
            self._thread.join(timeout=1.0)
        return bytes(self.data).decode("utf-8", errors="replace")


def _preexec(limits: Limits):
    """The function run in the child between fork and exec: set the rlimits."""
    settings = [
        (resource.RLIMIT_AS, limits.memory_mb * _MIB),
        (resource.RLIMIT_FSIZE, limits.file_mb * _MIB),
        (resource.RLIMIT_NOFILE, limits.open_files),
        (resource.RLIMIT_CORE, 0),
    ]
    cpu = None if limits.cpu_seconds is None else (limits.cpu_seconds, limits.cpu_seconds + 1)

    def apply() -> None:
        for which, value in settings:
            resource.setrlimit(which, (value, value))
        if cpu is not None:
            resource.setrlimit(resource.RLIMIT_CPU, cpu)
        if _LIBC is not None:
            # Die with the parent: a killed arena must not leave hung agents behind
            # (they are in their own session, so killing its process group misses them).
            _LIBC.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)

    return apply


def _load_libc():
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    except OSError:
        return None


_PR_SET_PDEATHSIG = 1
_LIBC = _load_libc() if sys.platform.startswith("linux") else None


@functools.cache
def network_isolation_available() -> bool:
    """Whether ``unshare --net`` works here (checked once; warns when it does not)."""
    unshare = shutil.which("unshare")
    try:
        works = unshare is not None and subprocess.run(
            [unshare, "--net", "--", "true"], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        works = False
    if not works:
        warnings.warn("ggp.sandbox: cannot create network namespaces here (unshare --net "
                      "failed); sandboxed code keeps network access.", stacklevel=3)
    return works


def _package_root() -> str:
    """The directory holding the ``ggp`` package, so the child can import it."""
    return str(Path(__file__).resolve().parents[2])


class SandboxProcess:
    """One limited child speaking JSON lines (see the module docstring).

    Args:
        entry: an importable module name or a path to a ``.py`` file.
        mode: ``"serve"`` (the entry's ``make_handler(init)`` answers many calls) or
            ``"call"`` (the entry's ``main(payload)`` answers one).
        limits: resource limits.
        env: extra environment variables on top of :data:`BASE_ENV` (``HOME`` and
            ``TMPDIR`` point into the private directory).
        sys_path: extra import paths for the child (the ``ggp`` package is always there).
        files: text files (name -> content) written into the private directory first;
            ``entry`` may name one of them (e.g. ``"candidate.py"``).
    """

    def __init__(
        self,
        entry: str,
        mode: str,
        limits: Limits,
        *,
        env: dict[str, str] | None = None,
        sys_path: tuple[str, ...] = (),
        files: dict[str, str] | None = None,
    ) -> None:
        self.limits = limits
        self.workdir = tempfile.mkdtemp(prefix="ggp-sandbox-")
        for name, text in (files or {}).items():
            path = Path(self.workdir, name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        self.output_exceeded = False
        self.killed_for_timeout = False
        self._buffer = b""
        reply_read, reply_write = os.pipe()
        paths = json.dumps([_package_root(), *sys_path])
        # -I ignores PYTHONPATH and user site-packages, so the bootstrap puts the ggp
        # package (and sys_path) on the import path before running the child module.
        # -u: unbuffered, so what was printed before a kill is still captured.
        command = [sys.executable, "-I", "-u", "-c", _BOOTSTRAP, paths, entry, mode,
                   str(reply_write)]
        if not limits.network and network_isolation_available():
            command = ["unshare", "--net", "--", *command]  # unshare execs: same process
        try:
            self.proc = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.workdir,
                env={**BASE_ENV, "HOME": self.workdir, "TMPDIR": self.workdir, **(env or {})},
                start_new_session=True,
                close_fds=True,
                pass_fds=(reply_write,),
                preexec_fn=_preexec(limits),  # noqa: PLW1509 - only setrlimit runs there
            )
        finally:
            os.close(reply_write)
        self._replies = reply_read
        self.stdout = _Tail(self.proc.stdout, limits.output_bytes, self._check_output)
        self.stderr = _Tail(self.proc.stderr, limits.output_bytes, self._check_output)

    # ------------------------------------------------------------------ talking
    def request(self, message: Any, timeout: float) -> Any:
        """Send one JSON request and return the child's ``ok`` value.

        Raises :class:`SandboxFailure` on any failure; the child is then dead.
        """
        deadline = time.monotonic() + timeout
        try:
            self.proc.stdin.write((json.dumps(message) + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, TypeError, ValueError) as exc:
            if isinstance(exc, (TypeError, ValueError)):
                raise SandboxFailure("protocol", f"request is not JSON: {exc}") from exc
            raise self._failure("crash", "the process exited before the request") from exc
        line = self._read_line(deadline)
        try:
            reply = json.loads(line)
        except ValueError:
            raise self._failure("protocol", f"reply is not JSON: {line[:200]!r}") from None
        if not isinstance(reply, dict) or not ({"ok", "error"} & reply.keys()):
            raise self._failure("protocol", f"malformed reply: {str(reply)[:200]}")
        if "error" in reply:
            error = reply["error"] if isinstance(reply["error"], dict) else {}
            kind = "memory" if error.get("type") == "MemoryError" else "exception"
            detail = f"{error.get('type', 'Error')}: {error.get('message', '')}"
            if error.get("traceback"):
                detail += "\n" + str(error["traceback"])
            raise SandboxFailure(kind, detail, stdout=self.stdout.text(),
                                 stderr=self.stderr.text())
        return reply["ok"]

    def _read_line(self, deadline: float) -> bytes:
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                self.killed_for_timeout = True
                raise self._failure("timeout", "no answer before the deadline")
            ready, _, _ = select.select([self._replies], [], [], min(left, 0.5))
            if not ready:
                continue
            chunk = os.read(self._replies, 1 << 20)
            if not chunk:
                raise self._failure("crash", "the process exited without answering")
            self._buffer += chunk
            if len(self._buffer) > _MAX_REPLY_BYTES:
                raise self._failure("protocol", "reply larger than 64 MiB")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    # ------------------------------------------------------------------ failures
    def _check_output(self) -> None:
        cap = self.limits.max_output_bytes
        if cap is not None and self.stdout_total + self.stderr_total > cap:
            self.output_exceeded = True
            self.kill()

    @property
    def stdout_total(self) -> int:
        return getattr(getattr(self, "stdout", None), "total", 0)

    @property
    def stderr_total(self) -> int:
        return getattr(getattr(self, "stderr", None), "total", 0)

    def _failure(self, kind: str, detail: str) -> SandboxFailure:
        """Kill the child and explain why it failed, preferring the most specific cause."""
        self.kill()
        code = self.proc.returncode
        stderr = self.stderr.text(wait=True)
        if self.output_exceeded:
            kind, detail = "output", (f"printed more than {self.limits.max_output_bytes} "
                                      "bytes")
        elif kind == "timeout":
            pass
        elif code is not None and code == -signal.SIGXCPU:
            kind, detail = "cpu", f"CPU time limit of {self.limits.cpu_seconds} s exceeded"
        elif kind == "crash" and "MemoryError" in stderr:
            kind, detail = "memory", f"out of memory (limit {self.limits.memory_mb} MiB)"
        elif kind == "crash" and code is not None:
            how = (f"signal {signal.Signals(-code).name}" if code < 0 else f"exit code {code}")
            last = "\n".join(stderr.strip().splitlines()[-5:])
            detail = f"{detail} ({how})" + (f": {last}" if last else "")
        return SandboxFailure(kind, detail, stdout=self.stdout.text(wait=True), stderr=stderr)

    def kill(self) -> None:
        """Kill the whole process group (forked children included) and reap the child."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass

    def close(self, grace: float = 1.0) -> None:
        """Ask the child to stop (end of stdin), then kill its group and remove its files."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        self.kill()
        os.close(self._replies)
        shutil.rmtree(self.workdir, ignore_errors=True)


_BOOTSTRAP = (
    "import json, sys, runpy; sys.path[:0] = json.loads(sys.argv[1]); "
    "runpy.run_module('ggp.sandbox._child', run_name='__main__')"
)
