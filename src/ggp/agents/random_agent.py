"""The uniformly random agent."""

from __future__ import annotations

from ggp.agents import register_agent
from ggp.agents.base import Agent
from ggp.belief import sample_state
from ggp.core.model import WorldModel
from ggp.core.protocol import Action, ObsActionHistory


class RandomAgent(Agent):
    """Plays a uniformly random legal action.

    It is not told the legal actions, so it finds them in a state sampled from its own
    history with its model's belief (any consistent state has the same legal actions
    when the game gives players perfect recall of their options).
    """

    name = "random"

    def __init__(self, model: WorldModel) -> None:
        self.model = model

    def act(self, history: ObsActionHistory) -> Action:
        state = sample_state(self.model, history, self.info.seat, self.rng)
        return self.rng.choice(self.model.legal_actions(state))


@register_agent("random")
def make_random(model: WorldModel) -> RandomAgent:
    return RandomAgent(model)
