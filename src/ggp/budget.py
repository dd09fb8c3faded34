"""Building a game from a small input under a memory and time budget.

A few bytes can ask for a huge game: an OpenSpiel game string with large parameters, or a
GDL description whose static relations or ground rules multiply (a 543-byte GDL START once
made ``ggp serve`` grow past 3.6 GB). What cannot be bounded by declared parameter ranges
(:mod:`ggp.core.registry` does that for registered games) is first built in a child
process under ``RLIMIT_AS`` and a wall-clock limit: the game, its initial state and the
legal moves there. Only when that fits is the game built in the caller's process.

The child runs ggp's own trusted code (GDL interpreter, OpenSpiel), never a ``.py`` model:
untrusted code has its own box (:mod:`ggp.sandbox`). Children are forked by one helper
process per ggp process (started on first use, with the GDL code imported), so a check
costs a fork and a second build of the game; the callers that take outside input pay it
(``ggp web``, ``ggp serve``, ``load_model(..., budget=)``).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any

from ggp.core.errors import ModelLoadError

_OUT_OF_MEMORY = 3  # the child's exit status for MemoryError


class BudgetExceeded(ModelLoadError):
    """Building the game needs more memory or time than its budget allows."""


@dataclass(frozen=True)
class Budget:
    """``memory_mb``: address space of the building process; ``seconds``: wall clock."""

    memory_mb: int = 2048
    seconds: float = 60.0


def check_budget(request: dict[str, Any], budget: Budget, label: str) -> None:
    """Build what ``request`` names in a child under ``budget``; raise
    :class:`BudgetExceeded` (one line) when it runs out of memory or time or is killed.
    Any other failure is left to the caller's own build, which reports it as usual.

    ``request``: ``{"spec": game spec}`` (a registry name, ``openspiel:...`` or a GDL
    file) or ``{"gdl": text, "gdl_ii": bool | None}``."""
    outcome = _zygote().build(request, budget)
    if outcome == "time":
        raise BudgetExceeded(f"Building {label} takes longer than {budget.seconds:g} s; "
                             "it is too large to play here.")
    if outcome == "memory":
        raise BudgetExceeded(f"Building {label} needs more than {budget.memory_mb} MB of "
                             "memory; it is too large to play here.")


class _Zygote:
    """A helper process with ggp's GDL code imported that forks one child per build.

    Starting an interpreter and importing the GDL code for every START would cost about a
    second of a start clock that may be two; a fork of this single-threaded helper costs
    milliseconds. The helper reads requests on its stdin and exits when the pipe closes
    (with the process that started it)."""

    def __init__(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("GGP_LLM")}
        env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
        self.proc = subprocess.Popen([sys.executable, "-m", "ggp.budget"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env,
                                     start_new_session=True)
        self.lock = threading.Lock()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def build(self, request: dict[str, Any], budget: Budget) -> str:
        """``"ok"``, ``"memory"``, ``"time"`` or ``"error"`` (any other failure)."""
        line = json.dumps({"request": request, "memory_mb": budget.memory_mb,
                           "seconds": budget.seconds}) + "\n"
        with self.lock:
            try:
                self.proc.stdin.write(line.encode())
                self.proc.stdin.flush()
                reply = self.proc.stdout.readline()
            except OSError:
                reply = b""
        try:
            return str(json.loads(reply)["outcome"])
        except (ValueError, KeyError, TypeError):
            self.close()
            return "error"  # the helper died: the caller's own build decides

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()


_ZYGOTE: _Zygote | None = None
_ZYGOTE_LOCK = threading.Lock()


def _zygote() -> _Zygote:
    global _ZYGOTE
    with _ZYGOTE_LOCK:
        if _ZYGOTE is None or not _ZYGOTE.alive():
            _ZYGOTE = _Zygote()
        return _ZYGOTE


def warm_up() -> None:
    """Start the build helper now (``ggp serve`` does, so that a START does not wait
    for it)."""
    _zygote()


# ---------------------------------------------------------------------------- helper side
def _build(request: dict[str, Any]) -> None:
    """The child's work: the game, its initial state and the legal moves there."""
    if "gdl" in request:
        from ggp.gdl.adapter import load_gdl_text

        # the compiled engine: what every GDL game is played with when it does not ground;
        # grounding (the other engine) has its own limits (ggp.gdl.ground.GroundingLimits)
        model = load_gdl_text(request["gdl"], name="budget", syntax="kif",
                              gdl_ii=request.get("gdl_ii"), engine="compiled")
    else:
        from ggp.load import load_model

        model = load_model(request["spec"])
    state = model.initial_state()
    model.legal_actions(state)


def _run_one(job: dict[str, Any]) -> str:
    """Fork a child that builds under the job's limits; its outcome."""
    import resource

    limit = int(job["memory_mb"]) * 1024 * 1024
    pid = os.fork()
    if pid == 0:  # the child: limits first, then the build; never returns
        status = 1
        try:
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            _build(job["request"])
            status = 0
        except MemoryError:
            status = _OUT_OF_MEMORY
        except BaseException:  # noqa: BLE001 - the caller's own build reports it
            status = 1
        finally:
            os._exit(status)
    deadline = time.monotonic() + float(job["seconds"])
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "time"
        time.sleep(0.01)
    if os.WIFSIGNALED(status):  # killed: the kernel's OOM killer, or C++ gave up
        return "memory"
    code = os.WEXITSTATUS(status)
    return "ok" if code == 0 else "memory" if code == _OUT_OF_MEMORY else "error"


def main() -> int:
    import ggp.gdl.adapter  # noqa: F401 - imported once here, shared by every fork
    import ggp.load  # noqa: F401

    for line in sys.stdin:
        try:
            outcome = _run_one(json.loads(line))
        except (ValueError, KeyError, TypeError, OSError):
            outcome = "error"
        sys.stdout.write(json.dumps({"outcome": outcome}) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
