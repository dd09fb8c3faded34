"""A test agent that remembers, in its module, every move it made: in a worker that carried
its module over from one match to the next, its play would depend on the earlier match."""

import os

from ggp.agents.base import Agent

MOVES = []


class Remembering(Agent):
    name = "remembering"

    def __init__(self, model):
        self.model = model

    def act(self, history):
        legal = sorted(self.model.legal_actions(history[-1][0]))
        MOVES.append(os.getpid())
        return legal[len(MOVES) % len(legal)]


def make_agent(model):
    return Remembering(model)
