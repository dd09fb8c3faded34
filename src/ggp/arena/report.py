"""Reports of a tournament directory: Markdown, JSON, CSV and plots.

:func:`write_report` reads ``tournament.json`` and ``results.jsonl`` (see
:mod:`ggp.arena.store`) and writes, next to them:

* ``report.md`` — per game, a W/L/D table with forfeit counts (win/loss/draw games, like
  seed 000 Tables 7, 9, 11, 13) or a payoff table with 95% confidence intervals and
  forfeit rates (payoff games, like Tables 8, 10, 12 and 14–16); for fields, a table per
  game of each agent's seed 001 value, mean return and win rate over all its seats (like
  seed 001 Table 2) and its value by seat; for duplicate tournaments, the per-pair means
  (:func:`ggp.arena.stats.duplicate_rows`); then forfeits by reason and belief fallbacks
  (moves search agents made without a consistent belief);
* ``report.json`` — every cell of :mod:`ggp.arena.stats` with all its numbers, and every
  field row (``fields``) with the seat-by-seat cells of field matches (``field_cells``),
  and every duplicate row (``duplicates``);
* ``report.csv`` — the pairing cells, one row per (game, agent, opponent, seat);
  ``report_fields.csv`` — the field rows, one per (game, field, agent);
* ``plots/`` — W/L/D bars per opponent and seat and payoff distributions per game
  (like Figures 2–4), and per field the agents' values with their confidence intervals,
  when matplotlib is installed.

It can run while a tournament is still going (it reports the matches finished so far).
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path
from typing import Any

from ggp.arena.stats import (
    Cell,
    DuplicateRow,
    FieldRow,
    belief_fallbacks,
    duplicate_rows,
    field_label,
    field_rows,
    forfeit_reasons,
    rank_value,
    short_spec,
    tabulate,
    utility_range,
)
from ggp.arena.ratings import Rating, ratings
from ggp.arena.store import load_tournament
from ggp.core.files import open_output, write_output
from ggp.core.text import clean_line


def clean_strings(value: Any) -> Any:
    """``value`` with every string in it (keys too) made one clean line
    (:func:`ggp.core.text.clean_line`)."""
    if isinstance(value, str):
        return clean_line(value)
    if isinstance(value, dict):
        return {clean_strings(k): clean_strings(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clean_strings(v) for v in value]
    return value


def write_report(out_dir: str | Path, *, plots: bool = True) -> dict[str, Path]:
    """Write the reports of the tournament in ``out_dir``; returns the written paths.

    Plots are drawn when ``plots`` is set and matplotlib is installed; without it the
    tables are written all the same (``ggp.arena.plots.plots_available`` tells which)."""
    out_dir = Path(out_dir)
    stored, records = load_tournament(out_dir)
    # agent names, forfeit details and game names may come from models and agents: one
    # line each, no escape sequences, before they reach Markdown, CSV or a plot title
    stored, records = clean_strings(stored), clean_strings(records)
    config, games = stored["config"], stored["games"]
    in_fields = [r for r in records if r.get("field")]
    cells, errors = tabulate([r for r in records if not r.get("field")], games)
    field_cells, field_errors = tabulate(in_fields, games)
    errors += field_errors
    rows = field_rows(in_fields, games)
    duplicates = duplicate_rows(records, games)
    focal = set(config["agents"])
    shown = [c for c in cells if c.agent in focal]
    paths = {
        "markdown": out_dir / "report.md",
        "json": out_dir / "report.json",
        "csv": out_dir / "report.csv",
    }
    write_output(paths["markdown"],
                 markdown(config, games, shown, records, errors, rows, duplicates))
    write_output(paths["json"], json.dumps({
        "config": config, "games": games, "matches": len(records), "errors": errors,
        "cells": [c.summary() for c in cells],
        "fields": [r.summary() for r in rows],
        "field_cells": [c.summary() for c in field_cells],
        "duplicates": [r.summary() for r in duplicates],
        "ratings": {game: [r.summary() for r in game_ratings(records, game)]
                    for game in config["games"]},
        "forfeits": {a: dict(c) for a, c in forfeit_reasons(records).items()},
        "belief_fallbacks": belief_fallbacks(records),
    }, indent=1))
    _write_csv(paths["csv"], cells)
    if rows:
        paths["fields_csv"] = out_dir / "report_fields.csv"
        _write_fields_csv(paths["fields_csv"], rows)
    from ggp.arena.plots import plots_available

    if plots and plots_available():
        from ggp.arena.plots import plot_fields, plot_games

        paths.update(plot_games(out_dir / "plots", games, shown))
        paths.update(plot_fields(out_dir / "plots", games, rows))
    return paths


def _seat(seat: int) -> str:
    return f"P{seat}"


def _ci(value: float, half_width: float | None) -> str:
    if value != value:  # NaN: nothing to average (the others of a one-player game)
        return "–"
    return f"{value:+.3f}" + (f" ± {half_width:.3f}" if half_width is not None else "")


def markdown(config: dict[str, Any], games: dict[str, Any], cells: list[Cell],
             records: list[dict[str, Any]], errors: int,
             rows: list[FieldRow] | None = None,
             duplicates: list[DuplicateRow] | None = None) -> str:
    """The Markdown report (see the module docstring)."""
    rows = rows or []
    duplicates = duplicates or []
    fields = config.get("fields", [])
    lines = ["# Tournament report", "", f"- games: {', '.join(config['games'])}"]
    if config["agents"]:
        lines += [
            f"- agents: {', '.join(config['agents'])}",
            f"- opponents: {', '.join(config['opponents']) or 'round robin among the agents'}",
            f"- matches per pairing and seat: {config['matches']}",
        ]
    if fields:
        lines += [f"- field: {field_label(f)}" for f in fields]
        lines.append(f"- rounds per field: {config['matches']} (each round plays every seat "
                     "permutation once: n! matches for n seats)")
    lines += [
        f"- seed {config['seed']}; finished matches: {len(records)}"
        + (f", failed games: {errors}" if errors else ""),
        "- protocol: " + ("every agent was shown its legal actions before each move "
                          "(OpenSpiel/PettingZoo convention)"
                          if config.get("legal_actions") else
                          "agents were not shown legal actions (seed 000; only the random "
                          "baseline takes them from the referee)"),
        "- a forfeit (illegal action, exception, timeout, crash, resource limit) is a loss "
        "for the forfeiting agent; P0/P1 is the seat of the row's agent",
    ]
    if config.get("duplicate"):
        lines.append("- duplicate matches: the matches of one index share their chance draws "
                     "(the same deal), with the seats swapped; per-pair means below")
    lines.append("")
    if fields:
        lines += [
            "Field tables: per agent over all the seats it held, one observation per match "
            "(the mean over its seats when it sits twice); 95% confidence intervals over "
            "matches. *Value* is seed 001's per-player value: players ranked by return, "
            "ties sharing the mean rank, rank k of N worth (N − k)/(N − 1) (1: sole "
            "winner, 0: sole loser); *win* is a strictly highest return.", "",
        ]
    for game in config["games"]:
        game_cells = [c for c in cells if c.game == game]
        game_rows = [r for r in rows if r.game == game]
        meta = games[game]
        lines.append(f"## {meta['name']}" + (f" (`{game}`)" if meta["name"] != game else ""))
        lines.append("")
        if not game_cells and not game_rows:
            lines += ["No finished matches yet.", ""]
            continue
        if game_cells and meta["outcome"] == "win_loss_draw":
            lines += _wld_table(game_cells) + ["", _WLD_LEGEND, ""]
        elif game_cells:
            lines += _payoff_table(game_cells) + ["", _PAYOFF_LEGEND, ""]
        game_duplicates = [d for d in duplicates if d.game == game]
        if game_duplicates:
            lines += _duplicate_table(game_duplicates) + [""]
        if game_rows:
            lines += _field_tables(game, game_rows, records, games)
        lines += _ratings_table(game_ratings(records, game))
    reasons = forfeit_reasons(records)
    if reasons:
        lines += ["## Forfeits by reason", "", "| agent | forfeits |", "|---|---|"]
        for agent, counter in sorted(reasons.items()):
            listed = ", ".join(f"{r} {n}" for r, n in counter.most_common())
            lines.append(f"| {short_spec(agent)} | {listed} |")
        lines.append("")
    fallbacks = belief_fallbacks(records)
    if fallbacks:
        lines += ["## Belief fallbacks", "",
                  "Moves a search agent made without a consistent belief (no history "
                  "matching its observations in budget): a move legal in states that match "
                  "its current observation, or an offered legal move (docs/belief.md).", "",
                  "| agent | fallbacks / moves | matches with one |", "|---|---|---|"]
        for agent, row in sorted(fallbacks.items()):
            lines.append(f"| {short_spec(agent)} | {row['fallbacks']} / {row['moves']} "
                         f"| {row['matches']} |")
        lines.append("")
    return "\n".join(lines)


def game_ratings(records: list[dict[str, Any]], game: str) -> list[Rating]:
    """Bradley–Terry ratings of the agents of ``game`` when at least three met (a round
    robin, a field, or several agents against opponents): two agents say no more than
    their table does."""
    found = ratings([r for r in records if r.get("game") == game])
    return found if len(found) >= 3 else []


def _ratings_table(found: list[Rating]) -> list[str]:
    if not found:
        return []
    lines = ["### Ratings", "", "| agent | rating | 95% CI | matches |", "|---|---:|---:|---:|"]
    lines += [f"| {short_spec(r.agent)} | {r.rating:+.0f} | {r.low:+.0f} .. {r.high:+.0f} "
              f"| {r.matches} |" for r in found]
    return lines + ["", (
        "Bradley–Terry ratings on the Elo scale (mean 0; 400 points more means 10:1 odds of "
        "the higher return), from every pair of seats of every match, all seats and fields "
        "together: the higher return wins, equal returns draw. Intervals: 200 bootstrap "
        "resamples of the matches."), ""]


_WLD_LEGEND = (
    "Each row: the agent in the seat shown against the opponent, over n matches. Win, loss "
    "and draw are rates (of n); in parentheses, how many of the wins (losses) came from the "
    "opponent's (the agent's) forfeit, out of all wins (losses), and the number of draws.")
_PAYOFF_LEGEND = (
    "Each row: the agent in the seat shown against the opponent, over n matches. Us and "
    "them are the mean returns of the agent and of its opponent, with 95% confidence "
    "intervals: with few matches they are wide, and a difference inside them may be luck.")


def _wld_table(cells: list[Cell]) -> list[str]:
    lines = [
        "| agent | seat | opponent | n | Win rate (by forfeit/wins) "
        "| Loss rate (by forfeit/losses) | Draw rate (draws) "
        "| forfeits us / them | ms/move | sims/move |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for c in cells:
        lines.append(
            f"| {short_spec(c.agent)} | {_seat(c.seat)} | {short_spec(c.opponent)} | {c.n} "
            f"| {c.rate(c.wins):.2f} ({c.wins_by_forfeit}/{c.wins}) "
            f"| {c.rate(c.losses):.2f} ({c.losses_by_forfeit}/{c.losses}) "
            f"| {c.rate(c.draws):.2f} ({c.draws}) "
            f"| {sum(c.forfeits_us.values())} / {sum(c.forfeits_them.values())} "
            f"| {c.ms_per_move:.1f} | {_sims(c.sims_per_move)} |"
        )
    return lines


def _payoff_table(cells: list[Cell]) -> list[str]:
    lines = [
        "| agent | seat | opponent | n | Us (mean ± 95% CI) | Them (mean ± 95% CI) "
        "| forfeit rate us | forfeit rate them | ms/move | sims/move |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for c in cells:
        lines.append(
            f"| {short_spec(c.agent)} | {_seat(c.seat)} | {short_spec(c.opponent)} | {c.n} "
            f"| {_ci(*c.payoff_us)} | {_ci(*c.payoff_them)} "
            f"| {c.forfeit_rate_us:.2f} | {c.forfeit_rate_them:.2f} | {c.ms_per_move:.1f} "
            f"| {_sims(c.sims_per_move)} |"
        )
    return lines


def _duplicate_table(rows: list[DuplicateRow]) -> list[str]:
    lines = [
        "Duplicate pairs (one observation per deal: the agent's return averaged over its "
        "seats; 95% CI over pairs):", "",
        "| agent | opponent | pairs | Us (mean ± 95% CI) | Them (mean ± 95% CI) "
        "| win rate (± 95% CI) | forfeits us / them | incomplete | ms/move |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        win, win_ci = r.win_rate
        lines.append(
            f"| {short_spec(r.agent)} | {short_spec(r.opponent)} | {r.n} | {_ci(*r.payoff)} "
            f"| {_ci(*r.payoff_them)} | {_unsigned_ci(win, win_ci) if r.n else '–'} "
            f"| {sum(r.forfeits_us.values())} / {sum(r.forfeits_them.values())} "
            f"| {r.incomplete} | {r.ms_per_move:.1f} |")
    return lines


def _field_tables(game: str, rows: list[FieldRow], records: list[dict[str, Any]],
                  games: dict[str, Any]) -> list[str]:
    lines = [
        "| field | agent | seats | n | value (mean ± 95% CI) | return (mean ± 95% CI) "
        "| win rate (± 95% CI) | forfeits | ms/move |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        forfeits = ", ".join(f"{k} {v}" for k, v in r.forfeits.most_common()) or "0"
        win, win_ci = r.win_rate
        lines.append(
            f"| {field_label(r.field)} | {short_spec(r.agent)} | {r.seats_per_match} | {r.n} "
            f"| {_unsigned_ci(*r.value)} | {_ci(*r.payoff)} | {_unsigned_ci(win, win_ci)} "
            f"| {forfeits} | {r.ms_per_move:.1f} |")
    lines.append("")
    # value by seat: does a seat favour whoever sits in it?
    n = games[game]["num_players"]
    if n > 1:
        span = utility_range(games, game)
        sums: dict[tuple, list[float]] = {}
        for record in records:
            if record.get("field") and record["game"] == game and "error" not in record:
                for seat, spec in enumerate(record["seats"]):
                    acc = sums.setdefault((tuple(record["field"]), spec, seat), [0.0, 0])
                    acc[0] += rank_value(record["returns"], seat, span)
                    acc[1] += 1
        lines += ["Value by seat (mean over the matches where the agent sat there):", "",
                  "| field | agent | " + " | ".join(f"P{s}" for s in range(n)) + " |",
                  "|---|---|" + "---:|" * n]
        for r in rows:
            cells = []
            for seat in range(n):
                total, count = sums.get((r.field, r.agent, seat), (0.0, 0))
                cells.append(f"{total / count:.2f} ({count})" if count else "–")
            lines.append(f"| {field_label(r.field)} | {short_spec(r.agent)} | "
                         + " | ".join(cells) + " |")
        lines.append("")
    return lines


def _sims(value: float) -> str:
    """Simulations per move for a table ("–" for an agent that does not search)."""
    return "–" if math.isnan(value) else f"{value:.0f}"


def _unsigned_ci(value: float, half_width: float | None) -> str:
    return f"{value:.3f}" + (f" ± {half_width:.3f}" if half_width is not None else "")


def _write_fields_csv(path: Path, rows: list[FieldRow]) -> None:
    columns = ["game", "field", "agent", "seats_per_match", "n", "value", "value_ci95",
               "payoff", "payoff_ci95", "win_rate", "win_rate_ci95", "forfeits",
               "ms_per_move"]
    with open_output(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            data = row.summary()
            data["field"] = ";".join(data["field"])
            data["forfeits"] = ";".join(f"{r}:{n}" for r, n in sorted(data["forfeits"].items()))
            writer.writerow(data)


def _write_csv(path: Path, cells: list[Cell]) -> None:
    rows = [c.summary() for c in cells]
    columns = ["game", "agent", "opponent", "seat", "n", "wins", "losses", "draws",
               "win_rate", "loss_rate", "draw_rate", "wins_by_forfeit", "losses_by_forfeit",
               "payoff_us", "payoff_us_ci95", "payoff_them", "payoff_them_ci95",
               "forfeit_rate_us", "forfeit_rate_them", "forfeits_us", "forfeits_them",
               "ms_per_move", "sims_per_move"]
    with open_output(path, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            for key in ("forfeits_us", "forfeits_them"):
                row[key] = ";".join(f"{r}:{n}" for r, n in sorted(row[key].items()))
            writer.writerow(row)
