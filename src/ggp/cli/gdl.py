"""``ggp gdl validate|convert|stats FILE``: work with GDL / GDL-II game descriptions."""

from __future__ import annotations

import random
import time
from pathlib import Path

import typer
from ggp.cli.output import make_console

from ggp.core.errors import ModelLoadError

console = make_console(soft_wrap=True, width=None)  # file:100:5 must not become an emoji
gdl_app = typer.Typer(help="GDL / GDL-II descriptions: validate, convert KIF <-> infix, stats.",
                      no_args_is_help=True)


def _read(path: Path) -> str:
    if not path.is_file():
        raise ModelLoadError(f"No such GDL file: {path}.")
    return path.read_text(encoding="utf-8", errors="replace")


@gdl_app.command()
def validate(
    file: Path = typer.Argument(..., help="a .kif / .gdl file (KIF or infix syntax)"),
    syntax: str = typer.Option("auto", help="kif, infix or auto"),
) -> None:
    """Parse and check a description; print every error and warning with line:column."""
    from ggp.gdl.description import parse_description
    from ggp.gdl.validate import validate as run_validation

    desc = parse_description(_read(file), str(file), syntax)
    issues = run_validation(desc)
    for issue in issues:
        colour = "red" if issue.severity == "error" else "yellow"
        console.print(f"{file}:{issue.line}:{issue.col}: [{colour}]{issue.severity}[/]: "
                      f"{issue.message}", highlight=False)
    errors = sum(i.severity == "error" for i in issues)
    console.print(f"{len(desc.rules)} rules, {errors} error(s), {len(issues) - errors} warning(s)")
    if errors:
        raise typer.Exit(1)


@gdl_app.command()
def convert(
    file: Path = typer.Argument(..., help="the description to convert"),
    to: str = typer.Option("", help="kif or infix (default: the other syntax)"),
    output: Path = typer.Option(None, "--output", "-o", help="write here instead of stdout"),
    syntax: str = typer.Option("auto", help="syntax of FILE: kif, infix or auto"),
) -> None:
    """Print a description in the other syntax (KIF <-> infix)."""
    from ggp.gdl.description import detect_syntax, parse_description
    from ggp.gdl.infix import description_to_infix
    from ggp.gdl.terms import description_to_kif

    text = _read(file)
    source_syntax = syntax if syntax != "auto" else detect_syntax(text)
    target = to or ("infix" if source_syntax == "kif" else "kif")
    if target not in ("kif", "infix"):
        raise typer.BadParameter("--to must be kif or infix")
    desc = parse_description(text, str(file), source_syntax)
    out = description_to_kif(desc.rules) if target == "kif" else description_to_infix(desc.rules)
    if output:
        output.write_text(out, encoding="utf-8")
    else:
        typer.echo(out, nl=False)


@gdl_app.command()
def stats(
    file: Path = typer.Argument(..., help="a .kif / .gdl file"),
    seconds: float = typer.Option(2.0, help="time spent on random playouts"),
    seed: int = typer.Option(0, help="random seed of the playouts"),
) -> None:
    """Roles, rule counts, and random-playout statistics (depth, goals, speed)."""
    from ggp.gdl.adapter import load_gdl_model

    started = time.perf_counter()
    model = load_gdl_model(file)
    game = model.namespace
    load_s = time.perf_counter() - started
    meta = model.metadata
    console.print(f"[bold]{file.name}[/]: GDL{'-II' if game.gdl_ii else ''}, "
                  f"{len(game.desc.rules)} rules, roles {', '.join(game.roles)}"
                  + (f" ({game.chance_role} is chance)" if game.chance_role else ""))
    console.print(f"players {meta.num_players}, perfect information {meta.perfect_information}, "
                  f"simultaneous {meta.simultaneous}, chance {meta.chance}; loaded in "
                  f"{load_s:.2f}s")
    reasoner, rng = game.engine, random.Random(seed)
    info = reasoner.info
    console.print(f"reasoner: {info.name}" + (
        f" (not grounded: {info.why_not_grounded})" if info.why_not_grounded else ""))
    if info.speeds:
        console.print("measured at load (steps per CPU second, code generation left out): "
                      + ", ".join(f"{name} {speed:,.0f}" for name, speed in info.speeds.items()))
    playouts, steps, finished_steps, goal_sums = 0, 0, 0, [0.0] * len(game.roles)
    started = time.perf_counter()
    deadline = started + seconds
    state = None
    while time.perf_counter() < deadline:  # checked every step: --seconds is a real limit
        if state is None:
            state = reasoner.initial_state()
        if reasoner.is_terminal(state):
            goal_sums = [a + b for a, b in zip(goal_sums, reasoner.goals(state))]
            playouts += 1
            finished_steps = steps
            state = None
            continue
        legal = reasoner.legal_moves(state)
        state = reasoner.next_state(state, {r: rng.choice(m) for r, m in legal.items()})
        steps += 1
    elapsed = time.perf_counter() - started
    if not playouts:
        console.print(f"no random playout finished in {elapsed:.2f}s ({steps} steps, "
                      f"{steps / elapsed:.1f} steps/s)")
        return
    console.print(f"{playouts} random playouts in {elapsed:.2f}s: {playouts / elapsed:.1f} "
                  f"playouts/s, {steps / elapsed:.0f} steps/s, mean depth "
                  f"{finished_steps / playouts:.1f}")
    console.print("mean goals: " + ", ".join(
        f"{r}={g / playouts:.1f}" for r, g in zip(game.roles, goal_sums)))


def register(app: typer.Typer) -> None:
    app.add_typer(gdl_app, name="gdl")
