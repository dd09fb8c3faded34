"""Run untrusted Python in a fresh, limited subprocess (private helper of ``ggp.synth``).

This has the same shape as the generic ``ggp.sandbox`` package being built for the arena
and is meant to be replaced by it once that lands. Each call:

* starts ``python -I -S`` (isolated mode, no site packages) in a **fresh private temp
  directory** holding only the files the caller gives, with ``stdin`` closed;
* passes a **scrubbed environment** (``PATH`` and a locale only: no API keys or other
  secrets of the parent);
* applies ``resource`` limits before any of the script runs: address space, CPU seconds,
  file size, open files, no core dumps, and no new processes;
* when the parent runs as root, drops to the unprivileged ``nobody`` user, so files
  outside the private directory cannot be written and the process limit is enforced;
* cuts the child off the network (new user and network namespaces) where the kernel
  allows unprivileged namespaces; otherwise the network stays reachable;
* starts a new session and **kills the whole process group** on a wall-clock deadline;
* reads at most ``max_output`` bytes of stdout and stderr each and kills the process
  if it writes more.

It is a best-effort guard against broken or hostile *generated code*, not a security
boundary against a determined attacker (no seccomp filter). Linux only:
other systems ignore some of the limits.
"""

from __future__ import annotations

import json
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Limits:
    """Resource limits of one sandboxed run."""

    wall_seconds: float = 60.0
    cpu_seconds: int = 60
    memory_bytes: int = 1 << 30
    file_bytes: int = 64 << 20
    open_files: int = 64
    max_output: int = 1 << 20


@dataclass
class SandboxResult:
    """What came back from a sandboxed run.

    ``killed`` names why the parent killed the process (``"timeout"`` or ``"output"``),
    or is None; ``files`` holds the requested output files that exist (text, capped).
    """

    returncode: int
    stdout: str
    stderr: str
    wall_seconds: float
    killed: str | None = None
    files: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and self.killed is None

    def describe(self) -> str:
        """A one-line reason for an abnormal end, for reports."""
        if self.killed == "timeout":
            return "killed after exceeding the wall-clock limit"
        if self.killed == "output":
            return "killed for writing more output than allowed"
        if self.returncode < 0:
            name = signal.Signals(-self.returncode).name
            reason = {"SIGXCPU": " (CPU time limit)", "SIGKILL": " (resource limit)",
                      "SIGXFSZ": " (file size limit)", "SIGSEGV": " (crash)"}.get(name, "")
            return f"terminated by {name}{reason}"
        return f"exited with status {self.returncode}"


def _world_executable(path: str) -> bool:
    """Whether any user may run ``path`` (every directory on the way is searchable)."""
    real = Path(os.path.realpath(path))
    try:
        if not real.stat().st_mode & 0o001:
            return False
        return all(parent.stat().st_mode & 0o001 for parent in real.parents)
    except OSError:
        return False


def _interpreter_and_ids() -> tuple[str, tuple[int, int] | None]:
    """The Python to run and the (uid, gid) to drop to, if the parent is root.

    Dropping to ``nobody`` needs an interpreter that user may run; when ours lives in a
    private directory (e.g. ``/root/.pyenv``) a system Python of the same version is used.
    Without one we stay root and rely on the other limits.
    """
    if os.name != "posix" or os.geteuid() != 0:
        return sys.executable, None
    try:
        entry = pwd.getpwnam("nobody")
    except KeyError:
        return sys.executable, None
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (sys.executable, f"/usr/bin/python{version}",
                      f"/usr/local/bin/python{version}"):
        if os.path.exists(candidate) and _world_executable(candidate):
            return candidate, (entry.pw_uid, entry.pw_gid)
    return sys.executable, None


# Runs first in the sandboxed interpreter: lowers the limits, then replaces itself with
# the real script (so no untrusted code ever runs without them). Doing this in the child
# interpreter instead of a ``preexec_fn`` keeps process creation safe in a threaded parent.
_LAUNCHER = """\
import ctypes, json, os, resource, sys
# New user and network namespaces: no network at all (where the kernel allows it).
libc = ctypes.CDLL(None, use_errno=True)
isolated = libc.unshare(0x10000000 | 0x40000000) == 0  # CLONE_NEWUSER | CLONE_NEWNET
os.environ["GGP_SANDBOX_NETWORK"] = "none" if isolated else "host"
for name, value in json.loads(sys.argv[1]):
    resource.setrlimit(getattr(resource, name), tuple(value))
os.execv(sys.executable, [sys.executable, "-I", "-S", *sys.argv[2:]])
"""


def _rlimits(limits: Limits) -> list[tuple[str, tuple[int, int]]]:
    cpu = max(1, int(limits.cpu_seconds))
    return [
        ("RLIMIT_AS", (limits.memory_bytes, limits.memory_bytes)),
        ("RLIMIT_CPU", (cpu, cpu + 1)),
        ("RLIMIT_FSIZE", (limits.file_bytes, limits.file_bytes)),
        ("RLIMIT_NOFILE", (limits.open_files, limits.open_files)),
        ("RLIMIT_CORE", (0, 0)),
        # Set after privileges were dropped, so starting the script is not refused; from
        # then on this user may not start processes (a fork bomb fails at its first fork).
        ("RLIMIT_NPROC", (0, 0)),
    ]


def run_python(
    script: str,
    files: dict[str, str],
    *,
    limits: Limits = Limits(),
    read_back: tuple[str, ...] = (),
    args: tuple[str, ...] = (),
) -> SandboxResult:
    """Run ``script`` (a file name among ``files``) in a fresh sandbox.

    ``files`` maps names to text written into the private directory first; ``read_back``
    names files the caller wants back after the run (each capped at ``limits.file_bytes``).
    The directory is deleted afterwards.
    """
    workdir = Path(tempfile.mkdtemp(prefix="ggp-sandbox-"))
    python, drop_to = _interpreter_and_ids()
    try:
        for name, text in files.items():
            (workdir / name).write_text(text, encoding="utf-8")
        if drop_to is not None:
            for path in (workdir, *workdir.iterdir()):
                os.chown(path, *drop_to)
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": str(workdir),
               "TMPDIR": str(workdir)}
        started = time.monotonic()
        ids = {} if drop_to is None else {"user": drop_to[0], "group": drop_to[1],
                                           "extra_groups": []}
        proc = subprocess.Popen(
            [python, "-I", "-S", "-c", _LAUNCHER, json.dumps(_rlimits(limits)), script, *args],
            cwd=workdir,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            close_fds=True,
            start_new_session=True,
            **ids,
        )
        killed, out, err = _supervise(proc, limits)
        result = SandboxResult(
            returncode=proc.returncode,
            stdout=out.decode("utf-8", "replace"),
            stderr=err.decode("utf-8", "replace"),
            wall_seconds=time.monotonic() - started,
            killed=killed,
        )
        for name in read_back:
            path = workdir / name
            if path.is_file() and not path.is_symlink():
                with open(path, "rb") as fh:
                    result.files[name] = fh.read(limits.file_bytes).decode("utf-8", "replace")
        return result
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _supervise(proc: subprocess.Popen, limits: Limits) -> tuple[str | None, bytes, bytes]:
    """Collect capped output; kill the process group on timeout or output flood.

    Returns why the process was killed (or None) and its stdout and stderr."""
    reason: list[str] = []
    buffers: dict[str, bytearray] = {"out": bytearray(), "err": bytearray()}

    def kill(why: str) -> None:
        if not reason:
            reason.append(why)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

    def pump(stream, key: str) -> None:
        buf = buffers[key]
        while chunk := stream.read1(65536):
            room = limits.max_output - len(buf)
            buf += chunk[: max(room, 0)]
            if len(chunk) > room:
                kill("output")
        stream.close()

    readers = [threading.Thread(target=pump, args=(proc.stdout, "out"), daemon=True),
               threading.Thread(target=pump, args=(proc.stderr, "err"), daemon=True)]
    for reader in readers:
        reader.start()
    try:
        proc.wait(timeout=limits.wall_seconds)
    except subprocess.TimeoutExpired:
        kill("timeout")
        proc.wait()
    # Children left behind (the process group) die with the leader's group.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for reader in readers:
        reader.join(timeout=5)
    return (reason[0] if reason else None), bytes(buffers["out"]), bytes(buffers["err"])
