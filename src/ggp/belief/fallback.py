"""Acting without a belief: a legal move when no consistent history is found (issue 31).

A search agent needs complete states; when its belief sampler raises
:class:`~ggp.core.errors.BeliefError` (no history consistent with every observation was
found in budget) the agent must still move, and without ``--legal-actions`` it does not
know its legal moves. This module degrades instead of forfeiting:

1. the referee's offered legal actions, when it offered them (exact);
2. otherwise *relaxed* particles: states at the player's current decision point whose
   **current** observation equals the recorded one, but whose earlier observations need
   not. They start from the latest decision explained either by the generic sampler's
   last consistent particles or by the states this agent's previous fallback found
   (:class:`RelaxedMemory`: a fallback at every move then extends a few moves each time
   instead of rebuilding the whole match), else from the initial state; they take the
   player's own recorded actions and move between them with the generic sampler's guided
   proposal (:func:`ggp.belief.generic._extend`), keeping at each earlier decision the
   candidate closest to that decision's observation;
3. when no relaxed particle matches the current observation exactly, the generic
   sampler's history search (:mod:`ggp.belief.history_search`) is run from the closest
   ones with the energy of the current observation alone (the earlier decisions only have
   to allow the player's recorded actions); both repeat, up to ``patience`` seconds,
   until a state matches.

The move (:func:`choose_action`): from states matching the current observation, one legal
in all of them (else in most; each is legal in a state consistent with what the player
sees, which is all a player without the true state can know: in the games measured,
legal moves follow from the hand and the public state the observation fixes). From
states that only come close, nothing is proven: the move is legal and *supported* in
each of them (else in most), supported meaning that it names no value where that state's
view differs from the player's; only when no move is supported anywhere is the one
legal in most of them taken, a guess.
When not even a relaxed state is found, :class:`BeliefError` stands.
"""

from __future__ import annotations

import random
import time
from collections import Counter

from ggp.belief.generic import _extend
from ggp.belief.history_search import HistorySearch
from ggp.belief.tokens import _Target, _words, mismatch, surplus
from ggp.core.errors import BeliefError
from ggp.core.model import WorldModel
from ggp.core.protocol import Action, ObsActionHistory, State, canonical_json
from ggp.core.ops import ops_for

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
                         wanted: int = 8) -> list[tuple[State, tuple]]:
    """``(state, actions)`` whose *current* observation equals the recorded one, by the
    history search of :mod:`ggp.belief.history_search` with the energy of the current
    observation alone (earlier decisions need only allow the player's recorded actions),
    started from ``seeds`` (action lists from the initial state to the current
    decision)."""
    if not seeds:
        return []
    ops = ops_for(model)
    search = HistorySearch(ops, player, [_Target(obs) for obs, _ in history],
                           [a for _, a in history[:-1]], only_last=True)
    found = search.run([list(s) for s in seeds], rng, time.monotonic() + seconds, wanted)
    return [(h.states[-1], tuple(h.actions)) for h in found]


class RelaxedMemory:
    """The states the last fallback of a match found matching the player's observation,
    so that its next fallback continues from them (a few moves to extend) instead of from
    the initial state (a whole match to rebuild: in long card games that often fails, and
    the closest states it leaves are a guess). Like the sampler's consistent prefix, it is
    used only while the history extends the one it was found for."""

    def __init__(self) -> None:
        self.keys: list[tuple[str, object]] = []
        self.states: list[tuple[State, tuple]] = []

    def remember(self, history: ObsActionHistory, states: list[tuple[State, tuple]]) -> None:
        """``states`` (with the histories reaching them) match the last observation of
        ``history``."""
        self.keys = [(canonical_json(obs), action) for obs, action in history]
        self.states = list(states)

    def prefix(self, history: ObsActionHistory) -> tuple[int, list[tuple[State, tuple]]] | None:
        """``(stage, states)`` for an earlier decision of ``history``, or None."""
        n = len(self.keys)
        if not self.states or not 0 < n < len(history):
            return None
        now = [(canonical_json(obs), action) for obs, action in history[:n]]
        if now[:n - 1] != self.keys[:n - 1] or now[n - 1][0] != self.keys[n - 1][0]:
            return None
        return n - 1, self.states


def fallback_action(model: WorldModel, history: ObsActionHistory, player: int,
                    rng: random.Random, *, sampler=None, offered: list[Action] | None = None,
                    memory: RelaxedMemory | None = None, seconds: float = 2.0,
                    patience: float = 12.0) -> Action:
    """A move for a player whose belief failed (see the module doc): one of ``offered``
    when the referee offered legal actions, else one legal in states found that match the
    current observation (:func:`choose_action`). Rounds of relaxed particles (``seconds``)
    and, when none matches exactly, the relaxed history search from the closest of them
    (as long again) repeat until a matching state is found or ``patience`` seconds have
    passed; then the closest states are used, with the rule of :func:`choose_action` for
    them. Relaxed particles start from the latest decision explained by ``sampler`` (any
    belief sampler; pooled ones are unwrapped: its last consistent particles) or by
    ``memory`` (the states this agent's previous fallback found; updated here), else
    from the initial state. Raises :class:`BeliefError` when not even a relaxed state is
    found."""
    if offered:
        return rng.choice(offered)
    inner = sampler
    while inner is not None and hasattr(inner, "sampler"):
        inner = inner.sampler
    starts = []
    consistent = getattr(inner, "consistent_prefix", None)
    if consistent is not None:
        starts.append(consistent(history, player))
    if memory is not None:
        starts.append(memory.prefix(history))
    # the latest decision first (fewest moves to rebuild); the initial state last
    starts = sorted((s for s in starts if s is not None), key=lambda s: -s[0]) + [None]
    start = starts.pop(0)
    give_up = time.monotonic() + patience
    states: list[tuple[State, tuple]] = []
    closest: list[tuple[State, tuple]] = []
    while not states:
        found, exact = relaxed_states(model, history, player, rng, start=start,
                                      seconds=seconds)
        if not found and starts:  # these starting states led nowhere: the next ones
            start = starts.pop(0)
            continue
        if exact:
            states = found
            break
        if found:
            closest = closest or found
            states = current_match_search(model, history, player, rng,
                                          [m for _, m in found], seconds)
        if time.monotonic() > give_up:
            break
    if states and memory is not None:
        memory.remember(history, states)
    if not (states or closest):
        raise BeliefError(
            f"{model.name}: no state matching player {player}'s current observation was "
            "found either, so it has no legal move to fall back on (use --legal-actions)")
    return choose_action(model, [s for s, _ in states or closest], player,
                         _Target(history[-1][0]), rng)


def choose_action(model: WorldModel, states: list[State], player: int, target: _Target,
                  rng: random.Random) -> Action:
    """The fallback's move from candidate ``states`` at the player's decision point.

    When a state's observation equals ``target`` (the recorded current one), its legal
    actions are legal in a state consistent with what the player sees: an action legal in
    every such state is taken (else one legal in most of them, still legal in one). States
    that only come close cannot prove anything; from them an action is taken that is
    legal in every one of them and *supported* in each: none of its words names a value
    where that state's observation differs from the target (``Play 28B`` is unsupported
    when the state's hand holds 28B and the player's real hand does not). Failing that,
    one legal and supported in most of them, and only when no action is supported in any,
    the one legal in most (a guess, the last resort)."""
    ops = ops_for(model)
    matching = [s for s in states if target.matches(ops.observations(s)[player])]
    if matching:
        return _most_common(rng, [set(ops.legal_actions(s)) for s in matching])
    supported: list[set[Action]] = []
    for state in states:
        differ = {key[2] for key, n in surplus(ops.observations(state)[player], target).items()
                  if n and key[0] == "m"}
        supported.append({a for a in ops.legal_actions(state)
                          if not differ.intersection(_words(str(a)))})
    if any(supported):
        return _most_common(rng, supported)
    return _most_common(rng, [set(ops.legal_actions(s)) for s in states])


def _most_common(rng: random.Random, sets: list[set[Action]]) -> Action:
    """A uniformly drawn action among those in the most of ``sets`` (all, if any is)."""
    counts: Counter = Counter()
    for actions in sets:
        counts.update(actions)
    if not counts:
        raise BeliefError("no state found for the fallback has a legal move")
    top = max(counts.values())
    return rng.choice(sorted(a for a, n in counts.items() if n == top))
