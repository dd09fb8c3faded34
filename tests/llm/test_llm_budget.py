"""Budgets (calls, tokens, cost) and the JSONL call log."""

from __future__ import annotations

import json

import pytest

from ggp.llm import BudgetExceededError, ScriptedLLM, make_client


def read_log(run_dir):
    return [json.loads(line) for line in (run_dir / "llm_calls.jsonl").read_text().splitlines()]


def test_call_budget_stops_before_the_extra_call(tmp_path, fast_config):
    fake = ScriptedLLM(["a", "b", "c", "d"])
    with make_client(fast_config(max_calls=2), run_dir=tmp_path, backend=fake) as client:
        client.complete("1")
        client.complete("2")
        with pytest.raises(BudgetExceededError, match="2 of at most 2 calls"):
            client.complete("3")
    assert len(fake.requests) == 2  # the third request never reached the backend


def test_token_budget(fast_config):
    fake = ScriptedLLM(["one two three four five"] * 5)
    with make_client(fast_config(max_total_tokens=12), backend=fake) as client:
        client.complete("a b c")  # 3 + 5 = 8 tokens
        client.complete("a b c")  # 16 tokens: the cap is passed by this admitted call
        with pytest.raises(BudgetExceededError, match="16 tokens used"):
            client.complete("a b c")
        assert client.usage()["tokens"] == 16


def test_cost_budget_uses_configured_prices(fast_config):
    fake = ScriptedLLM(["w " * 1000] * 5)  # 1000 completion tokens per call
    config = fast_config(max_cost=0.025, prices={"priced": [1.0, 10.0]})
    with make_client(config, backend=ScriptedLLM(["w " * 1000] * 5, model="priced")) as client:
        client.complete("x")  # $0.010001
        client.complete("x")
        client.complete("x")  # now over $0.025
        with pytest.raises(BudgetExceededError, match=r"\$0\.03"):
            client.complete("x")
        assert client.usage()["cost"] == pytest.approx(3 * (1 * 1 + 1000 * 10) / 1e6)
    with make_client(fast_config(max_cost=1.0), backend=fake) as client:
        with pytest.raises(BudgetExceededError, match="no price"):
            client.complete("x")


def test_replayed_run_stops_at_the_same_place(tmp_path, fast_config):
    config = fast_config(cache_mode="read-write", max_calls=3)
    with make_client(config, run_dir=tmp_path, backend=ScriptedLLM(["a", "b", "c"])) as client:
        [client.complete(str(i)) for i in range(3)]
    replay = fast_config(cache_mode="replay", max_calls=3)
    with make_client(replay, run_dir=tmp_path, backend=ScriptedLLM([])) as client:
        assert [client.complete(str(i)).text for i in range(3)] == ["a", "b", "c"]
        with pytest.raises(BudgetExceededError):
            client.complete("3")


def test_every_call_is_logged_for_audit(tmp_path, fast_config):
    from ggp.llm import LLMRateLimitError

    fake = ScriptedLLM(["first reply", LLMRateLimitError("busy"), "second reply"])
    with make_client(fast_config(), run_dir=tmp_path, backend=fake) as client:
        client.complete([{"role": "system", "content": "sys"}, {"role": "user", "content": "hi"}])
        client.complete("again", temperature=0.3)
    entries = read_log(tmp_path)
    calls = [e for e in entries if "completion" in e]
    assert [e["completion"]["text"] for e in calls] == ["first reply", "second reply"]
    assert calls[0]["messages"][0] == {"role": "system", "content": "sys"}
    assert calls[1]["params"]["temperature"] == 0.3
    for e in calls:
        assert e["completion"]["latency_s"] >= 0
        assert e["completion"]["usage"]["total_tokens"] > 0
        assert e["completion"]["scripted"] is True
    assert [e["event"] for e in entries if "event" in e] == ["retry"]


def test_failed_calls_are_logged_and_do_not_use_the_budget(tmp_path, fast_config):
    from ggp.llm import LLMModelNotFoundError

    fake = ScriptedLLM([LLMModelNotFoundError("no such model"), "ok"])
    with make_client(fast_config(max_calls=1), run_dir=tmp_path, backend=fake) as client:
        with pytest.raises(LLMModelNotFoundError):
            client.complete("x")
        assert client.complete("x").text == "ok"
    errors = [e for e in read_log(tmp_path) if "error" in e and "event" not in e]
    assert len(errors) == 1 and "LLMModelNotFoundError" in errors[0]["error"]
