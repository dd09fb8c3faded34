"""Serve the web app with uvicorn on a socket bound here (so a busy port is a clear error
and port 0 picks a free one)."""

from __future__ import annotations

import socket
import threading
from dataclasses import replace
from typing import Callable

from ggp.core.errors import GGPError
from ggp.web.app import WebConfig, create_app

#: Host names of this machine only: a loopback server answers requests for these alone.
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port``; a clear error when that is impossible."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise GGPError(f"Cannot resolve host {host!r}: {exc}.") from exc
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise GGPError(f"Cannot listen on {host}:{port} ({exc.strerror}); pick another port "
                       "with --port (0 picks a free one).") from exc
    sock.listen(64)
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


class WebServer:
    """The app on a bound socket; :meth:`run` blocks, :meth:`start` runs it in a thread
    (tests), :meth:`stop` ends it. ``url`` is the server's root; ``login_url`` the same
    with the access token (what a person opens first: it leaves the token in a cookie);
    API clients may send ``token`` as an ``X-GGP-Token`` header instead."""

    def __init__(self, config: WebConfig, host: str = "127.0.0.1", port: int = 0) -> None:
        import uvicorn

        self.sock = bind(host, port)
        self.url = url_of(self.sock)
        if host in LOOPBACK and not config.allowed_hosts:
            config = replace(config, allowed_hosts=list(LOOPBACK))
        self.token = config.token
        self.login_url = f"{self.url}?token={self.token}"
        self.app = create_app(config)
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning",
                                                    lifespan="on"))
        self.thread: threading.Thread | None = None

    def run(self, on_ready: Callable[[str], None] | None = None) -> None:
        """Serve until stopped; ``on_ready`` gets the URL with the token."""
        if on_ready:
            on_ready(self.login_url)
        self.server.run(sockets=[self.sock])

    def start(self) -> WebServer:
        self.thread = threading.Thread(target=self.run, name="ggp-web", daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        if self.thread is not None:
            self.thread.join(timeout=10.0)
        self.sock.close()
