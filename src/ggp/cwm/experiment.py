"""The paper's experiment for one game (seed 000 §5.2), as one resumable job.

Steps, each resumable (finished work is read back, never redone):

1. **Synthesize** ``syntheses`` code world models (``synth_K/``, :func:`ggp.synth.synthesize`),
   with an inference function for hidden-information games (``history`` or ``state``;
   a closed deck always uses ``history``).
2. **Reject bad samples** (App. E, :mod:`ggp.synth.rejection`): ``rejection.json``.
3. **Value functions** (optional, App. G.7, :mod:`ggp.synth.value`) for each kept model,
   then a **policy prior** (:mod:`ggp.synth.prior`, on unless ``priors=False``; skipped
   when no language model can answer and none was recorded): the arena's CWM agents
   search with the selected prior.
4. **Arena**: one CWM agent per kept model (CWM-ISMCTS, or CWM-MCTS for
   perfect-information games) against Random, GT-(IS)MCTS and, when given, an
   LLM-as-policy spec: ``arena/`` with report tables (markdown, CSV, JSON) and plots.
5. **Accuracy during play**: each kept model's transition and inference accuracy on the
   games the arena played (:func:`ggp.cwm.accuracy.arena_accuracy`); for a closed deck
   also on open-deck reference games (:func:`ggp.cwm.accuracy.ground_truth_accuracy`).
6. **Summary**: ``summary.json`` and ``summary.md``. Runs whose answers came from a
   scripted fake are labelled as such in both.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from ggp.arena.report import write_report
from ggp.arena.tournament import TournamentConfig, run_tournament
from ggp.core.errors import GGPError
from ggp.core.files import write_output
from ggp.core.registry import make_game
from ggp.cwm.accuracy import (
    BEHAVIOUR_FIELDS,
    arena_accuracy,
    behaviour_accuracy,
    ground_truth_accuracy,
)
from ggp.llm import LLM
from ggp.load import load_model
from ggp.rundir import (
    EXCHANGES,
    MODEL,
    POLICY_PRIOR,
    PRIOR_EXCHANGES,
    RunStore,
    TestInfo,
    load_metadata,
)
from ggp.synth.prior import synthesize_priors
from ggp.synth.refine import Settings
from ggp.synth.rejection import reject_bad_samples
from ggp.synth.run import model_file_task, reference_task, replay_plan, synthesize
from ggp.synth.trajectories import load_trajectories
from ggp.synth.value import synthesize_values


@dataclass(frozen=True)
class ExperimentConfig:
    """Settings of :func:`run_experiment` (defaults: seed 000 where it gives them)."""

    game: str
    syntheses: int = 5
    budget: int = 500  # LLM calls per synthesis
    train_games: int = 5
    test_games: int = 100
    deck: str = "open"
    inference: str = "auto"  # auto | history | state | none
    sims: int = 1000
    rollouts: int = 10
    retries: int = 10
    reject_matches: int = 2
    reject_sims: int = 100
    values: bool = False
    value_candidates: int = 3
    value_matches: int = 10
    priors: bool = True
    prior_candidates: int = 3
    prior_matches: int = 10
    matches: int = 100  # arena matches per seat and opponent
    llm_agent: str = ""  # an LLM-as-policy spec, e.g. "llm:model_name=..."
    accuracy_games: int = 50  # arena games replayed for the accuracy during play
    workers: int | None = None
    seed: int = 0
    extra_opponents: tuple[str, ...] = field(default_factory=tuple)
    replay: str = ""  # a recorded synthesis run: reproduced as the only synthesis
    trusted: bool = False  # a .py game's code may run in this process (arena, accuracy)


def _ground_truth(config: ExperimentConfig):
    """The registered game, or a user's .py model file (which the arena and the accuracy
    checks run in this process: only with ``trusted``; its synthesis records its games in
    a sandbox either way)."""
    if not config.game.endswith(".py"):
        return make_game(config.game)
    if not config.trusted:
        raise GGPError(f"{config.game} is your own code, and the experiment's arena and "
                       "accuracy checks run the game in this process: pass --trusted if "
                       "you trust it.")
    return load_model(config.game, trusted=True)


def _inference_kind(config: ExperimentConfig, perfect: bool) -> str:
    if config.deck == "closed":
        return "history"
    if config.inference == "auto":
        return "none" if perfect else "history"
    return config.inference


def run_experiment(out: str | Path, config: ExperimentConfig, llm: LLM | None, *,
                   log: Callable[[str], None] = print) -> dict[str, Any]:
    """Run (or resume) the experiment in ``out`` and return its summary."""
    out = Path(out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    saved = out / "config.json"
    if saved.is_file() and json.loads(saved.read_text())["game"] != config.game:
        raise GGPError(f"{out} holds an experiment on another game; choose another --out.")
    if config.replay:  # the recording decides how the model was trained
        recorded = load_metadata(config.replay)
        trained = recorded.settings or {}
        deck = recorded.train.deck if recorded.train else None
        config = replace(config, syntheses=1, deck=deck or config.deck,
                         inference=(trained.get("inference_kind", "history")
                                    if trained.get("inference") else "none"))
    write_output(saved, json.dumps(asdict(config), indent=1) + "\n")
    truth = _ground_truth(config)
    perfect = truth.metadata.perfect_information
    kind = _inference_kind(config, perfect)
    planner = "mcts" if perfect else "ismcts"
    if config.replay:
        runs = [_replayed(out / "synth_0", Path(config.replay), llm, log)]
    else:
        runs = [_synthesis(out / f"synth_{k}", config, kind, k, llm, log)
                for k in range(config.syntheses)]
    usable = [r for r in runs if (r / MODEL).is_file()]
    if not usable:
        raise GGPError("No synthesis produced a model; nothing to play.")
    log(f"rejection tournament between {len(usable)} models")
    rejection = reject_bad_samples(usable, truth.metadata, out / "rejection.json",
                                   planner=planner,
                                   settings=f"sims={config.reject_sims}:rollouts=1",
                                   matches=config.reject_matches, seed=config.seed)
    kept = [Path(r) for r in rejection["kept"]]
    values = {}
    if config.values:
        for run in kept:
            log(f"value functions for {run.name}")
            values[run.name] = synthesize_values(
                run, llm, truth.metadata, candidates=config.value_candidates,
                matches=config.value_matches, sims=config.reject_sims, seed=config.seed)
    priors = _priors(kept, config, truth.metadata, llm, log)
    search = f"sims={config.sims}:rollouts={config.rollouts}:retries={config.retries}"
    play_log = out / "play_log.jsonl"  # the CWM agents' inference and fallback counters
    agents = [f"cwm_{planner}:run={run}:{search}:log={play_log}"
              + (":value=auto" if config.values else "") + _prior_setting(run, config)
              for run in kept]
    opponents = ["random", f"gt_{planner}:sims={config.sims}:rollouts={config.rollouts}",
                 *config.extra_opponents] + ([config.llm_agent] if config.llm_agent else [])
    log(f"arena: {len(agents)} CWM agents against {', '.join(opponents)}")
    tournament = TournamentConfig(games=(config.game,), agents=tuple(agents),
                                  opponents=tuple(opponents), matches=config.matches,
                                  seed=config.seed)
    counts = {"done": 0, "total": 0}

    def started(total: int, already_done: int) -> None:
        counts.update(done=already_done, total=total)
        log(f"arena: {already_done}/{total} matches done")

    def finished(record: dict[str, Any]) -> None:
        counts["done"] += 1
        if counts["done"] % 5 == 0 or counts["done"] == counts["total"]:
            log(f"arena: {counts['done']}/{counts['total']} matches done")

    run_tournament(tournament, out / "arena", workers=config.workers, on_start=started,
                   on_result=finished)
    report = write_report(out / "arena")
    online = {run.name: arena_accuracy(run, out / "arena", truth, agent_contains=str(run),
                                       max_games=config.accuracy_games) for run in kept}
    summary = _summary(config, kind, runs, rejection, values, online, report)
    summary["priors"] = priors
    summary["behaviour"] = {}
    for run in usable:
        test_file = run / "test_trajectories.jsonl"
        if test_file.is_file():
            log(f"behaviour accuracy of {run.name} on its held-out games")
            summary["behaviour"][run.name] = behaviour_accuracy(
                run, load_trajectories(test_file), truth.metadata)
    summary["play"] = play_counters(play_log)
    if config.deck == "closed":  # against the hidden states the learner never saw
        summary["ground_truth_accuracy"] = {
            run.name: ground_truth_accuracy(run, truth, games=min(config.test_games, 20))
            for run in usable}
    write_output(out / "summary.json", json.dumps(summary, indent=1) + "\n")
    write_output(out / "summary.md", summary_markdown(summary))
    return summary


def _priors(kept: list[Path], config: ExperimentConfig, metadata, llm: LLM | None,
            log: Callable[[str], None]) -> dict[str, Any]:
    """Policy-prior selection for each kept model: the selected candidate's id, None when
    none won its duel, or why the step was skipped."""
    priors: dict[str, Any] = {}
    if not config.priors:
        return priors
    for run in kept:
        if llm is None and not (run / PRIOR_EXCHANGES).is_file():
            log(f"policy priors for {run.name}: skipped (no language model to ask, and no "
                "recorded answers)")
            priors[run.name] = "skipped: no language model"
            continue
        log(f"policy priors for {run.name}")
        record = synthesize_priors(
            run, llm, metadata, candidates=config.prior_candidates,
            matches=config.prior_matches, sims=config.reject_sims,
            rollouts=config.rollouts, value="auto" if config.values else "",
            seed=config.seed, log=log)
        priors[run.name] = record["selected"]
    return priors


def _prior_setting(run: Path, config: ExperimentConfig) -> str:
    """The arena agent's prior setting: the run's selected prior when priors are on; an
    explicit ``prior=none`` when they are off but an earlier run selected one."""
    if not (run / POLICY_PRIOR).is_file():
        return ""
    return ":prior=auto" if config.priors else ":prior=none"


def _replayed(run: Path, recorded: Path, llm: LLM | None,
              log: Callable[[str], None]) -> Path:
    """The recorded run reproduced in ``run`` from its answers (no model unless the
    recording lacks one), with its own settings and held-out set."""
    store = RunStore(run)
    if store.exists():
        if store.load_metadata().is_finished:
            return run
        log("resuming the replay")
        synthesize(run, None, llm, resume=True)
        return run
    log(f"replaying the recorded synthesis {recorded}")
    plan = replay_plan(recorded)
    synthesize(run, plan.task, llm, plan.settings, backend=plan.backend,
               test_games=plan.test_games, test_players=plan.test_players,
               replay_from=recorded / EXCHANGES)
    return run


def _synthesis(run: Path, config: ExperimentConfig, kind: str, k: int, llm: LLM | None,
               log: Callable[[str], None]) -> Path:
    store = RunStore(run)
    if store.exists():
        if store.load_metadata().is_finished:
            return run
        log(f"resuming synthesis {k}")
        synthesize(run, None, llm, resume=True)
        return run
    log(f"synthesis {k + 1}/{config.syntheses} of {config.game}")
    if config.game.endswith(".py"):
        task = model_file_task(config.game, games=config.train_games, seed=config.seed + k,
                               deck=config.deck, test_games=config.test_games)
    else:
        task = reference_task(config.game, games=config.train_games, seed=config.seed + k,
                              deck=config.deck)
    settings = Settings(seed=config.seed + k, max_calls=config.budget,
                        inference=kind != "none",
                        inference_kind=kind if kind != "none" else "history")
    backend = _backend_info(llm)
    synthesize(run, task, llm, settings, backend=backend, test_games=config.test_games)
    return run


def play_counters(play_log: Path) -> dict[str, dict[str, Any]]:
    """Per model (run directory name): the CWM agents' counters summed over the matches
    they logged — moves, searched moves, fallbacks, resample calls, valid samples — and
    the online inference accuracy (valid samples / resample calls). A match cut off by
    an interruption and replayed on resume is counted twice."""
    totals: dict[str, dict[str, Any]] = {}
    if not play_log.is_file():
        return totals
    for line in play_log.read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short when the run was killed
        name = Path(entry["model"]).parent.name
        total = totals.setdefault(name, {"matches": 0})
        total["matches"] += 1
        for key, value in entry["stats"].items():
            total[key] = total.get(key, 0) + value
    for total in totals.values():
        calls = total.get("resample_calls", 0)
        total["inference_accuracy"] = total.get("resample_valid", 0) / calls if calls else None
    return totals


def _backend_info(llm: LLM | None) -> dict[str, Any]:
    """Backend name and model for the run's metadata (an LLMClient wraps a backend)."""
    if llm is None:
        return {"name": "replay", "model": None}
    backend = getattr(llm, "backend", llm)
    return {"name": getattr(backend, "name", type(backend).__name__),
            "model": getattr(llm, "model", None)}


def _summary(config: ExperimentConfig, kind: str, runs: list[Path], rejection: dict,
             values: dict, online: dict, report: dict) -> dict[str, Any]:
    syntheses = []
    for k, run in enumerate(runs):
        meta = load_metadata(run)
        test = meta.test or TestInfo()
        syntheses.append({
            "run": run.name, "status": meta.status, "calls": meta.calls,
            "scripted_answers": meta.scripted_answers or 0,
            "train_accuracy": meta.best.train_accuracy if meta.best else None,
            "test_accuracy": test.accuracy,
            "test_transition_accuracy": test.transition_accuracy,
            "test_inference_accuracy": test.inference_accuracy,
            "rejection_score": (rejection["scores"][k] if k < len(rejection["scores"])
                                else None),
            "kept": str(run) in rejection["kept"]})
    arena = json.loads(Path(report["json"]).read_text())
    return {"game": config.game, "inference": kind,
            "scripted": any(s["scripted_answers"] for s in syntheses),
            "syntheses": syntheses, "rejected": rejection["rejected"],
            "values": {name: v.get("selected") for name, v in values.items()},
            "online_accuracy": online, "arena": {"report": str(report["markdown"]),
                                                 "cells": arena["cells"]}}


SCRIPTED_NOTE = ("**Scripted run: the programs came from a scripted fake LLM, not from a "
                 "model. These numbers test the pipeline, not a model.**")


def summary_markdown(summary: dict[str, Any]) -> str:
    """The summary as markdown (the arena's own report holds the full tables)."""
    lines = [f"# CWM experiment: {summary['game']}", ""]
    if summary["scripted"]:
        lines += [SCRIPTED_NOTE, ""]
    lines += [f"Inference function: {summary['inference']}", "",
              ("| synthesis | status | calls | train acc. | test acc. | transition acc. | "
               "inference acc. | rejection score | kept |"),
              "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    for s in summary["syntheses"]:
        lines.append(f"| {s['run']} | {s['status']} | {s['calls']} | {_f(s['train_accuracy'])}"
                     f" | {_f(s['test_accuracy'])} | {_f(s.get('test_transition_accuracy'))}"
                     f" | {_f(s['test_inference_accuracy'])} | "
                     f"{_f(s['rejection_score'])} | {'yes' if s['kept'] else 'no'} |")
    if summary.get("behaviour"):
        lines += ["", ("Behaviour on the held-out games (what a player sees: current player, "
                       "legal actions, observations, rewards, terminal), beside whole-state "
                       "equality above:"), "",
                  "| model | steps | behaviour acc. | " + " | ".join(BEHAVIOUR_FIELDS) + " |",
                  "|---|---:|---:|" + "---:|" * len(BEHAVIOUR_FIELDS)]
        for name, b in summary["behaviour"].items():
            if b is None:
                lines.append(f"| {name} | closed deck: no states to compare |")
                continue
            cells = " | ".join(f"{p}/{t}" for p, t in b["by_field"].values())
            lines.append(f"| {name} | {b['steps']} | {_f(b['accuracy'])} | {cells} |")
    lines += ["", ("Accuracy during arena play (games the arena played, re-recorded with "
                   "the reference model):"), "", "| model | transition acc. | inference acc. | tests |",
              "|---|---:|---:|---:|"]
    for name, acc in summary["online_accuracy"].items():
        lines.append(f"| {name} | {_f(acc['transition_accuracy'])} | "
                     f"{_f(acc['inference_accuracy'])} | {acc['tests']} |")
    if "ground_truth_accuracy" in summary:
        lines += ["", ("Closed deck: accuracy on open-deck games of the reference (hidden "
                       "states the learner never saw):"), "",
                  "| model | transition acc. | inference acc. | tests |", "|---|---:|---:|---:|"]
        for name, acc in summary["ground_truth_accuracy"].items():
            lines.append(f"| {name} | {_f(acc['transition_accuracy'])} | "
                         f"{_f(acc['inference_accuracy'])} | {acc['tests']} |")
    lines += ["", ("CWM agents during the arena (samples checked against the real "
                   "observations):"), "",
              ("| model | matches | moves | fallbacks | resample calls | valid | "
               "online inference acc. |"), "|---|---:|---:|---:|---:|---:|---:|"]
    for name, c in summary.get("play", {}).items():
        lines.append(f"| {name} | {c['matches']} | {c.get('moves', 0)} | "
                     f"{c.get('fallbacks', 0)} | {c.get('resample_calls', 0)} | "
                     f"{c.get('resample_valid', 0)} | {_f(c['inference_accuracy'])} |")
    if summary.get("priors"):
        lines += ["", "Policy priors (candidate selected by its duel against no prior):", ""]
        lines += [f"* {name}: " + (f"prior {chosen}" if isinstance(chosen, int) else
                                   "none beat the search without a prior" if chosen is None
                                   else str(chosen)) for name, chosen in
                  summary["priors"].items()]
    lines += ["", "Arena (mean return of the CWM agent, all seats):", "",
              "| agent | opponent | n | mean return ± 95% CI | win rate | forfeits |",
              "|---|---|---:|---:|---:|---:|"]
    for cell in _pooled(summary["arena"]["cells"]):
        lines.append(f"| {cell['agent']} | {cell['opponent']} | {cell['n']} | "
                     f"{cell['mean']:+.3f} ± {cell['ci95']:.3f} | {cell['wins']:.2f} | "
                     f"{cell['forfeits']} |")
    lines += ["", f"Full tables and plots: {summary['arena']['report']}", ""]
    return "\n".join(lines)


def _pooled(cells: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Report cells of CWM agents merged over seats; the interval combines the seats'
    intervals (a stratified estimate)."""
    pooled: dict[tuple[str, str], dict[str, Any]] = {}
    for cell in cells:
        if not cell["agent"].startswith("cwm_"):
            continue
        key = (cell["agent"], cell["opponent"])
        p = pooled.setdefault(key, {"agent": key[0], "opponent": key[1], "n": 0, "sum": 0.0,
                                    "won": 0.0, "forfeits": 0, "var": 0.0})
        n = cell["n"]
        p["n"] += n
        p["sum"] += cell["payoff_us"] * n
        p["won"] += cell["wins"]
        p["forfeits"] += sum(cell["forfeits_us"].values())
        p["var"] += (n * (cell.get("payoff_us_ci95") or 0.0) / 1.96) ** 2
    return [{**p, "mean": p["sum"] / p["n"], "wins": p["won"] / p["n"],
             "ci95": 1.96 * p["var"] ** 0.5 / p["n"]} for p in pooled.values() if p["n"]]


def _f(value: Any) -> str:
    return "–" if value is None else f"{value:.3f}"
