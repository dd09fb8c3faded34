"""Helpers of the web tests: the repository root and a small JSON client."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


class Client:
    """Calls the JSON API of a running server, with its access token (a header)."""

    def __init__(self, server) -> None:
        self.url = server.url.rstrip("/")
        self.token = server.token

    def call(self, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data,
                                         headers={"Content-Type": "application/json",
                                                  "X-GGP-Token": self.token})
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())
