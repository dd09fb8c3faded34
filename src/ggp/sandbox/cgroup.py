"""Limits for a whole box: a control group per box holding its memory and task count.

``RLIMIT_AS`` and ``RLIMIT_NPROC`` hold per process (and per uid); a box that forks holds
many processes, and a tmpfs (the box's ``/tmp`` and working directory) lives in memory
outside any process. A memory control group counts all of it: every process of the box
and the tmpfs pages they write; a pids group counts every task (process or thread).

Where the kernel offers cgroups v2 with the ``memory`` and ``pids`` controllers delegated
to this process's group, the box gets a child group there (``memory.max``,
``memory.swap.max`` 0, ``pids.max``); else, on a cgroups v1 host with writable ``memory``
and ``pids`` hierarchies (e.g. a root container), a group in each
(``memory.limit_in_bytes``, ``memory.memsw.limit_in_bytes`` where swap accounting is on,
``pids.max``). Otherwise :func:`cgroup_mode` says ``"none"`` and the per-process limits
plus the size-capped tmpfs mounts are what holds (docs/sandbox.md, "Limits for the whole
box").

The box joins its group before anything of it runs: the parent starts it through
``/bin/sh``, which writes its own pid into the group's ``cgroup.procs`` and then
``exec``s bubblewrap, so bwrap and everything it starts are born inside. Groups are named
``ggp-box-<owner pid>-<n>``; :func:`sweep_stale` removes those whose owner is gone (a
parent killed with SIGKILL leaves its groups behind; the next start cleans them).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import secrets
import signal
from dataclasses import dataclass
from pathlib import Path

_ROOT = Path("/sys/fs/cgroup")
_PREFIX = "ggp-box-"
_COUNTER = itertools.count()
#: Set to ``1`` to never use cgroups (the documented per-process fallback).
DISABLE_ENV = "GGP_SANDBOX_NO_CGROUP"


def _own_path(controller: str) -> str | None:
    """This process's group path in the hierarchy of ``controller`` ("" for v2)."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, names, path = line.split(":", 2)
        if (controller == "" and names == "") or controller in names.split(","):
            return path
    return None


def _v2_base() -> Path | None:
    """The directory under which this process may make v2 groups with memory and pids."""
    own = _own_path("")
    if own is None:
        return None
    for mount in (_ROOT, _ROOT / "unified"):
        base = mount / own.lstrip("/")
        controllers = base / "cgroup.controllers"
        try:
            if {"memory", "pids"} <= set(controllers.read_text().split()):
                enabled = set((base / "cgroup.subtree_control").read_text().split())
                if not {"memory", "pids"} <= enabled:
                    (base / "cgroup.subtree_control").write_text("+memory +pids")
                if os.access(base, os.W_OK):
                    return base
        except OSError:
            continue
    return None


def _v1_bases() -> tuple[Path, Path] | None:
    memory, pids = _own_path("memory"), _own_path("pids")
    if memory is None or pids is None:
        return None
    bases = (_ROOT / "memory" / memory.lstrip("/"), _ROOT / "pids" / pids.lstrip("/"))
    if all((b / "cgroup.procs").exists() and os.access(b, os.W_OK) for b in bases):
        return bases
    return None


@functools.cache
def cgroup_mode() -> str:
    """``"v2"``, ``"v1"`` or ``"none"``: how boxes are held as a whole here (probed once,
    by making and removing a group)."""
    if os.environ.get(DISABLE_ENV, "") not in ("", "0"):
        return "none"
    for mode in ("v2", "v1"):
        try:
            group = BoxCgroup.create(mode, 64 << 20, 8)
        except OSError:
            continue
        if group is not None:
            group.remove()
            return mode
    return "none"


@dataclass
class BoxCgroup:
    """The control group(s) of one box."""

    mode: str
    dirs: tuple[Path, ...]

    @staticmethod
    def create(mode: str, memory_bytes: int, tasks: int) -> BoxCgroup | None:
        """A fresh group limited to ``memory_bytes`` and ``tasks``, or None where
        ``mode`` is not available. Raises OSError when making it fails half-way (the
        part made is removed)."""
        name = f"{_PREFIX}{os.getpid()}-{next(_COUNTER)}-{secrets.token_hex(3)}"
        if mode == "v2":
            base = _v2_base()
            if base is None:
                return None
            group = BoxCgroup(mode, (base / name,))
        else:
            bases = _v1_bases()
            if bases is None:
                return None
            group = BoxCgroup(mode, tuple(b / name for b in bases))
        try:
            for directory in group.dirs:
                directory.mkdir()
            if mode == "v2":
                d = group.dirs[0]
                (d / "memory.max").write_text(str(memory_bytes))
                with contextlib.suppress(OSError):
                    (d / "memory.swap.max").write_text("0")
                (d / "pids.max").write_text(str(tasks))
            else:
                memory, pids = group.dirs
                (memory / "memory.limit_in_bytes").write_text(str(memory_bytes))
                with contextlib.suppress(OSError):  # only with swap accounting
                    (memory / "memory.memsw.limit_in_bytes").write_text(str(memory_bytes))
                (pids / "pids.max").write_text(str(tasks))
        except OSError:
            group.remove()
            raise
        return group

    @property
    def procs_files(self) -> list[str]:
        """The files a process writes its pid to in order to join the group."""
        return [str(d / "cgroup.procs") for d in self.dirs]

    def wrap(self, command: list[str]) -> list[str]:
        """``command`` started from inside the group (see the module docstring)."""
        join = ('n=$1; shift; while [ "$n" -gt 0 ]; do echo $$ > "$1" || exit 125; '
                'shift; n=$((n-1)); done; exec "$@"')
        files = self.procs_files
        return ["/bin/sh", "-c", join, "sh", str(len(files)), *files, *command]

    def oom_killed(self) -> bool:
        """Whether the kernel killed a process of the box for exceeding the memory limit."""
        directory = self.dirs[0]
        name = "memory.events" if self.mode == "v2" else "memory.oom_control"
        try:
            for line in (directory / name).read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill" and value.strip() not in ("", "0"):
                    return True
            if self.mode == "v1":
                return (directory / "memory.failcnt").read_text().strip() not in ("", "0")
        except OSError:
            pass
        return False

    def kill_all(self) -> None:
        """SIGKILL every process still in the group."""
        for directory in self.dirs:
            with contextlib.suppress(OSError):
                for pid in (directory / "cgroup.procs").read_text().split():
                    with contextlib.suppress(OSError):
                        os.kill(int(pid), signal.SIGKILL)

    def remove(self) -> None:
        """Kill what is left and remove the group (retrying while processes exit)."""
        import time

        for directory in self.dirs:
            for _ in range(50):
                if not directory.exists():
                    break
                try:
                    directory.rmdir()
                    break
                except OSError:
                    self.kill_all()
                    time.sleep(0.02)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep_stale() -> int:
    """Remove the groups of boxes whose owner process is gone; returns how many."""
    mode = cgroup_mode()
    if mode == "none":
        return 0
    bases = [_v2_base()] if mode == "v2" else list(_v1_bases() or ())
    removed = 0
    for base in bases:
        if base is None:
            continue
        with contextlib.suppress(OSError):
            for directory in base.iterdir():
                name = directory.name
                if not (name.startswith(_PREFIX) and directory.is_dir()):
                    continue
                owner = name[len(_PREFIX):].split("-", 1)[0]
                if owner.isdigit() and not _pid_alive(int(owner)):
                    BoxCgroup(mode, (directory,)).remove()
                    removed += 1
    return removed
