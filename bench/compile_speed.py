"""Original versus compiled (faster) world models: playouts per second of both, measured in
one run, and their differential agreement.

For each pair (original, compiled), both programs are loaded in sandbox boxes
(:mod:`ggp.synth.differential`):

* ``orig/s`` and ``comp/s``: seeded random playouts per second of each program, timed in
  this process in alternating rounds (the same seeds for both; both must give the same
  playouts, else the row says so);
* ``ratio``: ``comp/s / orig/s``;
* ``agree``: trajectories on which every state agrees (player, legal set, rewards,
  observations, chance probabilities) out of those replayed: ``--trajectories`` seeded
  random games plus ``--search-games`` games of MCTS players (recorded in a sandbox).

Pairs: by default the reference games sped up in issue 33 (their earlier code is kept in
``tests/synth/fixtures/*_slow.py``, the compiled one is the module in ``src/ggp/games``);
any ``ggp synth --faster`` folder given on the command line adds its ``original.py`` and
``faster.py``, and any ``ggp synth game.kif`` folder its GDL description (the original is
ggp's reasoner, run in this process: walked, replayed and timed here, its search games
played here) and its ``cwm.py``.

Run:  python bench/compile_speed.py [RUN_DIR ...] [--trajectories 1000] [--search-games 20]
          [--playouts 200] [--rounds 3] [--no-defaults] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from ggp.synth.differential import (
    compare_models,
    measure_speed,
    open_box,
    search_trajectories,
)
from ggp.synth.gdl_source import is_gdl_spec, load_gdl_truth
from ggp.synth.run import GDL_SOURCE

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "synth" / "fixtures"
GAMES = ROOT / "src" / "ggp" / "games"
DEFAULT_PAIRS = [
    ("tic_tac_toe (reference)", FIXTURES / "tic_tac_toe_slow.py", GAMES / "tic_tac_toe.py"),
    ("connect_four (reference)", FIXTURES / "connect_four_slow.py", GAMES / "connect_four.py"),
]


def _reasoner_search_games(reasoner, args: argparse.Namespace) -> list[list]:
    """Games of MCTS players on the reasoner (trusted: played in this process)."""
    from ggp.synth.trajectories import collect

    players = [f"mcts:sims={args.search_sims}:rollouts=1"] * reasoner.num_players
    games = collect(reasoner, games=args.search_games, seed=args.seed, players=players)
    return [[s.action for s in t.steps if s.action is not None] for t in games.trajectories]


def _progress(name: str):
    """A progress line on stderr every 100 replayed trajectories (a GDL game's 1,000 take
    minutes on the reasoner)."""
    def report(done: int, total: int) -> None:
        if done % 100 == 0 or done == total:
            print(f"  {name}: {done}/{total} trajectories compared", file=sys.stderr,
                  flush=True)
    return report


def bench_pair(name: str, original: Path, compiled: Path, args: argparse.Namespace) -> dict:
    gdl = is_gdl_spec(str(original))
    code_b = compiled.read_text(encoding="utf-8")
    extra = []
    if gdl:  # the reasoner is the original
        box_a = load_gdl_truth(original)
        if args.search_games:
            extra = [("search", g) for g in _reasoner_search_games(box_a, args)]
    else:
        code_a = original.read_text(encoding="utf-8")
        if args.search_games:
            games = search_trajectories(code_a, games=args.search_games, seed=args.seed,
                                        players=[f"mcts:sims={args.search_sims}:rollouts=1"])
            extra = [("search", g) for g in games]
        box_a = open_box(code_a, what="original")
    box_b = open_box(code_b, what="compiled")
    try:
        started = time.perf_counter()
        diff = compare_models(box_a, box_b, random_count=args.trajectories, seed=args.seed,
                              extra=extra, on_trajectory=_progress(name))
        diff_s = time.perf_counter() - started
        speed = measure_speed(box_a, box_b, playouts=args.playouts, rounds=args.rounds,
                              seed=args.seed)
    finally:
        if not gdl:
            box_a.close()
        box_b.close()
    return {"model": name, "original": str(original), "compiled": str(compiled),
            "original_playouts_per_s": speed.original,
            "compiled_playouts_per_s": speed.candidate, "ratio": speed.ratio,
            "same_playouts": speed.same_playouts, "agreed": diff.agreed,
            "trajectories": diff.trajectories, "by_source": diff.by_source,
            "differential_seconds": diff_s,
            "first_divergence": diff.first_divergence.describe()
            if diff.first_divergence else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="*", help="ggp synth --faster folders")
    parser.add_argument("--trajectories", type=int, default=1000)
    parser.add_argument("--search-games", type=int, default=20)
    parser.add_argument("--search-sims", type=int, default=20)
    parser.add_argument("--playouts", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-defaults", action="store_true",
                        help="only the folders given, not the reference pairs")
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    pairs = [] if args.no_defaults else list(DEFAULT_PAIRS)
    for run in args.runs:
        folder = Path(run)
        try:
            meta = json.loads((folder / "metadata.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise SystemExit(f"{folder} is not a ggp synth run folder (no metadata.json)")
        label = f"{meta.get('game', folder.name)} ({folder.name})"
        if meta.get("source") == GDL_SOURCE:  # compiled from a GDL description
            if not (folder / "cwm.py").is_file():
                raise SystemExit(f"{folder} holds no cwm.py (nothing was synthesized)")
            pairs.append((label, folder / meta["gdl"]["file"], folder / "cwm.py"))
            continue
        if not (folder / "faster.py").is_file():
            raise SystemExit(f"{folder} holds no faster.py (no candidate was kept)")
        pairs.append((label, folder / "original.py", folder / "faster.py"))
    print(f"{args.trajectories} random + {args.search_games} MCTS games replayed per model; "
          f"{args.playouts} playouts x {args.rounds} rounds timed (median)")
    print(f"{'model':32} {'orig/s':>9} {'comp/s':>9} {'ratio':>7} {'agree':>12}  note")
    rows = []
    for name, original, compiled in pairs:
        row = bench_pair(name, original, compiled, args)
        rows.append(row)
        note = "" if row["same_playouts"] else "playouts differ! "
        note += row["first_divergence"] or ""
        print(f"{name:32} {row['original_playouts_per_s']:9.0f} "
              f"{row['compiled_playouts_per_s']:9.0f} {row['ratio']:6.2f}x "
              f"{row['agreed']:>5}/{row['trajectories']:<6}  {note[:120]}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
