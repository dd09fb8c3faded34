"""A limited child process: the primitive under :func:`~ggp.sandbox.run_entry` and
:class:`~ggp.sandbox.Worker`.

The child runs in a bubblewrap (``bwrap``) box: fresh PID, IPC, UTS and mount namespaces
(and network, when offline), a root holding read-only binds of the system's programs and
libraries, the interpreter and the ``ggp`` package, a fresh ``/proc``, a minimal ``/dev``,
a private ``/tmp`` and the private working directory; ``--die-with-parent`` and
``--new-session``. Inside, a short launcher (``_LAUNCHER``, trusted code) drops a root
parent's child to a uid of its own, lowers the resource limits and replaces itself with a
fresh ``python -I`` interpreter running :mod:`ggp.sandbox._child`, so no untrusted code
ever runs without them. The parent starts bwrap in its own session, so killing that
process group kills the box (its PID 1 dies with bwrap, and every process of the box with
it). Requests go to the child's stdin as JSON lines, each with a fresh random id; replies
come back on a dedicated pipe so that whatever the child prints cannot corrupt them, one
per request, echoing its id, and bounded before they are decoded (:func:`decode_bounded`):
anything else is a ``protocol`` failure. With cgroups (:mod:`ggp.sandbox.cgroup`) the
whole box is held to its memory and task limits; its working directory and ``/tmp`` are
size-capped tmpfs mounts; private directories left by a killed parent are swept at the
next start (:func:`sweep_stale_boxes`). The child's stdout and stderr are
drained by threads that keep only a tail of each and kill the child when it prints more
than allowed.

Where bwrap cannot run, :func:`sandbox_mode` refuses (:class:`SandboxUnavailable`) unless
``GGP_ALLOW_WEAK_SANDBOX=1``: then the launcher alone provides the limits, a network
namespace where the kernel allows one, ``PR_SET_PDEATHSIG``, and ``nobody`` for restricted
children of root (the weaker mode, not a security boundary).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import pwd
import secrets
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
from ggp.sandbox.cgroup import BoxCgroup, cgroup_mode, sweep_stale

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
        network: False gives the box a network namespace of its own, with no interface
            up, and the guard refuses sockets. (In the weaker mode: new user and network
            namespaces where the kernel allows them, else only the guard, with a warning.)
        restricted: for code that only computes (synthesized code): the child may not
            start processes or threads (``RLIMIT_NPROC`` 0), its guard refuses process
            creation, ``ctypes``, sockets and writing or deleting outside its directory,
            and it gets the standard library and ``ggp`` only (``python -S``); see
            docs/sandbox.md.
        processes: most processes and threads an unrestricted child may have at once
            (``RLIMIT_NPROC``), enforced where the child has a uid of its own (in the box
            below a root parent); restricted children get 0. Where cgroups can be used
            the whole box is also held to this many tasks (``pids.max``).
        disk_mb: size of the box's private working directory and of its ``/tmp`` (each a
            tmpfs inside the box; with cgroups their pages count against ``memory_mb``).
        reply_bytes, reply_items, reply_depth: the largest reply the parent decodes (bytes,
            JSON values counted as ``[``, ``{`` and ``,`` bytes, nesting depth); a bigger
            or deeper reply is a ``protocol`` failure and the child is killed unread.
    """

    memory_mb: int = 2048
    cpu_seconds: int | None = 600
    file_mb: int = 16
    open_files: int = 64
    output_bytes: int = 64 * 1024
    max_output_bytes: int | None = 4 * _MIB
    network: bool = True
    restricted: bool = False
    processes: int = 256
    disk_mb: int = 64
    reply_bytes: int = 16 * _MIB
    reply_items: int = 1_000_000
    reply_depth: int = 100


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


# Runs first in the child, before any code of the caller: lower the limits, then become
# the real child. In the box (bubblewrap) it also drops a root parent's child to its own
# unprivileged uid (before the limits: the kernel refuses an exec whose setuid left the
# user over RLIMIT_NPROC). In the weaker mode it cuts the network when asked (reporting
# the outcome in GGP_SANDBOX_NETWORK) and asks for SIGKILL when the parent dies (after every
# credential change, which would clear it). Doing this inside the child rather than in a
# ``preexec_fn`` keeps process creation safe in a threaded parent (the arena drains pipes
# in threads).
_LAUNCHER = """\
import json, os, resource, sys
config = json.loads(sys.argv[1])
if config["uid"] is not None:
    os.setgroups([])
    os.setresgid(config["uid"], config["uid"], config["uid"])
    os.setresuid(config["uid"], config["uid"], config["uid"])
if config["weak"]:
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    isolated = not config["network"] and libc.unshare(0x10000000 | 0x40000000) == 0
    os.environ["GGP_SANDBOX_NETWORK"] = "none" if isolated else "host"
for name, value in config["rlimits"]:
    resource.setrlimit(getattr(resource, name), tuple(value))
if config["weak"]:
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

#: Set to ``1`` to run untrusted code without the box where bubblewrap cannot run (only
#: rlimits, the weaker network cut and the Python guard remain; not a security boundary).
WEAK_ENV = "GGP_ALLOW_WEAK_SANDBOX"
#: Passed on to every child when set (see :func:`ggp.sandbox.attacks.tagged_boxes`).
TAG_VAR = "GGP_SANDBOX_TAG"

# Children of a root parent each run as their own uid in this range (see _box_uid).
_UID_BASE, _UID_SPAN = 2_100_000_000, 100_000_000


class SandboxUnavailable(GGPError):
    """The OS-level box cannot run here and the weaker mode was not allowed."""


def _rlimits(limits: Limits, own_uid: bool = False) -> list[tuple[str, tuple[int, int]]]:
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
    elif own_uid:
        # RLIMIT_NPROC counts every process of the uid: only meaningful for a uid of its own
        settings.append(("RLIMIT_NPROC", (limits.processes,) * 2))
    return settings


def _launcher_command(python: str, limits: Limits, argv: list[str], *, weak: bool,
                      uid: int | None = None) -> list[str]:
    own_uid = uid is not None and not weak
    config = {"network": limits.network, "rlimits": _rlimits(limits, own_uid), "weak": weak,
              "uid": uid, "parent": os.getpid(), "argv": argv}
    return [python, "-I", "-S", "-c", _LAUNCHER, json.dumps(config)]


# ---------------------------------------------------------------------- the box
def _bwrap() -> str | None:
    return shutil.which("bwrap", path=os.environ.get("PATH", "") + ":/usr/bin:/bin")


def _read_only_paths(network: bool, extra: tuple[str, ...]) -> list[str]:
    """What the child may read: the system's programs and libraries, the interpreter (its
    prefix and the virtual environment's), the ggp package, ``extra``; and, for children
    with the network, the resolver and certificate files. Nothing else of /etc or /home."""
    paths = ["/usr", "/etc/ld.so.cache", sys.base_prefix, sys.prefix,
             os.path.dirname(os.path.realpath(sys.executable)), _package_root(), *extra]
    if network:
        paths += ["/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/gai.conf",
                  "/etc/ssl", "/etc/ca-certificates", "/etc/pki"]
    out: list[str] = []
    for path in paths:
        real = os.path.realpath(path)
        if os.path.exists(real) and real not in out:
            out.append(real)
    # a path inside another one is already there
    return [p for p in out if not any(p != q and p.startswith(q.rstrip("/") + "/")
                                      for q in out)]


def _box_command(limits: Limits, argv: list[str], workdir: str, uid: int | None,
                 extra: tuple[str, ...], files: tuple[str, ...] = ()) -> list[str]:
    """The bubblewrap command line around the launcher (see docs/sandbox.md)."""
    command = [_bwrap() or "bwrap", "--die-with-parent", "--new-session",
               "--unshare-ipc", "--unshare-pid", "--unshare-uts", "--unshare-cgroup-try"]
    if not limits.network:
        command.append("--unshare-net")
    if os.geteuid() != 0:
        # unprivileged: a user namespace is what lets bwrap make the others
        command.append("--unshare-user")
    made: set[str] = {"/"}

    def parents(path: str) -> list[str]:
        # bwrap makes missing mount points 0700; an unprivileged child must pass them
        steps: list[str] = []
        for parent in reversed(Path(path).parents):
            name = str(parent)
            if name not in made:
                made.add(name)
                steps += ["--perms", "0755", "--dir", name]
        return steps

    # the private /tmp first: an interpreter or virtual environment under /tmp (as on
    # some CI machines) is then bound on top of it rather than hidden by it
    # (its size is capped: a tmpfs lives in memory, outside RLIMIT_AS)
    tmp_bytes = max(limits.disk_mb, 4 * limits.file_mb) * _MIB
    command += ["--proc", "/proc", "--dev", "/dev", "--perms", "1777", "--size",
                str(tmp_bytes), "--tmpfs", "/tmp"]
    made.add("/tmp")
    for name in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        host = f"/{name}"
        if os.path.islink(host):
            command += ["--symlink", os.readlink(host), host]
        elif os.path.isdir(host):
            command += ["--ro-bind", host, host]
    for path in _read_only_paths(limits.network, extra):
        command += [*parents(path), "--ro-bind", path, path]
    # The private directory is a tmpfs of its own inside the box (its size is the box's
    # disk; with cgroups its pages count against the box's memory): the host directory is
    # never written by the child, so nothing it writes outlives the box, and the caller's
    # files are read-only binds in it.
    command += [*parents(workdir), "--perms", "1777", "--size", str(limits.disk_mb * _MIB),
                "--tmpfs", workdir]
    made.add(workdir)
    for name in files:
        target = os.path.join(workdir, name)
        command += [*parents(target), "--ro-bind", target, target]
    # the environment is the one Popen passes (BASE_ENV and the caller's additions)
    command += ["--chdir", workdir, "--"]
    return command + _launcher_command(argv[0], limits, argv, weak=False, uid=uid)


def _box_uid(workdir: str) -> int | None:
    """A uid for this child alone when the parent is root (None otherwise: an ordinary
    user's child keeps its uid inside a user namespace). The private directory's inode
    number tells concurrent children apart."""
    if os.geteuid() != 0:
        return None
    return _UID_BASE + os.stat(workdir).st_ino % _UID_SPAN


@functools.cache
def box_problem() -> str | None:
    """Why the OS-level box cannot run here, or None when it can (checked once)."""
    if sys.platform != "linux":
        return "the sandbox needs Linux namespaces"
    if _bwrap() is None:
        return ("bubblewrap (bwrap) is not installed; install it with "
                "'apt-get install bubblewrap' (or your system's package)")
    workdir = make_private_dir()
    try:
        uid = _box_uid(workdir)
        argv = [sys.executable, "-I", "-S", "-c", "import os; print(os.getuid())"]
        command = _box_command(Limits(network=False, cpu_seconds=10), argv, workdir, uid, ())
        answer = subprocess.run(command, capture_output=True, timeout=60, env=BASE_ENV,
                                cwd=workdir)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap could not start: {exc}"
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if answer.returncode != 0 or not answer.stdout.strip().isdigit():
        last = answer.stderr.decode(errors="replace").strip().splitlines()[-1:]
        return ("bubblewrap cannot create its namespaces here"
                + (f" ({last[0]})" if last else "")
                + "; unprivileged user namespaces may be disabled "
                "(sysctl kernel.unprivileged_userns_clone / user.max_user_namespaces)")
    return None


def weak_mode_allowed() -> bool:
    """Whether the user opted in to the weaker mode (``GGP_ALLOW_WEAK_SANDBOX=1``)."""
    return os.environ.get(WEAK_ENV, "") not in ("", "0")


def sandbox_mode() -> str:
    """``"box"`` (bubblewrap) or ``"weak"`` (opted in where the box cannot run).

    Raises :class:`SandboxUnavailable` when the box cannot run and the weaker mode was not
    allowed: untrusted code is refused by default.
    """
    problem = box_problem()
    if problem is None:
        return "box"
    if not weak_mode_allowed():
        raise SandboxUnavailable(
            f"Refusing to run untrusted code: {problem}. Install bubblewrap, or set "
            f"{WEAK_ENV}=1 to run it in the weaker sandbox (rlimits and Python guards "
            "only, not a security boundary; see docs/sandbox.md).")
    _warn_weak(problem)
    return "weak"


@functools.cache
def _warn_weak(problem: str) -> None:
    message = (f"ggp.sandbox: WEAK MODE ({WEAK_ENV} is set): {problem}. Untrusted code "
               "runs with rlimits and Python guards only: it can read your files and "
               "signal your processes.")
    warnings.warn(message, stacklevel=4)
    print(message, file=sys.stderr)


@functools.cache
def network_isolation_available() -> bool:
    """Whether ``Limits(network=False)`` really cuts the network here (checked once;
    warns when not): always in the box, and in the weaker mode where user and network
    namespaces can be made."""
    if box_problem() is None:
        return True
    probe = [sys.executable, "-I", "-S", "-c",
             "import os; print(os.environ['GGP_SANDBOX_NETWORK'])"]
    command = _launcher_command(sys.executable, Limits(network=False, cpu_seconds=10), probe,
                                weak=True)
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
    """The weaker mode's Python to run and the ``Popen`` arguments that drop privileges.

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


# ---------------------------------------------------------------------- replies
class ReplyError(ValueError):
    """A reply the parent refuses to decode (too big, too deep, not JSON)."""


def decode_bounded(data: bytes, limits: Limits) -> Any:
    """Decode one JSON reply, refusing it before decoding when it holds more values than
    ``limits.reply_items`` (so a small reply cannot expand into a huge object graph) and
    after decoding when it nests deeper than ``limits.reply_depth`` (a reply deeper than
    the decoder's recursion limit is refused by it). Raises :class:`ReplyError`."""
    if len(data) > limits.reply_bytes + 1:
        raise ReplyError(f"reply larger than {limits.reply_bytes} bytes")
    # every array, object and element separator; inside strings too, which only counts
    # more than there is
    items = data.count(b"[") + data.count(b"{") + data.count(b",")
    if items > limits.reply_items:
        raise ReplyError(f"reply holds more than {limits.reply_items} values")
    try:
        value = json.loads(data)
    except RecursionError:
        raise ReplyError(f"reply nested deeper than {limits.reply_depth} levels") from None
    except (ValueError, UnicodeDecodeError):
        raise ReplyError(f"reply is not JSON: {data[:120]!r}") from None
    if json_depth(value, limits.reply_depth) > limits.reply_depth:
        raise ReplyError(f"reply nested deeper than {limits.reply_depth} levels")
    return value


def json_depth(value: Any, stop: int) -> int:
    """The nesting depth of a decoded JSON value (a scalar is 0), counted without
    recursion and giving up once past ``stop``."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = item.values()
        elif not isinstance(item, list):
            continue
        depth += 1
        if depth > deepest:
            deepest = depth
            if deepest > stop:
                return deepest
        stack.extend((child, depth) for child in item
                     if isinstance(child, (dict, list)))
    return deepest


# ------------------------------------------------------------- private folders
_PRIVATE_PREFIX = "ggp-sandbox-"
_OWNER_FILE = ".ggp-owner"


def _start_time(pid: int) -> str:
    """The kernel's start time of ``pid`` (tells a reused pid from its owner)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return ""


def make_private_dir() -> str:
    """A fresh private directory in the temporary directory, marked with its owner (this
    process's pid and start time) so that :func:`sweep_stale_boxes` can remove it if this
    process dies without cleaning up."""
    workdir = tempfile.mkdtemp(prefix=_PRIVATE_PREFIX)
    Path(workdir, _OWNER_FILE).write_text(f"{os.getpid()} {_start_time(os.getpid())}\n")
    return workdir


def _owner_gone(directory: Path) -> bool:
    try:
        marker = directory / _OWNER_FILE
        if marker.is_symlink() or marker.stat().st_uid != os.geteuid():
            return False
        pid_text, _, started = marker.read_text()[:100].strip().partition(" ")
        pid = int(pid_text)
    except (OSError, ValueError):
        return False
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return bool(started) and _start_time(pid) != started


@functools.cache
def sweep_stale_boxes() -> int:
    """Remove private directories and control groups left by ggp processes that died
    (SIGKILL leaves no time to clean up); done once per process, at its first box.
    Returns how many directories were removed."""
    removed = 0
    with contextlib.suppress(OSError):
        for directory in Path(tempfile.gettempdir()).iterdir():
            if (directory.name.startswith(_PRIVATE_PREFIX) and not directory.is_symlink()
                    and directory.is_dir() and _owner_gone(directory)):
                shutil.rmtree(directory, ignore_errors=True)
                removed += 1
    with contextlib.suppress(OSError):
        sweep_stale()
    return removed


def _make_cgroup(limits: Limits) -> BoxCgroup | None:
    """The box's control group, where the host offers one (see :mod:`.cgroup`)."""
    mode = cgroup_mode()
    if mode == "none":
        return None
    tasks = (4 if limits.restricted else limits.processes) + 4  # bwrap and the launcher
    try:
        return BoxCgroup.create(mode, limits.memory_mb * _MIB, tasks)
    except OSError:
        return None


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
        self.mode = sandbox_mode()  # refuses here when there is no box and no opt-in
        sweep_stale_boxes()
        self.workdir = make_private_dir()
        self.cgroup = None
        files = dict(files or {})
        if entry.endswith(".py") and entry not in files and os.path.isfile(entry):
            # the child sees no file of ours: an entry file travels in as a copy
            files[Path(entry).name] = Path(entry).read_text(encoding="utf-8")
            entry = Path(entry).name
        for name, text in files.items():
            path = Path(self.workdir, name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        self.output_exceeded = False
        self._buffer: list[bytes] = []  # the chunks of a reply line being read
        self._nonce = ""
        if self.mode == "box":
            python, user = sys.executable, {}
            uid = _box_uid(self.workdir)
        else:
            python, user = _interpreter_and_user(limits)
            uid = user.get("user")
            if not limits.network:
                network_isolation_available()  # warns once where namespaces cannot be made
        if uid is not None and self.mode != "box":
            # the weaker mode's child works in the host directory itself (in the box it
            # gets a tmpfs there); the owner marker stays ours
            for path in (self.workdir, *(str(p) for p in Path(self.workdir).rglob("*"))):
                if Path(path).name != _OWNER_FILE:
                    os.chown(path, uid, uid)
        reply_read, reply_write = os.pipe()
        config = {"path": [_package_root(), *sys_path], "entry": entry, "mode": mode,
                  "reply_fd": reply_write, "restricted": limits.restricted,
                  "network": limits.network}
        # -I ignores PYTHONPATH and user site-packages; -S (restricted) site-packages too;
        # -u: unbuffered, so what was printed before a kill is still captured.
        flags = ["-I", "-S", "-u"] if limits.restricted else ["-I", "-u"]
        argv = [python, *flags, "-c", _BOOTSTRAP, "ggp.sandbox._child", json.dumps(config)]
        if self.mode == "box":
            command = _box_command(limits, argv, self.workdir, uid, sys_path,
                                   tuple(sorted(files)))
            self.cgroup = _make_cgroup(limits)
            if self.cgroup is not None:
                command = self.cgroup.wrap(command)
        else:
            command = _launcher_command(python, limits, argv, weak=True)
        env = {**BASE_ENV, "HOME": self.workdir, "TMPDIR": self.workdir,
               "GGP_SANDBOX": self.mode, **(env or {})}
        if self.mode == "box":
            env["GGP_SANDBOX_NETWORK"] = "host" if limits.network else "none"
        if TAG_VAR in os.environ:
            # a label, no secret: lets the attack suite tell its own boxes from those of
            # other processes running at the same time (ggp.sandbox.attacks.tagged_boxes)
            env[TAG_VAR] = os.environ[TAG_VAR]
        try:
            self.proc = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.workdir,
                env=env,
                start_new_session=True,
                close_fds=True,
                pass_fds=(reply_write,),
                **user,
            )
        except BaseException:
            os.close(reply_read)
            self._remove_private()
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
        # A fresh id the child must echo: a reply written ahead of time, or left over
        # from an earlier request, answers the wrong request and is refused.
        self._nonce = secrets.token_hex(8)
        try:
            data = (json.dumps({"id": self._nonce, **message}) + "\n").encode()
        except (TypeError, ValueError) as exc:
            raise SandboxFailure("protocol", f"request is not JSON: {exc}") from exc
        self._write(data, deadline)
        line = self._read_line(deadline)
        try:
            reply = decode_bounded(line, self.limits)  # (JSON allows the newline)
        except ReplyError as exc:
            raise self._failure("protocol", str(exc)) from None
        if (not isinstance(reply, dict) or reply.get("id") != self._nonce
                or len(reply) != 2 or len({"ok", "error"} & reply.keys()) != 1):
            raise self._failure("protocol", "the reply does not answer the request sent")
        if "error" in reply:
            error = reply["error"]
            if not (isinstance(error, dict)
                    and all(isinstance(error.get(k, ""), str)
                            for k in ("type", "message", "traceback"))):
                raise self._failure("protocol", "malformed error reply")
            kind = "memory" if error.get("type") == "MemoryError" else "exception"
            detail = f"{error.get('type', 'Error')[:100]}: {error.get('message', '')[:2000]}"
            if error.get("traceback"):
                detail += "\n" + error["traceback"][-4000:]
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
        """One reply line (with its newline). Chunks are kept apart until the line is
        complete and joined once, so an oversized reply costs at most its cap, and is
        dropped unread."""
        chunks, size = self._buffer, sum(len(c) for c in self._buffer)
        while not chunks or b"\n" not in chunks[-1]:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._failure("timeout", "no answer before the deadline")
            ready, _, _ = select.select([self._replies], [], [], min(left, 0.5))
            if not ready:
                continue
            chunk = os.read(self._replies, 1 << 20)
            if not chunk:
                raise self._failure("crash", "the process exited without answering")
            chunks.append(chunk)
            size += len(chunk)
            if size > self.limits.reply_bytes + 1:
                chunks.clear()
                raise self._failure("protocol", "reply larger than "
                                    f"{self.limits.reply_bytes} bytes")
        data = b"".join(chunks)
        chunks.clear()
        if data.index(b"\n") != len(data) - 1:
            # one reply per request: anything more was written ahead by the child
            raise self._failure("protocol", "more than one reply to a request")
        return data

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
        if kind == "crash":  # let it finish dying, so its exit status tells how
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=1.0)
        self.kill()
        code = self.proc.returncode
        if self.mode == "box" and code is not None and code > 128:
            code = 128 - code  # bwrap reports a child killed by signal N as 128 + N
        stderr = self.stderr.text(wait=True)
        if self.output_exceeded:
            kind, detail = "output", (f"printed more than {self.limits.max_output_bytes} "
                                      "bytes")
        elif kind == "timeout" and not (self.cgroup is not None
                                        and self.cgroup.oom_killed()):
            pass
        elif code is not None and code == -signal.SIGXCPU:
            kind, detail = "cpu", f"CPU time limit of {self.limits.cpu_seconds} s exceeded"
        elif kind in ("crash", "timeout") and self.cgroup is not None and \
                self.cgroup.oom_killed():
            kind, detail = "memory", (f"the box went over its memory limit of "
                                      f"{self.limits.memory_mb} MiB (all its processes "
                                      "and files together)")
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
        if self.cgroup is not None:
            self.cgroup.kill_all()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)

    def close(self, grace: float = 1.0) -> None:
        """Ask the child to stop (end of stdin), then kill its group and remove its files."""
        with contextlib.suppress(OSError):
            self.proc.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=grace)
        self.kill()
        with contextlib.suppress(OSError):
            os.close(self._replies)
        self._remove_private()

    def _remove_private(self) -> None:
        """Remove the private directory and the box's control group."""
        shutil.rmtree(self.workdir, ignore_errors=True)
        # On a loaded machine a killed box may not be gone yet and still hold (or write)
        # files there: try again for a few seconds rather than leave the folder behind.
        for _ in range(30):
            if not os.path.exists(self.workdir):
                break
            if self.cgroup is not None:
                self.cgroup.kill_all()
            time.sleep(0.1)
            shutil.rmtree(self.workdir, ignore_errors=True)
        if self.cgroup is not None:
            self.cgroup.remove()
            self.cgroup = None

