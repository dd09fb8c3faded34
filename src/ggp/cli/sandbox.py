"""``ggp sandbox selftest``: run the attack suite's core on this machine."""

from __future__ import annotations

import typer
from rich.table import Table

from ggp.cli.output import console

sandbox_app = typer.Typer(help="The sandbox for untrusted code (docs/sandbox.md).",
                          no_args_is_help=True)


@sandbox_app.command()
def selftest(
    entry: list[str] = typer.Option([], "--entry", "-e", help="Only these entry points "
                                    "(repeat; 'host': the attacks on the code around the "
                                    "box); default: all."),
) -> None:
    """Attack the sandbox through every path that runs untrusted code, and the code around
    it (outputs, the web server, small inputs); exit 1 unless every attack is contained."""
    box = [e for e in entry if e != "host"]
    failed = _box_selftest(box) if box or not entry else 0
    if not entry or "host" in entry:
        failed += _host_selftest()
    if failed:
        raise typer.Exit(1)


def _host_selftest() -> int:
    """The host attacks (:mod:`ggp.sandbox.host_attacks`); the number not contained."""
    from ggp.sandbox.host_attacks import HOST_ATTACKS, run_host_attack

    console.print("[bold]host[/]: outputs, ggp web, game parameters, GDL STARTs, "
                  "terminal text", highlight=False)
    failed = 0
    for name in HOST_ATTACKS:
        outcome = run_host_attack(name)
        status = ("[yellow]skipped[/]" if outcome.skipped else "[green]contained[/]"
                  if outcome.contained else "[bold red]NOT CONTAINED[/]")
        console.print(f"  {status}  host        {name} ({outcome.seconds:.1f} s)"
                      + (f" ({outcome.skipped})" if outcome.skipped else ""), highlight=False)
        for line in outcome.breaches:
            console.print(f"      {line}", highlight=False, markup=False)
        failed += not outcome.contained
    return failed


def _box_selftest(entry: list[str]) -> int:
    """The box attacks through ``entry`` (all entry points when empty); the number of
    groups not contained."""
    from ggp.cwm.attack_suite import ENTRY_POINTS, Outcome, selftest as run_selftest
    from ggp.sandbox.process import box_problem, sandbox_mode

    unknown = [e for e in entry if e not in ENTRY_POINTS]
    if unknown:
        raise typer.BadParameter(f"unknown entry point {unknown[0]!r}; known: "
                                 f"{', '.join(ENTRY_POINTS)}")
    problem = box_problem()
    if problem is not None:
        console.print(f"[bold red]The OS-level box cannot run here:[/] {problem}.",
                      highlight=False)
    mode = sandbox_mode()  # raises (exit 2) unless the box runs or the weak mode is allowed
    console.print(f"sandbox mode: [bold]{mode}[/]" + (" (bubblewrap)" if mode == "box" else
                  " (NOT a security boundary: expect breaches)"), highlight=False)

    def show(outcome: Outcome) -> None:
        status = ("[green]contained[/]" if outcome.contained else "[bold red]NOT CONTAINED[/]")
        console.print(f"  {status}  {outcome.entry:<11} {', '.join(outcome.attacks)} "
                      f"({outcome.seconds:.1f} s)", highlight=False)
        for line in outcome.problems():
            console.print(f"      {line}", highlight=False, markup=False)

    for name in entry or ENTRY_POINTS:
        console.print(f"[bold]{name}[/]: {ENTRY_POINTS[name][0]}", highlight=False)
    outcomes = run_selftest(tuple(entry or ENTRY_POINTS), on_outcome=show)
    table = Table(title="sandbox selftest")
    for column in ("entry point", "attack groups", "contained"):
        table.add_column(column)
    for name in entry or ENTRY_POINTS:
        mine = [o for o in outcomes if o.entry == name]
        table.add_row(name, str(len(mine)), f"{sum(o.contained for o in mine)}/{len(mine)}")
    console.print(table)
    failed = [o for o in outcomes if not o.contained]
    if failed:
        console.print(f"[bold red]{len(failed)} of {len(outcomes)} attack groups were not "
                      "contained.[/]")
        return len(failed)
    console.print(f"[green]all contained[/]: {len(outcomes)} attack groups "
                  f"({sum(len(o.attacks) for o in outcomes)} attacks) through "
                  f"{len(entry or ENTRY_POINTS)} entry points.")
    return 0


def register(app: typer.Typer) -> None:
    app.add_typer(sandbox_app, name="sandbox")
