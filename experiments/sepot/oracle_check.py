"""Oracle check of the search alone: a CFR+ near-equilibrium blueprint with exact values.

Every decision public state is resolved (leaf values from the exact values of the
blueprint) and the combined policy's exploitability is compared with the blueprint's, for
each source of the gadget's opponent CFVs:

* critic / network ranges: every search alone, CFVs from the (here exact) values;
* previous / played ranges: continual resolving (CFVs from the player's previous search).

Usage (prints one JSON line per depth and source; CSV with --out):
    python experiments/sepot/oracle_check.py [kuhn|leduc|goofspiel4] [iterations] \
        [blueprint CFR+ iterations] [out.csv]
"""

import json
import sys

from ggp.sepot.exact import ExactValues, cfr_plus_policy, exploitability
from ggp.sepot.games import load_sepot_game
from ggp.sepot.plots import write_rows
from ggp.sepot.search import SePoTPolicy, search_tabular_policy

SOURCES = (("critic", "network"), ("previous", "played"))


def main(name: str = "kuhn", iterations: int = 500, blueprint_iterations: int = 300,
         out: str = "") -> None:
    spec = load_sepot_game(name)
    table = cfr_plus_policy(spec, blueprint_iterations)
    blueprint = exploitability(spec, table)
    exact = ExactValues(spec, table)
    rows = []
    for depth in (0, 1, 2):
        for cfv_source, ranges in SOURCES:
            search = SePoTPolicy(spec, exact, depth_limit=depth, iterations=iterations,
                                 cfv_source=cfv_source, ranges=ranges)
            combined, counts = search_tabular_policy(spec, table.__copy__(), search)
            row = {"game": name, "blueprint": blueprint, "depth": depth,
                   "cfv_source": cfv_source, "ranges": ranges, "iterations": iterations,
                   "sepot": exploitability(spec, combined), **counts}
            rows.append(row)
            print(json.dumps(row), flush=True)
    if out:
        write_rows(out, rows)


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0] if args else "kuhn", int(args[1]) if len(args) > 1 else 500,
         int(args[2]) if len(args) > 2 else 300, args[3] if len(args) > 3 else "")
