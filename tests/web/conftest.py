"""A ggp web server on a free loopback port, stopped after each test."""

from __future__ import annotations

import pytest


@pytest.fixture
def web_server():
    """``start(**config)`` -> a running :class:`WebServer` (stopped at teardown)."""
    pytest.importorskip("starlette", reason="ggp web needs the web extra (starlette, uvicorn)")
    pytest.importorskip("uvicorn", reason="ggp web needs the web extra (starlette, uvicorn)")
    from ggp.web.app import WebConfig
    from ggp.web.server import WebServer

    servers = []

    def start(**config):
        server = WebServer(WebConfig(**config), "127.0.0.1", 0).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
