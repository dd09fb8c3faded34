"""Print the result CSVs of experiments/sepot/measured as markdown tables (and re-plot)."""

import csv
import glob
import os
import sys

from ggp.sepot.plots import plot_exploitability

UNIFORM = {"leduc": 2.3736, "goofspiel4": 0.7083, "goofspiel5": 0.775}


def main(folder: str = "experiments/sepot/measured") -> None:
    for path in sorted(glob.glob(os.path.join(folder, "*.csv"))):
        with open(path, newline="") as fh:
            rows = list(csv.DictReader(fh))
        if not rows:
            continue
        columns = ["step", "network", "critic_mae_identity", "critic_mae_all"]
        columns += [k for k in rows[0] if k.startswith(("sepot_", "skipped_"))]
        print(f"\n{os.path.basename(path)}\n")
        print("| " + " | ".join(columns) + " |")
        print("|" + "---|" * len(columns))
        for row in rows:
            cells = [row.get(c, "") for c in columns]
            print("| " + " | ".join(f"{float(x):.4g}" if x not in ("", None) else "" for x in cells)
                  + " |")
        name = os.path.basename(path).split("_")[0]
        if len(rows) > 1:
            plot_exploitability(rows, path.replace(".csv", ".png"), name, UNIFORM.get(name))


if __name__ == "__main__":
    main(*sys.argv[1:])
