"""Belief: from a player's action-observation history to complete states.

:func:`sample_state` is what agents call. It picks the strongest source the model offers:

1. perfect-information games: the last observation *is* the state;
2. the model's own ``resample_history`` (validated by replay, retried),
   then its ``resample_state``;
3. otherwise a generic sampler that needs only the world model (:mod:`ggp.belief.generic`).
"""

from __future__ import annotations

import random

from ggp.belief.replay import replay_history, sample_with_model
from ggp.core.model import WorldModel
from ggp.core.protocol import ObsActionHistory, State

__all__ = ["replay_history", "sample_state", "sample_with_model"]


def sample_state(
    model: WorldModel,
    history: ObsActionHistory,
    player: int,
    rng: random.Random,
    *,
    retries: int = 10,
) -> State:
    """A complete state consistent with ``history`` (the player is deciding now).

    Raises :class:`ggp.core.errors.BeliefError` when no consistent state is found.
    """
    if model.metadata.perfect_information:
        return history[-1][0]
    if model.has("resample_history") or model.has("resample_state"):
        return sample_with_model(model, history, player, retries=retries)
    from ggp.belief.generic import sample_generic

    return sample_generic(model, history, player, rng)
