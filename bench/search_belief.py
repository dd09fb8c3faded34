"""Speed of the generic belief sampler against the games' ground-truth inference.

For each game, random matches are stopped at decision points (early, middle and late), and
at each one the acting player's history is resampled:

* ``generic``: :func:`ggp.belief.generic.particle_filter` (needs only the world model),
  states per second counting every state it returns (``--particles`` per call);
* ``model``: the game's own ``resample_history``, each sample validated by replay
  (:func:`ggp.belief.replay.sample_with_model`, no cache), samples per second.

Run:  python bench/search_belief.py [--particles 64]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from ggp.belief.generic import particle_filter
from ggp.belief.replay import random_decision_points, sample_with_model
from ggp.core.errors import BeliefError
from ggp.core.registry import make_game

GAMES = ["leduc_poker", "goofspiel(num_cards=5)", "battleship", "kuhn_poker"]


def decision_points(model, rng: random.Random, count: int):
    """(history, player) at decision points spread over random games."""
    points = []
    while len(points) < count:
        candidates = [(history, p) for p, history in random_decision_points(model, rng)]
        for frac in (0.2, 0.5, 0.8):
            points.append(candidates[int(frac * (len(candidates) - 1))])
    return points[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--particles", type=int, default=64)
    parser.add_argument("--points", type=int, default=9)
    args = parser.parse_args()
    print(f"{'game':26} {'generic/s':>10} {'model/s':>9} {'ratio':>7} {'generic fails':>14}")
    for name in GAMES:
        model = make_game(name)
        rng = random.Random(0)
        points = decision_points(model, rng, args.points)
        generic_rates, model_rates, fails = [], [], 0
        for history, player in points:
            start = time.perf_counter()
            try:
                got = len(particle_filter(model, history, player, rng, particles=args.particles))
                generic_rates.append(got / (time.perf_counter() - start))
            except BeliefError:
                fails += 1
            start = time.perf_counter()
            for _ in range(20):
                sample_with_model(model, history, player)
            model_rates.append(20 / (time.perf_counter() - start))
        g = statistics.median(generic_rates) if generic_rates else float("nan")
        m = statistics.median(model_rates)
        print(f"{name:26} {g:10.0f} {m:9.0f} {g / m:6.2f}x {fails:>8}/{len(points)}",
              flush=True)


if __name__ == "__main__":
    main()
