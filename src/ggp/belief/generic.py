"""A belief sampler that needs nothing but the world model.

It is a particle filter over *histories*: particles start at the initial state and are
moved forward with chance moves drawn by their probabilities and other players' moves
drawn uniformly from their legal actions (the same opponent model as
:mod:`ggp.belief.exact`). At each of the player's decision points a particle survives only
if the player's observation there equals the recorded one; survivors then take the
player's recorded action, and the next stage draws its particles from them at random.

Guarantees and limits:

* **Support:** every state returned is exactly consistent: replaying its history gives
  the player's recorded observation at every one of its decision points and ends at its
  current decision point.
* **Distribution:** a bootstrap particle filter with a 0/1 likelihood. Within one stage,
  survivors are distributed exactly as the posterior given the previous stage's
  particles; over several stages the result converges to the exact posterior (uniform
  opponent model) as ``particles`` grows, and is biased for small ``particles`` (a
  history that needs an unlikely early move may be missed entirely).
* **Collapse:** when a hidden move is only constrained by a *later* observation (ship
  placements revealed by later hits), every particle of a stage may be ruled out. The
  filter then backtracks: it redraws earlier stages (further back after each repeated
  failure), which keeps the support exact but biases the distribution towards histories
  that are easy to extend. As a last resort it uses whole-history rejection sampling
  (:func:`rejection_sample`), exact under the same opponent model but slow when the
  observations are unlikely under random play.
* **Cost:** about ``particles / acceptance rate`` forward steps per stage; games whose
  observations are hard to hit by random play (long hidden sequences) can exhaust both
  methods and raise :class:`~ggp.core.errors.BeliefError`.
"""

from __future__ import annotations

import random

from ggp.core.errors import BeliefError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, ObsActionHistory, State, canonical_json
from ggp.search.ops import ops_for


def particle_filter(
    model: WorldModel,
    history: ObsActionHistory,
    player: int,
    rng: random.Random,
    *,
    particles: int = 64,
    retries: int = 4,
    max_backtracks: int = 200,
    rejection_attempts: int = 2_000,
    max_steps: int = 10_000,
) -> list[State]:
    """States consistent with ``history`` (the player deciding now), drawn by the filter.

    Returns the survivors of the last stage (between 1 and ``particles`` states, with
    repetitions). When a stage has no survivor after ``retries`` rounds of ``particles``
    tries, earlier stages are redrawn (1, 2, 4... stages back on repeated failures, at
    most ``max_backtracks`` times); then :func:`rejection_sample` is tried; then
    :class:`BeliefError`.
    """
    if not history:
        raise BeliefError("the player's history is empty: it has no decision point yet")
    ops = ops_for(model)
    last = len(history) - 1
    pools: list[list[State]] = [[model.initial_state()]] + [[] for _ in range(last)]
    failures = [0] * len(history)
    step, backtracks = 0, 0
    while True:
        survivors = _stage(ops, pools[step], history[step][0], player, rng, particles,
                           retries, max_steps)
        if survivors and step == last:
            return survivors
        if survivors:
            action = history[step][1]
            pool = [ops.apply(s, action) for s in survivors if action in ops.legal_actions(s)]
            if not pool:
                raise BeliefError(f"the player's action {action!r} at its decision point "
                                  f"{step} is illegal in every consistent state")
            pools[step + 1] = pool
            step += 1
            continue
        # No particle survived: the pool may have collapsed onto histories that this
        # observation rules out (a hidden choice constrained only later, e.g. a ship
        # placement revealed by later hits). Redraw earlier stages, going back further
        # after each repeated failure here.
        failures[step] += 1
        backtracks += 1
        if step == 0 or backtracks > max_backtracks:
            break
        step = max(0, step - 2 ** (failures[step] - 1))
    # Last resort: whole-history rejection sampling, which cannot collapse.
    found = rejection_sample(model, history, player, rng, count=particles,
                             max_attempts=rejection_attempts)
    if found:
        return found
    raise BeliefError(
        f"the generic sampler found no history matching the player's observations "
        f"({backtracks} backtracks, {rejection_attempts} rejection-sampling attempts)"
    )


def _stage(ops, pool, target, player, rng, particles, retries, max_steps) -> list[State]:
    """Advance random members of ``pool`` to the player's next decision; keep those whose
    observation there is ``target``."""
    target_json = canonical_json(target)
    survivors: list[State] = []
    for _ in range(retries):
        for _ in range(particles):
            state = _advance(ops, rng.choice(pool), player, rng, max_steps)
            if state is None:
                continue
            obs = ops.observations(state)[player]
            if obs == target or canonical_json(obs) == target_json:
                survivors.append(state)
        if survivors:
            break
    return survivors


def rejection_sample(
    model: WorldModel,
    history: ObsActionHistory,
    player: int,
    rng: random.Random,
    *,
    count: int,
    max_attempts: int,
    max_steps: int = 10_000,
) -> list[State]:
    """Up to ``count`` states by whole-history rejection sampling: play the game forward
    (chance by its odds, other players uniformly, the player's recorded actions) and keep
    a run only if every observation of the player matches. Exact: accepted states follow
    the posterior under the uniform opponent model. Stops after ``max_attempts`` runs."""
    ops = ops_for(model)
    targets = [(obs, canonical_json(obs)) for obs, _ in history]
    last = len(history) - 1
    found: list[State] = []
    for _ in range(max_attempts):
        state = model.initial_state()
        for step, (target, target_json) in enumerate(targets):
            state = _advance(ops, state, player, rng, max_steps)
            if state is None:
                break
            obs = ops.observations(state)[player]
            if not (obs == target or canonical_json(obs) == target_json):
                break
            if step == last:
                found.append(state)
                break
            action = history[step][1]
            if action not in ops.legal_actions(state):
                break
            state = ops.apply(state, action)
        if len(found) >= count:
            break
    return found


def _advance(ops, state: State, player: int, rng: random.Random, max_steps: int) -> State | None:
    """Play chance and other players randomly until ``player`` moves (None: game over)."""
    for _ in range(max_steps):
        mover = ops.current_player(state)
        if mover == player:
            return state
        if mover == TERMINAL:
            return None
        if mover == CHANCE:
            action = ops.sample_chance(state, rng)
        else:
            action = rng.choice(ops.legal_actions(state))
        state = ops.apply(state, action)
    return None


def sample_generic(
    model: WorldModel,
    history: ObsActionHistory,
    player: int,
    rng: random.Random,
    *,
    particles: int = 32,
) -> State:
    """One state consistent with ``history``, from the particle filter (see module doc)."""
    return rng.choice(particle_filter(model, history, player, rng, particles=particles))
