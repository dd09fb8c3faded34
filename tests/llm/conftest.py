"""Shared helpers of the LLM-layer tests. No test here ever calls a real model."""

from __future__ import annotations

import socket

import pytest

from ggp.llm import load_config


def _fast_config(**overrides):
    settings = dict(retry_base_delay_s=0.001, retry_max_delay_s=0.01, timeout_s=10.0)
    settings.update(overrides)
    return load_config(env={}, **settings)


@pytest.fixture
def fast_config():
    """``fast_config(**settings)``: a config with tiny retry delays, ignoring the environment."""
    return _fast_config


@pytest.fixture
def closed_port_url() -> str:
    """A loopback URL where nothing listens."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@pytest.fixture(autouse=True)
def _no_real_keys(monkeypatch):
    """Make sure no test can pick up a real API key or LLM setting from the environment."""
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    import os

    for name in list(os.environ):
        if name.startswith("GGP_LLM_"):
            monkeypatch.delenv(name)
