"""Planner overhead: the share of a move's time spent outside the model's own functions.

Every protocol function of a reference game is wrapped in a timer, then one search runs
(1000 simulations, random rollouts): MCTS on connect_four and tic_tac_toe, ISMCTS on
leduc_poker and kuhn_poker (ground-truth resampler). The time inside the model's functions
(``model``) is subtracted from the search's wall time; the rest is the planner's.
The timer's own cost lands on the planner's side, so ``raw`` overstates the overhead;
``net`` subtracts the timer's cost measured on an empty function (calls x cost).

Run:  python bench/search_overhead.py [--rollouts 10]
"""

from __future__ import annotations

import argparse
import random
import time
import types

from ggp.belief.sampler import make_sampler
from ggp.core.model import WorldModel
from ggp.core.protocol import OPTIONAL_FUNCTIONS, REQUIRED_FUNCTIONS
from ggp.core.registry import make_game
from ggp.search.evaluators import RandomRolloutEvaluator
from ggp.search.ismcts import ISMCTS
from ggp.search.mcts import MCTS

clock = time.perf_counter


class Meter:
    """Accumulated seconds and calls inside wrapped functions."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.calls = 0

    def wrap(self, fn):
        def timed(*args, **kwargs):
            start = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds += clock() - start
                self.calls += 1
        return timed


def timed_model(model: WorldModel, meter: Meter) -> WorldModel:
    ns = model.namespace
    attrs = {k: getattr(ns, k) for k in dir(ns) if not k.startswith("__")}
    for name in REQUIRED_FUNCTIONS + OPTIONAL_FUNCTIONS:
        if callable(attrs.get(name)):
            attrs[name] = meter.wrap(attrs[name])
    return WorldModel(types.SimpleNamespace(**attrs), name=model.name, trusted=True,
                      metadata=model.metadata)


def timer_cost() -> float:
    """Seconds the wrapper adds per call (measured on a function doing nothing)."""
    meter = Meter()
    f = meter.wrap(lambda: None)
    n = 200_000
    start = clock()
    for _ in range(n):
        f()
    return (clock() - start) / n


def search_once(game: str, rollouts: int, meter: Meter) -> float:
    model = timed_model(make_game(game), meter)
    rng = random.Random(0)
    state = model.initial_state()
    evaluator = RandomRolloutEvaluator(model, rollouts)
    if model.metadata.perfect_information:
        start = clock()
        MCTS(model, evaluator, rng=rng).search(state)
        return clock() - start
    while model.current_player(state) < 0:  # deal the cards
        state = model.apply(state, model.sample_chance(state, rng))
    player = model.current_player(state)
    history = [(model.observation(state, player), None)]
    search = ISMCTS(model, make_sampler(model, "model"), evaluator, rng=rng)
    meter.seconds, meter.calls = 0.0, 0
    start = clock()
    search.search(history, player)
    return clock() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rollouts", type=int, default=10)
    parser.add_argument("--games", default="connect_four,tic_tac_toe,leduc_poker,kuhn_poker")
    args = parser.parse_args()
    cost = timer_cost()
    print(f"1000 simulations, {args.rollouts} rollouts; timer cost {cost * 1e6:.2f} us/call")
    print(f"{'game':14} {'search s':>9} {'model s':>8} {'calls':>8} {'raw':>7} {'net':>7}")
    for game in args.games.split(","):
        meter = Meter()
        total = search_once(game, args.rollouts, meter)
        raw = 1 - meter.seconds / total
        net = (total - meter.seconds - meter.calls * cost) / (total - meter.calls * cost)
        print(f"{game:14} {total:9.3f} {meter.seconds:8.3f} {meter.calls:8d} {raw:7.1%} "
              f"{net:7.1%}", flush=True)


if __name__ == "__main__":
    main()
