"""``ggp bench``: benchmarks over suites of games (docs/benchmark.md).

* ``ggp bench synth SUITE`` — synthesize, measure and play every game of a suite;
* ``ggp bench catalogue SUITE`` — write the suite's ``CATALOGUE.md`` from ``suite.toml``;
* ``ggp bench report OUT`` — rewrite the report of a (partial) suite run;
* ``ggp bench export OUT DEST`` — keep a suite run's syntheses as a recorded suite.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import Any, Optional

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from ggp.cli.output import console

app = typer.Typer(help="Benchmarks over suites of games (docs/benchmark.md).",
                  no_args_is_help=True)


@app.command("synth")
def synth_command(
    suite: Path = typer.Argument(..., help="A suite folder with suite.toml, e.g. "
                                 "benchmarks/novel."),
    out: Optional[Path] = typer.Option(None, help="Output folder (default "
                                       "runs/bench/SUITE-TIME); rerun with the same "
                                       "--out to resume."),
    games: Optional[str] = typer.Option(None, help="Comma-separated games to run "
                                        "(default: all)."),
    jobs: int = typer.Option(1, help="Games run at once (on the --pool)."),
    pool: str = typer.Option("local", help="Where games run in parallel: local (a process "
                             "pool; --jobs 1 runs them in this process) or ray."),
    address: Optional[str] = typer.Option(None, help="Ray cluster address for --pool ray "
                                          "(default: start a local Ray of --jobs CPUs)."),
    replay: Optional[Path] = typer.Option(
        None, help="A recorded suite (one synthesis run folder per game, e.g. "
        "examples/recorded/novel, or an earlier --out): reproduce its answers; without "
        "backend options no model is asked."),
    budget: Optional[int] = typer.Option(None, help="LLM calls per game (suite default)."),
    train_games: Optional[int] = typer.Option(None, help="Training games per game."),
    test_games: Optional[int] = typer.Option(None, help="Held-out games per game."),
    test_players: Optional[str] = typer.Option(None, help="Agent specs of the held-out "
                                               "seats (comma-separated)."),
    play_matches: Optional[int] = typer.Option(None, help="Play check: matches per seat "
                                               "and opponent (0: no play check)."),
    play_time: Optional[float] = typer.Option(None, help="Play check: seconds of search "
                                              "per move, the same for the CWM agent and "
                                              "the GT agent (suite default)."),
    trusted: bool = typer.Option(False, help="The suite's model files may run in this "
                                 "process (needed by the play check and the behaviour "
                                 "accuracy); their games for synthesis are recorded in a "
                                 "sandbox either way."),
    seed: int = typer.Option(0, help="Seed of the training games, tests and search."),
    test_seconds: float = typer.Option(5.0, help="Time limit of one unit test."),
    backend: Optional[str] = typer.Option(
        None, help="LLM backend: openai | anthropic | google | exchange."),
    model: Optional[str] = typer.Option(None, help="Model name (env GGP_LLM_MODEL)."),
    base_url: Optional[str] = typer.Option(None, help="Endpoint of an OpenAI-compatible "
                                           "server."),
    config: Optional[Path] = typer.Option(None, help="TOML file with an \\[llm] table."),
    exchange_dir: Optional[Path] = typer.Option(
        None, help="File exchange: prompts of game G go to EXCHANGE_DIR/G/."),
    cache_mode: Optional[str] = typer.Option(None, help="LLM response cache: off | "
                                             "read-write | replay."),
) -> None:
    """Synthesize a code world model for every game of SUITE and report, per game: solved
    or not, LLM calls, tokens, held-out accuracy by kind, behaviour accuracy, time and a
    short play check. Examples:

      ggp bench synth benchmarks/novel --replay examples/recorded/novel --trusted

      ggp bench synth benchmarks/novel --backend exchange --exchange-dir prompts/
      --jobs 4 --trusted --out runs/bench/novel

      ggp bench synth benchmarks/novel --replay examples/recorded/novel --trusted
      --pool ray --jobs 8 --play-time 0.2
    """
    from ggp.benchmark.runner import POOLS, BenchOptions, LLMOptions
    from ggp.benchmark.suite import load_suite

    loaded = load_suite(suite)
    names = [n.strip() for n in games.split(",") if n.strip()] if games else None
    selected = loaded.select(names)
    llm = LLMOptions(backend=backend, model=model, base_url=base_url,
                     config=str(config.resolve()) if config else None,
                     exchange_dir=str(exchange_dir.resolve()) if exchange_dir else None,
                     cache_mode=cache_mode)
    if replay is None and not llm.wanted():
        raise typer.BadParameter("Name an LLM backend (--backend, --config or GGP_LLM_*), "
                                 "or --replay a recorded suite.")
    options = BenchOptions(train_games=train_games, test_games=test_games,
                           test_players=test_players, budget=budget,
                           play_matches=play_matches, play_time=play_time, seed=seed,
                           test_seconds=test_seconds, trusted=trusted,
                           replay=str(replay) if replay else None,
                           llm=llm if llm.wanted() else None)
    if pool not in POOLS:
        raise typer.BadParameter(f"--pool must be one of {', '.join(POOLS)}, not {pool!r}.")
    options.resolved(loaded)  # bad settings fail here, before anything is written
    out = out or Path("runs") / "bench" / f"{loaded.name}-{time.strftime('%Y%m%d-%H%M%S')}"
    console.print(f"[bold]ggp bench synth[/] {loaded.name}: {len(selected)} games → {out}")
    if not trusted:
        console.print("[yellow]No play check and no behaviour accuracy:[/] they run the "
                      "suite's games in this process; pass --trusted for them.")
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        rows = _run_with_progress(loaded, out, options, names, jobs, pool, address,
                                  len(selected))
    except KeyboardInterrupt:
        console.print(f"[yellow]Interrupted.[/] Resume with the same command and --out {out}")
        raise typer.Exit(130) from None
    from ggp.benchmark.report import summary

    s = summary(rows)
    console.print(f"Solved {s['solved']}/{s['games'] - s['errors']} (one call: "
                  f"{s['solved_in_one_call']}), errors {s['errors']}. Report: "
                  f"{out / 'report.md'}")
    if s["scripted_games"]:
        console.print("[yellow]Scripted answers: not a model's work.[/]")


def _run_with_progress(suite: Any, out: Path, options: Any, names: list[str] | None,
                       jobs: int, pool: str, address: str | None,
                       total: int) -> list[dict[str, Any]]:
    from ggp.benchmark.runner import run_suite

    with Progress(TextColumn("{task.description}"), BarColumn(),
                  TextColumn("{task.fields[info]}"), TimeElapsedColumn(), console=console,
                  transient=False) as bar:
        overall = bar.add_task("games", total=total, info="")
        lines: dict[str, Any] = {}
        finished = {"n": 0}

        def on_status(statuses: dict[str, dict[str, Any]]) -> None:
            for game, st in statuses.items():
                if st.get("phase") in ("waiting",) and game not in lines:
                    continue
                if game not in lines:
                    lines[game] = bar.add_task(f"  {game}", total=None, info="")
                done, count = st.get("done", 0), st.get("total", 0)
                text = st.get("phase", "")
                if count:
                    text += f" {done}/{count}"
                if st.get("info"):
                    text += f" · {st['info']}"
                bar.update(lines[game], completed=done, total=count or None, info=text)

        def on_result(row: dict[str, Any]) -> None:
            finished["n"] += 1
            state = row.get("status", "?")
            bar.update(overall, completed=finished["n"],
                       info=f"last: {row['game']} {state}")
            if row["game"] in lines:
                bar.update(lines[row["game"]], visible=False)

        return run_suite(suite, out, options, games=names, jobs=jobs, pool=pool,
                         address=address, on_status=on_status, on_result=on_result)


@app.command("catalogue")
def catalogue_command(
    suite: Path = typer.Argument(..., help="A suite folder with suite.toml."),
    check: bool = typer.Option(False, help="Only check that CATALOGUE.md is up to date "
                               "(exit status 1 if not)."),
) -> None:
    """Write SUITE/CATALOGUE.md (one line per game and its properties) from suite.toml."""
    from ggp.benchmark.suite import catalogue_markdown, load_suite

    loaded = load_suite(suite)
    text = catalogue_markdown(loaded)
    target = loaded.path / "CATALOGUE.md"
    if check:
        current = target.read_text(encoding="utf-8") if target.is_file() else ""
        if current != text:
            console.print(f"{target} is out of date: run ggp bench catalogue {suite}")
            raise typer.Exit(1)
        console.print(f"{target} is up to date.")
        return
    target.write_text(text, encoding="utf-8")
    console.print(f"Wrote {target} ({len(loaded.games)} games).")


@app.command("report")
def report_command(
    out: Path = typer.Argument(..., help="The output folder of ggp bench synth."),
) -> None:
    """Rewrite the report of a suite run from the games it finished so far."""
    from ggp.benchmark.report import read_rows, write_report
    from ggp.benchmark.runner import RunnerError

    if not (out / "bench.json").is_file():
        raise RunnerError(f"{out} is not the output folder of ggp bench synth "
                          "(no bench.json).")
    bench, rows = read_rows(out)
    paths = write_report(out, rows, suite=bench["suite"], settings=bench["settings"])
    console.print(f"{len(rows)}/{len(bench['games'])} games finished. Report: "
                  f"{paths['markdown']}")


@app.command("export")
def export_command(
    out: Path = typer.Argument(..., help="The output folder of ggp bench synth."),
    dest: Path = typer.Argument(..., help="The recorded suite to write, e.g. "
                                "examples/recorded/novel."),
    slim: bool = typer.Option(False, help="Leave out the recorded games (most of the "
                              "size); a replay records them again from the suite's model "
                              "files, with the same seeds."),
) -> None:
    """Copy the finished synthesis runs of OUT into a recorded suite DEST (one folder per
    game), which ggp bench synth SUITE --replay DEST reproduces without a model."""
    from ggp.benchmark.runner import export_recorded

    games = export_recorded(out, dest, slim=slim)
    console.print(f"Exported {len(games)} games to {dest}.")


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def register(main: typer.Typer) -> None:
    main.add_typer(app, name="bench")
