"""The match runner: histories, forfeits, reproducibility."""

from ggp.agents import make_agent
from ggp.agents.base import Agent
from ggp.arena.match import forfeit_returns, play_match
from ggp.load import load_model


class Scripted(Agent):
    def __init__(self, answers):
        self.answers = list(answers)
        self.seen = []

    def act(self, history):
        self.seen.append(history)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


def test_histories_hold_own_observations_and_actions():
    model = load_model("tic_tac_toe")
    x = Scripted(["x(0,0)", "x(0,1)", "x(0,2)"])
    o = Scripted(["o(1,0)", "o(1,1)"])
    result = play_match(model, [x, o])
    assert result.returns == [1.0, -1.0] and result.forfeit is None
    last = x.seen[-1]
    assert [a for _, a in last] == ["x(0,0)", "x(0,1)", None]
    assert last[-1][0]["board"][1][:2] == ["o", "o"]  # sees the opponent's marks
    assert [s["action"] for s in result.steps] == [
        "x(0,0)", "o(1,0)", "x(0,1)", "o(1,1)", "x(0,2)"]


def test_illegal_action_and_exception_forfeit():
    model = load_model("tic_tac_toe")
    result = play_match(model, [Scripted(["x(0,0)", "x(0,0)"]), Scripted(["o(2,2)"])])
    assert result.forfeit.player == 0 and result.forfeit.reason == "illegal"
    assert result.returns == [-1.0, 1.0]
    result = play_match(model, [Scripted(["x(0,0)"]), Scripted([RuntimeError("boom")])])
    assert result.forfeit.reason == "exception" and "boom" in result.forfeit.detail
    assert result.returns == [1.0, -1.0]


def test_forfeit_scoring_by_game_kind():
    from ggp.core.protocol import GameMetadata

    payoff = GameMetadata(2, -13.0, 13.0, True, outcome="payoff")
    general = GameMetadata(2, 0.0, 10.0, False, outcome="payoff")
    assert forfeit_returns(payoff, 1) == [13.0, -13.0]
    assert forfeit_returns(general, 0) == [0.0, 0.0]


def test_random_matches_are_reproducible():
    model = load_model("tic_tac_toe")

    def run(seed):
        agents = [make_agent("random", model), make_agent("random", model)]
        return [s["action"] for s in play_match(model, agents, seed=seed).steps]

    assert run(5) == run(5)
    assert any(run(5) != run(s) for s in range(6, 10))
