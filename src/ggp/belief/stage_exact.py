"""Exact enumeration of one stage of the particle filter (issue 31).

The guided particle filter (:mod:`ggp.belief.generic`) moves *sampled* continuations of
its particles to the player's next decision point; when the observation there constrains
the hidden moves tightly (an opponent asks for a rank it must hold and the answer shows
how many cards changed hands; a re-roll is announced and the bid that follows must be
possible), few or no samples match although some particles of the pool can still be
continued consistently. This module enumerates instead: from every distinct particle of
the pool it expands *every* chance outcome and every move of the other players up to the
player's next decision point, keeps the states whose observation there equals the
recorded one, and weights them exactly (the particle's weight times the chance odds and
uniform opponent probabilities of the moves since).

Histories that reach the same state after the same number of moves are merged (their
weights added; one of their action lists is kept, which replays to the same
observations, since what follows depends on the state alone): in deal-and-draw games many
orders lead to one state. So a stage costs the number of distinct intermediate states,
bounded by ``max_nodes``; beyond it the enumeration gives up (returns nothing) and the
filter's history search takes over, seeded with whatever consistent histories the
enumeration had already found (so a capped stage's work is not lost).

Given the pool, the result is the exact posterior of the continuations (no proposal, no
sampling noise beyond the pool itself): a stage that some particle can survive always
survives.
"""

from __future__ import annotations

import math
import time

from ggp.belief.tokens import _Target
from ggp.core.protocol import CHANCE, TERMINAL, Action, State, canonical_json

SHARE = 0.1
"""At most this share of the belief's time limit per stage (1 s of the default 10 s:
states of big games are slow to copy and compare)."""

ESTIMATE_FACTOR = 25
"""How far above the node budget the path estimate may be before a stage is not tried."""

MAX_NODES = 4_000
"""Distinct states one stage may expand before the enumeration gives up; it also gives up
after ``10 * MAX_NODES`` moves applied (nodes with many moves, such as bids)."""


def estimated_paths(ops, state: State, player: int, rng, max_steps: int = 10_000) -> float:
    """Knuth's estimate of the number of histories from ``state`` to the player's next
    decision: the product of the branching factors along one random path (chance
    outcomes, other players' moves). Merging makes the real enumeration smaller; a
    52-card game's estimate is millions, a few questions and draws hundreds."""
    size = 1.0
    for _ in range(max_steps):
        mover = ops.current_player(state)
        if mover in (player, TERMINAL):
            break
        legal = ops.legal_actions(state)
        if not legal:
            break
        size *= len(legal)
        state = ops.apply(state, rng.choice(legal))
    return size


def worth_enumerating(ops, pool: list, player: int, rng, max_nodes: int = MAX_NODES
                      ) -> bool:
    """Whether enumerating the stage from ``pool`` can fit ``max_nodes``: the estimate
    from one random particle, times the number of distinct particles, within
    ``ESTIMATE_FACTOR * max_nodes`` (enumeration merges histories, so the estimate is
    generous; beyond that factor, the time is better given to the history search)."""
    distinct = len({canonical_json(w.state) for w in pool})
    one = estimated_paths(ops, rng.choice(pool).state, player, rng)
    return one * distinct <= ESTIMATE_FACTOR * max_nodes


def enumerate_stage(ops, pool: list, target: _Target, player: int, deadline: float,
                    max_nodes: int = MAX_NODES, seconds: float = math.inf
                    ) -> tuple[list[tuple[State, float, tuple[Action, ...]]], bool]:
    """``(found, complete)``: ``found`` holds ``(state, weight, actions)`` for every
    continuation of the ``pool`` members (objects with ``state``, ``weight`` and
    ``actions``; each at a point where the player has just acted, or at the initial
    state) that reaches the player's next decision with the observation ``target``,
    weights unnormalized. ``complete`` is False when the enumeration stopped before more
    than ``max_nodes`` states, ``seconds`` or the ``deadline`` would be passed; ``found``
    then holds the consistent continuations reached so far (a biased subset: seeds for a
    search, not a posterior)."""
    deadline = min(deadline, time.monotonic() + seconds)
    layer: dict[str, list] = {}
    for w in pool:  # the pool holds repeated particles after resampling: merge them
        key = canonical_json(w.state)
        if key in layer:
            layer[key][1] += w.weight
        else:
            layer[key] = [w.state, w.weight, tuple(w.actions)]
    found: dict[str, list] = {}
    expanded = applied = 0
    while layer:
        following: dict[str, list] = {}
        for state, weight, actions in layer.values():
            mover = ops.current_player(state)
            if mover == TERMINAL:
                continue
            if mover == player:
                if target.matches(ops.observations(state)[player]):
                    key = canonical_json(state)
                    if key in found:
                        found[key][1] += weight
                    else:
                        found[key] = [state, weight, actions]
                continue
            expanded += 1
            if expanded > max_nodes or time.monotonic() > deadline:
                return _listed(found), False
            if mover == CHANCE:
                branches = [(a, p) for a, p in ops.chance_outcomes(state) if p > 0]
            else:
                legal = ops.legal_actions(state)
                branches = [(a, 1.0 / len(legal)) for a in legal]
            applied += len(branches)
            if applied > 10 * max_nodes:
                return _listed(found), False
            for n, (action, p) in enumerate(branches):
                if n % 16 == 15 and time.monotonic() > deadline:
                    return _listed(found), False  # a slow model, many moves at one node
                child = ops.apply(state, action)
                key = canonical_json(child)
                if key in following:
                    following[key][1] += weight * p
                else:
                    following[key] = [child, weight * p, actions + (action,)]
        layer = following
    return _listed(found), True


def _listed(found: dict[str, list]) -> list[tuple[State, float, tuple[Action, ...]]]:
    return [(s, w, a) for s, w, a in found.values()]
