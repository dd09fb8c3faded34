"""A synthesis run: from rules and trajectories to a saved, measured code world model.

Each run owns a directory, laid out as :mod:`ggp.rundir` describes (``metadata.json``,
``rules.txt``, ``trajectories.jsonl``, ``exchanges.jsonl``, ``tree.json``, ``cwm.py``, ...).
Files are rewritten as the search goes, so an interrupted run can be resumed: the search
is replayed from ``exchanges.jsonl`` (no model calls for what was already answered) and
then continues.
"""

from __future__ import annotations

import threading
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Callable

from ggp.core.model import WorldModel
from ggp.llm import LLM, BudgetExceededError
from ggp.rundir import (
    EXCHANGES,
    FORMAT_VERSION,
    GDL_SOURCE,
    METADATA,
    MODEL,
    PROGRAMS,
    REFERENCE_SOURCE,
    REPORT,
    RULES,
    TEST_TRAJECTORIES,
    TESTS,
    TRAJECTORIES,
    TREE,
    Backend,
    Best,
    GdlCopy,
    RunError,
    RunMetadata,
    RunStore,
    Seeds,
    TestInfo,
    Tokens,
    TrainInfo,
)
from ggp.synth import prompts, state_inference
from ggp.synth.gdl_source import (
    DESCRIPTION_DIR,
    OWN_LAYOUT,
    gdl_rules,
    is_gdl_spec,
    load_gdl_truth,
)
from ggp.synth.heldout import default_test_players, heldout_set
from ggp.synth.llm import RecordingLLM
from ggp.synth.refine import Node, Progress, Refiner, Settings
from ggp.synth.runner import run_tests
from ggp.synth.trajectories import (
    TrajectorySet,
    close_deck,
    collect,
    load_trajectories,
    save_trajectories,
)
from ggp.synth.unit_tests import KINDS, generate_tests, render_module


@dataclass(frozen=True)
class Task:
    """What to synthesize. ``ground_truth`` (a reference game) enables held-out tests."""

    game: str
    rules: str
    train: TrajectorySet
    ground_truth: WorldModel | None = None
    test: TrajectorySet | None = None
    seed: int | None = None  # of the recorded training games, when ggp recorded them
    players: tuple[str, ...] | None = None  # their agent specs, one per seat
    view_player: int = 0  # whose view a closed deck keeps
    source: str | None = None  # where the ground truth came from, for the metadata
    test_players: tuple[str, ...] | None = None  # who played the held-out games
    spec: str | None = None  # registry spec of the ground truth (worker processes, cache)
    gdl_file: str | None = None  # the GDL description the ground truth was built from
    # whether the tests compare the model's states with the recorded ones; False: they
    # replay the recorded moves and compare only what the players see (a GDL program
    # keeps its own state layout, ggp.synth.gdl_source)
    compare_states: bool = True


def reference_task(spec: str, *, games: int = 5, players: list[str] | None = None,
                   seed: int = 0, deck: str = "open", view_player: int = 0,
                   on_game: Callable[[int, int], None] | None = None,
                   own_layout: bool = True) -> Task:
    """A task for a registered game or a GDL / GDL-II description (``.kif``, ``.gdl``):
    its rules and ``games`` games recorded from it (from ggp's reasoner for GDL, whose
    rules text is the description with a note on ggp's representation,
    :mod:`ggp.synth.gdl_source`).

    ``players`` holds one agent spec per seat, or a single spec for every seat.
    ``own_layout`` (GDL only): the program keeps its own states and is judged on what
    the players see; False: on the reasoner's states (the first GDL runs)."""
    gdl = is_gdl_spec(spec)
    model = load_ground_truth(spec)
    players = list(players or ["random"])
    if len(players) == 1:
        players = players * model.num_players
    if len(players) != model.num_players:
        raise RunError(f"{model.name} has {model.num_players} players; got "
                       f"{len(players)} player specs ({', '.join(players)}).")
    if not model.rules.strip():
        raise RunError(f"The game {spec!r} has no rules text to give to the model.")
    train = collect(model, games=games, seed=seed, players=players, deck=deck,
                    view_player=view_player, on_game=on_game)
    return Task(model.name, gdl_rules(model, own_layout) if gdl else model.rules, train,
                ground_truth=model, seed=seed, players=tuple(players),
                view_player=view_player, spec=spec,
                source=GDL_SOURCE if gdl else None, gdl_file=spec if gdl else None,
                compare_states=not (gdl and own_layout))


def load_ground_truth(spec: str) -> WorldModel:
    """The ground truth named by ``spec``: a registered game, or ggp's reasoner on a GDL
    description (worker processes build theirs through here too)."""
    if is_gdl_spec(spec):
        return load_gdl_truth(spec)
    from ggp.core.registry import make_game

    return make_game(spec)


@dataclass(frozen=True)
class ReplayPlan:
    """How to run a recorded synthesis again: its task, settings and held-out set."""

    task: Task
    settings: Settings
    test_games: int
    test_players: list[str] | None
    backend: dict[str, Any]  # the recorded run's backend and model (they answered)


def replay_plan(run_dir: str | Path,
                on_game: Callable[[int, int], None] | None = None) -> ReplayPlan:
    """Everything needed to reproduce the run in ``run_dir`` from its ``metadata.json``:
    the same game, training games (count, seed, players, deck), search settings and
    held-out set, so that replaying its ``exchanges.jsonl`` asks exactly the same
    requests. Runs on a user's own files replay from the run's ``rules.txt``,
    ``trajectories.jsonl`` and ``test_trajectories.jsonl``."""
    store = RunStore(run_dir)
    meta = store.load_metadata()
    train, test = meta.train or TrainInfo(), meta.test or TestInfo()
    game = meta.truth_spec(store.path)
    try:
        if meta.settings is None:
            raise KeyError("settings")
        settings = Settings(**meta.settings)
        if meta.source in (REFERENCE_SOURCE, GDL_SOURCE):
            seed = meta.seeds.trajectories if meta.seeds else None
            if game is None or train.games is None or seed is None:
                raise KeyError("game, train.games or seeds.trajectories")
            task = reference_task(game, games=train.games, seed=seed,
                                  players=list(train.players or ["random"]),
                                  deck=train.deck or "open",
                                  view_player=train.view_player or 0, on_game=on_game,
                                  own_layout=own_layout(meta))
        else:
            test_file = store.file(TEST_TRAJECTORIES)
            task = user_task(store.file(RULES), store.file(TRAJECTORIES), name=meta.game,
                             test_file=test_file if test_file.is_file() else None)
    except (KeyError, TypeError) as exc:
        raise RunError(f"{store.file(METADATA)} does not say how the run was made "
                       f"(missing or wrong {exc}); name the game and its settings "
                       "instead.") from None
    backend = meta.backend.to_dict() if meta.backend else {}
    return ReplayPlan(task, settings, int(test.games or 0),
                      list(test.players) if isinstance(test.players, list) else None,
                      {**backend, "replayed_from": str(run_dir)})


def user_task(rules_file: str | Path, trajectories_file: str | Path, *,
              name: str | None = None, test_file: str | Path | None = None) -> Task:
    """A task for a user's own game: a rules text file and a trajectory file."""
    rules_path = Path(rules_file)
    if not rules_path.is_file():
        raise RunError(f"No such rules file: {rules_path}.")
    rules = rules_path.read_text(encoding="utf-8")
    if not rules.strip():
        raise RunError(f"The rules file {rules_path} is empty.")
    train = load_trajectories(trajectories_file)
    test = load_trajectories(test_file) if test_file else None
    return Task(name or train.game or rules_path.stem, rules, train, test=test)


def model_file_task(path: str | Path, *, rules_file: str | Path | None = None,
                    games: int = 5, players: list[str] | None = None, seed: int = 0,
                    deck: str = "open", view_player: int = 0, test_games: int = 100,
                    test_players: list[str] | None = None) -> Task:
    """A task for a user's own game written as a Python model file: like
    :func:`reference_task`, with training and held-out games recorded from the file in a
    sandbox (:mod:`ggp.synth.model_file`). Rules come from ``rules_file``, else the
    module's ``RULES``."""
    from ggp.synth.model_file import record_model_file

    rules = None
    if rules_file is not None:
        rules_path = Path(rules_file)
        if not rules_path.is_file():
            raise RunError(f"No such rules file: {rules_path}.")
        rules = rules_path.read_text(encoding="utf-8")
    players = list(players or ["random"])
    recorded = record_model_file(path, games=games, seed=seed, players=players, deck=deck,
                                 view_player=view_player, test_games=test_games,
                                 test_seed=seed + 1, test_players=test_players)
    rules = rules if rules is not None else recorded["rules"]
    if not rules.strip():
        raise RunError(f"No rules for {path}: give --rules FILE or define a RULES string "
                       "in the module.")
    return Task(Path(path).stem, rules, recorded["train"], test=recorded["test"], seed=seed,
                players=tuple(players), view_player=view_player,
                source=f"model file {Path(path).name}",
                test_players=tuple(recorded["test_players"] or ()) or None)


class HeldoutJob:
    """Builds a run's held-out set in a background thread, so the first LLM request does
    not wait for it; :meth:`result` waits (reporting progress) and returns it."""

    def __init__(self, task: Task, *, games: int, seed: int, players: list[str] | None,
                 on_phase: Callable[[str, int, int], None] | None) -> None:
        self.games, self._on_phase = games, on_phase
        self._value: tuple[TrajectorySet, list[str]] | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(
            target=self._run, args=(task, seed, players), daemon=True,
            name="ggp-heldout")
        self._thread.start()

    def _run(self, task: Task, seed: int, players: list[str] | None) -> None:
        def progress(done: int, total: int) -> None:
            if self._on_phase:
                self._on_phase("held-out games", done, total)

        try:
            test, used = heldout_set(task.ground_truth, games=self.games, seed=seed,
                                     players=players, spec=task.spec, on_game=progress)
            if task.train.deck == "closed":  # measured the way it was trained: one view
                view = task.train.trajectories[0].player or 0
                test = TrajectorySet("closed", test.num_players,
                                     [close_deck(t, view) for t in test.trajectories],
                                     test.game)
            self._value = (test, used)
        except BaseException as exc:  # noqa: BLE001 - re-raised in result()
            self._error = exc

    def result(self) -> tuple[TrajectorySet, list[str]]:
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._value is not None
        return self._value


# --------------------------------------------------------------------------- running
def synthesize(
    run_dir: str | Path,
    task: Task | None,
    llm: LLM | None,
    settings: Settings = Settings(),
    *,
    backend: dict[str, Any] | None = None,
    test_games: int = 100,
    test_players: list[str] | None = None,
    resume: bool = False,
    max_calls: int | None = None,
    replay_from: str | Path | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    on_phase: Callable[[str, int, int], None] | None = None,
) -> RunMetadata:
    """Run (or resume) a synthesis and return its metadata.

    ``task`` may be None when resuming: everything is read back from the directory, and
    ``max_calls`` may raise (or lower) the stored call budget.
    ``replay_from`` names another run's ``exchanges.jsonl`` whose answers are reused
    (see :class:`RecordingLLM`). ``on_phase(name, done, total)`` reports the progress of
    the slow phases besides the LLM calls: ``"held-out games"`` (built in the background
    while the search runs) and ``"held-out tests"``.
    """
    store = RunStore(run_dir)
    if resume:
        task, settings, meta, job = _load_run(store, on_phase)
        if max_calls is not None:
            settings = replace(settings, max_calls=max_calls)
            meta.settings = asdict(settings)
    else:
        task, meta, job = _start_run(store, task, settings, backend or {}, test_games,
                                     test_players, on_phase)
    # Closed-deck games can only be checked through the inference function.
    inference = settings.inference or task.train.deck == "closed"
    tests = _tests(task.train, settings, inference, states=task.compare_states)
    _write_tests(store, tests)
    meta.train = TrainInfo(games=len(task.train.trajectories), deck=task.train.deck,
                           players=list(task.players) if task.players else None,
                           view_player=task.view_player if task.players else None,
                           transitions=task.train.num_transitions(),
                           tests={k: sum(t.kind == k for t in tests) for k in KINDS})
    meta.status = "running"
    store.save_metadata(meta)

    recorder = RecordingLLM(llm, store.file(EXCHANGES),
                            replay_from=Path(replay_from) if replay_from else None)
    tree: dict[int, dict] = {}

    def save_node(node: Node) -> None:
        store.write(f"{PROGRAMS}/node_{node.id:04d}.py", node.code)
        tree[node.id] = node.to_dict()
        store.write_json(TREE, {"mode": settings.mode, "nodes": list(tree.values())})

    def progress(p: Progress) -> None:
        best = refiner.best
        if best is not None:
            store.write(MODEL, _header(meta, best) + best.code.rstrip() + "\n")
        _count(meta, p)
        store.save_metadata(meta)
        if on_progress:
            on_progress(p)

    api = (state_inference.api_text() if _state_kind(settings, inference)
           else prompts.api_text(inference, closed_deck=task.train.deck == "closed"))
    refiner = Refiner(task.game, task.rules, tests, recorder, settings, api=api,
                      on_node=save_node, on_progress=progress)
    started = time.monotonic()
    previous_time = float(meta.time_s or 0.0) if resume else 0.0
    stopped_by = None
    try:
        best = refiner.run()
    except BudgetExceededError as exc:  # the LLM layer's own budget is used up
        best, stopped_by = refiner.best, str(exc)
    finally:
        meta.time_s = round(previous_time + time.monotonic() - started, 3)
        _count(meta, refiner.progress)
        meta.status = "interrupted"
        store.save_metadata(meta)
    meta.status = "solved" if refiner.solved else "budget spent"
    if stopped_by:
        meta.stopped_by = stopped_by
    if job is not None:  # the held-out set, built while the search ran
        test, _ = job.result()
        save_trajectories(test, store.file(TEST_TRAJECTORIES))
        task = replace(task, test=test)
    _finish(store, meta, best, refiner, task, inference, on_phase)
    return meta


def _state_kind(settings: Settings, inference: bool) -> bool:
    """Whether this run synthesizes resample_state (open deck only) instead of
    resample_history."""
    return inference and settings.inference_kind == "state"


def _tests(trajectories: TrajectorySet, settings: Settings, inference: bool,
           **kwargs: Any) -> list:
    """The run's tests; with state inference, resample_state tests replace the
    resample_history ones (see :mod:`ggp.synth.state_inference`)."""
    state = _state_kind(settings, inference)
    if state and trajectories.deck == "closed":
        raise RunError("State inference (resample_state) needs open-deck trajectories; a "
                       "closed deck is refined through resample_history.")
    tests = generate_tests(trajectories, seed=settings.seed, inference=inference and not state,
                           **kwargs)
    if state:
        tests += state_inference.state_inference_tests(trajectories, kwargs.get("prefix", ""))
    return tests


def _load_run(store: RunStore, on_phase: Callable[[str, int, int], None] | None,
              ) -> tuple[Task, Settings, RunMetadata, HeldoutJob | None]:
    """Task, settings and metadata of an existing run directory, and the job rebuilding
    its held-out set when the run stopped before it was written."""
    meta = store.load_metadata()
    if meta.game is None or meta.settings is None:
        raise RunError(f"{store.file(METADATA)} names no game or settings; it "
                       "cannot be resumed.")
    test_file = store.file(TEST_TRAJECTORIES)
    train = meta.train or TrainInfo()
    spec = meta.truth_spec(store.path)
    task = Task(meta.game, store.file(RULES).read_text(encoding="utf-8"),
                load_trajectories(store.file(TRAJECTORIES)),
                ground_truth=None if spec is None else load_ground_truth(spec),
                test=load_trajectories(test_file) if test_file.is_file() else None,
                seed=meta.seeds.trajectories if meta.seeds else None,
                players=tuple(train.players or ()) or None,
                view_player=train.view_player or 0, spec=spec,
                compare_states=not own_layout(meta))
    settings = Settings(**meta.settings)
    test = meta.test or TestInfo()
    job = None
    if (task.test is None and task.ground_truth is not None and test.games
            and isinstance(test.players, list)):
        job = HeldoutJob(task, games=test.games, seed=settings.seed + 1,
                         players=test.players, on_phase=on_phase)
    return task, settings, meta, job


def _start_run(store: RunStore, task: Task | None, settings: Settings,
               backend: dict[str, Any], test_games: int, test_players: list[str] | None,
               on_phase: Callable[[str, int, int], None] | None,
               ) -> tuple[Task, RunMetadata, HeldoutJob | None]:
    """Create the run directory with its inputs and metadata; the held-out set of a
    reference game is started in the background (see :class:`HeldoutJob`)."""
    if task is None:
        raise RunError("Nothing to synthesize: give a game or rules and trajectories.")
    if store.exists():
        raise RunError(f"{store.path} already holds a run. Resume it with ggp synth resume, "
                       "or choose another output directory.")
    meta = _new_metadata(task, settings, backend)
    store.path.mkdir(parents=True, exist_ok=True)
    store.write(RULES, task.rules)
    if task.gdl_file is not None:  # resume and replay read the game from this copy
        copy = f"{DESCRIPTION_DIR}/{Path(task.gdl_file).name}"
        store.write(copy, Path(task.gdl_file).read_text(encoding="utf-8", errors="replace"))
        meta.gdl = GdlCopy(file=copy, original=str(task.gdl_file),
                           gdl_ii=bool(task.ground_truth.metadata.extra.get("gdl_ii")))
        if not task.compare_states:  # earlier runs have no layout key: they compare states
            meta.gdl.layout = OWN_LAYOUT
    save_trajectories(task.train, store.file(TRAJECTORIES))
    job = None
    if task.test is None and task.ground_truth is not None and test_games > 0:
        players = test_players or default_test_players(task.ground_truth)
        meta.test = TestInfo(games=test_games, players=players)
        job = HeldoutJob(task, games=test_games, seed=settings.seed + 1, players=players,
                         on_phase=on_phase)
    if task.test is not None:
        save_trajectories(task.test, store.file(TEST_TRAJECTORIES))
        if meta.test is None:
            meta.test = TestInfo(games=len(task.test.trajectories),
                                 players=list(task.test_players or ()) or "from file")
    store.save_metadata(meta)
    return task, meta, job


def _write_tests(store: RunStore, tests: list) -> None:
    """The training tests as a module that runs on the run's cwm.py."""
    store.write(TESTS, "# The training tests of this run; `python tests.py` runs them on "
                "cwm.py.\nfrom cwm import *  # noqa: F403 - the model under test\n\n"
                + render_module(tests) + '\n\nif __name__ == "__main__":\n    unittest.main()\n')


def _new_metadata(task: Task, settings: Settings, backend: dict[str, Any]) -> RunMetadata:
    meta = RunMetadata(
        format=FORMAT_VERSION, game=task.game,
        source=task.source or (REFERENCE_SOURCE if task.ground_truth is not None
                               else "user files"),
        backend=Backend.from_dict(backend, "backend"), settings=asdict(settings),
        started=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    meta.seeds = Seeds(search=settings.seed, test_set=settings.seed + 1)
    meta.seeds.trajectories = task.seed  # assigned, so that None is written (null) too
    return meta


def own_layout(meta: RunMetadata) -> bool:
    """Whether the run is a GDL compile whose program keeps its own state layout, so its
    tests compare only what players see (GDL runs made before there was a choice, and
    every other run, compare states)."""
    return (meta.source == GDL_SOURCE and meta.gdl is not None
            and meta.gdl.layout == OWN_LAYOUT)


def _count(meta: RunMetadata, p: Progress) -> None:
    """Copy the search's counters into the metadata."""
    meta.calls, meta.replayed_calls, meta.scripted_answers = p.calls, p.replayed, p.scripted
    meta.tokens = Tokens(prompt=p.prompt_tokens, completion=p.completion_tokens,
                         total=p.tokens)
    meta.nodes, meta.answers_without_code = p.nodes, p.empty_answers
    meta.best_train_accuracy = p.best_h


def _header(meta: RunMetadata, best: Node) -> str:
    backend = meta.backend or Backend()
    source = f"the {backend.name or '?'} backend, model {backend.model or '?'}"
    if meta.scripted_answers:
        source += "; scripted answers, not a model's work"
    return (f"# Code world model of {meta.game!r}, made by ggp synth (answers from "
            f"{source}).\n# Node {best.id}: training accuracy {best.h:.4f}. "
            "See metadata.json.\n\n")


def _finish(store: RunStore, meta: RunMetadata, best: Node | None, refiner: Refiner,
            task: Task, inference: bool,
            on_phase: Callable[[str, int, int], None] | None = None) -> None:
    report: dict[str, Any] = {"train_failures": [], "test_failures": []}
    meta.best = None
    if best is not None:
        meta.best = Best(node=best.id, train_accuracy=best.h,
                         train_by_kind={k: list(v) for k, v in best.by_kind.items()})
        train_report = refiner.reports[best.id]
        report["train_failures"] = [r.to_dict() for r in train_report.failed()[:20]]
        if task.test is not None:
            heldout = _tests(task.test, refiner.settings, inference, prefix="Heldout",
                             random_play=0, states=task.compare_states)
            result = run_tests(best.code, heldout, test_seconds=refiner.settings.test_seconds,
                               on_test=(lambda done, total: on_phase("held-out tests", done,
                                                                     total))
                               if on_phase else None)
            measured = meta.test or TestInfo()
            meta.test = measured
            measured.accuracy = result.pass_rate
            measured.transition_accuracy = result.rate(("transition",))
            measured.inference_accuracy = result.rate(("inference",))
            measured.by_kind = {k: list(v) for k, v in result.by_kind().items()}
            measured.tests = len(heldout)
            report["test_failures"] = [r.to_dict() for r in result.failed()[:20]]
    meta.finished = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    store.write_json(REPORT, report)
    store.save_metadata(meta)

