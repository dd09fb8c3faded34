"""Seed 001's Table 2 beside ours, from the report.json of each game's tournament.

usage: python experiments/cards/seed001_summary.py RESULTS_ROOT [--json OUT.json]

RESULTS_ROOT holds one tournament directory per game, as written by
experiments/cards/seed001_table.sh (run ``ggp report DIR`` first if a run was cut off).
For each game and honest searcher H it prints the seed 001 value (mean ± 95% CI over
matches) of H, of the clairvoyant player and of Random in the field (H, clairvoyant,
random[, random]), next to the seed's honest / clairvoyant / random values.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

# Seed 001, Table 2 ("MCTS Competition"): honest, clairvoyant, random; 96 games, 1 s/move
SEED = {
    "agram": (0.49, 0.69, 0.41),
    "golf": (0.74, 0.72, 0.04),
    "ninety_eight": (0.59, 0.66, 0.41),
    "hearts": (0.71, 0.78, 0.29),
    "bottle_imp": (0.72, 0.80, 0.25),
}
HONEST = ("ismcts", "moismcts", "pimc")


BUDGET = ("sims", "time", "rollouts")


def _name(spec: str) -> str:
    """An agent spec without its budget settings: ``ismcts:pool=20``, ``random``."""
    name, *settings = spec.split(":")
    return ":".join([name] + [s for s in settings if s.split("=")[0] not in BUDGET])


def rows(root: Path) -> list[dict]:
    found = []
    for report in sorted(root.glob("*/report.json")):
        data = json.loads(report.read_text())
        for game_spec in data["config"]["games"]:
            game = game_spec.split("(", 1)[0]
            for field in data["config"].get("fields", []):
                by_agent = {_name(r["agent"]): r for r in data["fields"]
                            if r["game"] == game_spec and r["field"] == field}
                honest = _name(field[0])
                if honest.split(":")[0] not in HONEST or not by_agent:
                    continue
                found.append({
                    "game": game, "spec": game_spec, "honest": honest,
                    "n": by_agent[honest]["n"],
                    **{role: (by_agent[role]["value"], by_agent[role]["value_ci95"],
                              by_agent[role]["ms_per_move"])
                       for role in (honest, "clairvoyant", "random")},
                })
    return found


def _cell(value: tuple) -> str:
    mean, half, _ = value
    return f"{mean:.2f} ± {half:.2f}" if half is not None else f"{mean:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    table = rows(args.root)
    if not table:
        raise SystemExit(f"error: no seed 001 field results under {args.root}")
    print("| game | honest searcher | n | honest | clairvoyant | random "
          "| seed 001: honest / clairvoyant / random |")
    print("|---|---|---:|---:|---:|---:|---|")
    for row in sorted(table, key=lambda r: (list(SEED).index(r["game"]),
                                            HONEST.index(r["honest"].split(":")[0]),
                                            r["honest"])):
        seed = " / ".join(f"{v:.2f}" for v in SEED[row["game"]])
        print(f"| {row['game']} | {row['honest']} | {row['n']} | {_cell(row[row['honest']])} "
              f"| {_cell(row['clairvoyant'])} | {_cell(row['random'])} | {seed} |")
    if args.json:
        args.json.write_text(json.dumps({"seed001": SEED, "rows": table}, indent=1))


if __name__ == "__main__":
    main()
