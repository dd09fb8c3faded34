"""Time to the first prompt of ``ggp synth`` with default settings (goal: under 30 s).

Usage: python bench/synth_first_prompt.py [--game backgammon --game gin_rummy:--inference]
       [--baseline]

For each game, ``ggp synth GAME`` runs with the file-exchange backend (nobody answers)
and default settings (5 training games, 100 held-out games with random and (IS)MCTS
players), an empty exchange folder and an empty held-out cache; the figure is the wall
time from starting the command until ``prompt_000001.md`` exists. The command is then
stopped. ``--baseline`` also times what the first prompt used to wait for: the training
games plus the 100 held-out games collected on one core before the search started (the
same games, ``ggp.synth.heldout.heldout_set`` with one worker and no cache), and prints the
ratio. Other jobs on the machine only make every figure slower.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def first_prompt_seconds(game: str, options: list[str], limit: float) -> float | None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        env = {**os.environ, "GGP_CACHE_DIR": str(tmp_path / "cache")}
        env = {k: v for k, v in env.items() if not k.startswith("GGP_LLM_")}
        command = [sys.executable, "-m", "ggp.cli.main", "synth", game, *options,
                   "--backend", "exchange", "--exchange-dir", str(tmp_path / "exchange"),
                   "--out", str(tmp_path / "run")]
        started = time.monotonic()
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, start_new_session=True)
        prompt = tmp_path / "exchange" / "prompt_000001.md"
        try:
            while time.monotonic() - started < limit:
                if prompt.exists():
                    return time.monotonic() - started
                if process.poll() is not None:
                    raise SystemExit(f"ggp synth {game} ended early: "
                                     f"{process.stderr.read().decode()[-2000:]}")
                time.sleep(0.1)
            return None
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait()


def baseline_seconds(game: str, closed: bool) -> float:
    """Training games, then 100 held-out games on one core, uncached: the old wait."""
    from ggp.core.registry import make_game
    from ggp.synth.heldout import heldout_set
    from ggp.synth.run import reference_task

    started = time.monotonic()
    reference_task(game, deck="closed" if closed else "open")
    heldout_set(make_game(game), games=100, seed=1, workers=1)
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append",
                        help="GAME or GAME:OPTION:OPTION (default: backgammon and "
                        "gin_rummy:--inference)")
    parser.add_argument("--limit", type=float, default=600.0,
                        help="Give up after this many seconds.")
    parser.add_argument("--baseline", action="store_true",
                        help="Also time the old wait (minutes for these games).")
    args = parser.parse_args()
    os.environ["GGP_CACHE_DIR"] = tempfile.mkdtemp(prefix="ggp-bench-cache-")
    for item in args.game or ["backgammon", "gin_rummy:--inference"]:
        game, *options = item.split(":")
        seconds = first_prompt_seconds(game, options, args.limit)
        shown = f"{seconds:.1f} s" if seconds is not None else f"> {args.limit:.0f} s"
        line = f"{game} {' '.join(options)}: first prompt after {shown}"
        if args.baseline:
            old = baseline_seconds(game, "--deck" in options and "closed" in options)
            line += f"; the old wait (training + held-out games on one core): {old:.1f} s"
            if seconds:
                line += f" ({old / seconds:.1f}x)"
        print(line, flush=True)


if __name__ == "__main__":
    main()
