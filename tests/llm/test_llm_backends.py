"""Every SDK backend against the scripted fake server: real SDK code paths, no model."""

from __future__ import annotations

import json

import pytest

from ggp.llm import (
    LLMConfigError,
    LLMConnectionError,
    LLMModelNotFoundError,
    LLMRateLimitError,
    LLMResponseError,
    LLMTimeoutError,
    make_client,
)
from ggp.llm.fake_server import Delay, Fail, Malformed, Reply, ScriptedServer

SDK = {"openai": "openai", "anthropic": "anthropic", "google": "google.genai"}
BACKENDS = list(SDK)


def base_url(server: ScriptedServer, backend: str) -> str:
    return {
        "openai": server.openai_base_url,
        "anthropic": server.anthropic_base_url,
        "google": server.google_base_url,
    }[backend]


@pytest.fixture
def client_for(fast_config):
    return lambda *a, **k: _client_for(fast_config, *a, **k)


def _client_for(fast_config, server, backend, tmp_path=None, **overrides):
    pytest.importorskip(SDK[backend])
    config = fast_config(
        backend=backend, model="test-model", base_url=base_url(server, backend), **overrides
    )
    return make_client(config, run_dir=tmp_path)


MESSAGES = [
    {"role": "system", "content": "You are terse."},
    {"role": "user", "content": "Say something"},
]


@pytest.mark.parametrize("backend", BACKENDS)
def test_success_reports_text_usage_and_scripted_label(backend, client_for):
    with ScriptedServer(["three word answer"]) as server:
        with client_for(server, backend) as client:
            answer = client.complete(MESSAGES, temperature=0.5, max_tokens=50)
    assert answer.text == "three word answer"
    assert answer.backend == backend
    assert answer.model == "scripted:test-model" and answer.scripted
    assert answer.usage.completion_tokens == 3
    assert answer.usage.prompt_tokens == 5  # "You are terse." + "Say something"
    (request,) = server.requests
    assert request.protocol == backend and request.model == "test-model"
    assert "0.5" in json.dumps(request.body)  # the temperature was sent
    assert request.messages == MESSAGES  # the system message arrives in every protocol


@pytest.mark.parametrize("backend", BACKENDS)
def test_rate_limit_then_success_is_retried_and_logged(backend, tmp_path, client_for):
    script = [Fail(429, "slow down", retry_after=0), Fail(503, "busy"), Reply("done")]
    with ScriptedServer(script) as server:
        with client_for(server, backend, tmp_path) as client:
            answer = client.complete("hello")
            usage = client.usage()
    assert answer.text == "done"
    assert len(server.requests) == 3
    assert usage["calls"] == 1 and usage["real_calls"] == 1
    events = [json.loads(line) for line in (tmp_path / "llm_calls.jsonl").read_text().splitlines()]
    retries = [e for e in events if e.get("event") == "retry"]
    assert [e["attempt"] for e in retries] == [1, 2]
    assert "LLMRateLimitError" in retries[0]["error"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_rate_limit_forever_gives_up_with_rate_limit_error(backend, client_for):
    with ScriptedServer([Fail(429, "slow down")] * 3) as server:
        with client_for(server, backend, max_retries=2) as client:
            with pytest.raises(LLMRateLimitError, match="gave up after 3 attempt"):
                client.complete("hello")
    assert len(server.requests) == 3


@pytest.mark.parametrize("backend", BACKENDS)
def test_malformed_response_is_retried_then_reported(backend, client_for):
    with ScriptedServer([Malformed(), Reply("fine")]) as server:
        with client_for(server, backend) as client:
            assert client.complete("hello").text == "fine"
    with ScriptedServer([Malformed(), Malformed()]) as server:
        with client_for(server, backend, max_retries=1) as client:
            with pytest.raises(LLMResponseError, match="malformed"):
                client.complete("hello")


@pytest.mark.parametrize("backend", BACKENDS)
def test_timeout(backend, client_for):
    script = [Delay(3.0, Reply("too late")), Delay(3.0, Reply("too late"))]
    with ScriptedServer(script) as server:
        with client_for(server, backend, timeout_s=0.3, max_retries=1) as client:
            with pytest.raises(LLMTimeoutError):
                client.complete("hello")
    assert len(server.requests) == 2


@pytest.mark.parametrize("backend", BACKENDS)
def test_wrong_model_name_is_clear_and_not_retried(backend, client_for):
    with ScriptedServer(["never sent"], models=["real-model"]) as server:
        with client_for(server, backend) as client:
            with pytest.raises(LLMModelNotFoundError, match="'test-model' was not found"):
                client.complete("hello")
    assert len(server.requests) == 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_unreachable_endpoint(backend, closed_port_url, fast_config):
    pytest.importorskip(SDK[backend])
    url = closed_port_url + ("/v1" if backend == "openai" else "")
    config = fast_config(backend=backend, model="m", base_url=url, max_retries=1)
    with make_client(config) as client:
        with pytest.raises(LLMConnectionError, match="Cannot reach"):
            client.complete("hello")


@pytest.mark.parametrize("backend", BACKENDS)
def test_missing_key_for_hosted_api_names_the_variable(backend, fast_config):
    pytest.importorskip(SDK[backend])
    with pytest.raises(LLMConfigError, match="environment variable"):
        make_client(fast_config(backend=backend, model="m"))


def test_key_is_sent_but_never_logged(tmp_path, monkeypatch, fast_config):
    pytest.importorskip("openai")
    monkeypatch.setenv("MY_SECRET_VAR", "sk-very-secret-123")
    with ScriptedServer(["ok"]) as server:
        config = fast_config(
            model="m", base_url=server.openai_base_url, api_key_env="MY_SECRET_VAR"
        )
        with make_client(config, run_dir=tmp_path) as client:
            client.complete("hello")
    assert server.requests[0].headers.get("authorization") == "Bearer sk-very-secret-123"
    assert "sk-very-secret" not in (tmp_path / "llm_calls.jsonl").read_text()
    assert "sk-very-secret" not in repr(config.describe())


def test_missing_model_name(fast_config):
    with pytest.raises(LLMConfigError, match="No language model is set up"):
        make_client(fast_config(backend="openai", base_url="http://127.0.0.1:1/v1"))


def test_extra_parameters_reach_the_server(client_for):
    pytest.importorskip("openai")
    with ScriptedServer(["ok"]) as server:
        with client_for(server, "openai") as client:
            client.complete("hi", seed=3, stop=["END"], extra={"reasoning_effort": "low"})
    body = server.requests[0].body
    assert body["seed"] == 3 and body["stop"] == ["END"] and body["reasoning_effort"] == "low"


@pytest.mark.parametrize("backend", BACKENDS)
def test_json_without_a_completion_is_a_response_error(backend, client_for):
    odd = Malformed('{"error": {"message": "overloaded, try later"}}')
    with ScriptedServer([odd, odd]) as server:
        with client_for(server, backend, max_retries=1) as client:
            with pytest.raises(LLMResponseError):
                client.complete("hello")
