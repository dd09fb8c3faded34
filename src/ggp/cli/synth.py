"""``ggp synth``: synthesize a code world model; ``ggp synth show RUN``: inspect a run."""

from __future__ import annotations

import json
import os
import signal
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Optional

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ggp.cli.output import console


def synth(
    target: Optional[list[str]] = typer.Argument(
        None, help="A registered game, a .py model file (its code is the ground truth: "
        "training and held-out games are recorded from it, in a sandbox) or a GDL / GDL-II "
        "description (.kif, .gdl: the rules are its text, the games come from ggp's "
        "reasoner), or 'show RUN_DIR' to inspect a run."),
    rules: Optional[Path] = typer.Option(None, help="Rules text file of your own game "
                                         "(for a .py model file: instead of its RULES)."),
    trajectories: Optional[Path] = typer.Option(
        None, help="Trajectory file (JSONL, see docs/synth.md) of your own game."),
    test_trajectories: Optional[Path] = typer.Option(
        None, help="Held-out trajectory file of your own game, for the test accuracy."),
    name: Optional[str] = typer.Option(None, help="Name of your own game."),
    out: Optional[Path] = typer.Option(None, help="Run directory (default runs/synth/...)."),
    resume: Optional[Path] = typer.Option(
        None, help="Resume the run in this directory (answers already recorded are "
        "replayed; without backend options nothing new is asked)."),
    replay: Optional[Path] = typer.Option(
        None, help="Reuse the answers recorded in this run directory's exchanges.jsonl "
        "(without backend options nothing new is asked). Without a game, the recorded "
        "run is reproduced: same game, training games, settings and held-out set."),
    mode: str = typer.Option("tree", help="Refinement: 'tree' (REx) or 'conversation'."),
    budget: Optional[int] = typer.Option(
        None, help="Maximum number of LLM calls (default 500; with --resume, the run's)."),
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
    backend: Optional[str] = typer.Option(
        None, help="LLM backend: openai | anthropic | google | ollama | vllm | lmstudio | "
        "exchange (env GGP_LLM_BACKEND)."),
    model: Optional[str] = typer.Option(None, help="Model name (env GGP_LLM_MODEL)."),
    base_url: Optional[str] = typer.Option(None, help="Endpoint of an OpenAI-compatible server."),
    api_key_env: Optional[str] = typer.Option(
        None, help="Name of the environment variable holding the API key."),
    config: Optional[Path] = typer.Option(None, help="TOML file with an \\[llm] table."),
    exchange_dir: Optional[Path] = typer.Option(
        None, help="Folder for the file-exchange backend (prompts out, answers in)."),
    cache_mode: Optional[str] = typer.Option(None, help="LLM response cache: off | "
                                             "read-write | replay."),
    faster: Optional[str] = typer.Option(
        None, "--faster", help="Speed refinement (docs/compile.md): ask for a faster program "
        "with the same behaviour as this run folder's cwm.py, .py model file or registered "
        "game; kept only if it passes the run's unit tests, agrees on every replayed game "
        "and is measured faster."),
    min_speedup: float = typer.Option(1.2, help="--faster: the playouts/s ratio a "
                                      "candidate must reach."),
    trajectories_checked: int = typer.Option(
        1000, "--check-games", help="--faster: seeded random games replayed in both "
        "programs."),
    search_games: int = typer.Option(40, help="--faster: games of search players replayed "
                                     "in both programs too."),
) -> None:
    """Synthesize a code world model from rules and trajectories, refined against unit
    tests by an LLM. Examples:

      ggp synth tic_tac_toe --backend openai --model gpt-4o-mini

      ggp synth examples/games/nim.py --backend exchange --exchange-dir prompts/

      ggp synth /work/shared/gdl/perfect/ticTacToe.kif --backend exchange --exchange-dir prompts/

      ggp synth --rules my_game.txt --trajectories my_game.jsonl --backend exchange
      --exchange-dir prompts/

      ggp synth --replay examples/recorded/leduc_poker --out runs/leduc

      ggp synth show runs/synth/tic_tac_toe-20260101-120000

      ggp synth --faster examples/recorded/leduc_poker --backend exchange --exchange-dir prompts/
    """
    from ggp.synth.refine import Settings
    from ggp.synth.run import reference_task, user_task

    args = list(target or [])
    if args[:1] == ["show"]:
        if len(args) != 2:
            raise typer.BadParameter("Usage: ggp synth show RUN_DIR")
        show(Path(args[1]))
        return
    if len(args) > 1:
        raise typer.BadParameter(f"Give one game, not {len(args)} ({' '.join(args)}).")
    if faster is not None or any(p is not None and _is_faster_run(p) for p in (resume, replay)):
        _faster(faster, out=out, resume=resume, replay=replay, budget=budget, seed=seed,
                min_speedup=min_speedup, checked=trajectories_checked,
                search_games=search_games, test_seconds=test_seconds,
                llm_options=dict(backend=backend, model=model, base_url=base_url,
                                 config=config, exchange_dir=exchange_dir,
                                 cache_mode=cache_mode))
        return
    if inference_kind not in ("history", "state"):
        raise typer.BadParameter(f"--inference-kind must be 'history' or 'state', not "
                                 f"{inference_kind!r}.")
    llm_options = dict(backend=backend, model=model, base_url=base_url, config=config,
                       api_key_env=api_key_env, exchange_dir=exchange_dir,
                       cache_mode=cache_mode)
    task, settings_from_run = None, None
    test_list = [p for p in test_players.split(",") if p.strip()] if test_players else None
    if resume is not None:
        run_dir = resume
    elif replay is not None and not args and not (rules or trajectories):
        # The recorded run says how it was made: same game, games, settings, test set.
        from ggp.synth.run import replay_plan

        plan = _with_bar(f"training games of {replay}", None,
                         lambda on_game: replay_plan(replay, on_game=on_game))
        task, test_games, test_list = plan.task, plan.test_games, plan.test_players
        settings_from_run = plan.settings
        run_dir = out or Path("runs") / "synth" / f"{_slug(task.game)}-replay-" \
            f"{time.strftime('%Y%m%d-%H%M%S')}"
    else:
        model_file = bool(args) and args[0].endswith(".py")
        if args and (trajectories or (rules and not model_file)):
            raise typer.BadParameter("Give either a game name (with --rules only for a .py "
                                     "model file) or --rules and --trajectories.")
        spec = [s for s in players.split(",") if s.strip()]
        if deck not in ("open", "closed"):
            raise typer.BadParameter(f"--deck must be 'open' or 'closed', not {deck!r}.")
        if model_file:
            from ggp.synth.run import model_file_task

            console.print(f"Recording {games} training and {test_games} held-out games of "
                          f"{args[0]} (in a sandbox)...")
            task = model_file_task(args[0], rules_file=rules, games=games, players=spec,
                                   seed=seed, deck=deck, view_player=view_player,
                                   test_games=test_games, test_players=test_list)
        elif args:
            task = _with_bar(f"training games of {args[0]}", games, lambda on_game:
                             reference_task(args[0], games=games, seed=seed, players=spec,
                                            deck=deck, view_player=view_player,
                                            on_game=on_game))
        elif rules and trajectories:
            task = user_task(rules, trajectories, name=name, test_file=test_trajectories)
        else:
            raise typer.BadParameter("Name a game, or give --rules FILE and --trajectories "
                                     "FILE, or --resume RUN_DIR.")
        stamp = time.strftime("%Y%m%d-%H%M%S")
        run_dir = out or Path("runs") / "synth" / f"{_slug(task.game)}-{stamp}"
    llm, info = _llm_for_run(run_dir, resume, replay, llm_options)
    settings = settings_from_run or Settings(
        mode=mode, max_calls=500 if budget is None else budget, max_tokens=max_tokens,
        versions=versions, parallel=parallel, heuristic_weight=heuristic_weight, seed=seed,
        test_seconds=test_seconds, inference=inference, inference_kind=inference_kind)
    if settings_from_run is not None and budget is not None:
        settings = replace(settings, max_calls=budget)
    # A polite kill (SIGTERM) stops like Ctrl-C, so the run directory records it.
    signal.signal(signal.SIGTERM, _interrupt)
    console.print(f"[bold]ggp synth[/] {task.game if task else resume} → {run_dir}")
    try:
        meta = _run_with_progress(run_dir, task, llm, settings, info, budget, replay,
                                  test_games=test_games, test_players=test_list,
                                  resume=resume is not None)
    except KeyboardInterrupt:
        console.print(f"[yellow]Interrupted.[/] Continue with: ggp synth --resume {run_dir}")
        raise typer.Exit(130) from None
    finally:
        close = getattr(llm, "close", None)
        if close:
            close()
    _summary(meta, Path(run_dir))


def _run_with_progress(run_dir: Path, task: Any, llm: Any, settings: Any, info: dict,
                       budget: int | None, replay: Path | None, *, test_games: int,
                       test_players: list[str] | None, resume: bool) -> dict:
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
            replay_from=(replay / "exchanges.jsonl") if replay else None,
            on_progress=on_progress, on_phase=on_phase)


def _is_faster_run(folder: Path) -> bool:
    from ggp.synth.faster import FORMAT

    try:
        meta = json.loads((Path(folder) / "metadata.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(meta, dict) and meta.get("format") == FORMAT


def _faster(target: str | None, *, out: Path | None, resume: Path | None,
            replay: Path | None, budget: int | None, seed: int, min_speedup: float,
            checked: int, search_games: int, test_seconds: float,
            llm_options: dict[str, Any]) -> None:
    """``ggp synth --faster``: run, resume or replay a speed refinement."""
    from ggp.synth.faster import FasterSettings, load_source, recorded_source, refine_speed
    from ggp.synth.run import RunStore

    settings = FasterSettings(max_calls=5 if budget is None else budget,
                              random_trajectories=checked, search_games=search_games,
                              min_speedup=min_speedup, seed=seed, test_seconds=test_seconds)
    source = None
    if resume is None:
        if target is None:  # --replay of a speed refinement: same original, same settings
            meta = RunStore(replay).read_json("metadata.json")
            settings = FasterSettings(**meta["settings"])
            source = recorded_source(replay)
        else:
            source = load_source(target)
        run_dir = out or Path("runs") / "faster" / \
            f"{_slug(source.name)}-{time.strftime('%Y%m%d-%H%M%S')}"
    else:
        run_dir = resume
    llm, info = _llm_for_run(run_dir, resume, replay, llm_options)
    signal.signal(signal.SIGTERM, _interrupt)
    console.print(f"[bold]ggp synth --faster[/] {source.name if source else resume} → {run_dir}")
    with Progress(TextColumn("{task.description}"), BarColumn(),
                  TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                  console=console, transient=False) as bar:
        phases: dict[str, Any] = {}

        def on_phase(name: str, done: int, total: int) -> None:
            if name not in phases:
                phases[name] = bar.add_task(name, total=total)
            bar.update(phases[name], completed=done, total=total)

        try:
            meta = refine_speed(run_dir, source, llm, settings, backend=info,
                                resume=resume is not None,
                                replay_from=(Path(replay) / "exchanges.jsonl")
                                if replay else None, on_phase=on_phase)
        except KeyboardInterrupt:
            console.print(f"[yellow]Interrupted.[/] Continue with: ggp synth --resume {run_dir}")
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
                      f"{Path(run_dir) / 'faster.py'}")
    else:
        console.print(f"[yellow]No faster program kept[/] after {meta.get('calls', 0)} "
                      f"calls; the reasons are in {Path(run_dir) / 'report.json'}")


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


def _llm_for_run(run_dir: Path, resume: Path | None, replay: Path | None,
                 llm_options: dict[str, Any]) -> tuple[Any, dict]:
    """The LLM client of a run and the backend facts its metadata records. Resuming or
    replaying needs a model only for answers the log does not hold: without LLM flags or
    ``GGP_LLM_*`` variables there is none, and a replay records the earlier run's backend
    and model (every answer comes from them)."""
    need_llm = (resume is None and replay is None) or any(
        v is not None for v in llm_options.values()) or any(
        k.startswith("GGP_LLM_") for k in os.environ)
    if need_llm:
        llm, info = _open_llm(run_dir, **llm_options)
    else:
        llm, info = None, {"name": "replay", "model": None}
    if replay is not None:
        from ggp.synth.run import RunStore

        if not need_llm:
            info = RunStore(replay).read_json("metadata.json").get("backend", {})
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


def _summary(meta: dict, run_dir: Path) -> None:
    table = Table(title=f"Synthesis of {meta['game']}", show_header=False)
    table.add_column("", style="bold")
    table.add_column("")
    for key, value in _summary_rows(meta, run_dir):
        table.add_row(key, value)
    console.print(table)


def _summary_rows(meta: dict, run_dir: Path) -> list[tuple[str, str]]:
    best = meta.get("best") or {}
    test = meta.get("test") or {}
    tokens = meta.get("tokens", {})
    backend = meta.get("backend", {})
    scripted = meta.get("scripted_answers")
    scripted = f", {scripted} scripted: not a model's work" if scripted else ""
    rows = [
        ("status", meta.get("status", "?")),
        ("backend", f"{backend.get('name', '?')} ({backend.get('model', '?')})"),
        *([("answers", f"replayed from {backend['replayed_from']}")]
          if backend.get("replayed_from") else []),
        ("mode", meta["settings"]["mode"]),
        ("LLM calls",
         f"{meta.get('calls', 0)} ({meta.get('replayed_calls', 0)} replayed{scripted})"),
        ("tokens", f"{tokens.get('total', 0):,} (prompt {tokens.get('prompt', 0):,}, "
                   f"completion {tokens.get('completion', 0):,})"),
        ("time", f"{meta.get('time_s', 0):.1f} s"),
        ("programs", str(meta.get("nodes", 0))),
        ("train accuracy", _accuracy(best.get("train_accuracy"), best.get("train_by_kind"))),
        ("test accuracy", _accuracy(test.get("accuracy"), test.get("by_kind"))
         if "accuracy" in test else "not measured (no ground truth or held-out file)"),
        ("model file", str(run_dir / "cwm.py") if best else "none"),
    ]
    return rows


def _accuracy(value: float | None, by_kind: dict | None) -> str:
    if value is None:
        return "-"
    parts = ", ".join(f"{k} {p}/{t}" for k, (p, t) in (by_kind or {}).items())
    return f"{value:.4f}" + (f"  ({parts})" if parts else "")


def show(run_dir: Path) -> None:
    """Print a run's summary, its refinement tree and the best program's failures."""
    from ggp.synth.run import RunStore

    store = RunStore(run_dir)
    meta = store.read_json("metadata.json")
    if _is_faster_run(run_dir):
        _show_faster(store, meta)
        return
    _summary(meta, run_dir)
    tree = store.read_json("tree.json") if store.file("tree.json").is_file() else {"nodes": []}
    nodes = Table(title=f"Refinement tree ({tree.get('mode', '?')})")
    for column in ("node", "parent", "call", "train acc.", "refined", "tests by kind", "note"):
        nodes.add_column(column)
    for node in tree["nodes"]:
        kinds = ", ".join(f"{k} {p}/{t}" for k, (p, t) in node["by_kind"].items())
        note = "does not load" if node.get("load_error") else ""
        nodes.add_row(str(node["id"]), "-" if node["parent"] is None else str(node["parent"]),
                      str(node["call"]), f"{node['h']:.3f}", str(node["refined"]), kinds, note)
    console.print(nodes)
    if store.file("report.json").is_file():
        report = store.read_json("report.json")
        for label, key in (("training", "train_failures"), ("held-out", "test_failures")):
            failures = report.get(key, [])
            if failures:
                console.print(f"[bold]First failing {label} test[/] ({failures[0]['id']}):")
                console.print(failures[0]["error"] or "", markup=False, highlight=False)
    console.print(f"Exchanges with the model: {store.file('exchanges.jsonl')}")


def _show_faster(store: Any, meta: dict) -> None:
    """A speed refinement's summary and every candidate's verdict."""
    kept = meta.get("kept") or {}
    backend = meta.get("backend", {})
    table = Table(title=f"Speed refinement of {meta['game']}", show_header=False)
    table.add_column("", style="bold")
    table.add_column("")
    speed = meta.get("original_playouts_per_s")
    for key, value in (
        ("status", meta.get("status", "?")),
        ("source", f"{meta['source'].get('origin')} {meta['source'].get('path')}"),
        ("backend", f"{backend.get('name', '?')} ({backend.get('model', '?')})"),
        ("LLM calls", f"{meta.get('calls', 0)} ({meta.get('replayed_calls', 0)} replayed)"),
        ("original", f"{speed:,.0f} playouts/s" if speed else "-"),
        ("kept", f"candidate {kept['candidate']}: {kept['speedup']:.2f}x, agrees on "
                 f"{kept['trajectories']} games" if kept else "none"),
    ):
        table.add_row(key, value)
    console.print(table)
    if store.file("candidates.json").is_file():
        for i, record in enumerate(store.read_json("candidates.json")):
            verdict = "kept" if record.get("accepted") else "rejected: " + str(
                record.get("reason", "")).splitlines()[0][:160]
            console.print(f"candidate {i} (call {record.get('call')}): {verdict}",
                          markup=False, highlight=False)


def register(app: typer.Typer) -> None:
    app.command(context_settings={"allow_interspersed_args": True})(synth)

