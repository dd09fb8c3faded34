"""Play one match between agents on a ground-truth world model.

The runner owns the true state: it samples chance moves, shows each agent only its own
action-observation history, checks every answer against the legal actions and records the
full trajectory. An agent that raises or answers with an illegal action forfeits (see
:func:`forfeit_returns` for what a forfeit scores).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ggp.agents.base import Agent, MatchInfo
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, Action, GameMetadata, ObsActionHistory


@dataclass(frozen=True)
class Forfeit:
    """Why a player lost by forfeit: ``illegal``, ``exception``, ``timeout`` or ``crash``."""

    player: int
    reason: str
    detail: str = ""


@dataclass
class MatchResult:
    """The outcome and full record of one match."""

    game: str
    agents: list[str]
    seed: int
    returns: list[float]
    forfeit: Forfeit | None
    steps: list[dict[str, Any]] = field(default_factory=list)
    move_seconds: list[list[float]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "agents": self.agents,
            "seed": self.seed,
            "returns": self.returns,
            "forfeit": None if self.forfeit is None else vars(self.forfeit),
            "steps": self.steps,
            "move_seconds": self.move_seconds,
        }


def forfeit_returns(metadata: GameMetadata, loser: int) -> list[float]:
    """Returns when ``loser`` forfeits: the loser gets the minimum utility; in win/loss/draw
    games every other player gets the maximum (a win), in two-player zero-sum payoff games
    the opponent gets the negated minimum, and in general-sum games the others get 0."""
    n = metadata.num_players
    if metadata.outcome == "win_loss_draw":
        other = metadata.max_utility
    elif metadata.zero_sum and n == 2:
        other = -metadata.min_utility
    else:
        other = 0.0
    return [metadata.min_utility if p == loser else other for p in range(n)]


def play_match(
    model: WorldModel,
    agents: Sequence[Agent],
    *,
    seed: int = 0,
    max_steps: int = 100_000,
    record_states: bool = True,
    on_step: Callable[[dict[str, Any]], None] | None = None,
) -> MatchResult:
    """Play ``agents`` (one per seat) against each other on ``model``."""
    rng = random.Random(seed)
    n = model.num_players
    if len(agents) != n:
        raise ValueError(f"{model.name} needs {n} agents, got {len(agents)}")
    for seat, agent in enumerate(agents):
        agent.start(MatchInfo(model.name, seat, n, seed * 1000 + seat, model.rules))
    histories: list[ObsActionHistory] = [[] for _ in range(n)]
    times: list[list[float]] = [[] for _ in range(n)]
    state = model.initial_state()
    returns = [0.0] * n
    steps: list[dict[str, Any]] = []
    forfeit = None
    for _ in range(max_steps):
        player = model.current_player(state)
        if player == TERMINAL:
            break
        if player == CHANCE:
            action = model.sample_chance(state, rng)
        else:
            action, forfeit = _ask(model, agents[player], player, state, histories[player],
                                   times[player])
            if forfeit:
                break
        step = {"player": player, "action": action}
        if record_states:
            step["state"] = state
        state = model.apply(state, action)
        rewards = model.rewards(state)
        returns = [r + x for r, x in zip(returns, rewards)]
        step["rewards"] = rewards
        steps.append(step)
        if on_step:
            on_step(step)
    else:
        raise RuntimeError(f"{model.name}: no terminal state after {max_steps} steps")
    if forfeit:
        returns = forfeit_returns(model.metadata, forfeit.player)
    for seat, agent in enumerate(agents):
        agent.end(histories[seat], returns)
    return MatchResult(model.name, [a.name for a in agents], seed, returns, forfeit, steps, times)


def _ask(
    model: WorldModel,
    agent: Agent,
    player: int,
    state: dict,
    history: ObsActionHistory,
    times: list[float],
) -> tuple[Action | None, Forfeit | None]:
    history.append((model.observation(state, player), None))
    observe = getattr(agent, "observe_true_state", None)
    if observe is not None:  # only cheating baselines (e.g. "clairvoyant") define this hook
        observe(state)
    started = time.perf_counter()
    try:
        action = agent.act(list(history))
    except Exception as exc:  # noqa: BLE001 - any agent failure is a forfeit
        return None, Forfeit(player, "exception", f"{type(exc).__name__}: {exc}")
    finally:
        times.append(time.perf_counter() - started)
    if action not in model.legal_actions(state):
        return None, Forfeit(player, "illegal", f"{action!r} is not legal")
    history[-1] = (history[-1][0], action)
    return action, None
