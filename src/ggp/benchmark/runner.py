"""``ggp bench synth SUITE``: synthesize, measure and play every game of a suite.

For each game, in its own folder ``OUT/GAME/``:

1. **synthesis** (``synth/``, a :func:`ggp.synth.run.synthesize` run directory): the
   training and held-out games are recorded from the game's model file in a sandbox
   (:func:`ggp.synth.run.model_file_task`), or, with ``replay``, the recorded run of the
   game is reproduced from its answers (:func:`ggp.synth.run.replay_plan`);
2. **behaviour accuracy** of the synthesized model on the held-out games
   (:func:`ggp.cwm.accuracy.behaviour_accuracy`, open deck only);
3. **play check** (``arena/``): the CWM agent against Random and against the same search
   on the reference model (GT agent) with the same time per move, a few matches per seat
   (:func:`ggp.arena.tournament.run_tournament`);
4. ``result.json``: the game's row of the report, written last.

Steps 2 and 3 run the game's reference code in this process (the arena hosts the
match), so they need ``trusted``; the synthesized code runs only in sandboxed workers.
Every step resumes: a finished game is read back from ``result.json``, an interrupted
synthesis is resumed from its log, an interrupted arena continues with the matches it
lacks. Games run in parallel (``jobs``) on a local process pool or on Ray (``pool``);
each reports its phase in ``OUT/GAME/status.json``, which the caller polls for progress.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from ggp.benchmark.suite import Suite, SuiteGame
from ggp.core.errors import GGPError
from ggp.rundir import (
    EXCHANGES,
    METADATA,
    TRAJECTORIES,
    Best,
    RunMetadata,
    RunStore,
    TestInfo,
    TrainInfo,
    metadata_if_any,
)


class RunnerError(GGPError):
    """A suite run cannot go on (a missing recorded run, a folder in the way)."""


#: Statuses of a synthesis that finished (the others resume).


@dataclass(frozen=True)
class LLMOptions:
    """How each game's LLM client is made (the flags of ``ggp synth``). With the exchange
    backend every game gets its own folder ``exchange_dir/GAME``, so several answerers
    can work on different games at once."""

    backend: str | None = None
    model: str | None = None
    base_url: str | None = None
    config: str | None = None
    exchange_dir: str | None = None
    cache_mode: str | None = None

    def wanted(self) -> bool:
        """Whether any option (or the environment) names a backend."""
        return any(v is not None for v in asdict(self).values()) or any(
            k.startswith("GGP_LLM_") for k in os.environ)

    def __call__(self, game: str, run_dir: Path) -> tuple[Any, dict[str, Any]]:
        from ggp.llm import load_config, make_client

        exchange = str(Path(self.exchange_dir) / game) if self.exchange_dir else None
        config = load_config(self.config, backend=self.backend, model=self.model,
                             base_url=self.base_url, exchange_dir=exchange,
                             cache_mode=self.cache_mode)
        run_dir.mkdir(parents=True, exist_ok=True)
        return make_client(config, run_dir=run_dir), {
            "name": config.backend, "model": config.model or config.backend,
            "base_url": config.base_url}


@dataclass(frozen=True)
class BenchOptions:
    """Settings of a suite run; None means the suite's default (``[suite]`` table)."""

    train_games: int | None = None
    test_games: int | None = None
    test_players: str | None = None
    budget: int | None = None
    play_matches: int | None = None
    play_time: float | None = None
    seed: int = 0
    test_seconds: float = 5.0
    trusted: bool = False
    replay: str | None = None  # a recorded suite: one run folder per game
    #: ``factory(game, run_dir) -> (llm, backend info)``; None: replay only. Must pickle
    #: when ``jobs > 1`` (an :class:`LLMOptions` does).
    llm: Callable[[str, Path], tuple[Any, dict[str, Any]]] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def resolved(self, suite: Suite) -> dict[str, Any]:
        d = suite.defaults

        def pick(value: Any, key: str, default: Any) -> Any:
            return value if value is not None else d.get(key, default)

        play_time = float(pick(self.play_time, "play_time", 0.1))
        if play_time <= 0:
            raise RunnerError(f"The play check's time per move must be positive, not "
                              f"{play_time:g} (--play-matches 0 turns the check off).")
        return {"train_games": int(pick(self.train_games, "train_games", 5)),
                "test_games": int(pick(self.test_games, "test_games", 30)),
                "test_players": str(pick(self.test_players, "test_players", "random")),
                "budget": int(pick(self.budget, "budget", 8)),
                "play_matches": int(pick(self.play_matches, "play_matches", 2)),
                "play_time": play_time}


# --------------------------------------------------------------------------- one game
class _Status:
    """Writes ``status.json`` (phase, done, total) for the progress display, at most every
    ``every_s`` seconds within a phase (held-out tests report one by one), and calls
    ``hook`` after each write (the display, when the game runs in the caller's process)."""

    def __init__(self, folder: Path, hook: Callable[[], None] | None = None,
                 every_s: float = 0.25) -> None:
        self.file = folder / "status.json"
        self.hook, self.every_s = hook, every_s
        self._last: tuple[str, float] = ("", 0.0)
        folder.mkdir(parents=True, exist_ok=True)

    def __call__(self, phase: str, done: int = 0, total: int = 0, info: str = "") -> None:
        now = time.monotonic()
        if phase == self._last[0] and now - self._last[1] < self.every_s and done != total:
            return
        self._last = (phase, now)
        tmp = self.file.with_name(f"status.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"phase": phase, "done": done, "total": total,
                                   "info": info}), encoding="utf-8")
        os.replace(tmp, self.file)
        if self.hook is not None:
            self.hook()


def recorded_run(root: str | Path, game: str) -> Path:
    """The recorded run of ``game`` in a recorded suite: ``ROOT/GAME`` or, for the output
    folder of an earlier ``ggp bench synth``, ``ROOT/GAME/synth``."""
    for folder in (Path(root) / game, Path(root) / game / "synth"):
        if (folder / "metadata.json").is_file() and (folder / "exchanges.jsonl").is_file():
            return folder
    raise RunnerError(f"The recorded suite {root} has no run of {game} (looked for "
                   f"{Path(root) / game}/metadata.json and exchanges.jsonl).")


def run_game(game: SuiteGame, out: Path, options: BenchOptions,
             settings: dict[str, Any],
             on_status: Callable[[], None] | None = None) -> dict[str, Any]:
    """Run every step of one game in ``out / game.name`` and return its result row (also
    written to ``result.json``). A game already done is read back. ``on_status`` is
    called whenever the game's ``status.json`` changes."""
    folder = out / game.name
    result_file = folder / "result.json"
    if result_file.is_file():
        return json.loads(result_file.read_text(encoding="utf-8"))
    status = _Status(folder, on_status)
    started = time.monotonic()
    row: dict[str, Any] = {"game": game.name, "tags": list(game.tags),
                           "players": game.players, "deck": game.deck,
                           "inference": game.inference}
    try:
        meta = _synthesis(game, folder / "synth", options, settings, status)
        row.update(synthesis_row(folder / "synth", meta))
        row["behaviour"] = _behaviour(game, folder / "synth", options, status)
        row["play"] = _play(game, folder, options, settings, status)
    except Exception as exc:  # noqa: BLE001 - one game's failure must not stop the suite
        status("error", info=str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        detail = str(exc) if isinstance(exc, GGPError) else traceback.format_exc()
        (folder / "error.txt").write_text(detail, encoding="utf-8")
        return {**row, "status": "error",
                "error": f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"}
    row["bench_time_s"] = round(time.monotonic() - started, 1)
    tmp = result_file.with_suffix(".tmp")
    tmp.write_text(json.dumps(row, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, result_file)
    status("done")
    return row


def _synthesis(game: SuiteGame, run_dir: Path, options: BenchOptions,
               settings: dict[str, Any], status: _Status) -> RunMetadata:
    """The game's synthesis run: read back when finished, resumed when interrupted,
    started otherwise (reproduced from the recorded suite with ``replay``)."""
    from ggp.synth.refine import Settings
    from ggp.synth.run import model_file_task, synthesize

    store = RunStore(run_dir)
    if store.exists():
        meta = store.load_metadata()
        if meta.is_finished:
            return meta
    recorded = recorded_run(options.replay, game.name) if options.replay else None
    replay_from = recorded / EXCHANGES if recorded else None
    llm, info = (options.llm(game.name, run_dir) if options.llm is not None
                 else (None, {"name": "replay", "model": None}))
    budget = settings["budget"]

    def on_progress(p: Any) -> None:
        status("synthesis", p.calls, budget,
               f"{p.calls} calls ({p.replayed} replayed), best train accuracy {p.best_h:.3f}")

    def on_phase(name: str, done: int, total: int) -> None:
        status(name, done, total)

    try:
        if store.exists():
            status("synthesis", 0, budget, "resuming")
            return synthesize(run_dir, None, llm, resume=True, replay_from=replay_from,
                              on_progress=on_progress, on_phase=on_phase)
        if recorded is not None:
            status("recording", 0, 1, f"training games of {recorded}")
            plan = _recorded_plan(game, recorded)
            backend = {**plan.backend, **({} if llm is None else info),
                       "replayed_from": str(recorded)}
            return synthesize(run_dir, plan.task, llm, plan.settings, backend=backend,
                              test_games=plan.test_games, test_players=plan.test_players,
                              replay_from=replay_from, on_progress=on_progress,
                              on_phase=on_phase)
        status("recording", 0, 1, "training and held-out games (sandbox)")
        players = [p for p in settings["test_players"].split(",") if p.strip()]
        task = model_file_task(game.file, games=settings["train_games"], seed=options.seed,
                               deck=game.deck, view_player=game.view_player,
                               test_games=settings["test_games"], test_players=players)
        status("synthesis", 0, budget, "waiting for the first answer")
        run_settings = Settings(seed=options.seed, max_calls=budget,
                                test_seconds=options.test_seconds,
                                inference=game.inference or game.deck == "closed")
        return synthesize(run_dir, task, llm, run_settings, backend=info,
                          test_games=settings["test_games"], test_players=players,
                          on_progress=on_progress, on_phase=on_phase)
    finally:
        close = getattr(llm, "close", None)
        if close:
            close()


def _recorded_plan(game: SuiteGame, recorded: Path) -> Any:
    """How to replay a recorded run: from its own inputs when it kept them, else (a slim
    export) with its training and held-out games recorded again from the suite's model
    file, with the recorded counts, seeds, players and deck. Recording is seeded, so the
    requests come out the same as long as the game's code did not change (if it did, the
    replay stops at the first request the log cannot answer)."""
    from ggp.synth.refine import Settings
    from ggp.synth.run import ReplayPlan, model_file_task, replay_plan

    if (recorded / TRAJECTORIES).is_file():
        return replay_plan(recorded)
    meta = RunStore(recorded).load_metadata()
    train, test = meta.train or TrainInfo(), meta.test or TestInfo()
    seed = meta.seeds.trajectories if meta.seeds else None
    try:
        if meta.settings is None or train.games is None or seed is None:
            raise ValueError("settings, train.games or seeds.trajectories")
        settings = Settings(**meta.settings)
        players = test.players if isinstance(test.players, list) else None
        task = model_file_task(game.file, games=int(train.games), seed=int(seed),
                               players=list(train.players or ["random"]),
                               deck=train.deck or "open",
                               view_player=int(train.view_player or 0),
                               test_games=int(test.games or 0), test_players=players)
    except (TypeError, ValueError) as exc:
        raise RunnerError(f"{recorded}/{METADATA} does not say how its games were "
                          f"recorded (missing or wrong {exc}).") from None
    backend = meta.backend.to_dict() if meta.backend else {}
    return ReplayPlan(task, settings, int(test.games or 0), players,
                      {**backend, "replayed_from": str(recorded)})


def _rate(pair: Any) -> float | None:
    return pair[0] / pair[1] if isinstance(pair, list) and len(pair) == 2 and pair[1] else None


def synthesis_row(run_dir: Path, meta: RunMetadata) -> dict[str, Any]:
    """The report's columns read from one synthesis run directory."""
    test = meta.test or TestInfo()
    by_kind = test.by_kind or {}
    best = meta.best or Best()
    row: dict[str, Any] = {
        "status": meta.status,
        "solved": meta.status == "solved",
        "calls": meta.calls or 0,
        "replayed_calls": meta.replayed_calls or 0,
        "scripted_answers": meta.scripted_answers or 0,
        "backend": meta.backend.to_dict() if meta.backend else {},
        "tokens": meta.tokens.total or 0 if meta.tokens else 0,
        "time_s": meta.time_s,
        "train_accuracy": best.train_accuracy,
        "test_accuracy": test.accuracy,
        "transition_accuracy": _rate(by_kind.get("transition")),
        "terminal_accuracy": _rate(by_kind.get("terminal")),
        "inference_accuracy": _rate(by_kind.get("inference")),
        "test_tests": test.tests,
        "run": str(run_dir),
    }
    row["one_call"] = bool(row["solved"] and row["calls"] == 1)
    row["curve"] = accuracy_curve(run_dir)
    report_file = run_dir / "report.json"
    report = json.loads(report_file.read_text(encoding="utf-8")) if report_file.is_file() else {}
    for key, name in (("train_failures", "first_train_failure"),
                      ("test_failures", "first_test_failure")):
        failures = report.get(key) or []
        row[name] = _failure(failures[0]) if failures else None
    return row


def _failure(entry: dict[str, Any]) -> dict[str, Any]:
    error = (entry.get("error") or "").strip().splitlines()
    return {"id": entry.get("id"), "kind": entry.get("kind"),
            "error": error[-1][:200] if error else ""}


def accuracy_curve(run_dir: Path) -> list[float]:
    """Best training accuracy after each LLM call (from ``tree.json``)."""
    tree_file = run_dir / "tree.json"
    if not tree_file.is_file():
        return []
    nodes = json.loads(tree_file.read_text(encoding="utf-8")).get("nodes", [])
    best_by_call: dict[int, float] = {}
    for node in nodes:
        call = int(node.get("call", 0))
        best_by_call[call] = max(best_by_call.get(call, 0.0), float(node.get("h", 0.0)))
    curve, best = [], 0.0
    for call in range(1, max(best_by_call, default=0) + 1):
        best = max(best, best_by_call.get(call, 0.0))
        curve.append(round(best, 4))
    return curve


def _reference(game: SuiteGame) -> Any:
    from ggp.load import load_model

    return load_model(str(game.file), trusted=True)


def _behaviour(game: SuiteGame, run_dir: Path, options: BenchOptions,
               status: _Status) -> dict[str, Any] | None:
    """Behaviour accuracy on the held-out games (open deck, trusted runs only)."""
    from ggp.cwm.accuracy import behaviour_accuracy
    from ggp.synth.trajectories import load_trajectories

    test_file = run_dir / "test_trajectories.jsonl"
    if not options.trusted or not (run_dir / "cwm.py").is_file() or not test_file.is_file():
        return None
    cached = run_dir.parent / "behaviour.json"
    if cached.is_file():
        return json.loads(cached.read_text(encoding="utf-8"))
    status("behaviour accuracy")
    trajectories = load_trajectories(test_file)
    value = behaviour_accuracy(run_dir, trajectories, _reference(game).metadata)
    cached.write_text(json.dumps(value, indent=1) + "\n", encoding="utf-8")
    return value


def _play(game: SuiteGame, folder: Path, options: BenchOptions, settings: dict[str, Any],
          status: _Status) -> dict[str, Any] | None:
    """The CWM agent against Random and against the GT agent (the same search on the
    reference model), both searches with the same time per move: mean payoff, win rate
    and each searching side's simulations and milliseconds per move, per opponent over
    every seat."""
    from ggp.arena.report import write_report
    from ggp.arena.store import read_records
    from ggp.arena.tournament import TournamentConfig, run_tournament

    run_dir = folder / "synth"
    matches, seconds = settings["play_matches"], settings["play_time"]
    if not options.trusted or matches < 1 or not (run_dir / "cwm.py").is_file():
        return None
    perfect = _reference(game).metadata.perfect_information
    planner = "mcts" if perfect else "ismcts"
    # sims=0: a time budget only, so the side with the faster model runs more simulations
    budget = f"sims=0:time={seconds:g}:rollouts=1"
    agent = f"cwm_{planner}:run={run_dir.resolve()}:{budget}"
    opponents = {"random": "random", "gt": f"gt_{planner}:{budget}"}
    config = TournamentConfig(games=(str(game.file.resolve()),), agents=(agent,),
                              opponents=tuple(opponents.values()), matches=matches,
                              seed=options.seed)
    counts = {"done": 0, "total": 0}

    def started(total: int, already: int) -> None:
        counts.update(done=already, total=total)
        status("play check", already, total)

    def finished(record: dict[str, Any]) -> None:
        counts["done"] += 1
        status("play check", counts["done"], counts["total"])

    run_tournament(config, folder / "arena", workers=0, on_start=started, on_result=finished)
    write_report(folder / "arena", plots=False)
    records = [r for r in read_records(folder / "arena" / "results.jsonl")
               if "error" not in r and agent in r["seats"]]
    result: dict[str, Any] = {"planner": planner, "time": seconds, "matches_per_seat": matches}
    for label, spec in opponents.items():
        result[label] = play_summary([r for r in records if spec in r["seats"]], agent, spec)
    return result


def play_summary(records: list[dict[str, Any]], agent: str,
                 opponent: str) -> dict[str, Any]:
    """The ``agent``'s results against ``opponent`` over arena match records: matches,
    mean payoff and win rate over the agent's seats, forfeits, and for each side its mean
    milliseconds and simulations per move (None for a side that does not search)."""
    from ggp.arena.stats import outcome

    payoffs, wins, forfeits = [], 0, 0
    sides = {side: {"moves": 0, "seconds": 0.0, "sim_moves": 0, "sims": 0}
             for side in ("us", "them")}
    for record in records:
        for seat, spec in enumerate(record["seats"]):
            side = "us" if spec == agent else "them" if spec == opponent else None
            if side is None:
                continue
            moves = record["moves"][seat]
            sides[side]["moves"] += moves
            sides[side]["seconds"] += moves * record["move_seconds_mean"][seat]
            sims = (record.get("simulations") or [None] * len(record["seats"]))[seat]
            if sims is not None:
                sides[side]["sim_moves"] += moves
                sides[side]["sims"] += sims
            if side == "us":
                payoffs.append(record["returns"][seat])
                wins += outcome(record["returns"], seat) == "win"
                forfeit = record.get("forfeit")
                forfeits += bool(forfeit and forfeit["player"] == seat)
    n = len(payoffs)
    summary: dict[str, Any] = {"matches": n, "payoff": sum(payoffs) / n if n else None,
                               "win_rate": wins / n if n else None, "forfeits": forfeits}
    for side, totals in sides.items():
        summary[f"ms_per_move_{side}"] = (round(1000 * totals["seconds"] / totals["moves"], 1)
                                          if totals["moves"] else None)
        summary[f"sims_per_move_{side}"] = (round(totals["sims"] / totals["sim_moves"], 1)
                                            if totals["sim_moves"] else None)
    return summary


def _stop_workers(pool: ProcessPoolExecutor, grace_s: float = 5.0) -> None:
    """Stop a pool whose games may be blocked (an exchange backend waits for answers
    forever): SIGTERM first, so a synthesis can record that it was interrupted, then
    SIGKILL. Every game resumes from its folder on the next run."""
    # The executor has no public handle on its processes; without one, shutdown would
    # wait for games that may never end.
    processes = list(getattr(pool, "_processes", {}).values())
    for process in processes:
        process.terminate()
    deadline = time.monotonic() + grace_s
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join(5)
    pool.shutdown(wait=False, cancel_futures=True)


# --------------------------------------------------------------------------- the suite
#: Where the games of a suite run: a local process pool, or Ray.
POOLS = ("local", "ray")


def run_suite(suite: Suite, out: str | Path, options: BenchOptions, *,
              games: list[str] | None = None, jobs: int = 1, pool: str = "local",
              address: str | None = None,
              on_status: Callable[[dict[str, dict[str, Any]]], None] | None = None,
              on_result: Callable[[dict[str, Any]], None] | None = None,
              poll_seconds: float = 0.5) -> list[dict[str, Any]]:
    """Run every selected game of ``suite`` into ``out`` and write the report; returns
    the result rows in suite order. ``jobs`` games run at once: on a local process pool
    (``pool="local"``; ``jobs=1`` runs them in this process) or as Ray tasks
    (``pool="ray"``: on the cluster at ``address``, or on a local Ray of ``jobs`` CPUs
    started and shut down here). ``on_status(statuses)`` gets every game's
    ``status.json`` content while games run; ``on_result(row)`` is called as each game
    finishes. The report covers every game of ``out`` so far: games run earlier with
    other ``games`` selections are read back."""
    from ggp.benchmark.report import write_report

    if pool not in POOLS:
        raise RunnerError(f"Unknown pool {pool!r}; use one of {', '.join(POOLS)}.")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    selected = suite.select(games)
    settings = options.resolved(suite)
    earlier: list[str] = []
    if (out / "bench.json").is_file():
        earlier = json.loads((out / "bench.json").read_text(encoding="utf-8")).get("games", [])
    chosen = {g.name for g in selected} | set(earlier)
    everything = [g.name for g in suite.games if g.name in chosen]
    (out / "bench.json").write_text(json.dumps(
        {"suite": suite.name, "suite_path": str(suite.path), "settings": settings,
         "seed": options.seed, "trusted": options.trusted, "replay": options.replay,
         "games": everything}, indent=1) + "\n", encoding="utf-8")
    rows: dict[str, dict[str, Any]] = {}

    def poll() -> None:
        if on_status is None:
            return
        statuses = {}
        for g in selected:
            file = out / g.name / "status.json"
            try:
                statuses[g.name] = json.loads(file.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError):
                statuses[g.name] = {"phase": "waiting", "done": 0, "total": 0, "info": ""}
        on_status(statuses)

    def finish(row: dict[str, Any]) -> None:
        rows[row["game"]] = row
        if on_result:
            on_result(row)

    if pool == "ray":
        _run_on_ray(selected, out, options, settings, jobs, address, poll, finish,
                    poll_seconds)
    elif jobs <= 1:
        for game in selected:
            poll()
            finish(run_game(game, out, options, settings, on_status=poll))
    else:
        pool = ProcessPoolExecutor(max_workers=jobs)
        try:
            pending = {pool.submit(run_game, g, out, options, settings): g for g in selected}
            while pending:
                done, _ = wait(pending, timeout=poll_seconds, return_when=FIRST_COMPLETED)
                poll()
                for future in done:
                    game = pending.pop(future)
                    try:
                        finish(future.result())
                    except Exception as exc:  # noqa: BLE001 - a worker died
                        finish(_died(game, exc))
        except BaseException:
            _stop_workers(pool)
            raise
        pool.shutdown()
    poll()
    ordered = [rows[g.name] for g in selected]
    report_rows = []
    for name in everything:
        file = out / name / "result.json"
        if name in rows:
            report_rows.append(rows[name])
        elif file.is_file():
            report_rows.append(json.loads(file.read_text(encoding="utf-8")))
    write_report(out, report_rows, suite=suite.name, settings=settings)
    return ordered


def _died(game: SuiteGame, exc: BaseException) -> dict[str, Any]:
    """The result row of a game whose worker died (run_game itself never raises)."""
    return {"game": game.name, "tags": list(game.tags), "status": "error",
            "error": f"{type(exc).__name__}: {exc}"}


def _run_on_ray(selected: list[SuiteGame], out: Path, options: BenchOptions,
                settings: dict[str, Any], jobs: int, address: str | None,
                poll: Callable[[], None], finish: Callable[[dict[str, Any]], None],
                poll_seconds: float) -> None:
    """Each game a Ray task of one CPU. Workers write into ``out`` as a local pool does,
    so on a cluster ``out`` (and the suite) must be at the same path on every node, e.g.
    a shared filesystem, and each node needs ggp installed in the same version."""
    try:
        import ray
    except ImportError:
        raise RunnerError("The ray pool needs Ray: pip install 'ggp[ray]' (or pip "
                          "install ray).") from None
    started_here = not ray.is_initialized()
    if started_here:
        on_term = signal.getsignal(signal.SIGTERM)
        ray.init(address=address, num_cpus=max(1, jobs) if address is None else None,
                 include_dashboard=False, log_to_driver=False, configure_logging=False)
        # Ray's driver replaces the SIGTERM handler with one that exits at once; the
        # caller's (the CLI stops the games and says how to resume) is put back
        if on_term is not None and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, on_term)
    # a Ray worker need not share this process's working directory
    out = out.resolve()
    if options.replay:
        options = replace(options, replay=str(Path(options.replay).resolve()))
    pending: dict[Any, SuiteGame] = {}
    try:
        task = ray.remote(num_cpus=1, max_retries=0)(run_game)
        pending = {task.remote(replace(g, file=g.file.resolve()), out, options,
                               settings): g for g in selected}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1, timeout=poll_seconds)
            poll()
            for ref in done:
                game = pending.pop(ref)
                try:
                    finish(ray.get(ref))
                except ray.exceptions.RayError as exc:  # the worker died
                    finish(_died(game, exc))
    except BaseException:
        # games blocked on an exchange folder would run on; each resumes from its folder
        for ref in pending:
            ray.cancel(ref, force=True)
        raise
    finally:
        if started_here:
            ray.shutdown()


#: The files of a synthesis run that a recorded suite keeps: enough to replay it
#: (:func:`ggp.synth.run.replay_plan` reads the inputs of a model-file run from them) and
#: to inspect it.
RECORDED_FILES = ("metadata.json", "exchanges.jsonl", "rules.txt", "trajectories.jsonl",
                  "test_trajectories.jsonl", "cwm.py", "tree.json", "report.json")


#: What a slim export leaves out: the recorded games, rebuilt from the suite's model
#: files on replay (they are most of a recorded suite's size).
TRAJECTORY_FILES = ("trajectories.jsonl", "test_trajectories.jsonl")


def export_recorded(out: str | Path, dest: str | Path, *, slim: bool = False) -> list[str]:
    """Copy the synthesis runs of a suite run folder ``out`` into a recorded suite
    ``dest`` (``dest/GAME/`` per game, plus the report files), which ``--replay dest``
    reproduces offline. ``slim`` leaves out the recorded games (see
    :data:`TRAJECTORY_FILES`). Returns the games exported."""
    import shutil

    out, dest = Path(out), Path(dest)
    bench_file = out / "bench.json"
    if not bench_file.is_file():
        raise RunnerError(f"{out} is not the output folder of ggp bench synth (no "
                          "bench.json).")
    games = json.loads(bench_file.read_text(encoding="utf-8"))["games"]
    exported = []
    for game in games:
        run = out / game / "synth"
        meta = metadata_if_any(run)
        if meta is None or not meta.is_finished:
            continue
        (dest / game).mkdir(parents=True, exist_ok=True)
        for name in RECORDED_FILES:
            if slim and name in TRAJECTORY_FILES:
                continue
            if (run / name).is_file():
                shutil.copy2(run / name, dest / game / name)
        exported.append(game)
    for name in ("report.md", "report.json", "report.csv", "summary.png"):
        if (out / name).is_file():
            shutil.copy2(out / name, dest / name)
    return exported
