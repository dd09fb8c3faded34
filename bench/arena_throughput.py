"""Arena throughput: matches per minute on each backend, and the sandbox's cost per move.

Usage: python bench/arena_throughput.py [--game tic_tac_toe] [--matches 300]
       [--sandbox-matches 30] [--agent random] [--repeat 3] [--no-ray]

Each measurement is repeated ``--repeat`` times and the best is kept (other jobs on the
machine only ever make a run slower).

1. One random-vs-random tournament (``--matches`` per seat) run with the local process
   pool at 1 and 2 workers, and with Ray on this machine (2 CPUs); matches per minute and
   the ratio to 1 local worker. Every run plays the same matches: the script checks that
   their outcomes are identical.
2. The same agent in process and in a sandboxed worker (``--sandbox``), serially: mean
   time per move as the match runner sees it (pipe round trip included) and wall time per
   match (worker start-up included), with their ratios.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from ggp.arena.store import read_records
from ggp.arena.tournament import TournamentConfig, run_tournament


def play(config: TournamentConfig, **backend) -> tuple[float, list[dict]]:
    with tempfile.TemporaryDirectory() as out:
        run = run_tournament(config, out, trajectories=False, **backend)
        return run.played / run.seconds * 60.0, read_records(Path(out) / "results.jsonl")


def best_of(repeat: int, measure) -> tuple[float, list[dict]]:
    """The run with the highest rate among ``repeat`` runs of ``measure()``."""
    return max((measure() for _ in range(repeat)), key=lambda run: run[0])


def outcomes(records: list[dict]) -> dict:
    return {r["key"]: (r["returns"], r["forfeit"]) for r in records}


def mean_move_seconds(records: list[dict]) -> float:
    total = sum(m * s for r in records for m, s in zip(r["moves"], r["move_seconds_mean"]))
    return total / sum(sum(r["moves"]) for r in records)


def throughput(args: argparse.Namespace) -> None:
    config = TournamentConfig(games=[args.game], agents=[args.agent],
                              opponents=[args.agent], matches=args.matches)
    runs = {"local, 1 worker": {"workers": 1}, "local, 2 workers": {"workers": 2}}
    if not args.no_ray:
        runs["ray (local, 2 CPUs)"] = {"backend": "ray"}
    print(f"## Throughput: {args.agent} vs {args.agent} on {args.game}, "
          f"{2 * args.matches} matches per run")
    print("| backend | matches/min | ratio to 1 local worker |")
    print("|---|---:|---:|")
    baseline, reference = None, None
    for label, backend in runs.items():
        if backend.get("backend") == "ray":
            ray_started = start_ray()
        rate, records = best_of(args.repeat, lambda: play(config, **backend))
        baseline = baseline or rate
        reference = reference or outcomes(records)
        assert outcomes(records) == reference, f"{label} played different matches"
        print(f"| {label} | {rate:,.0f} | {rate / baseline:.2f} |")
    print("(all backends played identical matches)")
    if not args.no_ray:
        import ray

        ray.shutdown()
        print(f"(Ray start-up, not counted above: {ray_started:.1f} s)")


def start_ray() -> float:
    """Start a local Ray before the run, so its start-up is not counted as play."""
    import time

    import ray

    started = time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    ray.get(ray.remote(lambda: None).remote())  # a worker is up
    return time.perf_counter() - started


def sandbox_overhead(args: argparse.Namespace) -> None:
    results = {}
    for sandbox in (False, True):
        config = TournamentConfig(games=[args.game], agents=[args.agent],
                                  opponents=[args.agent], matches=args.sandbox_matches,
                                  sandbox=sandbox)
        runs = [play(config, workers=0) for _ in range(args.repeat)]
        results[sandbox] = (min(mean_move_seconds(records) for _, records in runs),
                            60.0 / max(rate for rate, _ in runs))
    (move_in, match_in), (move_out, match_out) = results[False], results[True]
    print(f"\n## Sandboxed worker vs in-process agent ({args.agent} on {args.game}, "
          f"{2 * args.sandbox_matches} matches each, serial)")
    print("| | in process | sandboxed | ratio |")
    print("|---|---:|---:|---:|")
    print(f"| time per move (ms) | {move_in * 1e3:.3f} | {move_out * 1e3:.3f} "
          f"| {move_out / move_in:.1f} |")
    print(f"| wall time per match (ms) | {match_in * 1e3:.1f} | {match_out * 1e3:.1f} "
          f"| {match_out / match_in:.1f} |")
    print(f"sandbox overhead per move: {(move_out - move_in) * 1e3:.3f} ms; per match "
          f"(two worker start-ups): {(match_out - match_in) * 1e3:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tic_tac_toe")
    parser.add_argument("--agent", default="random")
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--sandbox-matches", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args()
    throughput(args)
    sandbox_overhead(args)


if __name__ == "__main__":
    main()
