"""Matches: forfeits and their reasons, in process and in sandboxed workers."""

import time
from pathlib import Path

import pytest

from ggp.agents import make_agent
from ggp.agents.base import Agent
from ggp.arena.match import forfeit_returns, play_match
from ggp.arena.sandboxed import SandboxedAgent
from ggp.core.protocol import GameMetadata
from ggp.load import load_model
from ggp.sandbox import Limits

HERE = Path(__file__).parent
EVIL = str(HERE / "evil_agent.py")


@pytest.fixture(scope="module")
def ttt():
    return load_model("tic_tac_toe")


class Scripted(Agent):
    """Answers with a fixed action, raises, or sleeps."""

    def __init__(self, answer=None, error=None, sleep=0.0):
        self.answer, self.error, self.sleep = answer, error, sleep

    def act(self, history):
        time.sleep(self.sleep)
        if self.error:
            raise self.error
        return self.answer


def test_full_record(ttt):
    agents = [make_agent("random", ttt), make_agent("random", ttt)]
    result = play_match(ttt, agents, seed=7)
    assert result.forfeit is None
    assert sorted(result.returns) in ([-1.0, 1.0], [0.0, 0.0])
    movers = [s["player"] for s in result.steps]
    for seat in (0, 1):
        history = result.histories[seat]
        assert [a for _, a in history] == [s["action"] for s in result.steps
                                           if s["player"] == seat]
        assert len(result.move_seconds[seat]) == movers.count(seat)
    again = play_match(ttt, [make_agent("random", ttt), make_agent("random", ttt)], seed=7)
    assert again.to_dict()["steps"] == result.to_dict()["steps"]


@pytest.mark.parametrize("agent, reason", [
    (Scripted(answer="x(7,7)"), "illegal"),
    (Scripted(answer=None), "illegal"),
    (Scripted(error=ZeroDivisionError("oops")), "exception"),
])
def test_in_process_forfeits(ttt, agent, reason):
    result = play_match(ttt, [agent, make_agent("random", ttt)], seed=1)
    assert result.forfeit.player == 0 and result.forfeit.reason == reason
    assert result.returns == [-1.0, 1.0]
    assert result.steps == []


def test_in_process_timeout_is_judged_after_the_move(ttt):
    slow = Scripted(answer="x(0,0)", sleep=0.2)
    result = play_match(ttt, [slow, make_agent("random", ttt)], move_seconds=0.01)
    assert result.forfeit.reason == "timeout"


def test_exception_at_start_is_a_forfeit(ttt):
    class NoStart(Scripted):
        def start(self, info):
            raise RuntimeError("no")

    result = play_match(ttt, [make_agent("random", ttt), NoStart()], seed=0)
    assert result.forfeit.player == 1 and result.forfeit.reason == "exception"
    assert result.returns == [1.0, -1.0]


def _meta(**kwargs):
    base = dict(num_players=2, min_utility=-2.0, max_utility=2.0, zero_sum=True)
    return GameMetadata(**{**base, **kwargs})


def test_forfeit_returns():
    assert forfeit_returns(_meta(outcome="win_loss_draw"), 1) == [2.0, -2.0]
    assert forfeit_returns(_meta(outcome="payoff", min_utility=-13.0), 0) == [-13.0, 13.0]
    general = _meta(outcome="payoff", zero_sum=False, num_players=3, min_utility=0.0,
                    max_utility=10.0)
    assert forfeit_returns(general, 2) == [0.0, 0.0, 0.0]
    wld3 = _meta(outcome="win_loss_draw", num_players=3, min_utility=-1.0, max_utility=1.0)
    assert forfeit_returns(wld3, 0) == [-1.0, 1.0, 1.0]


# small memory so that allocating up to the limit is quick even on a busy machine
LIMITS = Limits(memory_mb=256, cpu_seconds=60, max_output_bytes=500_000)


@pytest.mark.parametrize("mode, reason", [
    ("raise", "exception"),
    ("start_raise", "exception"),
    ("hang", "timeout"),
    ("spin", "timeout"),
    ("allocate", "memory"),
    ("print", "output"),
    ("illegal", "illegal"),
    ("not_string", "protocol"),  # a reply that is no action: the worker is discarded
    ("crash", "crash"),
])
def test_sandboxed_evil_agents_forfeit_with_the_right_reason(ttt, mode, reason):
    evil = SandboxedAgent(f"{EVIL}:mode={mode}:after=1", "tic_tac_toe",
                          move_seconds=1.0 if reason == "timeout" else 10.0, limits=LIMITS)
    good = SandboxedAgent("random", "tic_tac_toe", limits=LIMITS)
    try:
        result = play_match(ttt, [good, evil], seed=5)
    finally:
        evil.close()
        good.close()
    assert result.forfeit is not None, result.returns
    assert (result.forfeit.player, result.forfeit.reason) == (1, reason), result.forfeit
    assert result.returns == [1.0, -1.0]
    if mode != "start_raise":
        assert len(result.histories[1]) == 2  # one good move, then the bad one


def test_sandboxed_agent_plays_like_the_in_process_agent(ttt):
    inside = play_match(ttt, [make_agent("random", ttt), make_agent("random", ttt)], seed=11)
    agents = [SandboxedAgent("random", "tic_tac_toe", limits=LIMITS) for _ in range(2)]
    try:
        outside = play_match(ttt, agents, seed=11)
    finally:
        for agent in agents:
            agent.close()
    assert [s["action"] for s in outside.steps] == [s["action"] for s in inside.steps]
    assert outside.agents == ["random", "random"]


def test_true_state_reaches_clairvoyant_agents_in_and_out_of_the_sandbox():
    from ggp.arena.agent_specs import build_agent

    coin_path = str(HERE / "coin_game.py")
    coin = load_model(coin_path)
    peeker = str(HERE / "peeking_agent.py")
    inside = play_match(coin, [make_agent("random", coin), build_agent(peeker, coin)], seed=2)
    agents = [SandboxedAgent("random", coin_path, limits=LIMITS),
              SandboxedAgent(peeker, coin_path, limits=LIMITS)]
    try:
        outside = play_match(coin, agents, seed=2)
    finally:
        for agent in agents:
            agent.close()
    assert inside.forfeit is None and outside.forfeit is None
    assert [s["action"] for s in inside.steps] == [s["action"] for s in outside.steps]
