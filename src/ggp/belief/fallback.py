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
   actions the found states share (legal in all of them);
3. when no relaxed particle matches the current observation exactly, the generic
   sampler's history search (:mod:`ggp.belief.history_search`) is run from the closest
   ones with the energy of the current observation alone (the earlier decisions only have
   to allow the player's recorded actions); both repeat, up to ``patience`` seconds,
   until a state matches; failing that, the move legal in most of the closest states.

The returned action is *likely* legal, not certainly: legal moves usually follow from what
a player sees (its hand, the public state), which is exactly what the current observation
fixes. When not even a relaxed state is found, :class:`BeliefError` stands.
"""

from __future__ import annotations

import random
import time
from collections import Counter

from ggp.belief.generic import _extend
from ggp.belief.history_search import HistorySearch
from ggp.belief.tokens import _Target, mismatch
from ggp.core.errors import BeliefError
from ggp.core.model import WorldModel
from ggp.core.protocol import Action, ObsActionHistory, State
from ggp.search.ops import ops_for

TRIES_PER_STAGE = 4
"""Candidates moved to each earlier decision point; the closest one goes on."""


def relaxed_states(model: WorldModel, history: ObsActionHistory, player: int,
                   rng: random.Random, *,
                   start: tuple[int, list[tuple[State, tuple]]] | None = None,
                   seconds: float = 2.0, wanted: int = 8, max_steps: int = 10_000
                   ) -> tuple[list[tuple[State, tuple]], bool]:
    """``(state, actions)`` at the player's current decision point (see the module doc)
    and whether their current observation equals the recorded one exactly (else they
    are the closest found). ``start`` is ``(stage, [(state, actions)])``: states at the
    player's decision point ``stage`` consistent with the history up to it, with the
    histories reaching them (default: the initial state, stage -1). Stops after
    ``wanted`` exact states or ``seconds``."""
    ops = ops_for(model)
    targets = [_Target(obs) for obs, _ in history]
    last = len(history) - 1
    stage0, starts = start if start else (-1, [(model.initial_state(), ())])
    deadline = time.monotonic() + seconds
    exact: list[tuple[State, tuple]] = []
    near: list[tuple[int, State, tuple]] = []
    while time.monotonic() < deadline and len(exact) < wanted:
        state, moves = rng.choice(starts)
        moves = list(moves)
        for step in range(stage0, last):
            if step >= 0:  # the player's own recorded action at its decision ``step``
                action = history[step][1]
                if action not in ops.legal_actions(state):
                    state = None
                    break
                state = ops.apply(state, action)
                moves.append(action)
            moved = _closest(ops, state, player, rng, targets[step + 1], max_steps,
                             1 if step + 1 == last else TRIES_PER_STAGE,
                             None if step + 1 == last else history[step + 1][1])
            if moved is None:
                state = None
                break
            state, extra = moved
            moves += extra
        if state is None:
            continue
        distance = mismatch(ops.observations(state)[player], targets[last])
        if distance == 0:
            exact.append((state, tuple(moves)))
        else:
            near.append((distance, state, tuple(moves)))
    if exact:
        return exact, True
    near.sort(key=lambda x: x[0])
    return [(s, m) for _, s, m in near][:wanted], False


def _closest(ops, state: State, player: int, rng: random.Random, target: _Target,
             max_steps: int, tries: int, then: Action | None = None
             ) -> tuple[State, list] | None:
    """Of ``tries`` guided extensions of ``state`` to the player's next decision, the one
    whose observation is closest to ``target`` among those where the player's next
    recorded action ``then`` is legal (up to four times as many tries while fewer are;
    an exact match ends the tries), with the moves it took. A path on which the player could not have made its own recorded move is no use
    to the decisions after it."""
    best: tuple[int, State, list] | None = None
    usable = 0
    for _ in range(4 * tries):  # up to four times as many tries while few are usable
        if usable >= tries:
            break
        moves: list = []
        moved = _extend(ops, state, player, rng, target, max_steps, moves, None,
                        rng.random() < 0.5)
        if moved is None or (then is not None and then not in ops.legal_actions(moved[0])):
            continue
        usable += 1
        distance = mismatch(ops.observations(moved[0])[player], target)
        if best is None or distance < best[0]:
            best = (distance, moved[0], moves)
        if distance == 0:
            break
    return None if best is None else (best[1], best[2])


def current_match_search(model: WorldModel, history: ObsActionHistory, player: int,
                         rng: random.Random, seeds: list[tuple], seconds: float,
                         wanted: int = 8) -> list[State]:
    """States whose *current* observation equals the recorded one, by the history search
    of :mod:`ggp.belief.history_search` with the energy of the current observation alone
    (earlier decisions need only allow the player's recorded actions), started from
    ``seeds`` (action lists from the initial state to the current decision)."""
    if not seeds:
        return []
    ops = ops_for(model)
    search = HistorySearch(ops, player, [_Target(obs) for obs, _ in history],
                           [a for _, a in history[:-1]], only_last=True)
    found = search.run([list(s) for s in seeds], rng, time.monotonic() + seconds, wanted)
    return [h.states[-1] for h in found]


def fallback_action(model: WorldModel, history: ObsActionHistory, player: int,
                    rng: random.Random, *, sampler=None, offered: list[Action] | None = None,
                    seconds: float = 2.0, patience: float = 12.0) -> Action:
    """A move for a player whose belief failed (see the module doc): one of ``offered``
    when the referee offered legal actions, else one legal in every state found that
    matches the current observation. Rounds of relaxed particles (``seconds``) and, when
    none matches exactly, the relaxed history search from the closest of them (as long
    again) repeat until a matching state is found or ``patience`` seconds have passed;
    then the move legal in most of the closest states is taken (a guess: see the module
    doc). ``sampler`` (any belief sampler; pooled ones are unwrapped) lends the last
    consistent particles it kept. Raises :class:`BeliefError` when not even a relaxed
    state is found."""
    if offered:
        return rng.choice(offered)
    inner = sampler
    while inner is not None and hasattr(inner, "sampler"):
        inner = inner.sampler
    start = None
    consistent = getattr(inner, "consistent_prefix", None)
    if consistent is not None:
        start = consistent(history, player)
    give_up = time.monotonic() + patience
    states: list[State] = []
    closest: list[State] = []
    while not states:
        found, exact = relaxed_states(model, history, player, rng, start=start,
                                      seconds=seconds)
        if not found and start is not None:  # the kept particles led nowhere
            start = None
            continue
        if exact:
            states = [s for s, _ in found]
            break
        if found:
            closest = closest or [s for s, _ in found]
            states = current_match_search(model, history, player, rng,
                                          [m for _, m in found], seconds)
        if time.monotonic() > give_up:
            break
    states = states or closest
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
