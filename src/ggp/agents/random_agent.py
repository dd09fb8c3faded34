"""The uniformly random agent: seed 000's "random legal action executor"."""

from __future__ import annotations

from ggp.agents import register_agent
from ggp.agents.base import Agent
from ggp.belief import sample_state
from ggp.core.model import WorldModel
from ggp.core.protocol import Action, ObsActionHistory


class RandomAgent(Agent):
    """Plays a uniformly random legal action.

    The referee hands it the legal actions before every move (``takes_legal_actions``),
    so it never needs a belief and cannot forfeit on a valid game. Only where nothing
    hands them over (a sandboxed worker, the GGP HTTP player) does it find them in a state
    sampled from its own history with its model's belief (any consistent state has the
    same legal actions when the game gives players perfect recall of their options).
    """

    name = "random"
    takes_legal_actions = True

    def __init__(self, model: WorldModel) -> None:
        self.model = model

    def act(self, history: ObsActionHistory) -> Action:
        legal, self.offered_actions = self.offered_actions, None
        if not legal:
            state = sample_state(self.model, history, self.info.seat, self.rng)
            legal = self.model.legal_actions(state)
        return self.rng.choice(legal)


@register_agent("random")
def make_random(model: WorldModel) -> RandomAgent:
    return RandomAgent(model)
