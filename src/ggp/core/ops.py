"""Fast access to a world model's functions inside search loops.

Planners call the model millions of times per game, so the wrapper's defensive work
(copying states, checking return shapes) would dominate their time. For *trusted* models
(reference games, which ``ggp check`` and the tests verify) :class:`ModelOps` binds the
namespace's raw functions directly; for untrusted models it goes through the guarded
:class:`~ggp.core.model.WorldModel` methods, so a bad model still fails with a typed error.

Every model builds its :class:`ModelOps` once, as :attr:`WorldModel.ops
<ggp.core.model.WorldModel.ops>`; it lives in core (not in :mod:`ggp.search`) because
beliefs, planners and the GGP player all use it.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ggp.core.protocol import Action, State

if TYPE_CHECKING:  # ggp.core.model builds ModelOps, so it cannot be imported here
    from ggp.core.model import WorldModel


class ModelOps:
    """The protocol functions a planner needs, bound once.

    Attributes are plain callables: ``current_player(s)``, ``legal_actions(s)``,
    ``apply(s, a)``, ``rewards(s)``, ``observations(s)`` and ``chance_outcomes(s)``
    (uniform over legal actions when the model has no ``get_chance_outcomes``).
    """

    def __init__(self, model: WorldModel) -> None:
        self.model = model
        self.num_players = model.num_players
        ns = model.namespace
        if model.trusted:
            self.current_player = ns.get_current_player
            self.legal_actions = ns.get_legal_actions
            self.apply = ns.apply_action
            self.rewards = ns.get_rewards
            self.observations = ns.get_observations
            self._uniform = not model.has("get_chance_outcomes")
            self.chance_outcomes = (self._uniform_outcomes if self._uniform
                                    else ns.get_chance_outcomes)
        else:
            self._uniform = False
            self.current_player = model.current_player
            self.legal_actions = model.legal_actions
            self.apply = model.apply
            self.rewards = model.rewards
            self.observations = model.observations
            self.chance_outcomes = model.chance_outcomes

    def _uniform_outcomes(self, state: State) -> list[tuple[Action, float]]:
        actions = self.legal_actions(state)
        return [(a, 1.0 / len(actions)) for a in actions]

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        """One chance outcome drawn with the model's probabilities."""
        if self._uniform:  # no odds given: one draw among the legal outcomes, no list built
            legal = self.legal_actions(state)
            return legal[0] if len(legal) == 1 else legal[int(rng.random() * len(legal))]
        outcomes = self.chance_outcomes(state)
        if len(outcomes) == 1:
            return outcomes[0][0]
        x = rng.random()
        for action, p in outcomes:
            x -= p
            if x < 0:
                return action
        return outcomes[-1][0]  # rounding: probabilities summing to 1 - epsilon


def ops_for(model: WorldModel | ModelOps) -> ModelOps:
    """The :class:`ModelOps` of ``model`` (built once per model: :attr:`WorldModel.ops`)."""
    return model if isinstance(model, ModelOps) else model.ops
