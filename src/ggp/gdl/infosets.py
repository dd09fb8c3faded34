"""Information sets and state sampling for GDL / GDL-II players (seed 003, §17.6-17.7).

A player's view is its ``obs_action_history`` (DESIGN.md §2): its observation at each of
its decision points and the move it made there, the last one deciding now. The states it
cannot tell apart are those reached from the initial state by some choices of the other
roles and of chance that produce exactly the same observations at the same points.

* :func:`information_set` enumerates them exactly, with probabilities (chance is uniform
  as in GDL-II; the other players are assumed to choose uniformly among their legal
  moves, since their strategies are unknown). It follows the candidate states one GDL
  step at a time, merging identical states, and filters them by the player's moves and
  percepts (§17.6); it raises :class:`BeliefError` when a step has too many candidates.
* :func:`sample_state` does the same with a bounded number of candidates per step, drawn
  at random (§17.7: hypotheses that contradict a percept are dropped and replaced), and
  returns one complete state consistent with everything the player saw. Its distribution
  is close to, but not exactly, the belief. :func:`belief_sampler` packages it for the
  search subsystem.

In plain GDL (perfect information) only the pending moves of the current step are unknown.
"""

from __future__ import annotations

import random
from typing import Callable, Iterator

from ggp.core.errors import BeliefError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, ObsActionHistory, State, canonical_json
from ggp.gdl.adapter import GDLGame


def information_set(model: WorldModel, player: int, history: ObsActionHistory,
                    max_states: int = 20_000) -> list[tuple[State, float]]:
    """All states consistent with ``player``'s view, with normalized probabilities.

    Raises :class:`BeliefError` when some step has more than ``max_states`` candidates."""
    found = _search(model, player, history, cap=max_states, rng=None)
    total = sum(w for _, w, _ in found.values())
    if not found or total <= 0:
        raise BeliefError("no state is consistent with this observation history")
    return [(s, w / total) for s, w, _ in found.values()]


def sample_state(model: WorldModel, player: int, history: ObsActionHistory,
                 rng: random.Random | None = None, particles: int = 200,
                 max_particles: int = 20_000) -> State:
    """One complete state consistent with ``player``'s view.

    The candidate states are followed step by step like the exact enumeration, but each
    step keeps at most ``particles`` of them (drawn at random by weight); if all die out
    the search restarts with four times as many, up to ``max_particles``."""
    rng = rng or random.Random(random.getrandbits(64))  # follows random.seed()
    while True:
        found = _search(model, player, history, cap=particles, rng=rng)
        if found:
            states = list(found.values())
            return rng.choices([s for s, _, _ in states], weights=[w for _, w, _ in states])[0]
        if particles >= max_particles:
            raise BeliefError("no state consistent with this observation history was found")
        particles *= 4


def belief_sampler(model: WorldModel, particles: int = 200) -> Callable:
    """``sampler(history, player, rng=None) -> state`` for planners (e.g. ISMCTS)."""
    def sampler(history: ObsActionHistory, player: int, rng: random.Random | None = None) -> State:
        return sample_state(model, player, history, rng, particles)
    return sampler


def _search(model: WorldModel, player: int, history: ObsActionHistory, cap: int,
            rng: random.Random | None) -> dict:
    """Follow the consistent states step by step (identical states are merged and their
    probabilities added). Returns ``{key: [state, weight, k]}`` for the states at the
    player's current decision point. With ``rng`` a step over ``cap`` states is
    subsampled, without it a step over ``cap`` raises :class:`BeliefError`."""
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
            if rng is None:
                raise BeliefError(f"more than {cap} candidate states at step "
                                  f"{next(iter(following.values()))[0]['step']}: too many for "
                                  "exact enumeration (use sample_state)")
            ranked = sorted(following.items(),
                            key=lambda kv: rng.random() ** (1.0 / max(kv[1][1], 1e-300)))
            following = dict(ranked[-cap:])
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
