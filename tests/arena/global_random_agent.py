"""A test agent drawing from the module-level ``random`` generator (as world models'
``resample_history`` functions do)."""

import random

from ggp.agents.base import Agent


class GlobalRandom(Agent):
    name = "global-random"

    def __init__(self, model):
        self.model = model

    def act(self, history):
        return random.choice(sorted(self.model.legal_actions(history[-1][0])))


def make_agent(model):
    return GlobalRandom(model)
