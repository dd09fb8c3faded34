"""A 200-simulation search match on a compiled GDL model, refereed by the reasoner: the
wall time of issue 33's bar (<= 30 s on the 2-core machine).

For each ``ggp synth game.kif`` run folder, one ``ggp play`` of the run's copy of the
description (ggp's reasoner is the referee, the truth), timed from the command's start to
its exit: seat 0 searches on the run's ``cwm.py`` (untrusted code, in its sandboxed
worker), every other seat plays uniformly at random. A ``ggp synth faster`` folder made
from such a run plays its ``faster.py`` instead (the compiled program, sped up again).

* GDL: ``cwm_mcts:run=RUN:sims=N:rollouts=1``. The program keeps a state layout of its
  own, so the agent follows the real state from its history (belief ``tracking``);
* GDL-II: ``cwm_ismcts:run=RUN:sims=N:rollouts=1:pool=P``, roots drawn with the program's
  own ``resample_history`` (``--pool`` of them per move, each validated by a replay).

Each row also says how many of the searching seat's moves were searched on the program
and how many fell back to a random move (the agent's report, through its ``log=``), so a
fast match cannot hide a search that failed. ``--baseline`` also times the same command
planned on the reasoner (``mcts`` / ``ismcts:sims=N:rollouts=1``), in the same run.

Run:  python bench/compiled_match.py RUN_DIR ... [--sims 200] [--pool 16] [--seed 1]
          [--baseline] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ggp.synth.gdl_source import load_gdl_truth

GGP = [sys.executable, "-c",
       "import sys; from ggp.cli.main import main; sys.argv[0] = 'ggp'; sys.exit(main())"]


def _play(description: Path, specs: list[str], seed: int, folder: Path) -> dict:
    """One ``ggp play`` with the given seats; its wall time, length, returns and the
    searching agent's report (when it wrote one)."""
    record, log = folder / "match.json", folder / "agent.jsonl"
    for stale in (record, log):
        stale.unlink(missing_ok=True)
    first = specs[0] + (f":log={log}" if specs[0].startswith("cwm_") else "")
    args = ["play", str(description), "-p", ",".join([first, *specs[1:]]), "--seed",
            str(seed), "--no-show", "--output", str(record)]
    started = time.perf_counter()
    done = subprocess.run(GGP + args, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode:
        raise SystemExit(f"ggp {' '.join(args)} failed:\n{done.stdout}{done.stderr}")
    match = json.loads(record.read_text(encoding="utf-8"))
    row = {"command": f"ggp play {description} -p {','.join(specs)} --seed {seed}",
           "seconds": seconds,
           "moves": len(match["steps"]), "returns": match["returns"],
           "forfeit": match.get("forfeit")}
    if log.is_file():
        stats = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])["stats"]
        row.update(searched=stats["searched"], fallbacks=stats["fallbacks"],
                   simulations=stats["simulations"])
    return row


def _program(folder: Path) -> tuple[dict, Path, Path]:
    """The GDL run's metadata, its folder and the program to plan on: the run's
    ``cwm.py``, or the ``faster.py`` of a ``ggp synth faster`` folder made from one."""
    meta = json.loads((folder / "metadata.json").read_text(encoding="utf-8"))
    if meta.get("kind") == "faster":
        run = Path(meta["source"]["path"])
        if not (folder / "faster.py").is_file() or not (run / "metadata.json").is_file():
            raise SystemExit(f"{folder}: a speed refinement needs its faster.py and the GDL "
                             f"run it came from ({run})")
        return json.loads((run / "metadata.json").read_text(encoding="utf-8")), run, \
            folder / "faster.py"
    return meta, folder, folder


def bench_run(folder: Path, args: argparse.Namespace, scratch: Path) -> dict:
    meta, run, program = _program(folder)
    if "gdl" not in meta:
        raise SystemExit(f"{folder} is not a ggp synth game.kif run (nor made from one)")
    description = run / meta["gdl"]["file"]
    players = load_gdl_truth(description).num_players
    gdl_ii = bool(meta["gdl"].get("gdl_ii"))
    if gdl_ii:
        spec = f"cwm_ismcts:run={program}:sims={args.sims}:rollouts=1:pool={args.pool}"
    else:
        spec = f"cwm_mcts:run={program}:sims={args.sims}:rollouts=1"
    others = ["random"] * (players - 1)
    row = {"game": meta["game"], "run": str(folder), "program": str(program),
           "gdl_ii": gdl_ii, "sims": args.sims,
           "compiled": _play(description, [spec, *others], args.seed, scratch)}
    if args.baseline:
        search = "ismcts" if gdl_ii else "mcts"
        row["reasoner"] = _play(description, [f"{search}:sims={args.sims}:rollouts=1",
                                              *others], args.seed, scratch)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="ggp synth game.kif run folders (or ggp "
                        "synth faster folders made from one)")
    parser.add_argument("--sims", type=int, default=200)
    parser.add_argument("--pool", type=int, default=16,
                        help="GDL-II: inference samples per move (cwm_ismcts pool=)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", action="store_true",
                        help="also play the match planned on the reasoner")
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    print(f"one `ggp play` per game: seat 0 searches with {args.sims} simulations "
          "(1 rollout), the others random, refereed by the reasoner; wall seconds")
    print(f"{'game':16} {'kind':6} {'compiled s':>10} {'moves':>6} {'searched':>9} "
          f"{'fallbacks':>9} {'returns':>12} {'reasoner s':>10}")
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for run in args.runs:
            row = bench_run(Path(run), args, Path(scratch))
            rows.append(row)
            c, base = row["compiled"], row.get("reasoner")
            print(f"{row['game']:16} {'GDL-II' if row['gdl_ii'] else 'GDL':6} "
                  f"{c['seconds']:10.1f} {c['moves']:6d} {c.get('searched', '-'):>9} "
                  f"{c.get('fallbacks', '-'):>9} "
                  f"{'/'.join(f'{r:g}' for r in c['returns']):>12} "
                  f"{base['seconds'] if base else float('nan'):10.1f}", flush=True)
            if c["forfeit"]:
                print(f"  forfeit: {c['forfeit']}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
