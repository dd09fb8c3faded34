"""Choosing the agent for a synthesized model by a measured duel (``ggp cwm select``).

Given a run directory (a CWM) and candidate agent specs — ISMCTS with or without the run's
policy prior or value function, with more or fewer rollouts, CFR on the CWM, any agent
that plays the game — every candidate meets the *default* (the first candidate, or one
named) on the CWM itself, hosted in its sandbox, as in the value-function and prior duels
(:func:`ggp.arena.hosted.duel_on_model`); with ``round_robin`` every pair meets. All
candidates get the same move time (``sims=0:time=S`` for agents that take ``time=``).
Games with chance are played in duplicate pairs (the same chance draws with the seats
swapped), so the luck of the deal cancels and the 95% intervals are over pairs.

The selection rule: a candidate replaces the default only if it beat the default
head-to-head *significantly* (the lower end of the margin's 95% interval above 0) and
never failed (an execution failure — a crash, an exception, a timeout — in any of its
matches disqualifies it). Among those, the best mean margin over all its duels wins;
otherwise the default stays, and the record says why. The record is written to
``RUN/agent_selection.json``; every match is journaled in ``RUN/agent_selection/`` as it
ends, so the same command resumes an interrupted selection and a finished one replays
without playing.

Candidates are written without ``run=``, ``sims=`` and ``time=``: the selector adds
them (``run=`` for agents that take it), which keeps the chosen spec a template that
``experiments/vs_llm`` fills in with its own run path and budget
(:func:`spec_template`).
"""

from __future__ import annotations

import hashlib
import json
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ggp.agents import AgentSpecError, check_spec, parse_agent_spec
from ggp.core.errors import GGPError
from ggp.core.protocol import GameMetadata
from ggp.rundir import AGENT_SELECTION, model_file

#: Settings the selector owns: every candidate gets the same ones.
OWNED = ("run", "sims", "time")


class SelectionError(GGPError):
    """The candidates or settings of a selection are unusable."""


def takes(spec: str, setting: str) -> bool:
    """Whether the agent named by ``spec`` has the setting ``setting``."""
    name = parse_agent_spec(spec)[0]
    try:
        check_spec(f"{name}:{setting}=1")
    except AgentSpecError as exc:
        return "has no setting" not in str(exc)
    return True


def full_spec(spec: str, run: Path, move_time: float) -> str:
    """The spec a candidate plays with: ``run=RUN`` (absolute, since its planner runs in a
    sandboxed worker elsewhere) and the move time added where the agent takes them."""
    parts = [spec]
    if takes(spec, "run"):
        parts.append(f"run={run}")
    if takes(spec, "time"):
        parts.append(f"sims=0:time={move_time:g}")
    return ":".join(parts)


def spec_template(spec: str) -> str:
    """A chosen candidate as an ``experiments/vs_llm/games.toml`` agent template:
    ``{run}`` and ``{budget}`` where the agent takes a run and a move time."""
    parts = [spec]
    if takes(spec, "run"):
        parts.append("run={run}")
    if takes(spec, "time"):
        parts.append("{budget}")
    return ":".join(parts)


def check_candidates(candidates: list[str]) -> None:
    """One-line errors for unusable candidate lists (before any match is played)."""
    if len(candidates) < 2:
        raise SelectionError("Give at least two candidates (the first is the default "
                             "unless --default names another).")
    if len(set(candidates)) != len(candidates):
        raise SelectionError("A candidate is listed twice.")
    for spec in candidates:
        try:
            check_spec(spec)
        except AgentSpecError as exc:
            raise SelectionError(f"Candidate {spec!r}: {exc}") from None
        owned = [k for k in parse_agent_spec(spec)[1] if k in OWNED]
        if owned:
            raise SelectionError(
                f"Candidate {spec!r} sets {', '.join(owned)}: leave run=, sims= and time= "
                "out; the selector sets them, so every candidate gets the same move time.")


def duel_pairs(candidates: list[str], default: str,
               round_robin: bool) -> list[tuple[str, str]]:
    """The duels to play: every candidate against the default, or every pair."""
    if round_robin:
        return [(a, b) for i, a in enumerate(candidates) for b in candidates[i + 1:]]
    return [(c, default) for c in candidates if c != default]


def select_agent(run_dir: str | Path, metadata: GameMetadata, candidates: list[str], *,
                 default: str | None = None, matches: int = 4, move_time: float = 0.5,
                 duplicate: bool | None = None, round_robin: bool = False, seed: int = 0,
                 game: str = "", log: Callable[[str], None] = lambda _: None
                 ) -> dict[str, Any]:
    """Duel the candidates on the run's CWM and choose one (see the module doc); returns
    and writes the record. ``duplicate`` None: duplicate pairs when the game has chance.
    ``game`` is only recorded (the name the metadata came from)."""
    from ggp.arena.hosted import duel_on_model

    run = Path(run_dir).resolve()
    model_file(run)  # a clear error now rather than in every match
    check_candidates(candidates)
    default = candidates[0] if default is None else default
    if default not in candidates:
        raise SelectionError(f"The default {default!r} is not among the candidates.")
    if matches < 1 or move_time <= 0:
        raise SelectionError("--matches and --move-time must be positive.")
    duplicate = metadata.chance if duplicate is None else duplicate
    settings = {"game": game, "candidates": candidates, "default": default,
                "matches": matches, "move_time": move_time, "duplicate": duplicate,
                "round_robin": round_robin, "seed": seed}
    specs = {c: full_spec(c, run, move_time) for c in candidates}
    record: dict[str, Any] = {"settings": settings, "duels": [], "complete": False}
    journals = run / "agent_selection"
    journals.mkdir(exist_ok=True)
    pairs = duel_pairs(candidates, default, round_robin)
    for i, (a, b) in enumerate(pairs, 1):
        tag = f"duel {i}/{len(pairs)}: {a} vs {b}"
        # journaled under the run-independent specs: the folder can move and still resume
        names = (f"{a}|time={move_time:g}", f"{b}|time={move_time:g}")
        digest = hashlib.sha256(json.dumps(names).encode()).hexdigest()[:12]
        result = duel_on_model(run, metadata, specs[a], specs[b], matches=matches,
                               seed=seed, journal=journals / f"duel_{digest}.jsonl",
                               duplicate=duplicate, labels=names,
                               on_match=lambda done, total, tag=tag: log(
                                   f"{tag}: {done}/{total} matches"))
        record["duels"].append({"agent": a, "opponent": b, **result})
        log(f"{tag}: margin {_pm(result['margin'], result['ci95'])} per "
            f"{_singular(result['unit'])} over {result['units']} {result['unit']}, "
            f"{result['failures']} failed")
        _write(run, record)
    record.update(choose(record["duels"], candidates, default))
    record["complete"] = True
    _write(run, record)
    return record


def choose(duels: list[dict[str, Any]], candidates: list[str],
           default: str) -> dict[str, Any]:
    """The selection rule (module doc) over finished duels: ``selected`` (a candidate
    spec), ``selected_is_default``, ``scores`` (each candidate's mean margin over its
    duels), ``failed`` (execution failures blamed on each candidate) and ``reason``."""
    margins: dict[str, list[float]] = {c: [] for c in candidates}
    failed = dict.fromkeys(candidates, 0)
    against_default: dict[str, tuple[float, float | None]] = {}
    for d in duels:
        a, b = d["agent"], d["opponent"]
        margins[a].append(d["margin"])
        margins[b].append(-d["margin"])
        blame = d.get("failed_by") or {"agent": d["failures"], "opponent": d["failures"],
                                       "host": 0}
        failed[a] += blame["agent"] + blame["host"]
        failed[b] += blame["opponent"] + blame["host"]
        if b == default:
            against_default[a] = (d["margin"], d.get("ci95"))
        elif a == default:
            against_default[b] = (-d["margin"], d.get("ci95"))
    scores = {c: statistics.fmean(m) if m else None for c, m in margins.items()}
    better = [c for c, (m, ci) in against_default.items()
              if not failed[c] and ci is not None and m - ci > 0]
    out: dict[str, Any] = {"scores": scores, "failed": failed}
    if better:
        best = max(better, key=lambda c: (scores[c], -candidates.index(c)))
        m, ci = against_default[best]
        reason = (f"{best} beat the default {default} by {_pm(m, ci)} (significant at 95%) "
                  "and has the best mean margin among such candidates "
                  f"({scores[best]:+.3f})")
        return {**out, "selected": best, "selected_is_default": False, "reason": reason}
    if against_default:
        top = max(against_default, key=lambda c: (against_default[c][0],
                                                  -candidates.index(c)))
        m, ci = against_default[top]
        why = (f"it failed in {failed[top]} matches" if failed[top] and m > 0 else
               "not significant at 95%" if m > 0 else "it did not beat the default")
        reason = (f"no candidate beat the default {default} significantly and without "
                  f"failures; the best against it was {top}: {_pm(m, ci)} ({why}); "
                  "keeping the default")
    else:
        reason = f"no duel against the default {default}; keeping it"
    if failed[default]:
        reason += f" (note: the default itself failed in {failed[default]} matches)"
    return {**out, "selected": default, "selected_is_default": True, "reason": reason}


def selected_spec(run_dir: str | Path) -> str | None:
    """The candidate a finished selection of ``run_dir`` chose (as its user wrote it,
    without run, sims and time), or None when it has no finished selection."""
    path = Path(run_dir) / AGENT_SELECTION
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    return record.get("selected") if record.get("complete") else None


def _pm(mean: float, ci: float | None) -> str:
    return f"{mean:+.3f} ± {ci:.3f}" if ci is not None else f"{mean:+.3f} (no interval)"


def _singular(unit: str) -> str:
    return {"matches": "match", "pairs": "pair", "sets": "set"}.get(unit, unit)


def _write(run: Path, record: dict[str, Any]) -> None:
    path = run / AGENT_SELECTION
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    part.replace(path)
