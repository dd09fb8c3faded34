"""``ggp llm check`` against the scripted fake server."""

from __future__ import annotations

import json

import pytest

from ggp.cli.main import main
from ggp.llm.fake_server import ScriptedServer


@pytest.fixture(autouse=True)
def _needs_openai():
    pytest.importorskip("openai")


def test_check_reports_model_latency_and_tokens(capsys):
    with ScriptedServer(["ready [/not markup]"]) as server:
        status = main(["llm", "check", "--model", "tiny", "--base-url", server.openai_base_url])
    out = capsys.readouterr().out
    assert status == 0
    assert "OK" in out and "scripted:tiny" in out and "scripted fake, not a model" in out
    assert "latency:" in out and "prompt +" in out and "'ready [/not markup]'" in out
    assert "connectivity check" in server.requests[0].last_user_message


def test_check_json_and_wrong_model(capsys):
    with ScriptedServer(["ready"], models=["tiny"]) as server:
        status = main(
            ["llm", "check", "--json", "--model", "huge", "--base-url", server.openai_base_url]
        )
    report = json.loads(capsys.readouterr().out)
    assert status == 1
    assert report["ok"] is False and report["error"] == "LLMModelNotFoundError"
    assert "'huge' was not found" in report["message"]


def test_check_unreachable_and_config_errors(capsys, closed_port_url, tmp_path):
    status = main(
        ["llm", "check", "--model", "m", "--base-url", closed_port_url + "/v1", "--retries", "0"]
    )
    assert status == 1 and "Cannot reach" in capsys.readouterr().out
    config = tmp_path / "bad.toml"
    config.write_text('[llm]\napi_key = "sk-1"\n')
    assert main(["llm", "check", "--config", str(config)]) == 2  # a GGPError: one-paragraph message
    assert "environment variables" in capsys.readouterr().err


def test_check_reads_settings_from_the_environment(capsys, monkeypatch):
    with ScriptedServer(["ready"]) as server:
        monkeypatch.setenv("GGP_LLM_BASE_URL", server.openai_base_url)
        monkeypatch.setenv("GGP_LLM_MODEL", "env-model")
        assert main(["llm", "check"]) == 0
    assert server.requests[0].model == "env-model"
