"""Idle sandboxed workers kept for reuse (a tournament's matches, one after another).

Starting a :class:`~ggp.sandbox.Worker` costs a fresh interpreter and its imports (tenths
of a second, more under load), and a tournament starts one per sandboxed agent per match.
:data:`POOL` keeps workers whose match ended cleanly, keyed by everything they were
started with (entry, init, limits, ...), and hands them out again. Only a worker that is
still alive goes back: one that failed or was killed at a deadline is gone for good. What
a reused worker must forget between matches is its entry's business: the CWM entries
reload the model's code and rebuild their search at every match start
(:mod:`ggp.cwm.worker`). The sandbox itself is unchanged: a reused worker keeps its
limits, and its CPU-time limit counts over its whole life (so a worker is not reused
after half of it, see :meth:`WorkerPool.take`).

Idle workers are closed when the pool holds more than ``max_idle`` (oldest first) and when
the process exits (also a multiprocessing pool's worker process).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from ggp.sandbox.process import Limits, SandboxFailure

__all__ = ["POOL", "WorkerPool"]


class WorkerPool:
    """Idle workers by key (see the module doc)."""

    def __init__(self, max_idle: int = 8) -> None:
        self.max_idle = max_idle
        self._idle: OrderedDict[int, tuple[str, Any]] = OrderedDict()  # id -> (key, worker)
        self._lock = threading.Lock()
        self._finalizer = None

    @staticmethod
    def key(entry: str, init: Any, limits: Limits, **options: Any) -> str:
        text = json.dumps([entry, init, asdict(limits), options], sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    def take(self, entry: str, init: Any = None, *, limits: Limits = Limits(),
             start_timeout: float = 60.0, fresh: bool = False,
             **options: Any) -> tuple[Any, bool]:
        """An idle worker started with the same arguments (unless ``fresh``), else a new
        one; returns ``(worker, reused)``. ``options`` are :class:`Worker`'s other
        arguments.

        A worker is reused only in the first half of its CPU-time limit, counted in wall
        time since it started (an upper bound on a single-threaded child's CPU time), so
        a match on a reused worker has at least half the limit left."""
        from ggp.sandbox import Worker

        key = self.key(entry, init, limits, **options)
        stale = []
        found = None
        with self._lock:
            for ident, (held, worker) in list(self._idle.items()):
                if held != key or fresh:
                    continue
                del self._idle[ident]
                young = time.monotonic() - worker.pool_born < limits.cpu_seconds / 2
                if worker.alive and young:
                    found = worker
                    break
                stale.append(worker)
        for old in stale:
            old.close()
        if found is not None:
            return found, True
        worker = Worker(entry, init, start_timeout=start_timeout, limits=limits, **options)
        worker.pool_key, worker.pool_born = key, time.monotonic()
        self._close_at_exit()
        return worker, False

    def take_ready(self, entry: str, init: Any, ready: Callable[[Any, bool], Any], *,
                   limits: Limits = Limits(), start_timeout: float = 60.0,
                   **options: Any) -> tuple[Any, Any]:
        """:meth:`take` a worker and make it ready for a match with ``ready(worker,
        reused)``; returns ``(worker, what ready returned)``. An idle worker may have died
        since its last match, so when ``ready`` fails on a reused one a fresh worker
        decides; a worker that fails ``ready`` is closed before the failure is raised."""
        worker, reused = self.take(entry, init, limits=limits, start_timeout=start_timeout,
                                   **options)
        try:
            return worker, ready(worker, reused)
        except SandboxFailure:
            worker.close()
            if not reused:
                raise
        worker, _ = self.take(entry, init, limits=limits, start_timeout=start_timeout,
                              fresh=True, **options)
        try:
            return worker, ready(worker, False)
        except SandboxFailure:
            worker.close()
            raise

    def give_back(self, worker: Any) -> None:
        """Keep ``worker`` for reuse if it is alive (a dead one is just dropped)."""
        key = getattr(worker, "pool_key", None)
        if key is None or not worker.alive:
            worker.close()
            return
        with self._lock:
            self._idle[id(worker)] = (key, worker)
            extra = [self._idle.popitem(last=False)[1][1]
                     for _ in range(max(0, len(self._idle) - self.max_idle))]
        for old in extra:
            old.close()

    def close(self) -> None:
        """Close every idle worker."""
        with self._lock:
            idle, self._idle = list(self._idle.values()), OrderedDict()
        for _, worker in idle:
            try:
                worker.close()
            except SandboxFailure:  # already gone
                pass

    def __len__(self) -> int:
        return len(self._idle)

    def _close_at_exit(self) -> None:
        # multiprocessing's finalizers run at the exit of the main process and of its pool
        # processes alike (atexit does not run in the latter); registered on first use
        # because a forked process starts with an empty registry
        if self._finalizer is None or not self._finalizer.still_active():
            from multiprocessing import util

            self._finalizer = util.Finalize(self, WorkerPool.close, args=(self,),
                                            exitpriority=10)


#: The process's pool.
POOL = WorkerPool()
