"""Game values by CFR+ on ggp poker games registered in OpenSpiel, next to OpenSpiel's own
games solved the same way in the same run (the blinds variant has no OpenSpiel peer).

Run: python bench/openspiel_cfr_values.py [--iterations 200]
"""

from __future__ import annotations

import argparse
import time

import pyspiel
from open_spiel.python import policy
from open_spiel.python.algorithms.expected_game_score import policy_value

from ggp.load import load_model
from ggp.openspiel.game import register_world_model


def solve(game, iterations: int) -> tuple[float, float, float]:
    """(value of player 0, exploitability, seconds) of CFR+'s average policy."""
    start = time.perf_counter()
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    seconds = time.perf_counter() - start
    average = policy.pyspiel_policy_to_python_policy(game, solver.tabular_average_policy())
    value = policy_value(game.new_initial_state(), [average] * game.num_players())[0]
    return value, pyspiel.exploitability(game, solver.average_policy()), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=200)
    args = parser.parse_args()
    n = args.iterations
    print(f"C++ CFR+, {n} iterations: value of player 0, exploitability, seconds")
    for spec, native in [("kuhn_poker", "kuhn_poker"), ("leduc_poker", "leduc_poker"),
                         ("leduc_poker(blinds=true)", None)]:
        game = register_world_model(load_model(spec), "ggp_values_" + spec.split("(")[0]
                                    + ("_blinds" if "blinds" in spec else ""))
        value, expl, secs = solve(game, n)
        line = f"  ggp {spec:26} value {value:+.5f}  expl {expl:.2e}  {secs:6.1f} s"
        if native:
            n_value, n_expl, n_secs = solve(pyspiel.load_game(native), n)
            line += (f"  | OpenSpiel {native}: value {n_value:+.5f} expl {n_expl:.2e} "
                     f"{n_secs:5.2f} s (native {secs / n_secs:.0f}x faster)")
        print(line, flush=True)


if __name__ == "__main__":
    main()
