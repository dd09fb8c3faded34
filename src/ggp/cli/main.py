"""The ``ggp`` command-line entry point.

Errors that ggp anticipates (:class:`ggp.core.errors.GGPError`) are shown as a short
paragraph; ``--debug`` shows the full traceback instead.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import typer
from rich.markup import escape

import ggp.cli
from ggp.cli.output import err_console
from ggp.core.errors import GGPError

app = typer.Typer(
    name="ggp",
    help="General game playing: world models, search agents, arena, GDL, code synthesis.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
_state = {"debug": False}


@app.callback()
def _options(
    debug: bool = typer.Option(False, "--debug", help="Show full tracebacks on errors."),
) -> None:
    _state["debug"] = debug


def _register_subcommands() -> None:
    for info in pkgutil.iter_modules(ggp.cli.__path__):
        if info.name == "main":
            continue
        module = importlib.import_module(f"ggp.cli.{info.name}")
        if hasattr(module, "register"):
            module.register(app)


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit status."""
    from ggp.core.text import clean_log_records

    clean_log_records()  # outside text in log lines: one clean line each
    _register_subcommands()
    try:
        status = app(args=argv, standalone_mode=False)
    except GGPError as exc:
        if _state["debug"] or "--debug" in (argv or sys.argv):
            raise
        err_console.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False, markup=True,
                          soft_wrap=True)  # one line: the terminal wraps it, not rich
        return 2
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        err_console.print("aborted")
        return 130
    except SystemExit as exc:
        return int(exc.code or 0)
    except Exception as exc:  # click's usage errors (typer may vendor click)
        if hasattr(exc, "show") and hasattr(exc, "exit_code"):
            exc.show()
            return exc.exit_code
        raise
    return status if isinstance(status, int) else 0


if __name__ == "__main__":
    sys.exit(main())
