"""Acting without a belief: a legal move when no consistent history is found (issue 31).

A search agent needs complete states; when its belief sampler raises
:class:`~ggp.core.errors.BeliefError` (no history consistent with every observation was
found in budget) the agent must still move, and without ``--legal-actions`` it does not
know its legal moves. This module degrades instead of forfeiting:

1. the referee's offered legal actions, when it offered them (exact);
2. otherwise *relaxed* particles: states at the player's current decision point whose
   **current** observation equals the recorded one, but whose earlier observations need
   not. They start from the last consistent particle set the generic sampler kept (the
   longest prefix of this history it explained; else the initial state), take the
   player's own recorded actions, and move between them with the generic sampler's guided
   proposal (:func:`ggp.belief.generic._extend`), keeping at each earlier decision the
   candidate closest to that decision's observation. The move is drawn from the legal
   actions the found states share (legal in all of them); when none matches the current
   observation exactly, from the closest ones.

The returned action is *likely* legal, not certainly: legal moves usually follow from what
a player sees (its hand, the public state), which is exactly what the current observation
fixes. When not even a relaxed state is found, :class:`BeliefError` stands.
"""

from __future__ import annotations

import random
import time
from collections import Counter

from ggp.belief.generic import _extend
from ggp.belief.tokens import _Target, mismatch
from ggp.core.errors import BeliefError
from ggp.core.model import WorldModel
from ggp.core.protocol import Action, ObsActionHistory, State
from ggp.search.ops import ops_for

TRIES_PER_STAGE = 4
"""Candidates moved to each earlier decision point; the closest one goes on."""


def relaxed_states(model: WorldModel, history: ObsActionHistory, player: int,
                   rng: random.Random, *, start: tuple[int, list[State]] | None = None,
                   seconds: float = 2.0, wanted: int = 8,
                   max_steps: int = 10_000) -> tuple[list[State], bool]:
    """States at the player's current decision point (see the module doc) and whether
    their current observation equals the recorded one exactly (else they are the closest
    found). ``start`` is ``(stage, states)``: states at the player's decision point
    ``stage`` consistent with the history up to it (default: the initial state, stage
    -1). Stops after ``wanted`` exact states or ``seconds``."""
    ops = ops_for(model)
    targets = [_Target(obs) for obs, _ in history]
    last = len(history) - 1
    stage0, starts = start if start else (-1, [model.initial_state()])
    deadline = time.monotonic() + seconds
    exact: list[State] = []
    near: list[tuple[int, State]] = []
    while time.monotonic() < deadline and len(exact) < wanted:
        state: State | None = rng.choice(starts)
        for step in range(stage0, last):
            if step >= 0:  # the player's own recorded action at its decision ``step``
                action = history[step][1]
                if state is None or action not in ops.legal_actions(state):
                    state = None
                    break
                state = ops.apply(state, action)
            state = _closest(ops, state, player, rng, targets[step + 1], max_steps,
                             1 if step + 1 == last else TRIES_PER_STAGE)
            if state is None:
                break
        if state is None:
            continue
        distance = mismatch(ops.observations(state)[player], targets[last])
        if distance == 0:
            exact.append(state)
        else:
            near.append((distance, state))
    if exact:
        return exact, True
    near.sort(key=lambda x: x[0])
    return [s for d, s in near if d == near[0][0]][:wanted], False


def _closest(ops, state: State, player: int, rng: random.Random, target: _Target,
             max_steps: int, tries: int) -> State | None:
    """Of ``tries`` guided extensions of ``state`` to the player's next decision, the one
    whose observation is closest to ``target`` (an exact match ends the tries)."""
    best: tuple[int, State] | None = None
    for _ in range(tries):
        moved = _extend(ops, state, player, rng, target, max_steps, [], None,
                        rng.random() < 0.5)
        if moved is None:
            continue
        distance = mismatch(ops.observations(moved[0])[player], target)
        if best is None or distance < best[0]:
            best = (distance, moved[0])
        if distance == 0:
            break
    return None if best is None else best[1]


def fallback_action(model: WorldModel, history: ObsActionHistory, player: int,
                    rng: random.Random, *, sampler=None, offered: list[Action] | None = None,
                    seconds: float = 2.0) -> Action:
    """A move for a player whose belief failed (see the module doc): one of ``offered``
    when the referee offered legal actions, else one legal in every relaxed state (the
    most widely legal when they share none). ``sampler`` (any belief sampler; pooled ones
    are unwrapped) lends the last consistent particles it kept. Raises
    :class:`BeliefError` when not even a relaxed state is found."""
    if offered:
        return rng.choice(offered)
    inner = sampler
    while inner is not None and hasattr(inner, "sampler"):
        inner = inner.sampler
    start = None
    consistent = getattr(inner, "consistent_prefix", None)
    if consistent is not None:
        start = consistent(history, player)
    states, _exact = relaxed_states(model, history, player, rng, start=start, seconds=seconds)
    if not states and start is not None:  # the kept particles led nowhere: from the start
        states, _exact = relaxed_states(model, history, player, rng, seconds=seconds)
    if not states:
        raise BeliefError(
            f"{model.name}: no state matching player {player}'s current observation was "
            "found either, so it has no legal move to fall back on (use --legal-actions)")
    ops = ops_for(model)
    counts: Counter = Counter()
    for state in states:
        counts.update(set(ops.legal_actions(state)))
    top = max(counts.values())
    choices = sorted(a for a, n in counts.items() if n == top)
    return rng.choice(choices)
