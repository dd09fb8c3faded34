"""Worst case of the fallback (issue 31): every search move made without a belief.

``GenericSampler.belief`` is made to raise :class:`BeliefError`, so an ISMCTS agent on
``belief=generic`` moves by :func:`ggp.belief.fallback.fallback_action` every time, with
no consistent particle pool to start from and no legal actions offered. One ISMCTS seat
(rotating), random players in the others; the referee checks every move against the true
state, so an illegal fallback is a forfeit. Prints fallbacks, moves and forfeits per
game.

Run:  python bench/belief_fallback_stress.py [GAME|FILE|DIR ...] [--matches 2]
      (default: the 16 hidden-information reference games and benchmarks/belief_unseen)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from belief_generic import expand, hidden_games, load  # noqa: E402

from ggp.agents import make_agent  # noqa: E402
from ggp.arena.match import play_match  # noqa: E402
from ggp.belief.sampler import GenericSampler  # noqa: E402
from ggp.core.errors import BeliefError  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="games, .py files or folders of them")
    parser.add_argument("--matches", type=int, default=2, help="matches per game")
    args = parser.parse_args()
    games = expand(args.paths) if args.paths else \
        hidden_games() + expand(["benchmarks/belief_unseen/dev", "benchmarks/belief_unseen/heldout",
                                 "benchmarks/belief_unseen/round2"])

    def fail(self, history, player, rng):
        raise BeliefError("forced by bench/belief_fallback_stress.py")

    GenericSampler.belief = fail
    print("| game | matches | forfeits | fallbacks / moves | s |")
    print("|---|---:|---:|---:|---:|")
    total = [0, 0, 0, 0]
    for name in games:
        model = load(name)
        row = [0, 0, 0, 0]
        started = time.perf_counter()
        for seed in range(args.matches):
            seat = seed % model.num_players
            agents = [make_agent("random", model) for _ in range(model.num_players)]
            agents[seat] = make_agent("ismcts:sims=5:rollouts=1:belief=generic", model)
            result = play_match(model, agents, seed=seed, record_states=False)
            row[0] += 1
            row[1] += result.forfeit is not None
            row[2] += agents[seat].belief_fallbacks
            row[3] += len(result.move_seconds[seat])
        label = Path(name).stem if name.endswith(".py") else name
        print(f"| {label} | {row[0]} | {row[1]} | {row[2]} / {row[3]} | "
              f"{time.perf_counter() - started:.0f} |", flush=True)
        total = [a + b for a, b in zip(total, row)]
    print(f"| **all** | {total[0]} | {total[1]} | {total[2]} / {total[3]} | |")


if __name__ == "__main__":
    main()
