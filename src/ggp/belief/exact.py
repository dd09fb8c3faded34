"""Exact information sets for small games (the procedure of seed 003 §17.6).

Starting from the initial state, every history is expanded by every legal move of every
player and of chance; the player's own observations act as filters: at each of the
player's decision points its observation must equal the recorded one and only the action
it actually took is followed. What survives to the player's current decision point is its
information set.

Each surviving history is weighted by the probability of the moves the player did not
make: chance moves by ``get_chance_outcomes``, other players' moves by an *opponent
model* (uniform over legal actions unless another is given). Normalized, these weights are
the exact posterior over histories under that opponent model.

Cost grows with the number of histories the game allows between the player's decisions;
``max_nodes`` turns a blow-up into a :class:`~ggp.core.errors.BeliefError`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from ggp.core.errors import BeliefError
from ggp.core.model import WorldModel
from ggp.core.protocol import (
    CHANCE,
    TERMINAL,
    Action,
    ObsActionHistory,
    State,
    canonical_json,
)

OpponentModel = Callable[[State, int, list[Action]], list[float]]
"""``policy(state, player, legal_actions) -> probabilities`` (one per legal action)."""


class BeliefTooLarge(BeliefError):
    """The information set needs more than ``max_nodes`` states to enumerate."""


def uniform_opponent(state: State, player: int, legal: list[Action]) -> list[float]:
    """The default opponent model: every legal action equally likely."""
    return [1.0 / len(legal)] * len(legal)


@dataclass(frozen=True)
class WeightedHistory:
    """One element of an information set: the full action history, the state it leads
    to and its posterior probability."""

    actions: tuple[Action, ...]
    state: State
    probability: float


def information_set(
    model: WorldModel,
    history: ObsActionHistory,
    player: int,
    *,
    opponent_model: OpponentModel = uniform_opponent,
    max_nodes: int = 1_000_000,
    start: list[WeightedHistory] | None = None,
    deadline: float | None = None,
) -> list[WeightedHistory]:
    """Every history consistent with ``history`` (the player deciding now), with its
    posterior probability. Raises :class:`BeliefError` if there is none, and
    :class:`BeliefTooLarge` if more than ``max_nodes`` states would have to be expanded
    or ``deadline`` (``time.monotonic()``) passes first.

    ``start``: the information set of an earlier decision point ``k`` of the same history
    (what this function returned for ``history[:k + 1]``, same opponent model). The
    enumeration then continues from it (each member takes the player's recorded action
    at ``k``) instead of from the initial state: the same result, at the cost of the
    moves since ``k`` only (``max_nodes`` counts those)."""
    if not history:
        raise BeliefError("the player's history is empty: it has no decision point yet")
    targets = [canonical_json(obs) for obs, _ in history]
    last = len(history) - 1
    found: list[WeightedHistory] = []
    stack: list[tuple[State, tuple[Action, ...], float, int]]
    if start:
        k = _decision_index(model, start[0], player)
        if k >= last:
            raise ValueError("start must be the information set of an earlier decision")
        action = history[k][1]
        stack = [(model.apply(w.state, action), w.actions + (action,), w.probability, k + 1)
                 for w in start if action in model.legal_actions(w.state)]
        stack.reverse()  # expanded in the order a fresh enumeration would use
    else:
        stack = [(model.initial_state(), (), 1.0, 0)]
    expanded = 0
    while stack:
        state, actions, prob, step = stack.pop()
        expanded += 1
        if expanded > max_nodes:
            raise _too_large(max_nodes)
        if deadline is not None and expanded % 64 == 1 and time.monotonic() > deadline:
            raise _too_slow()
        mover = model.current_player(state)
        if mover == TERMINAL:
            continue
        if mover == player:
            if canonical_json(model.observation(state, player)) != targets[step]:
                continue
            if step == last:
                found.append(WeightedHistory(actions, state, prob))
                continue
            action = history[step][1]
            if action in model.legal_actions(state):
                stack.append((model.apply(state, action), actions + (action,), prob, step + 1))
            continue
        if mover == CHANCE:
            branches = model.chance_outcomes(state)
        else:
            legal = model.legal_actions(state)
            branches = list(zip(legal, opponent_model(state, mover, legal)))
        # every state pushed is expanded later: give up before building more states than
        # the budget allows (a first deal of thousands of outcomes costs seconds to build)
        if expanded + len(stack) + len(branches) > max_nodes:
            raise _too_large(max_nodes)
        for n, (action, p) in enumerate(branches):
            if deadline is not None and n % 16 == 15 and time.monotonic() > deadline:
                raise _too_slow()  # a slow model with many moves at one node
            if p > 0:
                stack.append((model.apply(state, action), actions + (action,), prob * p, step))
    if not found:
        raise BeliefError("no history of the game is consistent with the player's observations")
    total = sum(w.probability for w in found)
    return [WeightedHistory(w.actions, w.state, w.probability / total) for w in found]


def _decision_index(model: WorldModel, w: WeightedHistory, player: int) -> int:
    """How many decision points of ``player`` precede the end of ``w``'s history."""
    state, count = model.initial_state(), 0
    for action in w.actions:
        if model.current_player(state) == player:
            count += 1
        state = model.apply(state, action)
    return count


def estimated_histories(model: WorldModel, player: int, rng: random.Random,
                        paths: int = 3) -> float:
    """The fewest histories up to ``player``'s first decision point that any of ``paths``
    random paths suggests: along each path the branching factors of the nodes before
    that point (chance outcomes, other players' moves) are multiplied, which is Knuth's
    unbiased estimate of the number of histories at that depth. Enumeration has to expand
    at least those; taking the smallest of a few estimates errs towards trying it."""
    best = math.inf
    for _ in range(paths):
        state, size = model.initial_state(), 1.0
        for _ in range(10_000):
            mover = model.current_player(state)
            if mover in (player, TERMINAL):
                break
            legal = model.legal_actions(state)
            size *= max(1, len(legal))
            state = model.apply(state, rng.choice(legal))
        best = min(best, size)
    return best


def _too_large(max_nodes: int) -> BeliefTooLarge:
    return BeliefTooLarge(
        f"the information set needs more than {max_nodes} states: too large for exact "
        "enumeration (use the generic or the model's sampler)")


def _too_slow() -> BeliefTooLarge:
    return BeliefTooLarge(
        "the information set was not enumerated in the time allowed: too large for exact "
        "enumeration (use the generic or the model's sampler)")


def state_distribution(weighted: list[WeightedHistory]) -> dict[str, float]:
    """Merge histories that lead to the same state: canonical JSON of state -> probability."""
    dist: dict[str, float] = {}
    for w in weighted:
        key = canonical_json(w.state)
        dist[key] = dist.get(key, 0.0) + w.probability
    return dist


def sample_exact(
    model: WorldModel, history: ObsActionHistory, player: int, rng: random.Random
) -> State:
    """One state drawn from the exact posterior (uniform opponent model)."""
    weighted = information_set(model, history, player)
    return rng.choices(weighted, weights=[w.probability for w in weighted])[0].state
