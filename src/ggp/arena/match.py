"""Play one match between agents on a ground-truth world model.

The runner owns the true state: it samples chance moves, shows each agent only its own
action-observation history, checks every answer against the legal actions and records the
full trajectory (every step, every player's observation-action history, move times).

Legal actions are hidden from agents by default (seed 000's protocol: an illegal move by
a model-based agent is a forfeit that measures its model). ``legal_actions=True`` hands
every agent the true state's legal actions before each move (the OpenSpiel and PettingZoo
convention); agents that ``take_legal_actions`` (the ``random`` baseline) get them
either way.

An agent forfeits, and the match ends at once, when it fails to produce a legal action:

* ``illegal`` — it answered with an action that is not legal in the true state;
* ``exception`` — it raised (in ``start`` or ``act``);
* ``timeout`` — it took longer than ``move_seconds`` (an in-process agent is only judged
  after it returns; a sandboxed agent is killed at the deadline);
* ``memory``, ``cpu``, ``output``, ``crash``, ``protocol`` — its sandboxed worker ran out
  of memory or CPU time, printed too much, died, or answered nonsense
  (:class:`ggp.sandbox.SandboxFailure` kinds).

See :func:`forfeit_returns` for what a forfeit scores.
"""

from __future__ import annotations

import contextlib
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ggp.agents.base import Agent, MatchInfo
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, Action, GameMetadata, ObsActionHistory
from ggp.sandbox import SandboxFailure


@dataclass(frozen=True)
class Forfeit:
    """Why a player lost by forfeit (``reason``: see the module docstring)."""

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
    histories: list[ObsActionHistory] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "agents": self.agents,
            "seed": self.seed,
            "returns": self.returns,
            "forfeit": None if self.forfeit is None else vars(self.forfeit),
            "steps": self.steps,
            "move_seconds": self.move_seconds,
            "histories": self.histories,
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


def seed_global_generators(seed: int) -> None:
    """Seed the module-level generators of ``random`` (and numpy, if loaded).

    World models draw their own randomness from them (``resample_history`` has no rng
    argument), so without this a match would depend on whatever the process ran before.
    """
    random.seed(seed)
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed(seed % 2**32)


def play_match(
    model: WorldModel,
    agents: Sequence[Agent],
    *,
    seed: int = 0,
    max_steps: int = 100_000,
    record_states: bool = True,
    move_seconds: float | None = None,
    on_step: Callable[[dict[str, Any]], None] | None = None,
    legal_actions: bool = False,
) -> MatchResult:
    """Play ``agents`` (one per seat) against each other on ``model``.

    ``seed`` fixes the chance moves and each agent's seed (``seed * 1000 + seat``), so a
    match between deterministic-given-seed agents is reproducible. ``move_seconds``, when
    given, is the time an agent may take per move (see the module docstring).
    ``legal_actions`` shows every agent its legal actions (see the module docstring). Exceptions
    an agent raises in ``end`` are ignored: the result is already decided.
    """
    rng = random.Random(seed)
    n = model.num_players
    if len(agents) != n:
        raise ValueError(f"{model.name} needs {n} agents, got {len(agents)}")
    histories: list[ObsActionHistory] = [[] for _ in range(n)]
    times: list[list[float]] = [[] for _ in range(n)]
    steps: list[dict[str, Any]] = []
    returns = [0.0] * n
    forfeit = _start_all(model, agents, seed, legal_actions)
    state = model.initial_state()
    for _ in range(max_steps):
        if forfeit:
            break
        player = model.current_player(state)
        if player == TERMINAL:
            break
        if player == CHANCE:
            action = model.sample_chance(state, rng)
        else:
            action, forfeit = _ask(model, agents[player], player, state, histories[player],
                                   times[player], move_seconds, legal_actions)
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
        with contextlib.suppress(Exception):  # the outcome no longer depends on it
            agent.end(histories[seat], returns)
    return MatchResult(model.name, [a.name for a in agents], seed, returns, forfeit, steps,
                       times, histories)


def _start_all(model: WorldModel, agents: Sequence[Agent], seed: int,
               legal_actions: bool) -> Forfeit | None:
    """Tell every agent the match starts; the first one that fails forfeits."""
    n = model.num_players
    for seat, agent in enumerate(agents):
        try:
            agent.start(MatchInfo(model.name, seat, n, seed * 1000 + seat, model.rules,
                                  legal_actions=legal_actions))
        except Exception as exc:  # noqa: BLE001 - any agent failure is a forfeit
            return Forfeit(seat, *_failure_reason(exc))
    return None


def _failure_reason(exc: Exception) -> tuple[str, str]:
    if isinstance(exc, SandboxFailure):
        return exc.kind, exc.detail[-2000:]
    return "exception", f"{type(exc).__name__}: {exc}"


def _ask(
    model: WorldModel,
    agent: Agent,
    player: int,
    state: dict,
    history: ObsActionHistory,
    times: list[float],
    move_seconds: float | None,
    legal_actions: bool,
) -> tuple[Action | None, Forfeit | None]:
    history.append((model.observation(state, player), None))
    agent.observe_true_state(state)  # a no-op but for cheating baselines ("clairvoyant")
    legal = model.legal_actions(state)
    started = time.perf_counter()
    try:
        if legal_actions or agent.takes_legal_actions:
            agent.observe_legal_actions(list(legal))
        action = agent.act(list(history))
    except Exception as exc:  # noqa: BLE001 - any agent failure is a forfeit
        return None, Forfeit(player, *_failure_reason(exc))
    finally:
        times.append(time.perf_counter() - started)
    if move_seconds is not None and times[-1] > move_seconds:
        return None, Forfeit(player, "timeout",
                             f"took {times[-1]:.3f} s, the limit is {move_seconds:g} s")
    if not isinstance(action, str) or action not in legal:
        return None, Forfeit(player, "illegal", f"{repr(action)[:200]} is not legal")
    history[-1] = (history[-1][0], action)
    return action, None
