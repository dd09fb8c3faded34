"""``ggp synth``: synthesize a code world model, and inspect, resume or replay a run.

Subcommands (``docs/synth.md``):

* ``ggp synth run GAME`` (or ``--rules FILE --trajectories FILE``): a new synthesis;
* ``ggp synth replay RUN``: reproduce a recorded run from its answers;
* ``ggp synth resume RUN``: continue an interrupted run;
* ``ggp synth show RUN``: a run's summary, refinement tree and first failures;
* ``ggp synth faster SOURCE``: speed refinement of a model (docs/compile.md).

The forms before the subcommands (``ggp synth GAME``, ``--resume RUN``, ``--replay RUN``,
``--faster SOURCE``) still work: :class:`_LegacyForms` rewrites them into the new ones and
prints a one-line hint.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, Optional

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from typer.core import TyperGroup

from ggp.cli.output import console, err_console
from ggp.rundir import (
    CANDIDATES,
    EXCHANGES,
    FASTER_MODEL,
    MODEL,
    REPORT,
    TREE,
    Backend,
    RunMetadata,
    RunStore,
    TestInfo,
    Tokens,
    load_metadata,
)


class _LegacyForms(TyperGroup):
    """The ``ggp synth`` group, accepting the forms from before its subcommands: an
    argument list that does not start with a subcommand is rewritten (``--resume RUN``:
    ``resume RUN``; ``--faster SOURCE``: ``faster SOURCE``; ``--replay RUN`` without a
    game: ``replay RUN``; else ``run ...``) and a hint shows the new form. Options the
    chosen subcommand does not take were ignored by that mode before and are dropped."""

    # ctx: the Context of the click that typer vendors (typer.Context is a subclass)
    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            new = _new_form(args, self.commands)
            err_console.print(f"hint: this is now `ggp synth {' '.join(new)}` (the old form "
                              "still works)", markup=False, highlight=False, soft_wrap=True)
            args = new
        return super().parse_args(ctx, args)


def _new_form(args: list[str], commands: Mapping[str, Any]) -> list[str]:
    """The subcommand form of an old ``ggp synth`` argument list."""
    options: dict[str, str | None] = {}  # option -> its value (None: a flag)
    positional: list[str] = []
    rest: list[tuple[str, str | None]] = []
    taken: tuple[str, ...]
    i = 0
    while i < len(args):
        arg = args[i]
        if arg.startswith("--") and "=" in arg:
            name, value = arg.split("=", 1)
            rest.append((name, value))
            options[name] = value
        elif arg.startswith("-") and arg not in _FLAGS and i + 1 < len(args):
            rest.append((arg, args[i + 1]))
            options[arg] = args[i + 1]
            i += 1
        elif arg.startswith("-"):
            rest.append((arg, None))
            options[arg] = None
        else:
            positional.append(arg)
        i += 1
    resume, faster, replay = (options.get(f"--{k}") for k in ("resume", "faster", "replay"))
    if resume:
        command, head, taken = "resume", [resume], ("--resume",)
    elif faster:
        command, head, taken = "faster", [faster], ("--faster",)
    elif replay and not positional and not ("--rules" in options or "--trajectories" in options):
        command, head, taken = "replay", [replay], ("--replay",)
    else:
        command, head, taken = "run", positional, ()
    accepted = {opt for param in commands[command].params for opt in param.opts
                + param.secondary_opts}
    kept = [part for name, value in rest if name not in taken and name in accepted
            for part in ([name] if value is None else [name, value])]
    return [command, *head, *kept]


#: Options of the old form that take no value.
_FLAGS = ("--inference", "--no-inference", "--help", "-h")

app = typer.Typer(cls=_LegacyForms, no_args_is_help=True,
                  help="Synthesize a code world model from rules and trajectories, refined "
                  "against unit tests by an LLM; inspect, resume or replay a run "
                  "(docs/synth.md).")

# Options shared by the subcommands that may ask a language model.
_BACKEND = typer.Option(None, help="LLM backend: openai | anthropic | google | ollama | "
                        "vllm | lmstudio | exchange (env GGP_LLM_BACKEND).")
_MODEL = typer.Option(None, help="Model name (env GGP_LLM_MODEL).")
_BASE_URL = typer.Option(None, help="Endpoint of an OpenAI-compatible server.")
_API_KEY_ENV = typer.Option(None, help="Name of the environment variable holding the API "
                            "key.")
_CONFIG = typer.Option(None, help="TOML file with an \\[llm] table.")
_EXCHANGE_DIR = typer.Option(None, help="Folder for the file-exchange backend (prompts out, "
                             "answers in).")
_CACHE_MODE = typer.Option(None, help="LLM response cache: off | read-write | replay.")
_OUT = typer.Option(None, help="Run directory (default runs/synth/...).")
_REUSE = typer.Option(None, "--replay", help="Reuse the answers recorded in this run "
                      "directory's exchanges.jsonl (without backend options nothing new "
                      "is asked).")


def _llm_options(backend: str | None, model: str | None, base_url: str | None,
                 api_key_env: str | None, config: Path | None, exchange_dir: Path | None,
                 cache_mode: str | None) -> dict[str, Any]:
    """The LLM flags of a subcommand, as :func:`_open_llm` takes them."""
    return dict(backend=backend, model=model, base_url=base_url, api_key_env=api_key_env,
                config=config, exchange_dir=exchange_dir, cache_mode=cache_mode)


@app.command("run")
def run_command(
    target: Optional[str] = typer.Argument(
        None, help="A registered game, a .py model file (its code is the ground truth: "
        "training and held-out games are recorded from it, in a sandbox) or a GDL / GDL-II "
        "description (.kif, .gdl: the rules are its text, the games come from ggp's "
        "reasoner)."),
    rules: Optional[Path] = typer.Option(None, help="Rules text file of your own game "
                                         "(for a .py model file: instead of its RULES)."),
    trajectories: Optional[Path] = typer.Option(
        None, help="Trajectory file (JSONL, see docs/synth.md) of your own game."),
    test_trajectories: Optional[Path] = typer.Option(
        None, help="Held-out trajectory file of your own game, for the test accuracy."),
    name: Optional[str] = typer.Option(None, help="Name of your own game."),
    out: Optional[Path] = _OUT,
    replay: Optional[Path] = _REUSE,
    mode: str = typer.Option("tree", help="Refinement: 'tree' (REx) or 'conversation'."),
    budget: int = typer.Option(500, help="Maximum number of LLM calls."),
    max_tokens: Optional[int] = typer.Option(None, help="Stop after this many tokens."),
    versions: int = typer.Option(1, help="Programs asked for in each call."),
    parallel: int = typer.Option(1, help="Concurrent LLM calls (tree search)."),
    heuristic_weight: float = typer.Option(5.0, help="C of the REx prior."),
    seed: int = typer.Option(0, help="Seed of trajectories, test sampling and search."),
    games: int = typer.Option(5, help="Training games recorded from the reference game."),
    players: str = typer.Option("random", help="Agent spec for every seat of the training "
                                "games, e.g. 'random' or 'mcts:sims=100'."),
    inference: bool = typer.Option(
        False, help="Also synthesize resample_history (hidden-information games), refined "
        "against inference tests."),
    inference_kind: str = typer.Option(
        "history", help="With --inference: 'history' (resample_history) or 'state' "
        "(resample_state, a state that matches the player's view)."),
    deck: str = typer.Option("open", help="Training games of a registered game: 'open' "
                             "(hidden state recorded) or 'closed' (one player's view; "
                             "implies --inference)."),
    view_player: int = typer.Option(0, help="The player whose view a closed deck keeps."),
    test_games: int = typer.Option(100, help="Held-out games for the test accuracy."),
    test_players: Optional[str] = typer.Option(
        None, help="Comma-separated agent specs; each seat of each held-out game draws one "
        "(default: random and a 100-simulation (IS)MCTS when available)."),
    test_seconds: float = typer.Option(5.0, help="Time limit of one unit test."),
    backend: Optional[str] = _BACKEND, model: Optional[str] = _MODEL,
    base_url: Optional[str] = _BASE_URL, api_key_env: Optional[str] = _API_KEY_ENV,
    config: Optional[Path] = _CONFIG, exchange_dir: Optional[Path] = _EXCHANGE_DIR,
    cache_mode: Optional[str] = _CACHE_MODE,
) -> None:
    """A new synthesis of a game's code world model.

    Examples:

      ggp synth run tic_tac_toe --backend openai --model gpt-4o-mini

      ggp synth run examples/games/nim.py --backend exchange --exchange-dir prompts/

      ggp synth run ticTacToe.kif --backend exchange --exchange-dir prompts/

      ggp synth run --rules my_game.txt --trajectories my_game.jsonl --backend exchange
      --exchange-dir prompts/
    """
    from ggp.synth.refine import Settings

    if inference_kind not in ("history", "state"):
        raise typer.BadParameter(f"--inference-kind must be 'history' or 'state', not "
                                 f"{inference_kind!r}.")
    test_list = [p for p in test_players.split(",") if p.strip()] if test_players else None
    task = _new_task(target, rules=rules, trajectories=trajectories,
                     test_trajectories=test_trajectories, name=name, games=games,
                     players=players, seed=seed, deck=deck, view_player=view_player,
                     test_games=test_games, test_players=test_list)
    run_dir = out or Path("runs") / "synth" / f"{_slug(task.game)}-{_stamp()}"
    settings = Settings(
        mode=mode, max_calls=budget, max_tokens=max_tokens, versions=versions,
        parallel=parallel, heuristic_weight=heuristic_weight, seed=seed,
        test_seconds=test_seconds, inference=inference, inference_kind=inference_kind)
    _synthesize(run_dir, task, settings, replay=replay, test_games=test_games,
                test_players=test_list,
                llm_options=_llm_options(backend, model, base_url, api_key_env, config,
                                         exchange_dir, cache_mode))


def _new_task(target: str | None, *, rules: Path | None, trajectories: Path | None,
              test_trajectories: Path | None, name: str | None, games: int, players: str,
              seed: int, deck: str, view_player: int, test_games: int,
              test_players: list[str] | None) -> Any:
    """The task of ``ggp synth run``: a registered game or GDL description, a .py model
    file, or the user's rules and trajectory files."""
    from ggp.synth.run import model_file_task, reference_task, user_task

    model_file = target is not None and target.endswith(".py")
    if target is not None and (trajectories or (rules and not model_file)):
        raise typer.BadParameter("Give either a game name (with --rules only for a .py "
                                 "model file) or --rules and --trajectories.")
    spec = [s for s in players.split(",") if s.strip()]
    if deck not in ("open", "closed"):
        raise typer.BadParameter(f"--deck must be 'open' or 'closed', not {deck!r}.")
    if target is not None and model_file:
        console.print(f"Recording {games} training and {test_games} held-out games of "
                      f"{target} (in a sandbox)...")
        return model_file_task(target, rules_file=rules, games=games, players=spec,
                               seed=seed, deck=deck, view_player=view_player,
                               test_games=test_games, test_players=test_players)
    if target:
        return _with_bar(f"training games of {target}", games, lambda on_game:
                         reference_task(target, games=games, seed=seed, players=spec,
                                        deck=deck, view_player=view_player,
                                        on_game=on_game))
    if rules and trajectories:
        return user_task(rules, trajectories, name=name, test_file=test_trajectories)
    raise typer.BadParameter("Name a game, or give --rules FILE and --trajectories FILE "
                             "(to continue a run: ggp synth resume RUN_DIR).")


@app.command("replay")
def replay_command(
    recorded: Path = typer.Argument(..., help="A recorded run directory (a synthesis or a "
                                    "speed refinement)."),
    out: Optional[Path] = _OUT,
    budget: Optional[int] = typer.Option(None, help="Maximum number of LLM calls (default: "
                                         "the recorded run's)."),
    backend: Optional[str] = _BACKEND, model: Optional[str] = _MODEL,
    base_url: Optional[str] = _BASE_URL, api_key_env: Optional[str] = _API_KEY_ENV,
    config: Optional[Path] = _CONFIG, exchange_dir: Optional[Path] = _EXCHANGE_DIR,
    cache_mode: Optional[str] = _CACHE_MODE,
) -> None:
    """Reproduce a recorded run from its answers.

    The same game, training games, settings and held-out set, answered from its
    exchanges.jsonl (without backend options nothing new is asked). Example:

      ggp synth replay examples/recorded/leduc_poker --out runs/leduc
    """
    llm_options = _llm_options(backend, model, base_url, api_key_env, config, exchange_dir,
                               cache_mode)
    if load_metadata(recorded).is_speed_refinement:
        _replay_faster(recorded, out=out, budget=budget, llm_options=llm_options)
        return
    from ggp.synth.run import replay_plan

    plan = _with_bar(f"training games of {recorded}", None,
                     lambda on_game: replay_plan(recorded, on_game=on_game))
    settings = plan.settings if budget is None else replace(plan.settings, max_calls=budget)
    run_dir = out or Path("runs") / "synth" / f"{_slug(plan.task.game)}-replay-{_stamp()}"
    _synthesize(run_dir, plan.task, settings, replay=recorded, test_games=plan.test_games,
                test_players=plan.test_players, llm_options=llm_options)


@app.command("resume")
def resume_command(
    run_dir: Path = typer.Argument(..., help="The run directory to continue (a synthesis "
                                   "or a speed refinement)."),
    budget: Optional[int] = typer.Option(None, help="Maximum number of LLM calls (default: "
                                         "the run's)."),
    replay: Optional[Path] = _REUSE,
    backend: Optional[str] = _BACKEND, model: Optional[str] = _MODEL,
    base_url: Optional[str] = _BASE_URL, api_key_env: Optional[str] = _API_KEY_ENV,
    config: Optional[Path] = _CONFIG, exchange_dir: Optional[Path] = _EXCHANGE_DIR,
    cache_mode: Optional[str] = _CACHE_MODE,
) -> None:
    """Continue an interrupted run.

    Answers already recorded are replayed; without backend options nothing new is asked.
    Example:

      ggp synth resume runs/synth/tic_tac_toe-20260101-120000 --budget 50
    """
    llm_options = _llm_options(backend, model, base_url, api_key_env, config, exchange_dir,
                               cache_mode)
    if load_metadata(run_dir).is_speed_refinement:
        _run_faster(run_dir, None, None, resume=True, replay=replay, llm_options=llm_options)
        return
    _synthesize(run_dir, None, None, replay=replay, budget=budget, resume=True,
                llm_options=llm_options)


@app.command("show")
def show_command(run_dir: Path = typer.Argument(..., help="A run directory.")) -> None:
    """Print a run's summary, its refinement tree and the best program's failures.

    Example:

      ggp synth show runs/synth/tic_tac_toe-20260101-120000
    """
    show(run_dir)


@app.command("faster")
def faster_command(
    target: str = typer.Argument(..., help="What to speed up: a run folder (its cwm.py), "
                                 "a .py model file or a registered game."),
    out: Optional[Path] = typer.Option(None, help="Run directory (default runs/faster/...)."),
    replay: Optional[Path] = _REUSE,
    budget: int = typer.Option(5, help="Maximum number of LLM calls."),
    seed: int = typer.Option(0, help="Seed of the replayed games."),
    min_speedup: float = typer.Option(1.2, help="The playouts/s ratio a candidate must "
                                      "reach."),
    trajectories_checked: int = typer.Option(
        1000, "--check-games", help="Seeded random games replayed in both programs."),
    search_games: int = typer.Option(40, help="Games of search players replayed in both "
                                     "programs too."),
    test_seconds: float = typer.Option(5.0, help="Time limit of one unit test."),
    backend: Optional[str] = _BACKEND, model: Optional[str] = _MODEL,
    base_url: Optional[str] = _BASE_URL, api_key_env: Optional[str] = _API_KEY_ENV,
    config: Optional[Path] = _CONFIG, exchange_dir: Optional[Path] = _EXCHANGE_DIR,
    cache_mode: Optional[str] = _CACHE_MODE,
) -> None:
    """Ask for a faster program with the same behaviour (docs/compile.md).

    A candidate is kept only if it passes the run's unit tests, agrees on every replayed
    game and is measured faster. Example:

      ggp synth faster examples/recorded/leduc_poker --backend exchange --exchange-dir prompts/
    """
    from ggp.synth.faster import FasterSettings, load_source

    settings = FasterSettings(max_calls=budget, random_trajectories=trajectories_checked,
                              search_games=search_games, min_speedup=min_speedup, seed=seed,
                              test_seconds=test_seconds)
    source = load_source(target)
    run_dir = out or Path("runs") / "faster" / f"{_slug(source.name)}-{_stamp()}"
    _run_faster(run_dir, source, settings, resume=False, replay=replay,
                llm_options=_llm_options(backend, model, base_url, api_key_env, config,
                                         exchange_dir, cache_mode))


def _synthesize(run_dir: Path, task: Any, settings: Any, *, replay: Path | None,
                llm_options: dict[str, Any], budget: int | None = None,
                resume: bool = False, test_games: int = 100,
                test_players: list[str] | None = None) -> None:
    """Run (or resume) a synthesis in ``run_dir`` under a progress line, then print its
    summary. Ctrl-C (or a polite kill) stops it, recorded so that it can be resumed."""
    from ggp.synth.refine import Settings

    llm, info = _llm_for_run(run_dir, resume, replay, llm_options)
    # A polite kill (SIGTERM) stops like Ctrl-C, so the run directory records it.
    signal.signal(signal.SIGTERM, _interrupt)
    console.print(f"[bold]ggp synth[/] {task.game if task else run_dir} → {run_dir}")
    try:
        meta = _run_with_progress(run_dir, task, llm, settings or Settings(), info, budget,
                                  replay, test_games=test_games, test_players=test_players,
                                  resume=resume)
    except KeyboardInterrupt:
        console.print(f"[yellow]Interrupted.[/] Continue with: ggp synth resume {run_dir}")
        raise typer.Exit(130) from None
    finally:
        close = getattr(llm, "close", None)
        if close:
            close()
    _summary(meta, Path(run_dir))


def _stamp() -> str:
    return time.strftime("%Y%m%d-%H%M%S")


def _run_with_progress(run_dir: Path, task: Any, llm: Any, settings: Any, info: dict,
                       budget: int | None, replay: Path | None, *, test_games: int,
                       test_players: list[str] | None, resume: bool) -> RunMetadata:
    """Run :func:`ggp.synth.run.synthesize` under a live progress line."""
    from ggp.synth.run import synthesize

    with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[info]}"),
                  TimeElapsedColumn(), console=console, transient=False) as bar:
        total = budget if resume else settings.max_calls  # None: the run's own budget
        job = bar.add_task("LLM calls", total=total, info="starting")
        phases: dict[str, Any] = {}

        def on_progress(p) -> None:
            bar.update(job, completed=p.calls,
                       info=f"{p.calls} calls ({p.replayed} replayed) · best train accuracy "
                            f"{p.best_h:.3f} · {p.tokens:,} tokens · {p.nodes} programs")

        def on_phase(name: str, done: int, total: int) -> None:
            if name not in phases:
                phases[name] = bar.add_task(name, total=total, info="")
            bar.update(phases[name], completed=done, total=total, info=f"{done}/{total}")

        return synthesize(
            run_dir, task, llm, settings, backend=info, test_games=test_games, resume=resume,
            max_calls=budget,
            test_players=test_players,
            replay_from=(replay / EXCHANGES) if replay else None,
            on_progress=on_progress, on_phase=on_phase)


def _replay_faster(recorded: Path, *, out: Path | None, budget: int | None,
                   llm_options: dict[str, Any]) -> None:
    """``ggp synth replay`` of a speed refinement: the same original, the same settings."""
    from ggp.synth.faster import FasterSettings, recorded_source

    settings = FasterSettings(**(load_metadata(recorded).settings or {}))
    if budget is not None:
        settings = replace(settings, max_calls=budget)
    source = recorded_source(recorded)
    run_dir = out or Path("runs") / "faster" / f"{_slug(source.name)}-{_stamp()}"
    _run_faster(run_dir, source, settings, resume=False, replay=recorded,
                llm_options=llm_options)


def _run_faster(run_dir: Path, source: Any, settings: Any, *, resume: bool,
                replay: Path | None, llm_options: dict[str, Any]) -> None:
    """Run, resume or replay a speed refinement under progress bars; print the verdict."""
    from ggp.synth.faster import FasterSettings, refine_speed

    llm, info = _llm_for_run(run_dir, resume, replay, llm_options)
    signal.signal(signal.SIGTERM, _interrupt)
    console.print(f"[bold]ggp synth faster[/] {source.name if source else run_dir} → {run_dir}")
    with Progress(TextColumn("{task.description}"), BarColumn(),
                  TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                  console=console, transient=False) as bar:
        phases: dict[str, Any] = {}

        def on_phase(name: str, done: int, total: int) -> None:
            if name not in phases:
                phases[name] = bar.add_task(name, total=total)
            bar.update(phases[name], completed=done, total=total)

        try:
            meta = refine_speed(run_dir, source, llm, settings or FasterSettings(),
                                backend=info, resume=resume,
                                replay_from=(Path(replay) / EXCHANGES) if replay else None,
                                on_phase=on_phase)
        except KeyboardInterrupt:
            console.print(f"[yellow]Interrupted.[/] Continue with: ggp synth resume {run_dir}")
            raise typer.Exit(130) from None
        finally:
            close = getattr(llm, "close", None)
            if close:
                close()
    kept = meta.get("kept")
    if kept:
        console.print(f"[green]Kept candidate {kept['candidate']}[/]: "
                      f"{kept['speedup']:.2f}x the original's playouts/s, agrees on "
                      f"{kept['trajectories']} of {kept['trajectories']} games → "
                      f"{Path(run_dir) / FASTER_MODEL}")
    else:
        console.print(f"[yellow]No faster program kept[/] after {meta.get('calls', 0)} "
                      f"calls; the reasons are in {Path(run_dir) / REPORT}")


def _with_bar(label: str, total: int | None, work: Any) -> Any:
    """``work(on_game)`` under a progress bar of recorded games."""
    with Progress(TextColumn("{task.description}"), BarColumn(),
                  TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                  console=console, transient=True) as bar:
        job = bar.add_task(label, total=total)
        return work(lambda done, n: bar.update(job, completed=done, total=n))


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in text)[:60]


def _llm_for_run(run_dir: Path, resume: bool, replay: Path | None,
                 llm_options: dict[str, Any]) -> tuple[Any, dict]:
    """The LLM client of a run and the backend facts its metadata records. Resuming or
    replaying needs a model only for answers the log does not hold: without LLM flags or
    ``GGP_LLM_*`` variables there is none, and a replay records the earlier run's backend
    and model (every answer comes from them)."""
    need_llm = (not resume and replay is None) or any(
        v is not None for v in llm_options.values()) or any(
        k.startswith("GGP_LLM_") for k in os.environ)
    if need_llm:
        llm, info = _open_llm(run_dir, **llm_options)
    else:
        llm, info = None, {"name": "replay", "model": None}
    if replay is not None:
        if not need_llm:
            recorded = load_metadata(replay).backend
            info = recorded.to_dict() if recorded else {}
        info = {**info, "replayed_from": str(replay)}
    return llm, info


def _open_llm(run_dir: Path, **options: Any) -> tuple[Any, dict]:
    """A client of the LLM layer (:mod:`ggp.llm`) built from flags, environment, config."""
    from ggp.llm import load_config, make_backend, make_client

    config_file = options.pop("config")
    overrides = {k: (str(v) if isinstance(v, Path) else v) for k, v in options.items()}
    config = load_config(config_file, **overrides)
    backend = make_backend(config)  # a set-up mistake fails here, before any run folder
    Path(run_dir).mkdir(parents=True, exist_ok=True)
    client = make_client(config, run_dir=run_dir, backend=backend)
    info = {"name": config.backend, "model": config.model or config.backend,
            "base_url": config.base_url}
    return client, info


def _summary(meta: RunMetadata, run_dir: Path) -> None:
    table = Table(title=f"Synthesis of {meta.game}", show_header=False)
    table.add_column("", style="bold")
    table.add_column("")
    for key, value in _summary_rows(meta, run_dir):
        table.add_row(key, value)
    console.print(table)


def _summary_rows(meta: RunMetadata, run_dir: Path) -> list[tuple[str, str]]:
    best = meta.best
    test = meta.test or TestInfo()
    tokens = meta.tokens or Tokens()
    backend = meta.backend or Backend()
    scripted = meta.scripted_answers
    scripted_note = f", {scripted} scripted: not a model's work" if scripted else ""
    rows = [
        ("status", meta.status or "?"),
        ("backend", f"{backend.name or '?'} ({backend.model or '?'})"),
        *([("answers", f"replayed from {backend.replayed_from}")]
          if backend.replayed_from else []),
        ("mode", str((meta.settings or {}).get("mode", "?"))),
        ("LLM calls",
         f"{meta.calls or 0} ({meta.replayed_calls or 0} replayed{scripted_note})"),
        ("tokens", f"{tokens.total or 0:,} (prompt {tokens.prompt or 0:,}, "
                   f"completion {tokens.completion or 0:,})"),
        ("time", f"{meta.time_s or 0:.1f} s"),
        ("programs", str(meta.nodes or 0)),
        ("train accuracy", _accuracy(best.train_accuracy, best.train_by_kind)
         if best else "-"),
        ("test accuracy", _accuracy(test.accuracy, test.by_kind)
         if test.accuracy is not None else "not measured (no ground truth or held-out file)"),
        ("model file", str(run_dir / MODEL) if best else "none"),
    ]
    return rows


def _accuracy(value: float | None, by_kind: dict | None) -> str:
    if value is None:
        return "-"
    parts = ", ".join(f"{k} {p}/{t}" for k, (p, t) in (by_kind or {}).items())
    return f"{value:.4f}" + (f"  ({parts})" if parts else "")


def show(run_dir: Path) -> None:
    """Print a run's summary, its refinement tree and the best program's failures."""
    store = RunStore(run_dir)
    meta = store.load_metadata()
    if meta.is_speed_refinement:
        _show_faster(store, meta)
        return
    _summary(meta, run_dir)
    tree = store.read_json(TREE) if store.file(TREE).is_file() else {"nodes": []}
    nodes = Table(title=f"Refinement tree ({tree.get('mode', '?')})")
    for column in ("node", "parent", "call", "train acc.", "refined", "tests by kind", "note"):
        nodes.add_column(column)
    for node in tree["nodes"]:
        kinds = ", ".join(f"{k} {p}/{t}" for k, (p, t) in node["by_kind"].items())
        note = "does not load" if node.get("load_error") else ""
        nodes.add_row(str(node["id"]), "-" if node["parent"] is None else str(node["parent"]),
                      str(node["call"]), f"{node['h']:.3f}", str(node["refined"]), kinds, note)
    console.print(nodes)
    if store.file(REPORT).is_file():
        report = store.read_json(REPORT)
        for label, key in (("training", "train_failures"), ("held-out", "test_failures")):
            failures = report.get(key, [])
            if failures:
                console.print(f"[bold]First failing {label} test[/] ({failures[0]['id']}):")
                console.print(failures[0]["error"] or "", markup=False, highlight=False)
    console.print(f"Exchanges with the model: {store.file(EXCHANGES)}")


def _show_faster(store: RunStore, meta: RunMetadata) -> None:
    """A speed refinement's summary and every candidate's verdict."""
    kept = meta.extra.get("kept") or {}
    backend = meta.backend or Backend()
    source = meta.source if isinstance(meta.source, dict) else {}
    table = Table(title=f"Speed refinement of {meta.game}", show_header=False)
    table.add_column("", style="bold")
    table.add_column("")
    speed = meta.extra.get("original_playouts_per_s")
    for key, value in (
        ("status", meta.status or "?"),
        ("source", f"{source.get('origin')} {source.get('path')}"),
        ("backend", f"{backend.name or '?'} ({backend.model or '?'})"),
        ("LLM calls", f"{meta.calls or 0} ({meta.replayed_calls or 0} replayed)"),
        ("original", f"{speed:,.0f} playouts/s" if speed else "-"),
        ("kept", f"candidate {kept['candidate']}: {kept['speedup']:.2f}x, agrees on "
                 f"{kept['trajectories']} games" if kept else "none"),
    ):
        table.add_row(key, value)
    console.print(table)
    if store.file(CANDIDATES).is_file():
        for i, record in enumerate(store.read_json(CANDIDATES)):
            verdict = "kept" if record.get("accepted") else "rejected: " + str(
                record.get("reason", "")).splitlines()[0][:160]
            console.print(f"candidate {i} (call {record.get('call')}): {verdict}",
                          markup=False, highlight=False)


def register(main: typer.Typer) -> None:
    main.add_typer(app, name="synth")

