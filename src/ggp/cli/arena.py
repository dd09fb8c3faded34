"""Arena commands: ``ggp arena`` (run or resume a tournament) and ``ggp report``."""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from pathlib import Path

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ggp.cli.output import console, report_markdown


def split_specs(values: list[str]) -> list[str]:
    """Split comma-separated specs, keeping commas inside parentheses
    (``"goofspiel(num_cards=4,x=1),tic_tac_toe"`` is two games)."""
    specs = []
    for value in values:
        depth, current = 0, ""
        for char in value:
            depth += (char == "(") - (char == ")")
            if char == "," and depth == 0:
                specs.append(current.strip())
                current = ""
            else:
                current += char
        specs.append(current.strip())
    return [s for s in specs if s]


def arena(
    game: list[str] = typer.Option(..., "--game", "-g", help="Game spec(s); repeat or "
                                   "separate with commas. 'ggp games' lists them."),
    agent: list[str] = typer.Option([], "--agent", "-a", help="Agent spec(s), e.g. random, "
                                    "mcts:sims=200, or path/to/agent.py:key=value."),
    opponent: list[str] = typer.Option([], "--opponent", "-o", help="Opponent spec(s): "
                                       "every agent meets every opponent. Without "
                                       "opponents the agents play a round robin."),
    field: list[str] = typer.Option([], "--field", "-f", help="A table of agents, one per "
                                    "seat, comma-separated (repeats allowed), e.g. "
                                    "ismcts,clairvoyant,random,random; rotated through every "
                                    "seat permutation in every game with that many players. "
                                    "Repeat for more fields."),
    matches: int = typer.Option(100, "--matches", "-n", help="Matches per pairing, game "
                                "and seat; for fields, rounds of all seat permutations "
                                "(n! matches each)."),
    seed: int = typer.Option(0, help="Tournament seed (every match's seed derives from it)."),
    out: str = typer.Option("", help="Results directory (default: runs/arena-<hash of the "
                            "settings but --matches>, so the same command resumes the same "
                            "tournament, and a larger --matches extends it)."),
    workers: int = typer.Option(None, "--workers", "-j", help="Parallel matches (default: "
                                "all cores; 0: in this process)."),
    backend: str = typer.Option("local", help="local (process pool) or ray."),
    address: str = typer.Option(None, help="Ray cluster address (default: start a local "
                                "Ray)."),
    sandbox: bool = typer.Option(False, help="Run every agent in a sandboxed worker process "
                                 "(agents from files always are)."),
    move_seconds: float = typer.Option(None, help="Time per move; a slower agent forfeits "
                                       "(sandboxed agents default to 60 s)."),
    memory_mb: int = typer.Option(2048, help="Memory limit of each sandboxed agent (MiB)."),
    network: bool = typer.Option(False, help="Give sandboxed agents the network (e.g. an "
                                 "llm agent in a file); by default their box has none."),
    trajectories: bool = typer.Option(True, help="Also write every full match record to "
                                      "trajectories.jsonl."),
    plots: bool = typer.Option(True, help="Draw plots in the report (needs matplotlib)."),
    trusted: bool = typer.Option(False, "--trusted", help="Allow .py games, which the "
                                 "arena runs in its own processes, outside the sandbox: "
                                 "only for code you wrote or read."),
    legal_actions: bool = typer.Option(False, "--legal-actions", help="Show every agent its "
                                       "legal actions before each move (the OpenSpiel and "
                                       "PettingZoo convention); by default only the random "
                                       "baseline gets them (seed 000)."),
    duplicate: bool = typer.Option(False, "--duplicate", help="Duplicate matches: the "
                                   "matches of one index (the seats of a pairing, the "
                                   "permutations of a field round) share their chance draws, "
                                   "so each agent plays every seat of the same deal; the "
                                   "report adds per-pair means."),
) -> None:
    """Run (or resume) a tournament, then write its report.

    Results are appended to OUT/results.jsonl as matches end; running the same command
    again after an interruption plays only the missing matches.
    """
    from ggp.arena.report import write_report
    from ggp.arena.tournament import TournamentConfig, check_config, run_tournament
    from ggp.cli.core import refuse_untrusted

    refuse_untrusted(split_specs(game), trusted, "arena")

    config = TournamentConfig(
        games=split_specs(game), agents=split_specs(agent), opponents=split_specs(opponent),
        fields=[tuple(split_specs([f])) for f in field], matches=matches, seed=seed,
        sandbox=sandbox, move_seconds=move_seconds, memory_mb=memory_mb, network=network,
        legal_actions=legal_actions, duplicate=duplicate,
    )
    games = check_config(config)  # bad specs fail here, before the progress display starts
    out_dir = Path(out or default_out_dir(config.to_dict()))
    console.print(f"[bold]Tournament[/] → {out_dir}")
    progress = Progress(
        TextColumn("[bold]matches"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        TextColumn("ETA"), TimeRemainingColumn(), TextColumn("{task.fields[score]}"),
        console=console,
    )
    scores: dict[str, Counter] = defaultdict(Counter)
    values: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    task_id = progress.add_task("matches", total=None, score="")

    def started(total: int, already_done: int) -> None:
        if already_done:
            console.print(f"resuming: {already_done} of {total} matches already played")
        progress.update(task_id, total=total, completed=already_done)

    def finished(record: dict) -> None:
        if record.get("field"):
            _value(values, record, games)
            text = _value_text(values)
        else:
            _score(scores, record, games)
            text = _score_text(scores)
        progress.update(task_id, advance=1, score=text)

    try:
        with progress:
            run = run_tournament(config, out_dir, backend=backend, workers=workers,
                                 address=address, trajectories=trajectories,
                                 on_start=started, on_result=finished)
    except KeyboardInterrupt:
        console.print("[yellow]interrupted[/]: finished matches are saved; run the same "
                      "command again to resume.")
        raise typer.Exit(130) from None
    rate = run.played / run.seconds * 60 if run.seconds > 0 else 0.0
    console.print(f"played {run.played} matches in {run.seconds:.1f} s ({rate:.0f}/min); "
                  f"{run.already_done} were already done")
    paths = write_report(out_dir, plots=plots)
    console.print(report_markdown(paths["markdown"].read_text(encoding="utf-8")))
    _say_written(paths, plots)


def _say_written(paths: dict, plots: bool) -> None:
    """The files written, and one line on how to get plots when matplotlib is missing."""
    from ggp.arena.plots import PLOTS_HINT, plots_available

    console.print("wrote " + ", ".join(str(p) for p in paths.values()))
    if plots and not plots_available():
        console.print(PLOTS_HINT, highlight=False, markup=False)


def report(
    results: str = typer.Argument(..., help="A tournament directory written by 'ggp arena'."),
    plots: bool = typer.Option(True, help="Draw plots (needs matplotlib)."),
    show: bool = typer.Option(True, help="Print the Markdown report."),
) -> None:
    """Re-render the tables (Markdown, JSON, CSV) and plots of saved tournament results."""
    from ggp.arena.report import write_report

    paths = write_report(results, plots=plots)
    if show:
        console.print(report_markdown(paths["markdown"].read_text(encoding="utf-8")))
    _say_written(paths, plots)


def default_out_dir(config: dict) -> str:
    """``runs/arena-<hash>`` of every setting but the match count (which may grow)."""
    settings = {k: v for k, v in config.items() if k != "matches"}
    digest = hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:10]
    return f"runs/arena-{digest}"


def _score(scores: dict[str, Counter], record: dict, games: dict) -> None:
    """Running W/L/D (and forfeits) of each focal agent, for the progress bar."""
    from ggp.arena.stats import outcome, utility_range

    if "error" in record:
        scores["errors"]["E"] += 1
        return
    counter = scores[record["focal"]]
    span = utility_range(games, record["game"])
    counter[outcome(record["returns"], record["focal_seat"], span)[0].upper()] += 1
    forfeit = record.get("forfeit")
    if forfeit and forfeit["player"] == record["focal_seat"]:
        counter["F"] += 1


def _score_text(scores: dict[str, Counter]) -> str:
    parts = []
    for agent, c in list(scores.items())[:4]:
        if agent == "errors":
            parts.append(f"game errors {c['E']}")
        else:
            parts.append(f"{agent} {c['W']}W/{c['L']}L/{c['D']}D"
                         + (f" ({c['F']} forfeits)" if c["F"] else ""))
    return " · ".join(parts)


def _value(values: dict[str, list[float]], record: dict, games: dict) -> None:
    """Running mean seed 001 value of every field agent (each seat it held), for the
    progress bar."""
    from ggp.arena.stats import rank_value, utility_range

    if "error" in record:
        values["game errors"][1] += 1
        return
    span = utility_range(games, record["game"])
    for seat, spec in enumerate(record["seats"]):
        values[spec][0] += rank_value(record["returns"], seat, span)
        values[spec][1] += 1


def _value_text(values: dict[str, list[float]]) -> str:
    from ggp.arena.stats import short_spec

    parts = []
    for agent, (total, count) in list(values.items())[:5]:
        if agent == "game errors":
            parts.append(f"game errors {count}")
        else:
            parts.append(f"{short_spec(agent)} {total / count:.2f}")
    return "value " + " · ".join(parts)


def register(app: typer.Typer) -> None:
    app.command()(arena)
    app.command()(report)
