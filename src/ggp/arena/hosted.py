"""Matches played on synthesized models (hosted in sandboxed workers).

It lives in the arena, below synthesis, because synthesis plays these matches itself. Used by value-function and policy-prior selection (:mod:`ggp.synth.value`,
:mod:`ggp.synth.prior`) and bad-sample rejection
(:mod:`ggp.synth.rejection`). Seed 000 App. E counts an execution failure as a loss for
both players: when the hosted model fails, or an agent's worker fails for a reason other
than an illegal move (an exception, a crash, a timeout, a resource limit), every player
gets the game's minimum utility. An illegal move is an ordinary forfeit.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ggp.agents import make_agent
from ggp.arena.match import play_match, seed_global_generators
from ggp.arena.tournament import match_seed
from ggp.core.errors import GGPError
from ggp.core.files import open_output
from ggp.core.protocol import GameMetadata
from ggp.sandbox.hosted import HostedModel


def play_hosted(host: str | Path, metadata: GameMetadata, specs: list[str],
                seed: int) -> tuple[list[float], str]:
    """One match of ``specs`` (one per seat) on the model of ``host``.

    Returns the returns and ``""``, or everyone's minimum utility and the reason when an
    execution failure ended the match."""
    lowest = [metadata.min_utility] * metadata.num_players
    seed_global_generators(seed)
    try:
        model = HostedModel(host, metadata)
    except GGPError as exc:
        return lowest, f"host: {exc}"
    agents = []
    try:
        agents = [make_agent(spec, model) for spec in specs]
        result = play_match(model, agents, seed=seed, record_states=False, max_steps=10_000)
    except (GGPError, RuntimeError) as exc:
        return lowest, f"host: {type(exc).__name__}: {str(exc)[:300]}"
    finally:
        for agent in agents:
            agent.close()
        model.close()
    if result.forfeit is not None and result.forfeit.reason != "illegal":
        return lowest, f"seat {result.forfeit.player}: {result.forfeit.reason}"
    return result.returns, ""


def duel_on_model(host: str | Path, metadata: GameMetadata, agent: str, opponent: str, *,
                  matches: int, seed: int = 0, journal: str | Path | None = None,
                  on_match: Callable[[int, int], None] | None = None,
                  duplicate: bool = False,
                  labels: tuple[str, str] | None = None) -> dict[str, Any]:
    """``agent`` against ``opponent`` on the hosted model, ``matches`` per seat.

    ``margin`` is the mean of (agent's return − mean return of the others). With
    ``journal`` (a JSON-lines file) every finished match is appended to it and a rerun
    plays only the matches it does not hold for the same agent, opponent and seed, so an
    interrupted duel resumes. ``on_match(done, total)`` is called after each match.

    With ``duplicate`` (games with chance) the ``n`` matches of index ``k`` share one seed,
    hence their chance draws, with the agent in a different seat in each (as the arena's
    ``--duplicate``): the luck of the deal cancels in the set's mean margin, and the
    confidence interval is over those sets (``unit`` ``"pairs"`` for two players), not
    over matches. The result also holds ``ci95`` (the half-width of the margin's 95%
    interval, None below two units) and ``failed_by`` (execution failures blamed on the
    agent's seat, on the opponent's, or on the host, which counts for both) and
    ``agent_return`` (the agent's mean return: in a general-sum game a margin alone does
    not say whether both sides did well).

    ``labels`` name the two agents in the journal instead of their specs, so a caller
    whose specs hold an absolute path keeps its journal valid when the folder moves."""
    from ggp.arena.stats import mean_ci

    n = metadata.num_players
    # a duplicate duel is another duel: its matches have other seeds
    duel_id = [*(labels or (agent, opponent)), seed, *(["duplicate"] * duplicate)]
    done = _journal_entries(journal, duel_id)
    total = n * matches
    margins, units, failures, own = [], [], 0, []
    failed_by = {"agent": 0, "opponent": 0, "host": 0}
    # index outermost, so a duel cut short has whole duplicate sets
    for k in range(matches):
        unit = []
        for seat in range(n):
            key = f"{seat}|{k}"
            if key in done:
                returns, failure = done[key]["returns"], done[key]["failure"]
            else:
                specs = [opponent] * n
                specs[seat] = agent
                match = f"deal|{k}" if duplicate else f"duel|{seat}|{k}"
                returns, failure = play_hosted(host, metadata, specs,
                                               match_seed(seed, match))
                if journal is not None:
                    line = {"duel": duel_id, "match": key, "returns": returns,
                            "failure": failure}
                    with open_output(journal, "a") as out:
                        out.write(json.dumps(line) + "\n")
            if failure:
                failures += 1
                failed_by[_blame(failure, seat)] += 1
            others = [r for i, r in enumerate(returns) if i != seat]
            unit.append(returns[seat] - sum(others) / len(others))
            own.append(returns[seat])
            margins.append(unit[-1])
            if on_match is not None:
                on_match(len(margins), total)
        units.extend([statistics.fmean(unit)] if duplicate else unit)
    _, ci95 = mean_ci(units)
    return {"matches": len(margins), "margin": statistics.fmean(margins),
            "failures": failures, "ci95": ci95, "failed_by": failed_by,
            "agent_return": statistics.fmean(own),
            "unit": ("pairs" if n == 2 else "sets") if duplicate else "matches",
            "units": len(units)}


def _blame(failure: str, seat: int) -> str:
    """Whose execution failure ``failure`` (a :func:`play_hosted` reason) was, in a match
    where the agent sat in ``seat``: ``"agent"``, ``"opponent"`` or ``"host"``."""
    if failure.startswith("seat "):
        failed = failure.removeprefix("seat ").split(":", 1)[0]
        if failed.isdigit():
            return "agent" if int(failed) == seat else "opponent"
    return "host"


def _journal_entries(journal: str | Path | None, duel: list[Any]) -> dict[str, Any]:
    """The matches of ``duel`` already in ``journal`` (a line cut short is skipped)."""
    if journal is None or not Path(journal).is_file():
        return {}
    entries = {}
    for line in Path(journal).read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            continue
        if entry.get("duel") == duel:
            entries[entry["match"]] = entry
    return entries
