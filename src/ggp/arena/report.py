"""Reports of a tournament directory: Markdown, JSON, CSV and plots.

:func:`write_report` reads ``tournament.json`` and ``results.jsonl`` (see
:mod:`ggp.arena.store`) and writes, next to them:

* ``report.md`` — per game, a W/L/D table with forfeit counts (win/loss/draw games, like
  seed 000 Tables 7, 9, 11, 13) or a payoff table with 95% confidence intervals and
  forfeit rates (payoff games, like Tables 8, 10, 12 and 14–16), then forfeits by reason;
* ``report.json`` — every cell of :mod:`ggp.arena.stats` with all its numbers;
* ``report.csv`` — the same, one row per (game, agent, opponent, seat);
* ``plots/`` — W/L/D bars per opponent and seat and payoff distributions per game
  (like Figures 2–4), when matplotlib is installed.

It can run while a tournament is still going (it reports the matches finished so far).
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

from ggp.arena.stats import Cell, forfeit_reasons, short_spec, tabulate
from ggp.arena.store import load_tournament


def write_report(out_dir: str | Path, *, plots: bool = True) -> dict[str, Path]:
    """Write the reports of the tournament in ``out_dir``; returns the written paths."""
    out_dir = Path(out_dir)
    stored, records = load_tournament(out_dir)
    config, games = stored["config"], stored["games"]
    cells, errors = tabulate(records)
    focal = set(config["agents"])
    shown = [c for c in cells if c.agent in focal]
    paths = {
        "markdown": out_dir / "report.md",
        "json": out_dir / "report.json",
        "csv": out_dir / "report.csv",
    }
    paths["markdown"].write_text(
        markdown(config, games, shown, records, errors), encoding="utf-8")
    paths["json"].write_text(json.dumps({
        "config": config, "games": games, "matches": len(records), "errors": errors,
        "cells": [c.summary() for c in cells],
        "forfeits": {a: dict(c) for a, c in forfeit_reasons(records).items()},
    }, indent=1), encoding="utf-8")
    _write_csv(paths["csv"], cells)
    if plots:
        from ggp.arena.plots import plot_games

        paths.update(plot_games(out_dir / "plots", games, shown))
    return paths


def _seat(seat: int) -> str:
    return f"P{seat}"


def _ci(value: float, half_width: float | None) -> str:
    return f"{value:+.3f}" + (f" ± {half_width:.3f}" if half_width is not None else "")


def markdown(config: dict[str, Any], games: dict[str, Any], cells: list[Cell],
             records: list[dict[str, Any]], errors: int) -> str:
    """The Markdown report (see the module docstring)."""
    lines = [
        "# Tournament report", "",
        f"- games: {', '.join(config['games'])}",
        f"- agents: {', '.join(config['agents'])}",
        f"- opponents: {', '.join(config['opponents']) or 'round robin among the agents'}",
        f"- matches per pairing and seat: {config['matches']} (seed {config['seed']}); "
        f"finished: {len(records)}" + (f", failed games: {errors}" if errors else ""),
        "- protocol: " + ("every agent was shown its legal actions before each move "
                          "(OpenSpiel/PettingZoo convention)"
                          if config.get("legal_actions") else
                          "agents were not shown legal actions (seed 000; only the random "
                          "baseline takes them from the referee)"),
        "- a forfeit (illegal action, exception, timeout, crash, resource limit) is a loss "
        "for the forfeiting agent; P0/P1 is the seat of the row's agent", "",
    ]
    for game in config["games"]:
        game_cells = [c for c in cells if c.game == game]
        meta = games[game]
        lines.append(f"## {meta['name']}" + (f" (`{game}`)" if meta["name"] != game else ""))
        lines.append("")
        if not game_cells:
            lines += ["No finished matches yet.", ""]
            continue
        if meta["outcome"] == "win_loss_draw":
            lines += _wld_table(game_cells)
        else:
            lines += _payoff_table(game_cells)
        lines.append("")
    reasons = forfeit_reasons(records)
    if reasons:
        lines += ["## Forfeits by reason", "", "| agent | forfeits |", "|---|---|"]
        for agent, counter in sorted(reasons.items()):
            listed = ", ".join(f"{r} {n}" for r, n in counter.most_common())
            lines.append(f"| {short_spec(agent)} | {listed} |")
        lines.append("")
    return "\n".join(lines)


def _wld_table(cells: list[Cell]) -> list[str]:
    lines = [
        "| agent | seat | opponent | n | Win (forfeit/n) | Loss (forfeit/n) | Draw (n) "
        "| forfeits us / them | ms/move |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for c in cells:
        lines.append(
            f"| {short_spec(c.agent)} | {_seat(c.seat)} | {short_spec(c.opponent)} | {c.n} "
            f"| {c.rate(c.wins):.2f} ({c.wins_by_forfeit}/{c.wins}) "
            f"| {c.rate(c.losses):.2f} ({c.losses_by_forfeit}/{c.losses}) "
            f"| {c.rate(c.draws):.2f} ({c.draws}) "
            f"| {sum(c.forfeits_us.values())} / {sum(c.forfeits_them.values())} "
            f"| {c.ms_per_move:.1f} |"
        )
    return lines


def _payoff_table(cells: list[Cell]) -> list[str]:
    lines = [
        "| agent | seat | opponent | n | Us (mean ± 95% CI) | Them (mean ± 95% CI) "
        "| forfeit rate us | forfeit rate them | ms/move |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for c in cells:
        lines.append(
            f"| {short_spec(c.agent)} | {_seat(c.seat)} | {short_spec(c.opponent)} | {c.n} "
            f"| {_ci(*c.payoff_us)} | {_ci(*c.payoff_them)} "
            f"| {c.forfeit_rate_us:.2f} | {c.forfeit_rate_them:.2f} | {c.ms_per_move:.1f} |"
        )
    return lines


def _write_csv(path: Path, cells: list[Cell]) -> None:
    rows = [c.summary() for c in cells]
    columns = ["game", "agent", "opponent", "seat", "n", "wins", "losses", "draws",
               "win_rate", "loss_rate", "draw_rate", "wins_by_forfeit", "losses_by_forfeit",
               "payoff_us", "payoff_us_ci95", "payoff_them", "payoff_them_ci95",
               "forfeit_rate_us", "forfeit_rate_them", "forfeits_us", "forfeits_them",
               "ms_per_move"]
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            for key in ("forfeits_us", "forfeits_them"):
                row[key] = ";".join(f"{r}:{n}" for r, n in sorted(row[key].items()))
            writer.writerow(row)


def safe_name(text: str) -> str:
    """A file-name-safe version of a game or agent spec."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("_") or "x"
