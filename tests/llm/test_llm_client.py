"""LLMClient behaviour with the in-process ScriptedLLM: retries, concurrency, fakes."""

from __future__ import annotations

import threading
import time

import pytest

from ggp.llm import (
    LLMClient,
    LLMRequestError,
    LLMServerError,
    RetryPolicy,
    ScriptedLLM,
    ScriptExhaustedError,
)
from ggp.llm.base import LLMAuthError

NO_WAIT = RetryPolicy(max_retries=3, base_delay_s=0.0, max_delay_s=0.0)


def test_scripted_llm_answers_in_order_and_raises_when_exhausted():
    fake = ScriptedLLM(["one", "two"])
    assert fake.complete("a").text == "one"
    answer = fake.complete([{"role": "user", "content": "b"}])
    assert answer.text == "two" and answer.scripted and answer.model == "scripted"
    with pytest.raises(ScriptExhaustedError, match="after 2 requests"):
        fake.complete("c")
    assert [r[-1]["content"] for r in fake.requests] == ["a", "b", "c"]


def test_scripted_llm_with_a_callable():
    fake = ScriptedLLM(lambda messages: messages[-1]["content"].upper())
    assert fake.complete("shout").text == "SHOUT"
    assert fake.remaining is None


def test_transient_errors_are_retried_others_are_not():
    fake = ScriptedLLM([LLMServerError("500"), LLMServerError("502"), "ok"])
    assert LLMClient(fake, retry=NO_WAIT).complete("x").text == "ok"
    fake = ScriptedLLM([LLMAuthError("bad key"), "never"])
    with pytest.raises(LLMAuthError):
        LLMClient(fake, retry=NO_WAIT).complete("x")
    assert fake.remaining == 1


def test_retry_delay_grows_and_honours_retry_after():
    from ggp.llm import LLMRateLimitError

    policy = RetryPolicy(base_delay_s=1.0, max_delay_s=30.0)
    error = LLMServerError("x")
    for attempt in range(6):
        assert 0.5 * min(30, 2**attempt) <= policy.delay(attempt, error) <= min(30, 2**attempt)
    assert policy.delay(0, LLMRateLimitError("x", retry_after=7.0)) == 7.0
    assert policy.delay(0, LLMRateLimitError("x", retry_after=700.0)) == 30.0


def test_defaults_apply_unless_overridden():
    from ggp.llm import SamplingParams

    seen = []

    class Recording(ScriptedLLM):
        def generate(self, messages, params):
            seen.append(params)
            return super().generate(messages, params)

    client = LLMClient(
        Recording(["a", "b"]), defaults=SamplingParams(temperature=0.2, max_tokens=9)
    )
    client.complete("x")
    client.complete("x", temperature=1.0, stop=["END"])
    assert (seen[0].temperature, seen[0].max_tokens) == (0.2, 9)
    assert (seen[1].temperature, seen[1].max_tokens, seen[1].stop) == (1.0, 9, ("END",))


def test_bad_messages_are_rejected():
    client = LLMClient(ScriptedLLM(["a"]))
    with pytest.raises(LLMRequestError):
        client.complete([{"role": "robot", "content": "x"}])
    with pytest.raises(LLMRequestError):
        client.complete([])


def test_complete_many_keeps_order_and_limits_concurrency():
    active, peak = 0, 0
    lock = threading.Lock()

    def respond(messages):
        nonlocal active, peak
        with lock:
            active += 1
            peak = max(peak, active)
        time.sleep(0.02)  # hold the slot so that overlapping calls really overlap
        with lock:
            active -= 1
        return "re: " + messages[-1]["content"]

    class Parallel(ScriptedLLM):
        """ScriptedLLM serializes its callable; this one lets calls overlap."""

        def generate(self, messages, params):
            from ggp.llm import Completion

            return Completion(text=respond(messages), backend="scripted", scripted=True)

    client = LLMClient(Parallel(respond), concurrency=3)
    prompts = [f"p{i}" for i in range(12)]
    answers = client.complete_many(prompts)
    assert [a.text for a in answers] == [f"re: p{i}" for i in range(12)]
    assert 1 <= peak <= 3
    assert client.usage()["calls"] == 12


def test_complete_many_raises_the_first_failure_after_finishing_the_rest():
    def respond(messages):
        return LLMAuthError("no") if messages[-1]["content"] == "bad" else "ok"

    fake = ScriptedLLM(respond)
    client = LLMClient(fake, concurrency=2)
    with pytest.raises(LLMAuthError):
        client.complete_many(["a", "bad", "c"])
    assert client.usage()["calls"] == 2 and client.usage()["failed_calls"] == 1
