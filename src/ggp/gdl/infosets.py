"""Information sets and state sampling for GDL / GDL-II players (seed 003, §17.6-17.7).

A player's view is its ``obs_action_history`` (docs/protocol.md): its observation at each of
its decision points and the move it made there, the last one deciding now. The states it
cannot tell apart are those reached from the initial state by some choices of the other
roles and of chance that produce exactly the same observations at the same points.

* :func:`information_set` enumerates them exactly, with probabilities (chance is uniform
  as in GDL-II; the other players are assumed to choose uniformly among their legal
  moves, since their strategies are unknown). It follows the candidate states one GDL
  step at a time, merging identical states, and filters them by the player's moves and
  percepts (§17.6); it raises :class:`BeliefError` when a step has too many candidates.
* Sampling (§17.7) is :class:`ggp.gdl.adapter.PlayerBelief` behind the model's
  ``resample_state``: hypotheses kept across the player's turns
  (:mod:`ggp.gdl.hypotheses`), not re-filtered from the initial state per draw.

In plain GDL (perfect information) only the pending moves of the current step are unknown.
"""

from __future__ import annotations

from typing import Iterator

from ggp.core.errors import BeliefError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, ObsActionHistory, State, canonical_json
from ggp.gdl.adapter import GDLGame


def information_set(model: WorldModel, history: ObsActionHistory, player: int,
                    max_states: int = 20_000) -> list[tuple[State, float]]:
    """All states consistent with ``player``'s view, with normalized probabilities (the
    argument order of :func:`ggp.belief.exact.information_set`).

    States are complete world-model states: two of them may hold the same fluents and
    differ only in what the other roles have done and seen (their move/percept history);
    :func:`fluent_sets` merges those. Raises :class:`BeliefError` when some step has more
    than ``max_states`` candidates."""
    found = _search(model, player, history, cap=max_states)
    total = sum(w for _, w, _ in found.values())
    if not found or total <= 0:
        raise BeliefError("no state is consistent with this observation history")
    return [(s, w / total) for s, w, _ in found.values()]


def fluent_sets(states: list[tuple[State, float]]) -> dict[tuple[str, ...], float]:
    """An information set as the game's states: probabilities of the distinct sets of
    true fluents (states that differ only in other roles' histories are one)."""
    merged: dict[tuple[str, ...], float] = {}
    for state, p in states:
        key = tuple(state["true"])
        merged[key] = merged.get(key, 0.0) + p
    return merged


def _search(model: WorldModel, player: int, history: ObsActionHistory, cap: int) -> dict:
    """Follow the consistent states step by step (identical states are merged and their
    probabilities added). Returns ``{key: [state, weight, k]}`` for the states at the
    player's current decision point; a step over ``cap`` states raises
    :class:`BeliefError`."""
    game = model.namespace
    if not isinstance(game, GDLGame):
        raise BeliefError("ggp.gdl.infosets works on GDL models; use ggp.belief for others")
    if not history:
        raise BeliefError("an observation history needs at least one entry")
    last = len(history) - 1
    target = history[last][0]
    if not game.gdl_ii:
        # perfect information: only the pending moves of this step are unknown
        start, k0 = {"step": target["step"], "true": target["true"], "pending": {}}, last
    else:
        start, k0 = model.initial_state(), 0
    frontier = {canonical_json(start): [start, 1.0, k0]}
    results: dict = {}
    while frontier:
        following: dict = {}
        for state, weight, k in frontier.values():
            for s2, w2, k2, done in _expand_step(model, game, player, history, state, weight, k):
                bucket = results if done else following
                key = canonical_json(s2)
                if key in bucket:
                    bucket[key][1] += w2
                else:
                    bucket[key] = [s2, w2, k2]
        if len(following) > cap:
            raise BeliefError(f"more than {cap} candidate states at step "
                              f"{next(iter(following.values()))[0]['step']}: too many for "
                              "exact enumeration (sample with the model's resample_state)")
        frontier = following
    return results


def _expand_step(model: WorldModel, game: GDLGame, player: int, history: ObsActionHistory,
                 state: State, weight: float, k: int) -> Iterator[tuple]:
    """Every way to finish the current GDL step from ``state``: yields ``(state, weight, k,
    done)``, ``done`` when it is the player's current decision point."""
    role = model.player_name(player)
    target = history[-1][0]
    last = len(history) - 1
    step = state["step"]
    stack = [(state, weight, k)]
    while stack:
        state, weight, k = stack.pop()
        if state["step"] > step:
            yield state, weight, k, False
            continue
        if not _compatible(game, state, role, target):
            continue
        current = model.current_player(state)
        if current == TERMINAL:
            continue
        if current == player:
            if not model.same(model.observation(state, player), history[k][0]):
                continue
            if k == last:
                yield state, weight, k, True
                continue
            children = [(history[k][1], 1.0)]
            k += 1
        elif current == CHANCE:
            children = model.chance_outcomes(state)
        else:
            actions = model.legal_actions(state)
            children = [(a, 1.0 / len(actions)) for a in actions]
        for action, p in children:
            stack.append((model.apply(state, action), weight * p, k))


def _compatible(game: GDLGame, state: State, role: str, target: dict) -> bool:
    """Cheap necessary conditions from the GDL state layout (prunes the search)."""
    if state["step"] > target["step"]:
        return False
    if game.gdl_ii:
        mine = state["history"][role]
        if mine != target["history"][: len(mine)]:
            return False
    if state["step"] == target["step"] and role in state["pending"]:
        return state["pending"][role] == target["pending"].get(role)
    return True
