"""What the bubblewrap box costs: starting a sandboxed child, and one call to a worker,
in the box and in the weaker mode (the former launcher alone), measured in the same run.

Usage: python bench/sandbox_start.py [--starts 20] [--calls 300] [--repeat 3]

1. ``run_entry`` of a trivial entry (interpreter start to reply), restricted and not:
   median seconds over ``--starts`` runs, best of ``--repeat``.
2. A ``Worker`` of ``ggp.cwm.worker`` hosting tic-tac-toe: median seconds per
   ``legal_actions`` call over ``--calls`` calls.
Prints each mode's numbers and the ratio box / weak.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from ggp.sandbox import Limits, Worker, process, run_entry

ENTRY = "def main(payload):\n    return payload\n"


def force(mode: str) -> None:
    """Choose the mode for the next children (the weak one by pretending bwrap is gone)."""
    if mode == "weak":
        process.box_problem = lambda: "forced by bench/sandbox_start.py"  # type: ignore
        os.environ[process.WEAK_ENV] = "1"
    else:
        process.box_problem = BOX_PROBLEM
        os.environ.pop(process.WEAK_ENV, None)


def starts(n: int, restricted: bool) -> float:
    times = []
    for _ in range(n):
        started = time.perf_counter()
        result = run_entry("entry.py", 1, files={"entry.py": ENTRY},
                           limits=Limits(restricted=restricted, network=False))
        assert result.ok, result.detail
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def calls(n: int) -> float:
    source = Path(__file__).resolve().parents[1] / "src/ggp/games/tic_tac_toe.py"
    init = {"role": "host", "source": source.read_text(), "filename": "ttt.py",
            "metadata": None}
    with Worker("ggp.cwm.worker", init, limits=Limits(restricted=True, network=False)) as w:
        state = w.call("initial_state")
        times = []
        for _ in range(n):
            started = time.perf_counter()
            w.call("legal_actions", {"state": state})
            times.append(time.perf_counter() - started)
    return statistics.median(times)


BOX_PROBLEM = process.box_problem


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    if BOX_PROBLEM() is not None:
        raise SystemExit(f"the box cannot run here: {BOX_PROBLEM()}")
    rows = {}
    for mode in ("box", "weak"):
        force(mode)
        rows[mode] = (
            min(starts(args.starts, False) for _ in range(args.repeat)),
            min(starts(args.starts, True) for _ in range(args.repeat)),
            min(calls(args.calls) for _ in range(args.repeat)),
        )
    force("box")
    names = ("start, unrestricted (s)", "start, restricted (s)", "worker call (ms)")
    print(f"{'measure':<26}{'box':>10}{'weak':>10}{'box/weak':>10}")
    for i, name in enumerate(names):
        scale = 1000 if "ms" in name else 1
        box, weak = rows["box"][i] * scale, rows["weak"][i] * scale
        print(f"{name:<26}{box:>10.3f}{weak:>10.3f}{box / weak:>10.2f}")


if __name__ == "__main__":
    main()
