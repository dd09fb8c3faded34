"""Speed refinement (``ggp synth faster RUN|MODEL``): a language model rewrites a correct
but slow world model into a faster one, and only a proven equal, measured faster program
is kept.

The original program (a synthesis run's ``cwm.py``, a model file, or a registered game's
module) is profiled in a box; the language model gets its code, its hot spots and its
measured speed, and answers with a whole program. A candidate is kept only if

1. it passes every unit test of the run (training tests, and held-out tests when the run
   has a held-out file), judged as in synthesis (:mod:`ggp.synth.runner`);
2. it agrees with the original on every replayed trajectory
   (:func:`ggp.synth.differential.compare_models`): ``random_trajectories`` seeded random
   games and ``search_games`` games of search players, never shown to the model;
3. it is faster: seeded random playouts of both programs, in their boxes, timed in this
   process in alternating rounds, give ``candidate / original >= min_speedup``.

A rejected candidate's reason (first failing test, first divergence with its moves, or
the measured ratio) goes back to the model in the next request. Each run owns a folder::

    metadata.json        source, backend, settings, status, the kept candidate's evidence
    original.py          the original program (replays use this copy)
    hotspots.txt         the original's profile, as shown to the model
    search_trajectories.json  the search players' games (built once)
    exchanges.jsonl      every request and answer (resume and --replay read it)
    candidates/cand_N.py every candidate, with its evidence in candidates.json
    faster.py            the kept program (absent when none was kept)
    report.json          the evidence: unit tests, agreement, first divergence, speeds

Every verdict is computed here from the boxes' raw results (docs/sandbox.md).
"""

from __future__ import annotations

import hashlib
import inspect
import json
import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ggp.core.errors import GGPError
from ggp.llm import LLM
from ggp.rundir import (
    CANDIDATES,
    EXCHANGES,
    FASTER_FORMAT,
    FASTER_MODEL,
    GDL_SOURCE,
    METADATA,
    MODEL,
    ORIGINAL,
    REFERENCE_SOURCE,
    REPORT,
    TEST_TRAJECTORIES,
    TRAJECTORIES,
    RunStore,
)
from ggp.sandbox import SandboxFailure
from ggp.sandbox.modelbox import lit, step
from ggp.synth import prompts
from ggp.synth.differential import (
    DifferentialError,
    compare_models,
    measure_speed,
    open_box,
    search_trajectories,
)
from ggp.synth.llm import RecordingLLM

FORMAT = FASTER_FORMAT


class FasterError(GGPError):
    """The source of a speed refinement cannot be used, or its folder is in the way."""


@dataclass(frozen=True)
class FasterSettings:
    """How a speed refinement searches and what it demands of a candidate."""

    max_calls: int = 5
    random_trajectories: int = 1000
    search_games: int = 40
    search_players: str = "mcts:sims=20:rollouts=1"
    min_speedup: float = 1.2
    playouts: int = 200
    rounds: int = 3
    max_steps: int = 1000
    seed: int = 0
    test_seconds: float = 5.0


@dataclass(frozen=True)
class Source:
    """The original program and where it came from."""

    name: str
    code: str
    origin: str  # "run", "model file" or "registered game"
    path: str
    tests: list  # the run's unit tests (UnitTest), empty for a model file or game


Phase = Callable[[str, int, int], None]


def load_source(target: str | Path) -> Source:
    """The original of ``target``: a synthesis run folder (its ``cwm.py`` and unit
    tests), a Python model file, or a registered game's module."""
    path = Path(target)
    if path.is_dir():
        return _run_source(path)
    if path.suffix == ".py":
        if not path.is_file():
            raise FasterError(f"No such model file: {path}.")
        return Source(path.stem, path.read_text(encoding="utf-8"), "model file", str(path), [])
    from ggp.core.registry import make_game

    try:
        model = make_game(str(target))
    except Exception as exc:  # noqa: BLE001 - the registry's own message is the reason
        raise FasterError(f"{target} is neither a run folder, a .py model file nor a "
                          f"registered game ({exc}).") from None
    module = inspect.getmodule(type(model.namespace)) if not inspect.ismodule(
        model.namespace) else model.namespace
    file = getattr(module, "__file__", None)
    if not file or not Path(file).is_file():
        raise FasterError(f"The game {target} has no single source file to speed up.")
    return Source(model.name, Path(file).read_text(encoding="utf-8"), "registered game",
                  str(target), [])


def _run_source(path: Path) -> Source:
    from ggp.synth.refine import Settings
    from ggp.synth.run import _tests, own_layout
    from ggp.synth.trajectories import load_trajectories

    store = RunStore(path)
    if not store.file(MODEL).is_file():
        raise FasterError(f"{path} holds no {MODEL}: not a synthesis run with a program.")
    meta = store.load_metadata()
    settings = Settings(**(meta.settings or {}))
    if store.file(TRAJECTORIES).is_file():
        train = load_trajectories(store.file(TRAJECTORIES))
    elif meta.source in (REFERENCE_SOURCE, GDL_SOURCE):  # a recorded run keeps only its
        from ggp.synth.run import replay_plan  # answers: its training games are played again

        train = replay_plan(path).task.train
    else:
        raise FasterError(f"{path} has no trajectories.jsonl to rebuild its unit tests from.")
    inference = settings.inference or train.deck == "closed"
    # a GDL program with its own state layout is tested on what the players see
    states = not own_layout(meta)
    tests = _tests(train, settings, inference, states=states)
    held = store.file(TEST_TRAJECTORIES)
    if held.is_file():
        tests += _tests(load_trajectories(held), settings, inference, prefix="Heldout",
                        random_play=0, states=states)
    return Source(str(meta.game or path.name), store.file(MODEL).read_text(
        encoding="utf-8"), "run", str(path), tests)


def _compares_states(source: Source) -> bool:
    """Whether the source's unit tests compare states (so the layout must stay): a GDL
    run with its own layout is tested by replays that compare only what players see."""
    return bool(source.tests) and not any(t.plan.get("kind") == "replay"
                                          for t in source.tests)


# ------------------------------------------------------------------------ prompts
SYSTEM = ("You are an expert Python programmer who makes programs fast without changing "
          "what they compute.")


def faster_prompt(source: Source, hotspots: str, speed: float, with_tests: bool,
                  min_speedup: float = FasterSettings.min_speedup) -> str:
    """The request for a faster program (the original, its profile and its speed)."""
    keep_states = (
        "The run's unit tests compare the state dicts that apply_action returns, so keep "
        "the state's keys and values exactly as they are; make the functions faster."
        if with_tests else
        "You may change how the state is laid out inside its dict (it must stay a dict of "
        "plain JSON values: no tuples, sets or objects), but every observation, every "
        "legal action string and every reward must stay exactly the same.")
    return f"""Below is a correct but slow Python program that implements the game
{source.name!r} under this interface:

{prompts.api_text()}

Write a faster program with exactly the same behaviour. For every sequence of moves from
the initial state, your program must give the same current player, the same set of legal
actions (any order), the same rewards, the same observations for every player, the same
chance outcomes with the same probabilities. It will
be checked against the original on thousands of random and search-guided games that you
do not see, and timed on random playouts; it is kept only if it agrees everywhere and is
at least {min_speedup:g} times as fast.

{keep_states} apply_action must not modify its input state. Keep every other function the
original defines (resample_history, resample_state, value_function, ...) with the same
behaviour; they may be copied unchanged. Keep the module
self-contained (standard library only; `from ggp.core.protocol import ...` as in the
original is allowed). Typical gains: precompute tables at import time (move names, parsed
moves, lines or neighbourhoods), avoid re-deriving the legal move list inside
apply_action, avoid deep copies of data that does not change, avoid generators and
f-strings in inner loops.

The original's random playouts run at {speed:,.0f} playouts per second. Its profile
over random playouts (cProfile; cwm.py is the original, box.py the harness that plays the
playouts and is the same for every program):

{hotspots.strip() or "(no profile)"}

The original program:

```python
{source.code.rstrip()}
```

Answer with the whole faster program in one ```python block."""


def rejection_message(reason: str) -> str:
    """The follow-up request after a rejected candidate."""
    return (f"Your program was rejected: {reason}\n\nFix it and answer with the whole "
            "faster program in one ```python block.")


# ------------------------------------------------------------------------ running
def refine_speed(run_dir: str | Path, source: Source | None, llm: LLM | None,
                 settings: FasterSettings = FasterSettings(), *,
                 backend: dict[str, Any] | None = None, resume: bool = False,
                 replay_from: str | Path | None = None,
                 on_phase: Phase | None = None) -> dict[str, Any]:
    """Run (or resume) a speed refinement in ``run_dir`` and return its metadata.

    ``source`` may be None when resuming (the folder's ``original.py`` is used).
    ``replay_from`` names another run's ``exchanges.jsonl`` whose answers are reused.
    ``on_phase(name, done, total)`` reports the slow phases."""
    store = RunStore(run_dir)
    if resume:
        meta = store.read_json(METADATA)
        if meta.get("format") != FORMAT:
            raise FasterError(f"{run_dir} is not a speed refinement (ggp synth faster).")
        settings = FasterSettings(**meta["settings"])
        source = recorded_source(store.path)
    else:
        if source is None:
            raise FasterError("Nothing to speed up: give a run folder or a model file.")
        if store.exists():
            raise FasterError(f"{store.path} already holds a run. Resume it with ggp synth resume, "
                              "or choose another output directory.")
        store.path.mkdir(parents=True, exist_ok=True)
        store.write(ORIGINAL, source.code)
        meta = {"format": FORMAT, "kind": "faster", "game": source.name,
                "source": {"origin": source.origin, "path": source.path},
                "backend": backend or {}, "settings": asdict(settings),
                "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "status": "running"}
        store.write_json(METADATA, meta)
    phase = on_phase or (lambda name, done, total: None)
    recorder = RecordingLLM(llm, store.file(EXCHANGES),
                            replay_from=Path(replay_from) if replay_from else None)
    evaluated: list[dict[str, Any]] = []  # rebuilt on resume: answers and evidence
    replayed = scripted = 0                 # come back from the log and the cache
    started = time.monotonic()
    try:
        original = open_box(source.code, what="original")
    except DifferentialError as exc:
        raise FasterError(f"The original program cannot be run: {exc}.") from None
    try:
        hotspots, speed = _measured(store, meta, replay_from, original, settings, phase)
        if replay_from and not store.file("search_trajectories.json").is_file():
            recorded = Path(replay_from).parent / "search_trajectories.json"
            if recorded.is_file():  # the recorded run's games: the same evidence, no wait
                store.write("search_trajectories.json", recorded.read_text(encoding="utf-8"))
        extra = _search_games(store, source, settings, phase)
        messages = [{"role": "system", "content": SYSTEM},
                    {"role": "user", "content": faster_prompt(source, hotspots, speed,
                                                             _compares_states(source),
                                                             settings.min_speedup)}]
        kept = None
        for call in range(1, settings.max_calls + 1):
            phase("LLM calls", call - 1, settings.max_calls)
            answer = recorder.complete(messages, purpose=f"faster program {call}")
            programs = prompts.candidates_from_answer(answer.text)
            code = programs[-1] if programs else None
            index = len(evaluated)
            if code is None:
                record = {"call": call, "code": None, "accepted": False,
                          "reason": "the answer holds no program (no ```python block "
                                    "defining apply_action)"}
            else:
                store.write(f"candidates/cand_{index:03d}.py", code)
                record = _evaluate(store, code, source, original, extra, settings, phase)
                record["call"] = call
            evaluated.append(record)
            store.write_json(CANDIDATES, evaluated)
            replayed += answer.replayed
            scripted += answer.scripted
            meta.update(calls=call, replayed_calls=replayed, scripted_answers=scripted)
            store.write_json(METADATA, meta)
            if record["accepted"]:
                kept = (index, code, record)
                break
            messages = messages + [{"role": "assistant", "content": answer.text},
                                   {"role": "user",
                                    "content": rejection_message(record["reason"])}]
        phase("LLM calls", len(evaluated), settings.max_calls)
    finally:
        original.close()
    meta["time_s"] = round(float(meta.get("time_s", 0.0)) + time.monotonic() - started, 3)
    if kept is not None:
        index, code, record = kept
        store.write(FASTER_MODEL, _header(meta, index, record) + code.rstrip() + "\n")
        meta["status"] = "faster"
        meta["kept"] = {"candidate": index, **{k: record[k] for k in
                                               ("speedup", "agreement", "trajectories",
                                                "unit_tests")}}
    else:
        meta["status"] = "no faster program"
        meta["kept"] = None
    meta["finished"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    store.write_json(REPORT, {"kept": meta["kept"], "candidates": evaluated})
    store.write_json(METADATA, meta)
    return meta


def recorded_source(folder: str | Path) -> Source:
    """The original of an earlier speed refinement (its ``original.py``, its name, and
    the unit tests of its run when it came from one)."""
    store = RunStore(folder)
    meta = store.read_json(METADATA)
    src = meta.get("source", {})
    tests: list = []
    if src.get("origin") == "run" and Path(src.get("path", "")).is_dir():
        tests = _run_source(Path(src["path"])).tests
    return Source(meta["game"], store.file(ORIGINAL).read_text(encoding="utf-8"),
                  src.get("origin", "?"), src.get("path", "?"), tests)


def _measured(store: RunStore, meta: dict, replay_from: str | Path | None, box: Any,
              settings: FasterSettings, phase: Phase) -> tuple[str, float]:
    """The profile and speed shown to the model: measured once per run, and taken from
    the recorded run when replaying (the prompt must be the same to find its answers)."""
    for folder in ([Path(replay_from).parent] if replay_from else []) + [store.path]:
        recorded = RunStore(folder)
        if recorded.file("hotspots.txt").is_file() and recorded.exists():
            speed = recorded.read_json(METADATA).get("original_playouts_per_s")
            if isinstance(speed, (int, float)):
                hotspots = recorded.file("hotspots.txt").read_text(encoding="utf-8")
                store.write("hotspots.txt", hotspots)
                meta["original_playouts_per_s"] = speed
                return hotspots, float(speed)
    hotspots, speed = _profile(store, box, settings, phase)
    meta["original_playouts_per_s"] = speed
    store.write_json(METADATA, meta)
    return hotspots, speed


def _profile(store: RunStore, box: Any, settings: FasterSettings,
             phase: Phase) -> tuple[str, float]:
    """The original's profile (written to ``hotspots.txt``) and its playouts per second,
    measured here on the same seeded playouts."""
    phase("profiling the original", 0, 1)
    seeds = list(range(settings.playouts))
    try:
        start = time.perf_counter()
        results, _ = box.run([step("=playouts", lit(seeds), lit(settings.max_steps))], 600.0,
                             reset=True)
        seconds = time.perf_counter() - start
        if "ok" not in results[0]:
            raise FasterError(f"The original's random playouts fail: {results[0]}")
        results, _ = box.run([step("=profile", lit(seeds), lit(settings.max_steps))], 600.0,
                             reset=True)
    except Exception as exc:  # noqa: BLE001 - a dead box is a failed original
        if isinstance(exc, FasterError):
            raise
        raise FasterError(f"Profiling the original failed: {exc}") from None
    # file names without their folders (a temporary box folder, the interpreter's path)
    hotspots = re.sub(r"[^\s()]*/([^/\s()]+\.py)", r"\1", str(results[0].get("ok", "")))
    store.write("hotspots.txt", hotspots)
    phase("profiling the original", 1, 1)
    return hotspots, settings.playouts / max(seconds, 1e-9)


def _search_games(store: RunStore, source: Source, settings: FasterSettings,
                  phase: Phase) -> list[tuple[str, list]]:
    """The search players' games, recorded once per folder (resume reads them back)."""
    file = store.file("search_trajectories.json")
    if file.is_file():
        sequences = json.loads(file.read_text(encoding="utf-8"))
    elif settings.search_games > 0:
        phase("search-guided games", 0, settings.search_games)
        try:
            sequences = search_trajectories(
                source.code, games=settings.search_games, seed=settings.seed + 7,
                players=[p for p in settings.search_players.split(",") if p.strip()],
                name=_safe(source.name))
        except GGPError as exc:
            raise FasterError(f"Recording search games of the original failed: {exc}") \
                from None
        store.write_json("search_trajectories.json", sequences)
        phase("search-guided games", settings.search_games, settings.search_games)
    else:
        sequences = []
    return [("search", s) for s in sequences]


def _evaluate(store: RunStore, code: str, source: Source, original: Any,
              extra: list[tuple[str, list]], settings: FasterSettings,
              phase: Phase) -> dict[str, Any]:
    """The evidence on one candidate, and the verdict (cached by the code's hash)."""
    key = hashlib.sha256(code.encode("utf-8")).hexdigest()
    cache = store.file(f"candidates/{key[:16]}.json")
    if cache.is_file():
        return json.loads(cache.read_text(encoding="utf-8"))
    record: dict[str, Any] = {"code_sha256": key, "accepted": False, "unit_tests": None,
                              "agreement": None, "trajectories": None, "speedup": None}
    record.update(_judge(code, source, original, extra, settings, phase))
    store.write_json(f"candidates/{key[:16]}.json", record)
    return record


def _judge(code: str, source: Source, original: Any, extra: list[tuple[str, list]],
           settings: FasterSettings, phase: Phase) -> dict[str, Any]:
    from ggp.synth.runner import run_tests

    out: dict[str, Any] = {}
    if source.tests:
        report = run_tests(code, source.tests, test_seconds=settings.test_seconds,
                           on_test=lambda done, total: phase("unit tests", done, total))
        failed = report.failed()
        out["unit_tests"] = [len(report.results) - len(failed), len(report.results)]
        if failed:
            first = failed[0]
            return {**out, "reason": f"{len(failed)} of {len(report.results)} unit tests "
                                     f"fail; the first, {first.id}:\n{first.error}"}
    try:
        candidate = open_box(code, what="candidate")
    except DifferentialError as exc:
        return {**out, "reason": str(exc)}
    try:
        missing = _missing_functions(original, candidate)
        if missing:
            return {**out, "reason": "it drops functions of the original that players or "
                                     f"planners may call: {', '.join(missing)}"}
        diff = compare_models(original, candidate, random_count=settings.random_trajectories,
                              seed=settings.seed + 1000, extra=extra,
                              max_steps=settings.max_steps,
                              on_trajectory=lambda done, total: phase(
                                  "differential test", done, total))
        out.update(agreement=diff.agreement, trajectories=diff.trajectories,
                   differential=diff.to_dict())
        if not diff.identical:
            d = diff.first_divergence
            return {**out, "reason": f"it differs from the original on "
                                     f"{diff.trajectories - diff.agreed} of "
                                     f"{diff.trajectories} games; the first: "
                                     f"{d.describe() if d else '?'}"}
        phase("speed", 0, 1)
        speed = measure_speed(original, candidate, playouts=settings.playouts,
                              rounds=settings.rounds, seed=settings.seed + 2000,
                              max_steps=settings.max_steps)
        phase("speed", 1, 1)
        out.update(speedup=speed.ratio, speed=speed.to_dict())
        if not speed.same_playouts:
            return {**out, "reason": f"its random playouts differ from the original's "
                                     f"({speed.mismatch})"}
        if speed.ratio < settings.min_speedup:
            return {**out, "reason": f"it is not fast enough: {speed.candidate:,.0f} "
                                     f"playouts/s against the original's "
                                     f"{speed.original:,.0f} ({speed.ratio:.2f}x; at least "
                                     f"{settings.min_speedup:g}x is needed)"}
    finally:
        candidate.close()
    return {**out, "accepted": True, "reason": None}


#: Functions a program may define besides the protocol's required ones; a faster program
#: must keep each one the original has (the differential test replays moves, so it cannot
#: see an inference or value function go missing).
OPTIONAL = ("get_chance_outcomes", "resample_history", "resample_state", "value_function",
            "get_player_name")


def _missing_functions(original: Any, candidate: Any) -> list[str]:
    try:
        theirs = set(original.describe()["functions"])
        ours = set(candidate.describe()["functions"])
    except SandboxFailure as failure:
        return [f"(its box died: {failure.kind})"]
    return sorted(name for name in OPTIONAL if name in theirs and name not in ours)


def _header(meta: dict, index: int, record: dict) -> str:
    backend = meta.get("backend", {})
    return (f"# A faster model of {meta['game']!r}, made by ggp synth --faster (answers from "
            f"the {backend.get('name', '?')} backend, model {backend.get('model') or '?'}).\n"
            f"# Candidate {index}: {record['speedup']:.2f}x the original's playouts/s, "
            f"agrees on {record['trajectories']} of {record['trajectories']} replayed "
            "games. See report.json.\n"
            + ("# Scripted answers, not a model's work.\n" if meta.get("scripted_answers")
               else "") + "\n")


def _safe(text: str) -> str:
    return "".join(c if c.isalnum() or c == "_" else "_" for c in text)[:60] or "model"


__all__ = ["FasterError", "FasterSettings", "Source", "faster_prompt", "load_source",
           "recorded_source", "refine_speed"]
