"""Per GDL / GDL-II game: the engine chosen, a whole search match and ``ggp check``, timed.

For every game file: the engine ``load_gdl_model`` picks (and the steps per CPU second it
measured for each engine), the wall and CPU seconds of one ``ggp play`` match of a search
player at ``--sims`` simulations (ISMCTS on imperfect-information games, MCTS otherwise)
against random players in the other seats, and of ``ggp check GAME --games N``. Each
command runs as its own process with a wall-clock limit; the exact commands are printed.

    python bench/gdl_matches.py /work/shared/gdl/imperfect/*.gdl
    python bench/gdl_matches.py --sims 200 --check-games 5 --limit 120 GAME...

Times are of a shared machine: compare rows of one run, not runs of different days.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path


def timed(cmd: list[str], limit: float) -> tuple[str, float, float, str]:
    """(status, wall s, CPU s of the child, last output line) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=limit)
        status = "ok" if done.returncode == 0 else f"rc={done.returncode}"
        lines = (done.stdout + done.stderr).strip().splitlines()
        last = lines[-1] if lines else ""
    except subprocess.TimeoutExpired:
        status, last = f">{limit:.0f}s", ""
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return status, wall, cpu, last


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", type=Path)
    parser.add_argument("--sims", type=int, default=200)
    parser.add_argument("--check-games", type=int, default=5)
    parser.add_argument("--limit", type=float, default=120.0, help="wall seconds per command")
    parser.add_argument("--no-check", action="store_true")
    args = parser.parse_args()

    from ggp.core.errors import GGPError
    from ggp.gdl.adapter import load_gdl_model

    ggp = [sys.executable, "-m", "ggp.cli.main"]
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load {os.getloadavg()[0]:.1f}")
    print("| game | engine (steps/CPU s: grounded / compiled) | match s wall (CPU) | "
          "check s wall (CPU) |")
    print("|---|---|---|---|")
    for path in args.games:
        try:
            model = load_gdl_model(path)
        except GGPError as exc:
            print(f"| {path.name} | does not load: {str(exc)[:60]} | - | - |", flush=True)
            continue
        extra, meta = model.metadata.extra, model.metadata
        speeds = extra.get("engine_speeds")
        engine = extra["engine"] + (
            f" ({speeds['grounded']:,.0f} / {speeds['compiled']:,.0f})" if speeds else "")
        search = "mcts" if meta.perfect_information else "ismcts"
        players = f"{search}:sims={args.sims}:rollouts=1" + ",random" * (meta.num_players - 1)
        play = ggp + ["play", str(path), "-p", players, "--seed", "1"]
        status, wall, cpu, last = timed(play, args.limit)
        match = f"{wall:.1f} ({cpu:.1f})" + ("" if status == "ok" else f" {status} {last[:50]}")
        check = "-"
        if not args.no_check:
            cmd = ggp + ["check", str(path), "--games", str(args.check_games)]
            status, wall, cpu, last = timed(cmd, args.limit)
            check = f"{wall:.1f} ({cpu:.1f})" + ("" if status == "ok" else f" {status} {last[:50]}")
        print(f"| {path.name} | {engine} | {match} | {check} |", flush=True)
    print(f"\nmatch: ggp play GAME -p SEARCH:sims={args.sims}:rollouts=1[,random...] --seed 1 "
          f"(SEARCH: ismcts for imperfect information, else mcts); check: ggp check GAME "
          f"--games {args.check_games}")


if __name__ == "__main__":
    main()
