"""Plots of tournament results (matplotlib, Agg backend), in the spirit of seed 000
Figures 2–4: for each game, one panel per agent with stacked W/L/D bars per opponent and
seat (the forfeit part of wins and losses hatched), and for payoff games the distribution
of the agent's returns per opponent and seat as box plots. For fields (several agents at
one table), one bar per agent and field with its seed 001 value and 95% confidence
interval, beside its win rate.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ggp.core.files import make_folder, open_output
from ggp.arena.stats import Cell, FieldRow, field_label, short_spec

PLOTS_HINT = "no plots: matplotlib is not installed (pip install 'ggp[plots]' to get them)"


def plots_available() -> bool:
    """Whether matplotlib can be imported (it is an optional dependency: ``ggp[plots]``)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _save(fig, path: Path) -> None:
    """Save a figure as PNG without following a link planted at ``path``."""
    with open_output(path, "wb", root=path.parent.parent) as fh:
        fig.savefig(fh, dpi=110, format="png")


_COLORS = {"win": "#2e7d32", "draw": "#9e9e9e", "loss": "#c62828"}


def plot_games(plot_dir: Path, games: dict[str, Any], cells: list[Cell]) -> dict[str, Path]:
    """Write ``<game>_wld.png`` (every game) and ``<game>_payoffs.png`` (payoff games)."""
    import matplotlib

    matplotlib.use("Agg")
    make_folder(plot_dir, plot_dir.parent)
    written = {}
    for game, meta in games.items():
        game_cells = [c for c in cells if c.game == game]
        if not game_cells:
            continue
        name = safe_name(meta["name"])
        written[f"{name}_wld"] = _wld_figure(plot_dir / f"{name}_wld.png", meta["name"],
                                             game_cells)
        if meta["outcome"] != "win_loss_draw":
            written[f"{name}_payoffs"] = _payoff_figure(
                plot_dir / f"{name}_payoffs.png", meta["name"], game_cells)
    return written


def wrap_label(text: str, width: int) -> str:
    """``text`` on lines of about ``width`` characters, broken only after a space or a
    separator of agent specs (``:``, ``,``, ``/``), never inside a name: a piece
    longer than ``width`` keeps a line of its own."""
    pieces = re.findall(r"[^:,/ ]*(?:[:,/ ]+|$)", text)
    lines = [""]
    for piece in filter(None, pieces):
        if lines[-1] and len(lines[-1]) + len(piece.rstrip()) > width:
            lines.append("")
        lines[-1] += piece
    return "\n".join(line.rstrip() for line in lines)


def safe_name(text: str) -> str:
    """A file-name-safe version of a game or agent spec."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "x"


def plot_fields(plot_dir: Path, games: dict[str, Any], rows: list[FieldRow]) -> dict[str, Path]:
    """Write ``<game>_fields.png`` for every game with field results: per field, the
    value (left) and win rate (right) of each agent with 95% confidence intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = {}
    for game, meta in games.items():
        game_rows = [r for r in rows if r.game == game]
        if not game_rows:
            continue
        make_folder(plot_dir, plot_dir.parent)
        fields = list(dict.fromkeys(r.field for r in game_rows))
        agents = list(dict.fromkeys(r.agent for r in game_rows))
        colors = {a: f"C{k % 10}" for k, a in enumerate(agents)}
        width = 0.8 / max(len(set(f)) for f in fields)
        fig, axes = plt.subplots(1, 2, figsize=(max(6.0, 2.2 * len(fields)) * 2, 4.2))
        for ax, metric, title in ((axes[0], "value", "seed 001 value"),
                                  (axes[1], "win_rate", "win rate")):
            labelled = set()
            for i, field in enumerate(fields):  # the field's agents side by side
                for k, row in enumerate(r for r in game_rows if r.field == field):
                    mean, half = getattr(row, metric)
                    ax.bar(i - 0.4 + width * (k + 0.5), mean, width, yerr=half or 0.0,
                           capsize=3, color=colors[row.agent],
                           label=None if row.agent in labelled else short_spec(row.agent))
                    labelled.add(row.agent)
            ax.set_xticks(range(len(fields)),
                          [wrap_label(field_label(f), 28) for f in fields],
                          fontsize=7)
            ax.set_ylim(0, 1)
            ax.set_title(title, fontsize=10)
        handles, labels = axes[1].get_legend_handles_labels()
        # beside the last panel, never over the bars
        axes[1].legend(handles, [wrap_label(lb, 24) for lb in labels], fontsize=7,
                       loc="upper left", bbox_to_anchor=(1.02, 1.0))
        fig.suptitle(f"{meta['name']}: fields (bars: mean over matches, whiskers: 95% CI)")
        fig.tight_layout()
        path = plot_dir / f"{safe_name(meta['name'])}_fields.png"
        _save(fig, path)
        plt.close(fig)
        written[f"{safe_name(meta['name'])}_fields"] = path
    return written


def _by_agent(cells: list[Cell]) -> dict[str, list[Cell]]:
    groups: dict[str, list[Cell]] = {}
    for cell in cells:
        groups.setdefault(cell.agent, []).append(cell)
    return groups


def _label(cell: Cell) -> str:
    return wrap_label(f"vs {short_spec(cell.opponent)}", 13) + f"\nP{cell.seat}"


def _wld_figure(path: Path, game: str, cells: list[Cell]) -> Path:
    import matplotlib.pyplot as plt

    groups = _by_agent(cells)
    fig, axes = plt.subplots(1, len(groups), squeeze=False,
                             figsize=(max(4.0, 1.6 * max(len(g) for g in groups.values()))
                                      * len(groups) + 1.5, 4.0))
    for ax, (agent, group) in zip(axes[0], groups.items()):
        x = range(len(group))
        bottom = [0.0] * len(group)
        for kind, count, forfeited in (("win", "wins", "wins_by_forfeit"),
                                       ("draw", "draws", None),
                                       ("loss", "losses", "losses_by_forfeit")):
            heights = [c.rate(getattr(c, count)) for c in group]
            ax.bar(x, heights, bottom=bottom, color=_COLORS[kind], label=kind)
            if forfeited:
                part = [c.rate(getattr(c, forfeited)) for c in group]
                ax.bar(x, part, bottom=bottom, color="none", hatch="//",
                       edgecolor="#00000066", linewidth=0, label=f"{kind} by forfeit")
            bottom = [b + h for b, h in zip(bottom, heights)]
        ax.set_xticks(list(x), [_label(c) for c in group], fontsize=8)
        ax.set_ylim(0, 1)
        ax.set_title(wrap_label(short_spec(agent), 30), fontsize=9)
    axes[0][0].set_ylabel("rate")
    handles, labels = axes[0][0].get_legend_handles_labels()
    axes[0][-1].legend(handles, labels, fontsize=7, loc="upper left",
                       bbox_to_anchor=(1.02, 1.0))  # beside the bars, never over them
    fig.suptitle(f"{game}: win / draw / loss")
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)
    return path


def _payoff_figure(path: Path, game: str, cells: list[Cell]) -> Path:
    import matplotlib.pyplot as plt

    groups = _by_agent(cells)
    fig, axes = plt.subplots(1, len(groups), squeeze=False,
                             figsize=(max(4.0, 1.6 * max(len(g) for g in groups.values()))
                                      * len(groups) + 1.5, 4.0))
    for ax, (agent, group) in zip(axes[0], groups.items()):
        ax.boxplot([c.returns_us for c in group], showmeans=True)
        ax.set_xticks(range(1, len(group) + 1), [_label(c) for c in group], fontsize=8)
        ax.axhline(0.0, color="#9e9e9e", linewidth=0.8)
        ax.set_title(wrap_label(short_spec(agent), 30), fontsize=9)
    axes[0][0].set_ylabel("return")
    fig.suptitle(f"{game}: payoff distribution (triangle: mean)")
    fig.tight_layout()
    _save(fig, path)
    plt.close(fig)
    return path
