"""Does ``make_reasoner`` pick the faster GDL engine, and does its pick hold under load?

For every game that grounds: the race ``make_reasoner(engine="auto")`` runs
(``ggp.gdl.reasoner.measure_speeds``, 0.25 s of thread CPU time per engine) is repeated
``--races`` times on fresh reasoners, idle and then with ``--hogs`` busy processes
competing for the CPUs; then each engine plays seeded random playouts for ``--windows``
windows of ``--seconds`` CPU seconds (gdl-perf method, as ``bench/gdl_playouts.py``; the
grounded engine's code generation counts, nothing is warmed up). The verdict compares
the race's pick with the engine that completed more playouts over all the windows, and
says whether any race, idle or loaded, picked the other engine. The race extrapolates the
grounded engine's code generation to a match-length horizon, so a game whose first window
is spent generating (reversi: 1.3 playouts/s in the first 3 s, 30 after) is judged over
all the windows, not the first.

    python bench/gdl_engine_choice.py /work/shared/gdl/perfect/*.kif /work/shared/gdl/imperfect/*
    python bench/gdl_engine_choice.py --seconds 5 --windows 4 --hogs 2 reversi.kif

Games that do not ground (the compiled engine without a race) are listed with the reason.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import time
from pathlib import Path

from ggp.core.errors import GGPError
from ggp.gdl.adapter import load_gdl_model
from ggp.gdl.compiled import CompiledReasoner
from ggp.gdl.ground import GroundingLimits, NotGroundable, ground
from ggp.gdl.grounded import GroundedReasoner
from ggp.gdl.reasoner import RACE_SECONDS, measure_speeds
from ggp.gdl.kif import parse_kif


def _hog(stop) -> None:
    while not stop.is_set():
        sum(i * i for i in range(10_000))


class Hogs:
    """``n`` processes that keep CPUs busy while the block runs (load for the races)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.stop = multiprocessing.Event()
        self.procs: list = []

    def __enter__(self) -> "Hogs":
        self.procs = [multiprocessing.Process(target=_hog, args=(self.stop,), daemon=True)
                      for _ in range(self.n)]
        for p in self.procs:
            p.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        for p in self.procs:
            p.join()


def engines(rules, cold: bool = False) -> dict:
    """Fresh engines as ``make_reasoner`` races them (the grounded one has generated no
    per-joint-move function yet), or with ``cold`` as it plays: cold joint moves through
    a compiled engine of its own."""
    program = ground(rules, GroundingLimits())
    grounded = GroundedReasoner(program, cold_engine=CompiledReasoner(rules) if cold else None)
    grounded.check_step_code(GroundingLimits().max_step_chars)
    return {"grounded": grounded, "compiled": CompiledReasoner(rules)}


def races(rules, count: int) -> list[str]:
    picks = []
    for _ in range(count):
        speeds = measure_speeds(engines(rules), RACE_SECONDS)
        picks.append("grounded" if speeds["grounded"] >= speeds["compiled"] else "compiled")
    return picks


def playouts(reasoner, seconds: float, windows: int) -> list[float]:
    """Playouts per CPU second in each of ``windows`` consecutive windows."""
    rng = random.Random(0)
    rates = []
    for _ in range(windows):
        start = time.process_time()
        done = 0
        while time.process_time() - start < seconds:
            state = reasoner.initial_state()
            while not reasoner.is_terminal(state):
                legal = reasoner.legal_moves(state)
                state = reasoner.next_state(state, {r: rng.choice(m) for r, m in legal.items()})
            reasoner.goals(state)
            done += 1
        rates.append(done / (time.process_time() - start))
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", type=Path)
    parser.add_argument("--races", type=int, default=3, help="races per condition")
    parser.add_argument("--hogs", type=int, default=os.cpu_count() or 2,
                        help="busy processes during the loaded races")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU s per window")
    parser.add_argument("--windows", type=int, default=4)
    args = parser.parse_args()
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load "
          f"{os.getloadavg()[0]:.1f}; races idle / with {args.hogs} busy processes; "
          f"playouts per CPU s in {args.windows} windows of {args.seconds:g} s")
    print("| game | picks idle | picks loaded | grounded playouts/s | compiled playouts/s |"
          " faster | verdict |")
    print("|---|---|---|---|---|---|---|")
    right = wrong = 0
    for path in args.games:
        try:
            load_gdl_model(path, engine="compiled")  # validates: invalid GDL is reported
            rules = parse_kif(path.read_text()).rules
            engines(rules)
        except NotGroundable as exc:
            print(f"| {path.name} | not grounded: {str(exc)[:70]} | | | | compiled | - |",
                  flush=True)
            continue
        except (GGPError, OSError) as exc:
            print(f"| {path.name} | does not load: {str(exc)[:70]} | | | | | - |", flush=True)
            continue
        idle = races(rules, args.races)
        with Hogs(args.hogs):
            loaded = races(rules, args.races)
        rates = {name: playouts(r, args.seconds, args.windows)
                 for name, r in engines(rules, cold=True).items()}
        mean = {name: sum(v) / len(v) for name, v in rates.items()}
        faster = max(mean, key=mean.get)
        picks = idle + loaded
        verdict = ("right" if all(p == faster for p in picks) else
                   "wrong" if all(p != faster for p in picks) else "unstable")
        if mean[faster] < 1.1 * min(mean.values()):
            verdict += " (within 10%)"
        right += verdict.startswith("right")
        wrong += not verdict.startswith("right")
        fmt = lambda v: " ".join(f"{x:,.1f}" for x in v)  # noqa: E731
        print(f"| {path.name} | {','.join(p[0] for p in idle)} | "
              f"{','.join(p[0] for p in loaded)} | {fmt(rates['grounded'])} | "
              f"{fmt(rates['compiled'])} | {faster} {mean[faster] / min(mean.values()):.1f}x |"
              f" {verdict} |", flush=True)
    print(f"\n{right} right, {wrong} not (g = grounded, c = compiled); load "
          f"{os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
