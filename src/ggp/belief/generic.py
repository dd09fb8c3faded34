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
* **Cost:** about ``particles / acceptance rate`` forward steps per stage; games whose
  observations are hard to hit by random play (long hidden sequences) can exhaust
  ``retries`` and raise :class:`~ggp.core.errors.BeliefError`.
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
    retries: int = 20,
    max_steps: int = 10_000,
) -> list[State]:
    """States consistent with ``history`` (the player deciding now), drawn by the filter.

    Returns the survivors of the last stage (between 1 and ``particles`` states, with
    repetitions). Raises :class:`BeliefError` when a stage has no survivor after
    ``retries`` rounds of ``particles`` tries.
    """
    if not history:
        raise BeliefError("the player's history is empty: it has no decision point yet")
    ops = ops_for(model)
    pool = [model.initial_state()]
    last = len(history) - 1
    for step, (target, action) in enumerate(history):
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
        if not survivors:
            raise BeliefError(
                f"the generic sampler found no history matching the player's observation at "
                f"its decision point {step} after {retries * particles} tries"
            )
        if step == last:
            return survivors
        pool = [ops.apply(s, action) for s in survivors if action in ops.legal_actions(s)]
        if not pool:
            raise BeliefError(f"the player's action {action!r} at its decision point {step} "
                              "is illegal in every consistent state")
    raise AssertionError("unreachable")


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
