"""One scheduled match of a tournament (:class:`MatchTask`) and how a worker plays it
(:func:`run_match_task`).

The scheduler (:mod:`ggp.arena.tournament`) makes the tasks and the backends
(:mod:`ggp.arena.backends`) run them; both import this module, neither imports the other's
internals.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, replace
from typing import Any

from ggp.agents.base import Agent
from ggp.arena.agent_specs import build_agent
from ggp.arena.match import play_match, seed_global_generators
from ggp.arena.sandboxed import AGENT_LIMITS, SandboxedAgent
from ggp.core.errors import GGPError
from ggp.core.protocol import ObsActionHistory
from ggp.load import load_model


class TournamentError(GGPError):
    """A tournament cannot be set up or resumed as asked."""


@dataclass(frozen=True)
class MatchTask:
    """One match of a tournament, with everything a worker needs to play it."""

    key: str
    game: str
    seats: tuple[str, ...]
    seed: int
    focal: str | None
    opponent: str | None
    focal_seat: int | None
    index: int
    sandboxed: tuple[bool, ...]
    move_seconds: float | None
    memory_mb: int
    network: bool
    max_steps: int
    trajectory: bool = True
    legal_actions: bool = False
    field: tuple[str, ...] = ()
    seat_order: tuple[int, ...] = ()  # field matches: the field position in each seat
    duplicate: bool = False  # one of the duplicate matches of its index (same seed)

    def labels(self) -> dict[str, Any]:
        """What identifies the match in its results line besides game, seats and seed."""
        extra = {"duplicate": True} if self.duplicate else {}
        if self.field:
            return {"field": list(self.field), "seat_order": list(self.seat_order),
                    "index": self.index, **extra}
        return {"focal": self.focal, "opponent": self.opponent,
                "focal_seat": self.focal_seat, "index": self.index, **extra}


class _BrokenAgent(Agent):
    """Stands in for an agent whose construction failed: it forfeits at start."""

    def __init__(self, name: str, error: Exception) -> None:
        self.name = name
        self.error = error

    def start(self, info) -> None:
        raise self.error

    def act(self, history: ObsActionHistory) -> str:
        raise self.error


def _make_agents(task: MatchTask, model) -> list[Agent]:
    agents: list[Agent] = []
    for spec, sandboxed in zip(task.seats, task.sandboxed):
        if sandboxed:
            limits = replace(AGENT_LIMITS, memory_mb=task.memory_mb, network=task.network)
            agents.append(SandboxedAgent(spec, task.game, limits=limits,
                                         move_seconds=task.move_seconds or 60.0))
            continue
        try:
            agents.append(build_agent(spec, model))
        except Exception as exc:  # noqa: BLE001 - a broken agent forfeits its matches
            agents.append(_BrokenAgent(spec, exc))
    return agents


def simulations_of(agent: Agent) -> int | None:
    """The simulations a search agent ran in the match just played (its
    ``report["stats"]["simulations"]``, see :class:`ggp.agents.search_agents.SearchAgent`
    and :class:`ggp.agents.cwm_agents.CWMAgent`); None for agents that do not search."""
    stats = agent.report.get("stats")
    sims = stats.get("simulations") if isinstance(stats, dict) else None
    return int(sims) if isinstance(sims, (int, float)) and not isinstance(sims, bool) else None


def run_match_task(task: MatchTask) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Play one scheduled match; returns its results line and (optionally) trajectory.

    Agent failures are forfeits inside the result; a failure of the game itself (the
    ground-truth model raising, no terminal state) is recorded under ``"error"``.
    """
    started = time.perf_counter()
    record: dict[str, Any] = {
        "key": task.key, "game": task.game, "seats": list(task.seats), "seed": task.seed,
        **task.labels(),
    }
    agents: list[Agent] = []
    trajectory = None
    seed_global_generators(task.seed)
    try:
        model = load_model(task.game)
        agents = _make_agents(task, model)
        result = play_match(model, agents, seed=task.seed, max_steps=task.max_steps,
                            move_seconds=task.move_seconds, legal_actions=task.legal_actions)
        record.update(
            returns=result.returns,
            forfeit=None if result.forfeit is None else asdict(result.forfeit),
            moves=[len(t) for t in result.move_seconds],
            move_seconds_mean=[sum(t) / len(t) if t else 0.0 for t in result.move_seconds],
            move_seconds_max=[max(t, default=0.0) for t in result.move_seconds],
            simulations=[simulations_of(agent) for agent in agents],
            # moves a search agent made without a consistent belief (ggp.belief.fallback)
            belief_fallbacks=[int(a.belief_fallbacks) for a in agents],
        )
        if task.trajectory:
            trajectory = {"key": task.key, **result.to_dict()}
    except Exception as exc:  # noqa: BLE001 - the game failed; the tournament goes on
        record["error"] = f"{type(exc).__name__}: {exc}"[:2000]
    finally:
        for agent in agents:
            agent.close()
    record["seconds"] = time.perf_counter() - started
    return record, trajectory
