"""Core commands: ``ggp games``, ``ggp check``, ``ggp play``."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.table import Table

from ggp.cli.output import console
from ggp.core.errors import ModelLoadError
from ggp.core.model import load_model
from ggp.core.registry import registered_games


def games() -> None:
    """List the registered reference games and their properties."""
    entries = sorted(registered_games().items())
    table = Table(title="Registered games")
    table.add_column("game", no_wrap=True, min_width=max(len(n) for n, _ in entries))
    for column in ("players", "information", "chance", "payoff", "utility",
                   "OpenSpiel", "parameters"):
        table.add_column(column)
    for name, entry in entries:
        m = entry.metadata
        table.add_row(
            name,
            str(m.num_players),
            "perfect" if m.perfect_information else "hidden",
            "yes" if m.chance else "no",
            ("zero-sum " if m.zero_sum else "general-sum ")
            + ("W/L/D" if m.outcome == "win_loss_draw" else "payoff"),
            f"{m.min_utility:g}..{m.max_utility:g}",
            (m.openspiel or "-").split("(")[0],
            ", ".join(f"{k}={v}" for k, v in entry.parameters.items()) or "-",
        )
    console.print(table)


def check(
    model: str = typer.Argument(..., help="Game name, .py model file or .kif/.gdl file."),
    games: int = typer.Option(50, help="Random games to play."),
    seed: int = typer.Option(0, help="Random seed."),
    max_steps: int = typer.Option(5000, help="Step bound per game (non-termination)."),
    json_out: str = typer.Option("", "--json", help="Also write the violations as JSON here."),
    sandbox: bool = typer.Option(
        True, help="Run a .py model inside a sandboxed subprocess (it may be untrusted, "
        "e.g. written by a language model); --no-sandbox runs it in this process."),
) -> None:
    """Check that a world model follows the protocol; exit 1 if it does not."""
    from ggp.check import check_model, check_source

    if model.endswith(".py") and sandbox:
        path = Path(model)
        if not path.is_file():
            raise ModelLoadError(f"No such model file: {path}.")
        report = check_source(path.read_text(encoding="utf-8"), name=path.stem,
                              filename=str(path), games=games, seed=seed,
                              max_steps=max_steps)
    else:
        report = check_model(load_model(model), games=games, seed=seed, max_steps=max_steps)
    if json_out:
        with open(json_out, "w", encoding="utf-8") as fh:
            json.dump({"model": report.model, "games": report.games, "steps": report.steps,
                       "violations": [v.to_dict() for v in report.violations.values()]},
                      fh, indent=1)
    if report.ok:
        console.print(f"[green]OK[/] {report.model}: {report.games} random games, "
                      f"{report.steps} steps, no protocol violations.")
        return
    console.print(f"[red]FAILED[/] {report.model}: {len(report.violations)} kind(s) of "
                  f"protocol violation in {report.games} random games:")
    for violation in report.violations.values():
        console.print(str(violation), highlight=False, markup=False)
    raise typer.Exit(1)


def play(
    game: str = typer.Argument("tic_tac_toe", help="Game name, .py model or .kif file."),
    players: str = typer.Option(
        "", "--players", "-p",
        help="Comma-separated agent specs, one per seat, e.g. 'mcts:sims=500,human' "
        "(default: random in every seat).",
    ),
    seed: int = typer.Option(0, help="Random seed of the match."),
    show: bool = typer.Option(True, help="Print each move."),
    output: str = typer.Option("", help="Write the match record (JSON) to this file."),
    legal_actions: bool = typer.Option(False, "--legal-actions", help="Show every agent its "
                                       "legal actions before each move (by default only the "
                                       "random baseline gets them)."),
) -> None:
    """Play one match in the terminal between any mix of agents."""
    from ggp.agents import make_agent
    from ggp.arena.match import play_match, seed_global_generators

    seed_global_generators(seed)  # models' resample functions draw from module-level random
    world = load_model(game)
    specs = [s for s in players.split(",") if s.strip()] or ["random"] * world.num_players
    if len(specs) != world.num_players:
        raise typer.BadParameter(
            f"{world.name} has {world.num_players} players; --players names {len(specs)}."
        )
    agents = [make_agent(spec, world) for spec in specs]

    def show_step(step: dict) -> None:
        if show:
            who = world.player_name(step["player"])
            console.print(f"  {who:>10}: {step['action']}", highlight=False)

    console.print(f"[bold]{world.name}[/]: " + " vs ".join(specs))
    result = play_match(world, agents, seed=seed, on_step=show_step,
                        legal_actions=legal_actions)
    for agent in agents:
        agent.close()
    if result.forfeit:
        f = result.forfeit
        console.print(f"[yellow]Player {f.player} ({specs[f.player]}) forfeits:[/] "
                      f"{f.reason} — {f.detail}")
    summary = ", ".join(f"{specs[p]} (player {p}): {r:+g}" for p, r in enumerate(result.returns))
    console.print(f"[bold]Returns:[/] {summary}")
    if output:
        with open(output, "w", encoding="utf-8") as fh:
            json.dump(result.to_dict(), fh, indent=1)


def register(app: typer.Typer) -> None:
    app.command()(games)
    app.command()(check)
    app.command()(play)
