"""``ggp web``: the browser front end (play against agents, view recorded matches)."""

from __future__ import annotations

from pathlib import Path

import typer

from ggp.cli.output import console
from ggp.core.errors import GGPError


def web(
    host: str = typer.Option("127.0.0.1", help="Address to listen on. The default is this "
                             "machine only; anything else exposes the page (and the files "
                             "its viewer opens) to the network."),
    port: int = typer.Option(8765, help="Port (0 picks a free one)."),
    games: list[Path] = typer.Option(
        [], "--games", "-g", help="Folder scanned for .kif/.gdl files and synthesis runs "
        "for the game picker (repeatable; default: examples/recorded and the GDL games "
        "shipped with ggp)."),
    open_record: str = typer.Option("", "--open", help="A record the viewer opens first: "
                                    "arena or 'ggp manage' directory, match record, "
                                    "synthesis trajectory file."),
    sandbox: bool = typer.Option(False, help="Run every opponent in a sandboxed worker "
                                 "(agents from .py files always are)."),
    move_seconds: float = typer.Option(60.0, help="Time per move of a sandboxed opponent."),
) -> None:
    """Play any game against any agents in the browser, and step through recorded matches."""
    try:
        from ggp.web.app import WebConfig
        from ggp.web.server import WebServer
    except ImportError as exc:
        raise GGPError(f"ggp web needs the web extra ({exc.name} is missing): "
                       "pip install -e '.[web]'") from exc
    import ggp.gdl

    dirs = list(games) or [Path("examples/recorded"), Path(ggp.gdl.__file__).parent / "games"]
    config = WebConfig(game_dirs=dirs, sandbox=sandbox, move_seconds=move_seconds,
                       record=open_record)
    server = WebServer(config, host, port)

    def ready(url: str) -> None:
        # the URL holds the access token (as notebook servers print theirs): whoever has
        # it can use the server; the page keeps it in a cookie after the first visit
        console.print(f"ggp web: open [bold]{url}[/] to play, then the viewer at "
                      f"[bold]{server.url}viewer[/]. Ctrl-C stops.", highlight=False,
                      soft_wrap=True)

    server.run(ready)


def register(app: typer.Typer) -> None:
    app.command()(web)
