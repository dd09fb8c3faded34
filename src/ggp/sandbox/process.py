"""A limited child process: the primitive under :func:`~ggp.sandbox.run_entry` and
:class:`~ggp.sandbox.Worker`.

The child starts as a short launcher (``_LAUNCHER``, trusted code) that cuts the network
when asked, lowers its resource limits, arranges to die with its parent and then replaces
itself with a fresh ``python -I`` interpreter running :mod:`ggp.sandbox._child`, so no
untrusted code ever runs without the limits. It runs in its own session (so the whole
process group, forks included, can be killed at once), with an environment holding only
``PATH`` and a locale (plus thread caps for numerical libraries), in a private temporary
working directory, and, for restricted children of a root parent, as the ``nobody`` user.
Requests go to the child's stdin as JSON lines; replies come back on a dedicated pipe so
that whatever the child prints cannot corrupt them. The child's stdout and stderr are
drained by threads that keep only a tail of each and kill the child when it prints more
than allowed.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import pwd
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
    "LANG": "C.UTF-8",
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
        network: False runs the child in new user and network namespaces, with no
            interface up (needs root or unprivileged user namespaces), and its guard
            refuses sockets. Where namespaces cannot be made, only the guard remains (native
            code keeps the network) and a warning is issued once.
        restricted: for code that only computes (candidate programs): the child may not
            start processes or threads (``RLIMIT_NPROC`` 0, which the kernel enforces
            for every user but root), its guard refuses process creation, ``ctypes``,
            sockets and writing or deleting outside its directory, it gets the standard
            library and ``ggp`` only (``python -S``), and a root parent runs it as
            ``nobody`` where it can (see docs/sandbox.md).
    """

    memory_mb: int = 2048
    cpu_seconds: int | None = 600
    file_mb: int = 16
    open_files: int = 64
    output_bytes: int = 64 * 1024
    max_output_bytes: int | None = 4 * _MIB
    network: bool = True
    restricted: bool = False


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


# Runs first in the child, before any code of the caller: cut the network if asked
# (reporting the outcome in GGP_SANDBOX_NETWORK), lower the limits, ask for SIGKILL when
# the parent dies (after every credential change, which would clear it), then become the
# real child. Doing this inside the child rather than in a ``preexec_fn`` keeps process
# creation safe in a threaded parent (the arena drains pipes in threads).
_LAUNCHER = """\
import ctypes, json, os, resource, sys
config = json.loads(sys.argv[1])
libc = ctypes.CDLL(None, use_errno=True)
isolated = not config["network"] and libc.unshare(0x10000000 | 0x40000000) == 0
os.environ["GGP_SANDBOX_NETWORK"] = "none" if isolated else "host"
for name, value in config["rlimits"]:
    resource.setrlimit(getattr(resource, name), tuple(value))
libc.prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
if os.getppid() != config["parent"]:
    os._exit(1)  # the parent died before prctl
os.execv(sys.executable, config["argv"])
"""

# Run by the final interpreter: the child program from its file (see ggp.sandbox._child).
_BOOTSTRAP = (
    "import json, os, runpy, sys; "
    "path = os.path.join(json.loads(sys.argv[2])['path'][0], *sys.argv[1].split('.')); "
    "runpy.run_path(path + '.py', run_name='__main__')"
)


def _rlimits(limits: Limits) -> list[tuple[str, tuple[int, int]]]:
    settings = [
        ("RLIMIT_AS", (limits.memory_mb * _MIB,) * 2),
        ("RLIMIT_FSIZE", (limits.file_mb * _MIB,) * 2),
        ("RLIMIT_NOFILE", (limits.open_files,) * 2),
        ("RLIMIT_CORE", (0, 0)),
    ]
    if limits.cpu_seconds is not None:
        # the kernel sends SIGXCPU at the soft limit and SIGKILL at the hard one
        settings.append(("RLIMIT_CPU", (limits.cpu_seconds, limits.cpu_seconds + 1)))
    if limits.restricted:
        settings.append(("RLIMIT_NPROC", (0, 0)))
    return settings


def _launcher_command(python: str, limits: Limits, argv: list[str]) -> list[str]:
    config = {"network": limits.network, "rlimits": _rlimits(limits),
              "parent": os.getpid(), "argv": argv}
    return [python, "-I", "-S", "-c", _LAUNCHER, json.dumps(config)]


@functools.cache
def network_isolation_available() -> bool:
    """Whether the launcher can cut the network here (checked once; warns when not)."""
    probe = [sys.executable, "-I", "-S", "-c",
             "import os; print(os.environ['GGP_SANDBOX_NETWORK'])"]
    command = _launcher_command(sys.executable, Limits(network=False, cpu_seconds=10), probe)
    try:
        answer = subprocess.run(command, capture_output=True, timeout=30, env=BASE_ENV)
        works = answer.stdout.strip() == b"none"
    except (OSError, subprocess.TimeoutExpired):
        works = False
    if not works:
        warnings.warn("ggp.sandbox: cannot create network namespaces here; sandboxed "
                      "Python code is refused sockets, native code keeps the network.",
                      stacklevel=3)
    return works


def _package_root() -> str:
    """The directory holding the ``ggp`` package, so the child can import it."""
    return str(Path(__file__).resolve().parents[2])


def _others_may(path: str, bits: int) -> bool:
    """Whether any user may reach ``path`` (every parent searchable) with ``bits``."""
    real = Path(os.path.realpath(path))
    try:
        return (real.stat().st_mode & bits == bits
                and all(parent.stat().st_mode & 0o001 for parent in real.parents))
    except OSError:
        return False


def _interpreter_and_user(limits: Limits) -> tuple[str, dict[str, Any]]:
    """The Python to run and the ``Popen`` arguments that drop privileges, if any.

    Only a restricted child of a root parent drops to ``nobody``: it needs nothing beyond
    the standard library, the ``ggp`` sources and its own directory, so a system Python of
    the same version can stand in when ours lives where ``nobody`` cannot go (e.g.
    ``/root/.pyenv``). Any other child may need site-packages and files only its user can
    read, so it keeps its parent's user.
    """
    if not limits.restricted or os.geteuid() != 0 or not _others_may(_package_root(), 0o005):
        return sys.executable, {}
    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        return sys.executable, {}
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    for python in (sys.executable, f"/usr/bin/python{version}",
                   f"/usr/local/bin/python{version}"):
        if os.path.exists(python) and _others_may(python, 0o001):
            return python, {"user": nobody.pw_uid, "group": nobody.pw_gid,
                            "extra_groups": []}
    return sys.executable, {}


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
        self._buffer = b""
        python, user = _interpreter_and_user(limits)
        if user:
            for path in (self.workdir, *(str(p) for p in Path(self.workdir).rglob("*"))):
                os.chown(path, user["user"], user["group"])
        if not limits.network:
            network_isolation_available()  # warns once where namespaces cannot be made
        reply_read, reply_write = os.pipe()
        config = {"path": [_package_root(), *sys_path], "entry": entry, "mode": mode,
                  "reply_fd": reply_write, "restricted": limits.restricted,
                  "network": limits.network}
        # -I ignores PYTHONPATH and user site-packages; -S (restricted) site-packages too;
        # -u: unbuffered, so what was printed before a kill is still captured.
        flags = ["-I", "-S", "-u"] if limits.restricted else ["-I", "-u"]
        argv = [python, *flags, "-c", _BOOTSTRAP, "ggp.sandbox._child", json.dumps(config)]
        try:
            self.proc = subprocess.Popen(
                _launcher_command(python, limits, argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.workdir,
                env={**BASE_ENV, "HOME": self.workdir, "TMPDIR": self.workdir, **(env or {})},
                start_new_session=True,
                close_fds=True,
                pass_fds=(reply_write,),
                **user,
            )
        except BaseException:
            os.close(reply_read)
            shutil.rmtree(self.workdir, ignore_errors=True)
            raise
        finally:
            os.close(reply_write)
        self._replies = reply_read
        os.set_blocking(self.proc.stdin.fileno(), False)  # see _write
        self.stdout = _Tail(self.proc.stdout, limits.output_bytes, self._check_output)
        self.stderr = _Tail(self.proc.stderr, limits.output_bytes, self._check_output)

    # ------------------------------------------------------------------ talking
    def request(self, message: Any, timeout: float) -> Any:
        """Send one JSON request and return the child's ``ok`` value.

        Raises :class:`SandboxFailure` on any failure; the child is then dead.
        """
        deadline = time.monotonic() + timeout
        try:
            data = (json.dumps(message) + "\n").encode()
        except (TypeError, ValueError) as exc:
            raise SandboxFailure("protocol", f"request is not JSON: {exc}") from exc
        self._write(data, deadline)
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

    def _write(self, data: bytes, deadline: float) -> None:
        """Write to the child's stdin without ever blocking past the deadline (a child
        that stops reading must not hang the arena)."""
        fd = self.proc.stdin.fileno()
        while data:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._failure("timeout", "the process stopped reading its requests")
            _, writable, _ = select.select([], [fd], [], min(left, 0.5))
            if not writable:
                continue
            try:
                data = data[os.write(fd, data[:65536]):]
            except BlockingIOError:
                continue
            except OSError as exc:  # BrokenPipeError: it is gone
                raise self._failure("crash", "the process exited before the request") from exc

    def _read_line(self, deadline: float) -> bytes:
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
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
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)

    def close(self, grace: float = 1.0) -> None:
        """Ask the child to stop (end of stdin), then kill its group and remove its files."""
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=grace)
        self.kill()
        os.close(self._replies)
        shutil.rmtree(self.workdir, ignore_errors=True)

