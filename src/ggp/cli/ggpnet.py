"""``ggp serve`` (a GGP player over HTTP) and ``ggp manage`` (a GGP game manager)."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import typer
from ggp.cli.output import make_console

console = make_console(soft_wrap=True, width=None)  # file:100:5 must not become an emoji


def serve(
    port: int = typer.Option(9147, help="TCP port (0: let the OS choose)."),
    host: str = typer.Option("127.0.0.1", help="Address to bind; loopback by default."),
    name: str = typer.Option("ggp-python", help="Player name reported to INFO."),
    chooser: str = typer.Option("search", help="Move chooser: search (MCTS/ISMCTS), random, "
                                "or compiled (search on --compiled, checked against the "
                                "reasoner)."),
    compiled: str = typer.Option(None, help="The compiled model of the game the compiled "
                                 "chooser plans on: a ggp synth run folder (its cwm.py) or a "
                                 ".py file (docs/compile.md)."),
    margin: float = typer.Option(0.3, help="Seconds kept in reserve before each clock ends."),
    seed: int = typer.Option(None, help="Random seed."),
    max_seconds: float = typer.Option(3600.0, help="Exit after this many seconds."),
    matches: int = typer.Option(0, help="Exit after this many matches ended (0: no limit)."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log every request."),
    allow_origin: list[str] = typer.Option(
        [], "--allow-origin", help="A web page origin (https://host[:port]) allowed to send "
        "messages, as a browser-based game manager (repeatable). Requests from any other "
        "web page are refused."),
    memory_mb: int = typer.Option(2048, help="Memory a START's rules may take to build "
                                  "(they are built in a child process under it first)."),
) -> None:
    """Run a GGP player that any GGP game server (ggp-base, Dresden GDL-II) can use."""
    from ggp.ggpnet.choosers import make_chooser
    from dataclasses import replace

    from ggp.ggpnet.player import START_BUDGET, GGPPlayer
    from ggp.ggpnet.transport import GGPServer

    logging.basicConfig(level=logging.DEBUG if verbose else logging.WARNING)
    moves = make_chooser(chooser, seed, compiled)
    player = GGPPlayer(name, moves, margin=margin, seed=seed,
                       budget=replace(START_BUDGET, memory_mb=memory_mb))
    end = time.monotonic() + max_seconds
    with GGPServer(player.handle, host, port, allowed_origins=tuple(allow_origin)) as server:
        console.print(f"GGP player {name!r} listening on {server.url} "
                      f"(chooser {chooser}; stops after {max_seconds:g} s"
                      + (f" or {matches} matches)" if matches else ")"), highlight=False)
        try:
            while time.monotonic() < end and not (matches and player.matches_ended >= matches):
                time.sleep(0.2)
        except KeyboardInterrupt:
            pass
        finally:
            player.close()
    console.print(f"stopped after {player.matches_ended} match(es)")
    for number, record in enumerate(getattr(moves, "report", []), 1):
        divergence = record["divergence"]
        console.print(
            f"match {number}: {record['compiled_moves']} of {record['decisions']} decisions "
            f"planned on the compiled model ({record['checked']} states checked against the "
            "reasoner)" + (f"; diverged at decision {divergence['decision']}: "
                           f"{divergence['reason']}" if divergence else ""), highlight=False)


def manage(
    game: Path = typer.Argument(..., help="A .kif/.gdl game description."),
    player: list[str] = typer.Option(..., "--player", "-p",
                                     help="A player URL (http://127.0.0.1:9147/) or 'random', "
                                          "optionally labelled (ours=http://...); one per "
                                          "role other than nature, in role order."),
    matches: int = typer.Option(1, help="Number of matches; players rotate through roles."),
    start_clock: float = typer.Option(10.0, help="Start clock (seconds)."),
    play_clock: float = typer.Option(5.0, help="Play clock (seconds)."),
    grace: float = typer.Option(1.0, help="Extra seconds a reply may take (servers allow 1)."),
    form: str = typer.Option("auto", help="PLAY form: auto, gdl, gdl2 (5 fields) or gdl2-legacy."),
    gdl_ii: str = typer.Option("auto", help="Treat the game as GDL-II: auto, yes or no."),
    upper: bool = typer.Option(False, help="Send upper-case messages (as Dresden does)."),
    max_steps: int = typer.Option(1000, help="Abort a match after this many steps."),
    seed: int = typer.Option(None, help="Random seed (random moves and substitutes)."),
    out: Path = typer.Option(Path("ggp-matches"), help="New directory for match records."),
    report: bool = typer.Option(True, help="Write the arena's report (report.md) at the end."),
) -> None:
    """Run matches between HTTP players; write JSON match records and results.jsonl."""
    from ggp.core.errors import GGPError
    from ggp.gdl.match import load_match_game
    from ggp.ggpnet.manager import MatchConfig, run_series

    if gdl_ii not in ("auto", "yes", "no"):
        raise GGPError("--gdl-ii must be auto, yes or no.")
    match_game = load_match_game(game, None if gdl_ii == "auto" else gdl_ii == "yes")
    config = MatchConfig(start_clock=start_clock, play_clock=play_clock, grace=grace,
                         form=form, max_steps=max_steps, upper=upper, seed=seed)

    def show(record: dict) -> None:
        goals = " ".join(f"{r}={v}" for r, v in (record["goals"] or {}).items())
        console.print(f"{record['match_id']}: {len(record['steps'])} steps, goals {goals or '-'}, "
                      f"{len(record['errors'])} error(s)"
                      + (f", aborted: {record['aborted']}" if record["aborted"] else ""),
                      highlight=False, markup=False)  # players' replies are not markup

    endpoints, labels = [], {}
    for spec in player:
        label, sep, endpoint = spec.partition("=")
        endpoints.append(endpoint if sep else spec)
        if sep:
            labels[endpoint] = label
    run_series(match_game, endpoints, matches, config, out, labels, on_match=show)
    console.print(f"records in {out}/ (a JSON file per match; results.jsonl)")
    if report:
        from ggp.arena.report import write_report

        console.print(f"report: {write_report(out, plots=False)['markdown']}")


def register(app: typer.Typer) -> None:
    app.command()(serve)
    app.command()(manage)
