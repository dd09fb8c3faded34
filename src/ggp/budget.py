"""Building a game from a small input under a memory and time budget.

A few bytes can ask for a huge game: an OpenSpiel game string with large parameters, or a
GDL description whose static relations or ground rules multiply (a 543-byte GDL START once
made ``ggp serve`` grow past 3.6 GB). What cannot be bounded by declared parameter ranges
(:mod:`ggp.core.registry` does that for registered games) is first built in a child
process under ``RLIMIT_AS`` and a wall-clock limit: the game, its initial state and the
legal moves there. Only when that fits is the game built in the caller's process.

The child runs ggp's own trusted code (GDL interpreter, OpenSpiel), never a ``.py`` model:
untrusted code has its own box (:mod:`ggp.sandbox`). The cost is one interpreter start
plus building the game twice; the callers that take outside input pay it (``ggp web``,
``ggp serve``, ``load_model(..., budget=)``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
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
    env = {k: v for k, v in os.environ.items() if not k.startswith("GGP_LLM")}
    env.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    limit = budget.memory_mb * 1024 * 1024

    def limit_memory() -> None:  # runs in the child, before exec
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    proc = subprocess.Popen([sys.executable, "-m", "ggp.budget"], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=env, preexec_fn=limit_memory, start_new_session=True)
    try:
        _, err = proc.communicate(json.dumps(request).encode(), timeout=budget.seconds)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise BudgetExceeded(f"Building {label} takes longer than {budget.seconds:g} s; "
                             "it is too large to play here.") from None
    if proc.returncode == 0:
        return
    tail = err.decode("utf-8", "replace")[-2000:]
    if (proc.returncode == _OUT_OF_MEMORY or proc.returncode < 0
            or "MemoryError" in tail or "bad_alloc" in tail):
        raise BudgetExceeded(f"Building {label} needs more than {budget.memory_mb} MB of "
                             "memory; it is too large to play here.")


def _build(request: dict[str, Any]) -> None:
    """The child's work: the game, its initial state and the legal moves there."""
    if "gdl" in request:
        from ggp.gdl.adapter import load_gdl_text

        model = load_gdl_text(request["gdl"], name="budget", syntax="kif",
                              gdl_ii=request.get("gdl_ii"))
    else:
        from ggp.load import load_model

        model = load_model(request["spec"])
    state = model.initial_state()
    model.legal_actions(state)


def main() -> int:
    request = json.loads(sys.stdin.buffer.read())
    try:
        _build(request)
    except MemoryError:
        return _OUT_OF_MEMORY
    return 0


if __name__ == "__main__":
    sys.exit(main())
