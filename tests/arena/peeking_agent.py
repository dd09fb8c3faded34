"""A cheating test agent: it needs the true state (the clairvoyant-baseline hook)."""

from ggp.agents.base import Agent


class Peeker(Agent):
    name = "peeker"

    def __init__(self, model):
        self.model = model
        self.state = None

    def observe_true_state(self, state):
        self.state = state

    def act(self, history):
        if self.state is None:
            raise RuntimeError("the true state was not handed over")
        return sorted(self.model.legal_actions(self.state))[0]


def make_agent(model):
    return Peeker(model)
