"""The scripted fake server's own behaviour (scripts, errors, request records)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from ggp.llm.fake_server import Fail, Reply, Rules, ScriptedServer


def post(url: str, body: dict) -> tuple[int, dict]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def chat(server, text, model="m"):
    body = {"model": model, "messages": [{"role": "user", "content": text}]}
    return post(server.openai_base_url + "/chat/completions", body)


def test_rules_match_the_last_user_message_and_queue_per_rule():
    rules = Rules([(r"^move", ["first", "second"]), (r"hello", Reply("hi"))], default=Fail(500))
    with ScriptedServer(rules) as server:
        answers = [chat(server, t) for t in ["move 1", "hello there", "move 2", "move 3", "other"]]
    texts = [
        body["choices"][0]["message"]["content"] if status == 200 else status
        for status, body in answers
    ]
    assert texts == ["first", "hi", "second", "second", 500]  # a rule's last action repeats
    assert [r.last_user_message for r in server.requests][:2] == ["move 1", "hello there"]


def test_callable_script_sees_the_normalized_request():
    with ScriptedServer(
        lambda request: f"{request.protocol}:{request.model}:{len(request.messages)}"
    ) as server:
        status, body = post(
            server.anthropic_base_url + "/v1/messages",
            {
                "model": "claude-x",
                "system": "sys",
                "max_tokens": 5,
                "messages": [{"role": "user", "content": [{"type": "text", "text": "hey"}]}],
            },
        )
        assert status == 200 and body["content"][0]["text"] == "anthropic:claude-x:2"
        status, body = post(
            server.google_base_url + "/v1beta/models/gem:generateContent",
            {
                "contents": [
                    {"role": "user", "parts": [{"text": "a"}]},
                    {"role": "model", "parts": [{"text": "b"}]},
                ]
            },
        )
        assert (
            status == 200 and body["candidates"][0]["content"]["parts"][0]["text"] == "google:gem:2"
        )
        assert body["modelVersion"] == "scripted:gem"
    assert server.requests[1].messages == [
        {"role": "user", "content": "a"},
        {"role": "assistant", "content": "b"},
    ]


@pytest.mark.parametrize("script", [[], Rules([("never", "x")])])
def test_exhausted_or_unmatched_scripts_fail_loudly(script):
    with ScriptedServer(script) as server:
        status, body = chat(server, "anything")
    assert status == 400 and "scripted fake server" in body["error"]["message"]


def test_unknown_models_and_paths():
    with ScriptedServer(["x"], models=["known"]) as server:
        assert chat(server, "q", model="unknown")[0] == 404
        assert post(server.url + "/v1/embeddings", {})[0] == 404
        status, body = chat(server, "q", model="known")
    assert status == 200 and body["model"] == "scripted:known"
