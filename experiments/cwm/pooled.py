"""Pooled (both seats) results of each focal agent in an arena directory: win / draw /
loss rates with 95 % Wilson intervals and the mean return with a 95 % normal interval,
plus the difference of mean returns between every two focal agents (Welch interval).

    python experiments/cwm/pooled.py runs/cwm-leduc/arena
"""

from __future__ import annotations

import itertools
import json
import math
import statistics
import sys
from collections import defaultdict
from pathlib import Path


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def pooled(arena: Path) -> dict[tuple[str, str], list[float]]:
    """(focal agent, opponent) -> the focal agent's return in every match."""
    groups: dict[tuple[str, str], list[float]] = defaultdict(list)
    for line in (arena / "results.jsonl").read_text().splitlines():
        r = json.loads(line)
        groups[(r["focal"], r["opponent"])].append(r["returns"][r["focal_seat"]])
    return groups


def main() -> None:
    groups = pooled(Path(sys.argv[1]))
    print("| agent | opponent | n | win rate [95% CI] | draw rate | loss rate | "
          "mean return ± 95% CI |")
    print("|---|---|---:|---|---:|---:|---:|")
    for (agent, opponent), returns in sorted(groups.items()):
        n = len(returns)
        wins = sum(r > 0 for r in returns)
        draws = sum(r == 0 for r in returns)
        lo, hi = wilson(wins, n)
        mean = statistics.fmean(returns)
        ci = 1.96 * statistics.stdev(returns) / math.sqrt(n)
        print(f"| {agent} | {opponent} | {n} | {wins / n:.3f} [{lo:.3f}, {hi:.3f}] | "
              f"{draws / n:.3f} | {(n - wins - draws) / n:.3f} | {mean:+.3f} ± {ci:.3f} |")
    print()
    for (a, ra), (b, rb) in itertools.combinations(sorted(groups.items()), 2):
        if a[1] != b[1]:
            continue
        diff = statistics.fmean(ra) - statistics.fmean(rb)
        se = math.sqrt(statistics.variance(ra) / len(ra) + statistics.variance(rb) / len(rb))
        print(f"{a[0]} minus {b[0]} (both against {a[1]}): {diff:+.3f} ± {1.96 * se:.3f}")


if __name__ == "__main__":
    main()
