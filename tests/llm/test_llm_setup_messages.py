"""Set-up messages a newcomer meets before any model answers: they must lead somewhere."""

from __future__ import annotations

import re

import pytest
import typer.main

from ggp.cli.main import app, main
from ggp.llm import LLMConfigError, load_config, make_backend
from ggp.llm.base import api_key_from_env
from ggp.llm.config import PRESETS, SETUP_HELP


@pytest.fixture
def no_llm_env(monkeypatch):
    import os

    for name in [n for n in os.environ if n.startswith("GGP_LLM_") or n.endswith("_API_KEY")]:
        monkeypatch.delenv(name)


def _options(*path: str) -> set[str]:
    from ggp.cli.main import _register_subcommands

    _register_subcommands()
    command = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]
    return {o for p in command.params for o in getattr(p, "opts", [])}


def test_setup_help_names_every_backend_and_the_offline_replay():
    for backend in ("openai", "anthropic", "google", "ollama", "vllm", "lmstudio",
                    "exchange"):
        assert backend in SETUP_HELP
    assert "OPENAI_API_KEY" in SETUP_HELP and "ANTHROPIC_API_KEY" in SETUP_HELP
    assert "ggp synth replay examples/recorded/" in SETUP_HELP
    with pytest.raises(LLMConfigError, match="No language model is set up"):
        make_backend(load_config(env={}))


@pytest.mark.parametrize("command", [("synth", "run"), ("cwm", "experiment"),
                                     ("llm", "check")])
def test_options_named_in_messages_exist(command):
    named = set(re.findall(r"--[a-z][a-z-]+", SETUP_HELP))
    key_help = ""
    with pytest.raises(LLMConfigError) as caught:
        api_key_from_env("GGP_TEST_NO_SUCH_KEY", required=True)
    key_help = str(caught.value)
    if command != ("cwm", "experiment"):  # the key message names synth and llm check only
        named |= set(re.findall(r"--[a-z][a-z-]+", key_help))
    assert named and named <= _options(*command)
    assert "--replay" in _options("synth", "run")


def test_local_servers_are_presets_of_the_openai_backend():
    config = load_config(env={}, backend="ollama", model="llama3.2")
    assert (config.backend, config.preset, config.base_url) == (
        "openai", "ollama", PRESETS["ollama"])
    assert load_config(env={}, backend="vllm", base_url="http://gpu:9000/v1").base_url == \
        "http://gpu:9000/v1"
    assert load_config(env={"GGP_LLM_BACKEND": "lm-studio"}).preset == "lmstudio"
    pytest.importorskip("openai")
    make_backend(config)  # no key needed for a local server


def test_llm_check_never_prints_model_none(no_llm_env, capsys):
    assert main(["llm", "check"]) == 1
    out = capsys.readouterr().out
    assert "model None" not in out and "no model chosen" in out
    assert "No language model is set up" in out


def test_failed_synth_leaves_no_run_folder(no_llm_env, tmp_path, capsys):
    run = tmp_path / "run"
    assert main(["synth", "tic_tac_toe", "--games", "1", "--test-games", "1",
                 "--out", str(run)]) == 2
    assert not run.exists()
    assert "--backend" in capsys.readouterr().err
    assert main(["cwm", "experiment", "kuhn_poker", "--out", str(run)]) == 2
    assert not run.exists()
