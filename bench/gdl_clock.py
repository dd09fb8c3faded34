"""Does every game play at a GGP play clock? Load time, and one simulation per move.

For every game file (folders are searched for ``*.kif`` / ``*.gdl``), in its own process
with a wall-clock limit (``--limit``) so one pathological game cannot hang the run:

* **load**: ``load_gdl_model`` (parse, validation, the engine race of ``make_reasoner``),
  CPU seconds against the start clock. A description that does not parse or validate is
  reported as *invalid* and not counted as our failure.
* **per move**: along one seeded random match through the world model the GGP player
  builds (``ggp.ggpnet.player`` searches that model), at every decision point of a player
  (chance nodes are sampled, not timed) the CPU seconds of one full simulation: a uniformly
  random playout to a terminal state through the world model, as ``DeadlineRollout`` plays
  it (legal actions, apply, rewards). It must fit the play clock: a simulation still
  running at ``--clock`` CPU seconds is stopped and fails the game. The match stops being
  measured when the game's CPU budget (``--budget``) is spent (the moves timed are shown:
  a long game's later moves have shorter playouts, the first ones are the slowest).

A game passes when it loads within the start clock and every simulation timed fits the
play clock. Times are CPU seconds of the game's process (``time.process_time``), so a
shared machine does not make a game fail; they still vary with the machine's load:
compare the rows of one run.

    python bench/gdl_clock.py /tmp/ggprepo                         # every .kif there
    python bench/gdl_clock.py --clock 10 --start-clock 60 --limit 60 GAME.kif ...
    python bench/gdl_clock.py --engine compiled /work/shared/gdl/perfect/chess_200.kif

Progress goes to stdout line by line; a markdown table (failures and the slowest games
first) and a summary line ``N pass / N fail / N invalid`` come at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path


# ---------------------------------------------------------------------------- one game
def run_one(path: Path, clock: float, budget: float, seed: int, engine: str) -> None:
    """Measure one game; print one JSON object per line (flushed, so a parent that kills
    this process on its wall limit still has what was measured)."""
    from ggp.core.errors import GGPError
    from ggp.core.protocol import CHANCE, TERMINAL
    from ggp.gdl.adapter import load_gdl_model
    from ggp.gdl.errors import GDLSyntaxError, GDLValidationError
    from ggp.core.ops import ops_for

    def emit(**fields) -> None:
        print(json.dumps(fields), flush=True)

    cpu = time.process_time
    t0 = cpu()
    try:
        model = load_gdl_model(path, engine=engine)
    except (GDLSyntaxError, GDLValidationError) as exc:
        emit(invalid=str(exc).splitlines()[0][:120], load=cpu() - t0)
        return
    except GGPError as exc:
        emit(error=f"{type(exc).__name__}: {str(exc).splitlines()[0][:120]}", load=cpu() - t0)
        return
    game = model.namespace
    emit(load=cpu() - t0, engine=game.engine.info.name, rules=len(game.desc.rules))
    ops = ops_for(model)
    rng = random.Random(seed)
    state = model.initial_state()
    spent, move = 0.0, 0
    while True:
        player = ops.current_player(state)
        if player == TERMINAL:
            break
        if player == CHANCE:
            state = ops.apply(state, ops.sample_chance(state, rng))
            continue
        if spent < budget:
            started = cpu()
            steps, done = simulate(ops, state, random.Random(rng.random()), started + clock)
            took = cpu() - started
            spent += took
            emit(move=move, sim=took, steps=steps, done=done)
            if not done:
                return
        legal = ops.legal_actions(state)
        state = ops.apply(state, rng.choice(legal))
        move += 1
    emit(end=move)


def simulate(ops, state, rng: random.Random, deadline: float) -> tuple[int, bool]:
    """One random playout to a terminal state, as the player's rollout plays it: (steps,
    whether it ended before ``deadline``, a CPU time)."""
    from ggp.core.protocol import CHANCE, TERMINAL

    steps = 0
    while True:
        if time.process_time() > deadline:
            return steps, False
        player = ops.current_player(state)
        if player == TERMINAL:
            return steps, True
        if player == CHANCE:
            action = ops.sample_chance(state, rng)
        else:
            legal = ops.legal_actions(state)
            action = legal[int(rng.random() * len(legal))]
        state = ops.apply(state, action)
        ops.rewards(state)
        steps += 1


# ---------------------------------------------------------------------------- the run
def measure(path: Path, args) -> dict:
    """Run one game in a child process and summarize what it printed."""
    cmd = [sys.executable, __file__, "--one", str(path), "--clock", str(args.clock),
           "--budget", str(args.budget), "--seed", str(args.seed), "--engine", args.engine]
    before = os.times()
    started = time.perf_counter()
    killed = False
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=args.limit)
        out, err, rc = done.stdout, done.stderr, done.returncode
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        err, rc, killed = "", None, True
    wall = time.perf_counter() - started
    after = os.times()
    row = {"game": path.stem, "wall": wall,
           "cpu": after.children_user - before.children_user
           + after.children_system - before.children_system}
    sims = []
    for line in out.splitlines():
        try:
            item = json.loads(line)
        except ValueError:
            continue
        if "sim" in item:
            sims.append(item)
        else:
            row.update(item)
    row["sims"] = [s["sim"] for s in sims]
    row["depth"] = sims[0]["steps"] if sims else None
    if "invalid" in row:
        row["status"] = "invalid"
    elif "error" in row:
        row["status"] = "fail"
        row["why"] = row["error"]
    elif "load" not in row:
        row["status"] = "fail"
        if killed:
            row["why"] = f"did not load in {args.limit:.0f} s wall"
        else:
            tail = (err.strip().splitlines() or [f"exit {rc}"])[-1]
            row["why"] = f"crashed while loading: {tail[:100]}"
    elif row["load"] > args.start_clock:
        row["status"], row["why"] = "fail", f"load {row['load']:.1f} s > start clock"
    elif sims and not sims[-1]["done"]:
        row["status"] = "fail"
        row["why"] = f"a simulation ran past {args.clock:g} s (move {sims[-1]['move']})"
    elif not sims and not killed and "end" not in row:
        tail = (err.strip().splitlines() or [f"exit {rc}"])[-1]
        row["status"], row["why"] = "fail", f"crashed: {tail[:100]}"
    elif not sims and killed:
        row["status"], row["why"] = "fail", f"no simulation finished in {args.limit:.0f} s wall"
    else:
        row["status"] = "pass"
        if rc not in (0, None):
            tail = (err.strip().splitlines() or [f"exit {rc}"])[-1]
            row["status"], row["why"] = "fail", f"crashed: {tail[:100]}"
        elif killed:
            row["why"] = f"wall limit: {len(sims)} moves timed"
    return row


def fmt_row(row: dict) -> str:
    sims = sorted(row["sims"])
    worst = f"{sims[-1]:.3f}" if sims else "-"
    median = f"{sims[len(sims) // 2]:.3f}" if sims else "-"
    load = f"{row['load']:.2f}" if "load" in row else "-"
    note = row.get("why") or row.get("invalid") or ""
    moves = f"{len(sims)}" + ("" if "end" in row else "+")
    return (f"| {row['game']} | {row['status']} | {row.get('engine', '-')} | "
            f"{row.get('rules', '-')} | {load} | {worst} | {median} | {moves} | "
            f"{row.get('depth') if row.get('depth') is not None else '-'} | "
            f"{row['cpu']:.0f} | {note.replace('|', '/')} |")


def game_files(items: list[str]) -> list[Path]:
    files: list[Path] = []
    for item in items:
        p = Path(item)
        if p.is_dir():
            files += sorted(list(p.glob("*.kif")) + list(p.glob("*.gdl")),
                            key=lambda f: f.name.lower())
        else:
            files.append(p)
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game files or folders of them")
    parser.add_argument("--clock", type=float, default=10.0, help="play clock, s")
    parser.add_argument("--start-clock", type=float, default=60.0, help="start clock, s")
    parser.add_argument("--limit", type=float, default=60.0,
                        help="wall seconds per game (its process is killed after)")
    parser.add_argument("--budget", type=float, default=20.0,
                        help="CPU seconds of simulations per game; later moves are not timed")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--engine", default="auto", help="auto, grounded or compiled")
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        run_one(args.one, args.clock, args.budget, args.seed, args.engine)
        return
    files = game_files(args.games)
    if not files:
        parser.error("no game files given")
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load "
          f"{os.getloadavg()[0]:.1f}; {len(files)} games, play clock {args.clock:g} s, start "
          f"clock {args.start_clock:g} s, wall limit {args.limit:g} s, simulation budget "
          f"{args.budget:g} s per game, seed {args.seed}, engine {args.engine}", flush=True)
    rows = []
    for n, path in enumerate(files, 1):
        row = measure(path, args)
        rows.append(row)
        sims = row["sims"]
        print(f"[{n}/{len(files)}] {row['game']}: {row['status']}, "
              f"load {row.get('load', float('nan')):.2f}s, max sim "
              f"{max(sims) if sims else float('nan'):.3f}s over {len(sims)} moves "
              f"({row['wall']:.0f}s wall) {row.get('why') or row.get('invalid') or ''}",
              flush=True)
    order = {"fail": 0, "pass": 1, "invalid": 2}
    # failures first, then by the share of a clock used (the worse of load and simulation)
    rows.sort(key=lambda r: (order[r["status"]], -max(
        [s / args.clock for s in r["sims"]] + [r.get("load", 0) / args.start_clock])))
    print("\n| game | status | engine | rules | load s | max sim s | median sim s | moves "
          "timed | playout steps | CPU s | note |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        print(fmt_row(row))
    counts = {s: sum(r["status"] == s for r in rows) for s in order}
    print(f"\n{counts['pass']} pass / {counts['fail']} fail / {counts['invalid']} invalid "
          f"(play clock {args.clock:g} s, start clock {args.start_clock:g} s; load "
          f"{os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
