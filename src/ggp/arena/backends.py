"""Where a tournament's matches run: this process, a local process pool, or Ray.

Every backend runs :func:`ggp.arena.task.run_match_task` on each task and hands
each result to ``on_done`` in the calling process, as results arrive (so storing them
stays single-writer). Matches are independent and seeded, so all backends give the same
outcomes; only timings differ. At most a few tasks per worker are in flight at once, so
an interrupted run has little work under way and memory stays flat for big tournaments.
"""

from __future__ import annotations

import multiprocessing
import os
import select
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ggp.arena.task import MatchTask, TournamentError, run_match_task

_DIED = (
    "A worker process died while playing a match: an in-process agent or the game crashed "
    "the whole process. Matches finished so far are saved. Run agents you do not trust "
    "with --sandbox, where such a crash is a forfeit."
)
OnDone = Callable[[dict[str, Any], "dict[str, Any] | None"], None]
BACKENDS = ("local", "ray")
_IN_FLIGHT_PER_WORKER = 2


def run_tasks(
    tasks: Iterable[MatchTask],
    on_done: OnDone,
    *,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
) -> None:
    """Run ``tasks`` on ``backend`` and call ``on_done(record, trajectory)`` for each."""
    if backend == "local":
        run_local(tasks, on_done, workers=workers)
    elif backend == "ray":
        run_ray(tasks, on_done, workers=workers, address=address)
    else:
        raise TournamentError(f"Unknown backend {backend!r}; use one of {', '.join(BACKENDS)}.")


def run_local(tasks: Iterable[MatchTask], on_done: OnDone, *, workers: int | None) -> None:
    """A pool of ``workers`` processes (None: one per core; 0: run in this process)."""
    if workers == 0:
        for task in tasks:
            on_done(*run_match_task(task))
        return
    workers = workers or os.cpu_count() or 1
    # forkserver: workers never inherit this process's threads (progress display, Ray).
    context = multiprocessing.get_context("forkserver")
    pending = iter(tasks)
    with ProcessPoolExecutor(max_workers=workers, mp_context=context,
                             initializer=_die_with, initargs=(os.getpid(),)) as pool:
        running = set()
        while True:
            while len(running) < workers * _IN_FLIGHT_PER_WORKER:
                task = next(pending, None)
                if task is None:
                    break
                running.add(pool.submit(run_match_task, task))
            if not running:
                return
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                try:
                    result = future.result()
                except BrokenProcessPool as exc:
                    raise TournamentError(_DIED) from exc
                on_done(*result)


def _die_with(pid: int) -> None:
    """Pool-worker initializer: exit as soon as the tournament process ``pid`` is gone, even
    by ``kill -9`` (a worker's parent is the forkserver, and a worker blocked on its queue
    would otherwise wait forever, keeping the resource tracker alive too). The sandboxes
    of its matches die with it."""
    try:
        handle = os.pidfd_open(pid)  # Linux 5.3+
    except ProcessLookupError:  # gone already
        os._exit(1)

    def watch() -> None:
        select.select([handle], [], [])
        os._exit(1)

    threading.Thread(target=watch, name="ggp-die-with-tournament", daemon=True).start()


def run_ray(tasks: Iterable[MatchTask], on_done: OnDone, *, workers: int | None,
            address: str | None) -> None:
    """Ray tasks on the cluster at ``address`` (None: start a local Ray with ``workers``
    CPUs, shut down afterwards). Cluster nodes need ggp installed in the same version."""
    try:
        import ray
    except ImportError as exc:
        raise TournamentError(
            "The ray backend needs Ray: pip install 'ggp[ray]' (or pip install ray)."
        ) from exc
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=address, num_cpus=workers if address is None else None,
                 include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        play = ray.remote(num_cpus=1, max_retries=0)(run_match_task)
        slots = max(1, int(ray.cluster_resources().get("CPU", 1))) * _IN_FLIGHT_PER_WORKER
        pending = iter(tasks)
        running: list = []
        while True:
            while len(running) < slots:
                task = next(pending, None)
                if task is None:
                    break
                running.append(play.remote(task))
            if not running:
                return
            finished, running = ray.wait(running, num_returns=1)
            for ref in finished:
                try:
                    result = ray.get(ref)
                except ray.exceptions.WorkerCrashedError as exc:
                    raise TournamentError(_DIED) from exc
                on_done(*result)
    finally:
        if started_here:
            ray.shutdown()
