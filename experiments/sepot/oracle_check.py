"""Oracle check of the search alone: a CFR+ near-equilibrium blueprint with exact values.

Every decision public state is resolved independently (gadget CFVs and leaf values from the
exact values of the blueprint, ranges from the blueprint) and the combined policy's
exploitability is compared with the blueprint's. Usage:
    python experiments/sepot/oracle_check.py [kuhn|leduc] [iterations]
"""

import sys

import pyspiel

from ggp.sepot.exact import ExactValues, exploitability, tabular_policy
from ggp.sepot.games import load_sepot_game
from ggp.sepot.search import SePoTPolicy, search_tabular_policy


def main(name: str = "kuhn", iterations: int = 500) -> None:
    spec = load_sepot_game(name)
    solver = pyspiel.CFRPlusSolver(spec.game)
    for _ in range(1000 if name == "kuhn" else 300):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    table = tabular_policy(spec)
    for row, state in enumerate(table.states):
        for a, p in average.get_state_policy(state.information_state_string()):
            table.action_probability_array[row, a] = p
    print(f"{name}: blueprint exploitability {exploitability(spec, table):.4g}")
    exact = ExactValues(spec, table)
    for depth in (0, 1, 2):
        search = SePoTPolicy(spec, exact, depth_limit=depth, iterations=iterations)
        combined, counts = search_tabular_policy(spec, table.__copy__(), search)
        print(f"  depth {depth}: {counts}, exploitability {exploitability(spec, combined):.4g}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "kuhn",
         int(sys.argv[2]) if len(sys.argv) > 2 else 500)
