"""Cost of the OpenSpiel bridge, each number against a peer measured in the same run.

1. CFR+ (OpenSpiel's C++ and Python solvers) on our Kuhn/Leduc registered as pyspiel
   games vs on OpenSpiel's native games: seconds per iteration, ratio, and exploitability
   (must be equal at equal iterations).
2. Random playouts: our reference Leduc (WorldModel), OpenSpiel's Leduc wrapped as a world
   model (openspiel_model), and a plain pyspiel loop.

Run: python bench/openspiel_bridge.py [--leduc-iterations 10] [--playouts 2000]
"""

from __future__ import annotations

import argparse
import random
import time

import pyspiel
from open_spiel.python.algorithms import cfr, exploitability

from ggp.load import load_model
from ggp.openspiel.game import register_world_model
from ggp.openspiel.model import openspiel_model


def cfr_plus(game, iterations: int, python: bool) -> tuple[float, float]:
    start = time.perf_counter()
    if python:
        solver = cfr.CFRPlusSolver(game)
    else:
        solver = pyspiel.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    seconds = (time.perf_counter() - start) / iterations
    if python:
        expl = exploitability.exploitability(game, solver.average_policy())
    else:
        expl = pyspiel.exploitability(game, solver.average_policy())
    return seconds, expl


def bench_cfr(name: str, iterations: int) -> None:
    start = time.perf_counter()
    ours = register_world_model(load_model(name), f"ggp_bench_{name}")
    setup = time.perf_counter() - start
    native = pyspiel.load_game(name)
    print(f"\n{name}: registering the world model (tree exploration) took {setup:.2f} s")
    for python in (False, True):
        # The first pass over our game also builds its memoized tree: time it separately.
        first, _ = cfr_plus(ours, 1, python)
        mine, mine_expl = cfr_plus(ours, iterations, python)
        theirs, their_expl = cfr_plus(native, iterations, python)
        kind = "Python" if python else "C++"
        print(f"  {kind:6} CFR+ x{iterations}: ggp {mine * 1e3:8.2f} ms/it "
              f"(first iteration {first * 1e3:.0f} ms), native {theirs * 1e3:8.2f} ms/it, "
              f"ratio {mine / theirs:5.1f}x; exploitability ggp {mine_expl:.6g} "
              f"native {their_expl:.6g}")


def playouts(model, n: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(n):
        state = model.initial_state()
        while not model.is_terminal(state):
            if model.current_player(state) == -1:
                action = model.sample_chance(state, rng)
            else:
                action = rng.choice(model.legal_actions(state))
            state = model.apply(state, action)
    return n / (time.perf_counter() - start)


def pyspiel_playouts(game, n: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return n / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kuhn-iterations", type=int, default=200)
    parser.add_argument("--leduc-iterations", type=int, default=10)
    parser.add_argument("--playouts", type=int, default=2000)
    args = parser.parse_args()
    bench_cfr("kuhn_poker", args.kuhn_iterations)
    bench_cfr("leduc_poker", args.leduc_iterations)

    print(f"\nleduc_poker random playouts ({args.playouts}, one core):")
    native = pyspiel_playouts(pyspiel.load_game("leduc_poker"), args.playouts, 0)
    rows = [("ggp reference leduc_poker", playouts(load_model("leduc_poker"),
                                                   args.playouts, 0)),
            ("openspiel_model('leduc_poker')", playouts(openspiel_model("leduc_poker"),
                                                        args.playouts, 0)),
            ("plain pyspiel loop", native)]
    for label, rate in rows:
        print(f"  {label:32} {rate:9.0f} playouts/s  ({native / rate:5.1f}x slower than "
              "the plain pyspiel loop)")


if __name__ == "__main__":
    main()
