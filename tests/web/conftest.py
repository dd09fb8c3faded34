"""A ggp web server on a free loopback port, stopped after each test."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="ggp web needs the web extra (starlette, uvicorn)")
pytest.importorskip("uvicorn", reason="ggp web needs the web extra (starlette, uvicorn)")

REPO = Path(__file__).resolve().parents[2]


class Client:
    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")

    def call(self, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())


@pytest.fixture
def web_server():
    """``start(**config)`` -> a running :class:`WebServer` (stopped at teardown)."""
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
