"""Print the result CSVs of experiments/sepot/measured as markdown tables (and re-plot)."""

import csv
import glob
import os
import re
import sys

from ggp.sepot.plots import plot_exploitability, plot_variants

UNIFORM = {"leduc": 2.3736, "goofspiel4": 0.7083, "goofspiel5": 0.775}


def _cell(value: str) -> str:
    try:
        return f"{float(value):.4g}"
    except (TypeError, ValueError):
        return value or ""


def main(folder: str = "experiments/sepot/measured") -> None:
    for path in sorted(glob.glob(os.path.join(folder, "*.csv"))):
        with open(path, newline="") as fh:
            rows = list(csv.DictReader(fh))
        if not rows:
            continue
        if "step" in rows[0]:
            columns = ["step", "network", "critic_mae_identity", "critic_mae_all",
                       "critic_cfv_mae"]
            columns = [c for c in columns if c in rows[0]]
            columns += [k for k in rows[0] if k.startswith(("sepot_", "skipped_", "cfv_fallback_"))]
        else:
            columns = list(rows[0])
        print(f"\n{os.path.basename(path)}\n")
        print("| " + " | ".join(columns) + " |")
        print("|" + "---|" * len(columns))
        for row in rows:
            print("| " + " | ".join(_cell(row.get(c, "")) for c in columns) + " |")
        name = os.path.basename(path).split("_")[0]
        if "step" in rows[0] and len(rows) > 1:
            png = path.replace(".csv", ".png")
            if any(re.fullmatch(r"sepot_dl\d+_\w+", k) for k in rows[0]):
                plot_variants(rows, png, name)
            else:
                plot_exploitability(rows, png, name, UNIFORM.get(name))


if __name__ == "__main__":
    main(*sys.argv[1:])
