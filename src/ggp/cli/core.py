"""Core commands: ``ggp games``, ``ggp check``, ``ggp play``."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.markup import escape
from rich.table import Table

from ggp.cli.output import clean_text, console, err_console
from ggp.core.errors import GGPError, ModelLoadError
from ggp.core.files import open_output
from ggp.core.registry import registered_games
from ggp.load import load_model
from ggp.render import outcome_text, render, to_text


class UntrustedCodeError(GGPError):
    """A command would run a .py file in the ggp process without --trusted."""


def read_source(path: Path) -> str:
    """The text of a model file, or a one-line error when it is not UTF-8."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ModelLoadError(f"The model {path} is not UTF-8 text ({exc.reason} at byte "
                             f"{exc.start}).") from None


def refuse_untrusted(specs: list[str], trusted: bool, command: str) -> None:
    """Refuse ``.py`` game specs, which ``command`` would run in this process, unless the
    user said ``--trusted``; then warn loudly that they run unsandboxed."""
    files = [spec for spec in specs if spec.endswith(".py")]
    for spec in files:
        if not Path(spec).is_file():
            raise ModelLoadError(f"No such file: {spec}.")
    if files and not trusted:
        # the option that seats an agent, where the command has one
        example = {"play": "ggp play GAME --players cwm_mcts:run={},random",
                   "arena": "ggp arena -g GAME -a cwm_mcts:run={}"}.get(command)
        agent = (f" or, when it models a registered game GAME, a CWM agent "
                 f"('{example.format(files[0])}')" if example else "")
        raise UntrustedCodeError(
            f"{files[0]} is Python code, and 'ggp {command}' runs a game in this process, "
            "outside the sandbox. Pass --trusted if you wrote or read it; to try code you "
            f"did not write, use 'ggp check {files[0]}'{agent}, which run it in the "
            "sandbox.")
    for spec in files:
        err_console.print(f"[bold red]WARNING:[/] running {spec} in this process, outside "
                          "the sandbox (--trusted).", highlight=False)


def load_trusted(spec: str, trusted: bool, command: str):
    """:func:`load_model` after :func:`refuse_untrusted`."""
    refuse_untrusted([spec], trusted, command)
    return load_model(spec)


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
    timeout: float = typer.Option(
        300.0, min=1.0, help="Wall-clock seconds for checking a .py model in the sandbox; a "
        "model that takes longer is reported as a sandbox violation."),
    trusted: bool = typer.Option(
        False, "--trusted", help="Run a .py model in this process instead of the sandbox: "
        "only for code you wrote or read."),
) -> None:
    """Check that a world model follows the protocol; exit 1 if it does not.

    A .py model runs in the sandbox (docs/sandbox.md) unless --trusted is given."""
    from ggp.check import check_model, check_source

    if model.endswith(".py") and not trusted:
        path = Path(model)
        if not path.is_file():
            raise ModelLoadError(f"No such model file: {path}.")
        report = check_source(read_source(path), name=path.stem, filename=str(path),
                              games=games, seed=seed, max_steps=max_steps, timeout=timeout)
    else:
        report = check_model(load_trusted(model, trusted, "check"), games=games, seed=seed,
                             max_steps=max_steps)
    if json_out:
        with open(json_out, "w", encoding="utf-8") as fh:
            json.dump({"model": report.model, "games": report.games, "steps": report.steps,
                       "violations": [v.to_dict() for v in report.violations.values()]},
                      fh, indent=1)
    # a file's path says which model was checked (every synthesized model is named "cwm")
    label = escape(model if Path(model).suffix in (".py", ".kif", ".gdl") else report.model)
    if report.ok:
        console.print(f"[green]OK[/] {label}: {report.games} random games, "
                      f"{report.steps} steps, no protocol violations.")
        return
    console.print(f"[red]FAILED[/] {label}: {len(report.violations)} kind(s) of "
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
    trusted: bool = typer.Option(
        False, "--trusted", help="Allow a .py game, which runs in this process, outside the "
        "sandbox: only for code you wrote or read."),
    legal_actions: bool = typer.Option(False, "--legal-actions", help="Show every agent its "
                                       "legal actions before each move (by default only the "
                                       "random baseline gets them)."),
) -> None:
    """Play one match in the terminal between any mix of agents."""
    from ggp.agents import make_agent
    from ggp.arena.match import play_match, seed_global_generators

    seed_global_generators(seed)  # models' resample functions draw from module-level random
    world = load_trusted(game, trusted, "play")
    specs = [s for s in players.split(",") if s.strip()] or ["random"] * world.num_players
    if len(specs) != world.num_players:
        raise typer.BadParameter(
            f"{world.name} has {world.num_players} players; --players names {len(specs)}."
        )
    agents = [make_agent(spec, world) for spec in specs]
    humans = [seat for seat, spec in enumerate(specs) if spec.split(":")[0].strip() == "human"]
    # a person at the terminal must see only their own observations: in a game with hidden
    # information the moves (chance deals, others' private moves) are not printed
    show_moves = show and (not humans or world.metadata.perfect_information)
    last: list[dict] = []

    def show_step(step: dict) -> None:
        last[:] = [step]
        if show_moves:
            who = world.player_name(step["player"])
            # an action is the game's (or a model's) text: never read as markup
            console.print(f"  {escape(str(who)):>10}: {escape(str(step['action']))}",
                          highlight=False)

    console.print(f"[bold]{world.name}[/]: " + " vs ".join(specs))
    if humans and not world.metadata.perfect_information:
        console.print("You see only what your seat observes (this game hides information).")
    result = play_match(world, agents, seed=seed, on_step=show_step,
                        legal_actions=legal_actions)
    for agent in agents:
        agent.close()
    if result.forfeit:
        f = result.forfeit
        # the detail may be a whole traceback from a sandbox: its last line names the cause
        cause = ([line for line in str(f.detail).splitlines() if line.strip()] or [""])[-1]
        console.print(f"[yellow]Player {f.player} ({escape(specs[f.player])}) forfeits:[/] "
                      f"{escape(str(f.reason))} — {escape(clean_text(cause))}",
                      highlight=False)
    if humans and last:
        final = world.apply(last[0]["state"], last[0]["action"])
        for seat in humans:
            # the final observation holds what the end revealed (a showdown's cards)
            view = to_text(render(world.observation(final, seat), world.name))
            console.print(f"\n[bold]Final position[/] (as player {seat} sees it):",
                          highlight=False)
            console.print(escape(view), highlight=False)
            console.print(f"[bold]{outcome_text(result.returns, seat)}[/]", highlight=False)
    summary = ", ".join(f"{specs[p]} (player {p}): {r:+g}" for p, r in enumerate(result.returns))
    console.print(f"[bold]Returns:[/] {summary}")
    if output:
        with open_output(output, "w") as fh:  # never through a planted link
            json.dump(result.to_dict(), fh, indent=1)


def register(app: typer.Typer) -> None:
    app.command()(games)
    app.command()(check)
    app.command()(play)
