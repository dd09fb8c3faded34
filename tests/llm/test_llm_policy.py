"""The LLM-as-policy agent playing real matches against scripted fakes."""

from __future__ import annotations

import json
import re

import pytest

from ggp.agents import make_agent
from ggp.agents.llm_policy import LLMPolicyAgent, LLMPolicyError, turn_prompt
from ggp.arena.match import play_match
from ggp.llm import ScriptedLLM
from ggp.llm.fake_server import FakeRequest, ScriptedServer
from ggp.load import load_model

TTT = load_model("tic_tac_toe")
NOW = re.compile(r"\(now\): you observe (\{.*\})")


def legal_now(messages) -> list[str]:
    """The legal moves of the position shown in the first user message (tic-tac-toe)."""
    user = next(m["content"] for m in messages if m["role"] == "user")
    state = json.loads(NOW.search(user).group(1))
    return TTT.legal_actions(state)


class Script:
    """First attempts cycle junk / illegal / legal; a second attempt is always legal.

    Decision numbers listed in ``hopeless`` get junk at every attempt (a forfeit).
    """

    def __init__(self, hopeless=()):
        self.decisions = 0
        self.hopeless = set(hopeless)

    def __call__(self, messages) -> str:
        if isinstance(messages, FakeRequest):
            messages = messages.messages
        legal = legal_now(messages)
        first_attempt = len(messages) == 2
        if first_attempt:
            self.decisions += 1
        if self.decisions in self.hopeless:
            return "Let me think about this.\nThe board is interesting."
        if not first_attempt:
            return f"Sorry. ACTION: {legal[-1]}"
        kind = self.decisions % 3
        if kind == 1:
            return "Hmm, tricky.\nI cannot decide."  # junk: no move at all
        if kind == 2:
            return "ACTION: x(7,7)"  # not a legal move
        return f"The corner looks good.\n**ACTION:** `{legal[0].upper()}`"


def test_junk_and_illegal_answers_are_rethought_and_counted():
    agent = LLMPolicyAgent(TTT, ScriptedLLM(Script()), num_examples=1, rethinks=1)
    result = play_match(TTT, [agent, make_agent("random", TTT)], seed=3)
    assert result.forfeit is None
    s = agent.stats
    d = s["decisions"]
    assert d == len([step for step in result.steps if step["player"] == 0])
    assert s["unparseable"] == (d + 2) // 3  # decisions 1, 4, 7, ...
    assert s["illegal"] == (d + 1) // 3  # decisions 2, 5, ...
    assert s["rethinks"] == s["unparseable"] + s["illegal"]
    assert s["llm_calls"] == d + s["rethinks"]
    assert s["gave_up_unparseable"] == s["gave_up_illegal"] == 0


def test_giving_up_forfeits_as_the_arena_defines():
    # junk at every attempt -> the agent raises -> "exception" forfeit
    llm = ScriptedLLM(Script(hopeless={2}))
    agent = LLMPolicyAgent(TTT, llm, num_examples=0, rethinks=2)
    result = play_match(TTT, [make_agent("random", TTT), agent], seed=0)
    assert result.forfeit.player == 1 and result.forfeit.reason == "exception"
    assert "LLMPolicyError" in result.forfeit.detail
    assert result.returns == [1.0, -1.0]
    # decision 1: junk then a legal move (2 calls); decision 2: three junk answers
    assert agent.stats["gave_up_unparseable"] == 1 and agent.stats["llm_calls"] == 2 + 3

    # an illegal move at every attempt -> returned as is -> "illegal" forfeit
    llm = ScriptedLLM(["ACTION: x(1,1)"] * 3)
    agent = LLMPolicyAgent(TTT, llm, num_examples=0, rethinks=2)
    agent.start(_info(seat=0))
    history = [
        (
            {
                "board": [[".", ".", "."], [".", "o", "."], [".", ".", "."]],
                "current_player": 0,
                "winner": None,
                "rewards": [0.0, 0.0],
            },
            None,
        )
    ]
    assert agent.act(history) == "x(1,1)"
    assert agent.stats["illegal"] == 3 and agent.stats["gave_up_illegal"] == 1
    assert llm.remaining == 0


def test_without_validation_the_arena_judges():
    agent = LLMPolicyAgent(TTT, ScriptedLLM(["pass"]), num_examples=0, validate=False)
    result = play_match(TTT, [agent, make_agent("random", TTT)], seed=0)
    assert result.forfeit.player == 0 and result.forfeit.reason == "illegal"
    assert agent.stats["llm_calls"] == 1
    agent = LLMPolicyAgent(
        TTT, ScriptedLLM(["I have no idea\nreally"]), num_examples=0, validate=False, rethinks=0
    )
    with pytest.raises(LLMPolicyError):
        agent.start(_info(seat=0))
        agent.act([(TTT.initial_state(), None)])


def test_prompt_has_rules_examples_and_history_but_not_the_legal_moves():
    llm = ScriptedLLM(lambda messages: f"ACTION: {legal_now(messages)[0]}")
    agent = LLMPolicyAgent(TTT, llm, num_examples=2, seed=5)
    play_match(TTT, [agent, make_agent("random", TTT)], seed=1)
    system, user = llm.requests[1]
    assert system["role"] == "system" and TTT.rules.strip() in system["content"]
    assert "Example game 2:" in system["content"] and "returns" in system["content"]
    assert "ACTION: <move>" in system["content"]
    first_move = llm.requests[0][1]["content"]
    assert "Turn 1 (now)" in first_move
    played = re.search(r"ACTION: (\S+)", "ACTION: " + legal_now(llm.requests[0])[0]).group(1)
    assert "Turn 1: you observed" in user["content"] and f"played {played}" in user["content"]
    # the turn prompt is the history and the instruction, nothing else
    assert user["content"] == turn_prompt("tic_tac_toe", 0, _history_of(user["content"]))


@pytest.mark.parametrize("backend", ["openai", "anthropic"])
def test_registered_agent_plays_matches_over_the_wire(backend, monkeypatch, tmp_path):
    pytest.importorskip(backend)
    script = Script(hopeless={4})
    with ScriptedServer(script) as server:
        url = server.openai_base_url if backend == "openai" else server.anthropic_base_url
        monkeypatch.setenv("GGP_LLM_BASE_URL", url)
        monkeypatch.setenv("GGP_LLM_RETRY_BASE_DELAY_S", "0.001")
        results, agents = [], []
        for seat in (0, 1):  # both seats, as in a tournament
            spec = f"llm:model_name=fake-model:backend={backend}:examples=1:rethinks=1"
            agent = make_agent(f"{spec}:run_dir={tmp_path / str(seat)}", TTT)
            players = [agent, make_agent("random", TTT)]
            results.append(play_match(TTT, players if seat == 0 else players[::-1], seed=seat))
            agents.append(agent)
            agent.close()
    forfeits = [r.forfeit for r in results if r.forfeit]
    gave_up = sum(a.stats["gave_up_unparseable"] + a.stats["gave_up_illegal"] for a in agents)
    assert len(forfeits) == gave_up == 1  # decision 4 overall was hopeless
    assert forfeits[0].reason == "exception"
    assert len(server.requests) == sum(a.stats["llm_calls"] for a in agents)
    assert {r.model for r in server.requests} == {"fake-model"}
    log = (tmp_path / "0" / "llm_calls.jsonl").read_text().splitlines()
    assert log and all(
        json.loads(line)["completion"]["model"] == "scripted:fake-model" for line in log
    )


def test_a_recorded_match_replays_without_the_server(monkeypatch, tmp_path):
    pytest.importorskip("openai")
    spec = f"llm:model_name=m:examples=1:rethinks=1:run_dir={tmp_path}"
    with ScriptedServer(Script()) as server:
        monkeypatch.setenv("GGP_LLM_BASE_URL", server.openai_base_url)
        agent = make_agent(spec + ":cache=read-write", TTT)
        recorded = play_match(TTT, [agent, make_agent("random", TTT)], seed=11)
        agent.close()
    agent = make_agent(spec + ":cache=replay", TTT)  # the server is gone now
    replayed = play_match(TTT, [agent, make_agent("random", TTT)], seed=11)
    agent.close()
    assert [s["action"] for s in replayed.steps] == [s["action"] for s in recorded.steps]
    assert replayed.returns == recorded.returns
    assert agent.llm.usage()["cache_hits"] == agent.stats["llm_calls"] > 0


def test_ggp_play_accepts_the_llm_agent(monkeypatch, capsys):
    pytest.importorskip("openai")
    from ggp.cli.main import main

    with ScriptedServer(lambda request: f"ACTION: {legal_now(request.messages)[0]}") as server:
        monkeypatch.setenv("GGP_LLM_BASE_URL", server.openai_base_url)
        status = main(["play", "tic_tac_toe", "--players", "llm:model_name=m:examples=0,random"])
    assert status == 0
    assert "Returns" in capsys.readouterr().out


def _info(seat):
    from ggp.agents.base import MatchInfo

    return MatchInfo("tic_tac_toe", seat, 2, 0, TTT.rules)


def _history_of(text):
    """Rebuild the history a turn prompt was made from (to check nothing else is in it)."""
    history = []
    for line in text.splitlines()[1:-1]:
        if "(now)" in line:
            history.append((json.loads(line.split("you observe ", 1)[1]), None))
        else:
            observed, action = re.match(
                r"Turn \d+: you observed (\{.*\}) and played (.*)$", line
            ).groups()
            history.append((json.loads(observed), action))
    return history


def test_llm_layer_errors_forfeit_and_are_counted(fast_config):
    from ggp.llm import make_client

    client = make_client(
        fast_config(max_calls=1), backend=ScriptedLLM(lambda m: f"ACTION: {legal_now(m)[0]}")
    )
    agent = LLMPolicyAgent(TTT, client, num_examples=0)
    result = play_match(TTT, [agent, make_agent("random", TTT)], seed=0)
    assert result.forfeit.player == 0 and "BudgetExceededError" in result.forfeit.detail
    assert agent.stats["llm_errors"] == 1 and agent.stats["llm_calls"] == 2


def test_hidden_information_game_with_chance():
    """Leduc poker: legality is judged through the agent's belief over hidden cards."""
    leduc = load_model("leduc_poker")
    cycle = ["ACTION: Raise", "ACTION: Call", "ACTION: Fold"]

    def respond(messages):
        # first attempt Raise; after an illegal Raise (raise cap) Call; Fold is always legal
        return cycle[(len(messages) - 2) // 2]

    agents = [LLMPolicyAgent(leduc, ScriptedLLM(respond), num_examples=1, rethinks=2)]
    agents.append(make_agent("random", leduc))
    for seed in range(6):
        result = play_match(leduc, agents if seed % 2 else agents[::-1], seed=seed)
        assert result.forfeit is None
    s = agents[0].stats
    assert s["decisions"] > 0 and s["gave_up_illegal"] == s["unparseable"] == 0
    assert s["llm_calls"] == s["decisions"] + s["rethinks"] and s["rethinks"] == s["illegal"]


@pytest.mark.parametrize("game", ["tic_tac_toe", "leduc_poker"])
def test_the_scripted_backend_answers_legal_moves_and_says_it_is_scripted(game):
    """``llm:backend=scripted``: a fake for dry runs; it never forfeits a valid game."""
    model = load_model(game)
    for seed in range(4):
        agents = [make_agent("llm:examples=1:backend=scripted", model),
                  make_agent("random", model)]
        result = play_match(model, agents, seed=seed)
        assert result.forfeit is None
        llm = agents[0]
        assert llm.stats["illegal"] == 0 and llm.stats["decisions"] >= 1
        assert llm.llm.requests and llm.llm.model == "scripted"


def test_the_exchange_folder_is_a_setting(tmp_path):
    folder = tmp_path / "exchange"
    agent = make_agent(f"llm:examples=1:backend=exchange:exchange_dir={folder}"
                       ":exchange_timeout_s=0.5", TTT)
    result = play_match(TTT, [agent, make_agent("random", TTT)], seed=0)
    # nobody answers: the prompt was written there, and the wait ended in a forfeit
    assert (folder / "prompt_000001.md").is_file()
    assert result.forfeit is not None and result.forfeit.reason == "exception"
