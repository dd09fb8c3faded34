"""Plots and tables for the SePoT experiments (matplotlib: the ``plots`` extra)."""

from __future__ import annotations

import csv
import os

from ggp.core.files import open_output


def write_rows(path: str, rows: list[dict]) -> None:
    """Write dict rows as CSV (columns: the union of keys, in first-seen order)."""
    columns: list[str] = []
    for row in rows:
        columns += [k for k in row if k not in columns]
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open_output(path, "w", newline="") as fh:  # never through a planted link
        writer = csv.DictWriter(fh, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)


def plot_exploitability(rows: list[dict], path: str, title: str,
                        uniform: float | None = None) -> None:
    """Exploitability against training steps: the network and every ``sepot_*`` column."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = sorted(rows, key=lambda r: float(r["step"]))
    steps = [float(r["step"]) for r in rows]
    fig, ax = plt.subplots(figsize=(6, 4))
    columns = ["network"] + sorted({k for r in rows for k in r if k.startswith("sepot_")})
    for column in columns:
        points = [(s, float(r[column])) for s, r in zip(steps, rows)
                  if r.get(column) not in (None, "")]
        if points:
            ax.plot(*zip(*points), marker="o", label=column.replace("sepot_", "SePoT "))
    if uniform is not None:
        ax.axhline(uniform, color="grey", linestyle=":", label="uniform")
    ax.set_xlabel("R-NaD steps")
    ax.set_ylabel("exploitability (NashConv / 2)")
    ax.set_yscale("log")
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_variants(rows: list[dict], path: str, title: str) -> None:
    """One panel per depth limit: the network and every search variant against steps
    (columns ``sepot_dl<d>`` and ``sepot_dl<d>_<variant>`` of :func:`evaluate_checkpoint`)."""
    import re

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = sorted(rows, key=lambda r: float(r["step"]))
    steps = [float(r["step"]) for r in rows]
    columns = sorted({k for r in rows for k in r if re.fullmatch(r"sepot_dl\d+(_\w+)?", k)})
    depths = sorted({int(re.match(r"sepot_dl(\d+)", c).group(1)) for c in columns})
    fig, axes = plt.subplots(1, max(len(depths), 1), figsize=(4 * max(len(depths), 1), 3.6),
                             sharey=True, squeeze=False)
    for ax, depth in zip(axes[0], depths):
        ax.plot(steps, [float(r["network"]) for r in rows], color="black", marker="o",
                label="network")
        for column in columns:
            match = re.fullmatch(rf"sepot_dl{depth}(?:_(\w+))?", column)
            if not match:
                continue
            points = [(s, float(r[column])) for s, r in zip(steps, rows)
                      if r.get(column) not in (None, "")]
            if points:
                ax.plot(*zip(*points), marker=".", label=match.group(1) or "critic")
        ax.set_title(f"{title}: depth {depth}")
        ax.set_xlabel("R-NaD steps")
        ax.set_yscale("log")
    axes[0][0].set_ylabel("exploitability (NashConv / 2)")
    axes[0][-1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
