"""The random baseline takes legal actions from the referee; --legal-actions shows them to
every agent (issue 18)."""

from __future__ import annotations

import pytest

from ggp.agents.base import Agent
from ggp.agents.random_agent import RandomAgent
from ggp.arena.match import play_match
from ggp.core.registry import make_game


def test_random_never_needs_a_belief(monkeypatch):
    def no_belief(*args, **kwargs):
        raise AssertionError("the random baseline sampled a belief")

    monkeypatch.setattr("ggp.agents.random_agent.sample_state", no_belief)
    model = make_game("hearts")
    result = play_match(model, [RandomAgent(model) for _ in range(4)], seed=3,
                        record_states=False)
    assert result.forfeit is None


class Recorder(Agent):
    """Plays the first action it is offered; remembers what it was offered."""

    name = "recorder"

    def __init__(self) -> None:
        self.offers = []

    def act(self, history):
        self.offers.append(self.offered_actions)
        return self.offered_actions[0] if self.offered_actions else "?"


@pytest.mark.parametrize("shown", [False, True])
def test_legal_actions_only_on_request(shown):
    model = make_game("kuhn_poker")
    recorder = Recorder()
    result = play_match(model, [recorder, RandomAgent(model)], seed=1, legal_actions=shown)
    if shown:
        assert result.forfeit is None and recorder.offers
        states = [s["state"] for s in result.steps if s["player"] == 0]
        assert recorder.offers == [model.legal_actions(s) for s in states]
        assert recorder.info.legal_actions
    else:
        assert recorder.offers == [None] and result.forfeit.player == 0


FIRST_OFFERED = '''
from ggp.agents.base import Agent


class First(Agent):
    name = "first-offered"

    def act(self, history):
        return self.offered_actions[0] if self.offered_actions else "?"


def make_agent(model):
    return First()
'''


@pytest.mark.parametrize("shown", [False, True])
def test_a_sandboxed_agent_gets_the_same_offers(tmp_path, shown):
    from ggp.arena.sandboxed import SandboxedAgent

    path = tmp_path / "first.py"
    path.write_text(FIRST_OFFERED)
    model = make_game("hearts")
    agents = [SandboxedAgent(str(path), "hearts"), SandboxedAgent("random", "hearts"),
              RandomAgent(model), RandomAgent(model)]
    try:
        result = play_match(model, agents, seed=2, legal_actions=shown, record_states=False)
    finally:
        for agent in agents:
            agent.close()
    assert agents[1].takes_legal_actions  # the boxed random baseline asked for its offers
    if shown:
        assert result.forfeit is None
    else:
        assert result.forfeit.player == 0 and result.forfeit.reason == "illegal"
