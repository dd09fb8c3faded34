"""Configuration: file < environment < flags; keys only from the environment."""

from __future__ import annotations

import pytest

from ggp.llm import LLMConfigError, load_config


def write(tmp_path, text):
    path = tmp_path / "ggp.toml"
    path.write_text(text)
    return path


def test_precedence_file_env_flags(tmp_path):
    path = write(
        tmp_path,
        '[llm]\nbackend = "anthropic"\nmodel = "from-file"\nmax_calls = 10\ntemperature = 0.1\n'
        '[llm.prices]\n"from-file" = [1.5, 6]\n',
    )
    env = {"GGP_LLM_MODEL": "from-env", "GGP_LLM_MAX_CALLS": "20", "GGP_LLM_CONFIG": str(path)}
    config = load_config(env=env, max_calls=30)
    assert config.backend == "anthropic"  # file
    assert config.model == "from-env"  # env beats file
    assert config.max_calls == 30  # flag beats env
    assert config.temperature == 0.1
    assert config.prices == {"from-file": (1.5, 6.0)}


def test_flags_set_to_none_do_not_override(tmp_path):
    config = load_config(env={"GGP_LLM_MODEL": "m"}, model=None)
    assert config.model == "m"


def test_api_keys_in_files_are_refused(tmp_path):
    path = write(tmp_path, '[llm]\nmodel = "m"\napi_key = "sk-123"\n')
    with pytest.raises(LLMConfigError, match="environment variables"):
        load_config(path, env={})


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"backend": "litellm"}, "Unknown LLM backend"),
        ({"cache_mode": "sometimes"}, "Unknown cache mode"),
        ({"max_calls": "many"}, "invalid value"),
        ({"colour": "blue"}, "Unknown LLM setting"),
    ],
)
def test_bad_settings_are_explained(settings, message):
    with pytest.raises(LLMConfigError, match=message):
        load_config(env={}, **settings)


def test_missing_or_broken_file(tmp_path):
    with pytest.raises(LLMConfigError, match="does not exist"):
        load_config(tmp_path / "nope.toml", env={})
    with pytest.raises(LLMConfigError, match="not valid TOML"):
        load_config(write(tmp_path, "[llm\n"), env={})


def test_importing_the_layer_needs_no_sdk():
    import subprocess
    import sys

    code = (
        "import sys, ggp.llm, ggp.agents.llm_policy;"
        "bad=[m for m in sys.modules if m.split('.')[0] in ('openai','anthropic','google')];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
