"""GGP over HTTP: the player's server side and the manager's client side.

Wire format (ggp-base and the Dresden controller; docs/ggp_protocol.md):

* request: ``POST / HTTP/1.0`` with the message as the body, ``Content-Type: text/acl``
  (``GET /<url-encoded message>`` and ``OPTIONS`` preflights are accepted too);
* reply: ``HTTP/1.0 200 OK``, ``Content-type: text/acl``, ``Content-length``, then the
  body; one message per connection.

Browsers: ggp-base answers every web page (``Access-Control-Allow-Origin: *``), so any page
a player's owner visits could send it a START (and a few hundred bytes of GDL can ask for
gigabytes). This server answers no page unless its origin is allowed (``allowed_origins``,
``ggp serve --allow-origin``): a request with an ``Origin`` header, or a browser's
``Sec-Fetch-Site`` saying it comes from another site, gets 403 and is never handled; an
allowed origin gets the CORS headers naming it. Game managers send neither header.

The server never lets a request crash it: oversized bodies get 413, bad HTTP gets 400,
slow clients are cut off after ``read_timeout`` seconds, and an exception inside the
message handler becomes a 500 reply. The client bounds every exchange by one deadline.
"""

from __future__ import annotations

import logging
import socket
import threading
import time
import urllib.parse
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Callable

log = logging.getLogger(__name__)

MAX_MESSAGE = 8 * 1024 * 1024  # bytes; the largest public GDL rulesheets are ~200 kB
MAX_REPLY = 1024 * 1024
CONNECT_TIMEOUT = 5.0  # seconds, as ggp-base's server

# handler(message text, monotonic reception time) -> (HTTP status, reply body)
MessageHandler = Callable[[str, float], tuple[int, str]]

_REASONS = {200: "OK", 400: "Bad Request", 403: "Forbidden", 409: "Conflict", 413: "Payload Too Large",
            414: "URI Too Long", 431: "Request Header Fields Too Large",
            500: "Internal Server Error", 501: "Not Implemented"}


def http_reply(status: int, body: str, origin: str | None = None) -> bytes:
    """A complete HTTP/1.0 reply with the headers ggp-base's players send; the CORS
    headers only for an allowed ``origin`` (named, never ``*``)."""
    data = body.encode("utf-8")
    cors = ("" if not origin else
            f"Access-Control-Allow-Origin: {origin}\r\n"
            "Vary: Origin\r\n"
            "Access-Control-Allow-Methods: POST, GET, OPTIONS\r\n"
            "Access-Control-Allow-Headers: Content-Type\r\n"
            "Access-Control-Allow-Age: 86400\r\n")
    head = (f"HTTP/1.0 {status} {_REASONS.get(status, 'Error')}\r\n"
            "Content-type: text/acl\r\n"
            f"Content-length: {len(data)}\r\n"
            f"{cors}\r\n")
    return head.encode("ascii") + data


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    server: "_Server"

    def setup(self) -> None:
        super().setup()
        self.connection.settimeout(self.server.read_timeout)

    def _from_browser_page(self) -> bool:
        """Whether a web page of a site not allowed sent this request (then it is
        refused before its message is read)."""
        origin = self.headers.get("Origin")
        if origin is not None:
            return origin not in self.server.allowed_origins
        site = self.headers.get("Sec-Fetch-Site")
        return site is not None and site.strip().lower() not in ("same-origin", "none")

    def _allowed_origin(self) -> str | None:
        headers = getattr(self, "headers", None)  # absent when the request line was bad
        origin = headers.get("Origin") if headers is not None else None
        return origin if origin in self.server.allowed_origins else None

    def _refuse_page(self) -> None:
        self.close_connection = True
        self._send(403, "error: requests from web pages are refused (ggp serve "
                   "--allow-origin names the pages that may send messages)")

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        received = self.server.accepted.pop(id(self.request), time.monotonic())
        if self._from_browser_page():
            return self._refuse_page()
        limit = self.server.max_message
        length = self.headers.get("Content-Length")
        if length is not None:
            if not length.strip().isdigit():
                return self._send(400, "error: bad Content-Length")
            if int(length) > limit:
                return self._refuse_oversized(limit)
            data = self.rfile.read(int(length))
        else:  # HTTP/1.0 without a length: the body runs to the end of the stream
            data = self.rfile.read(limit + 1)
            if len(data) > limit:
                return self._refuse_oversized(limit)
        self._answer(data.decode("utf-8", errors="replace"), received)

    def do_GET(self) -> None:  # noqa: N802
        received = self.server.accepted.pop(id(self.request), time.monotonic())
        if self._from_browser_page():
            return self._refuse_page()
        self._answer(urllib.parse.unquote(self.path.lstrip("/")), received)

    def do_OPTIONS(self) -> None:  # noqa: N802 - browser preflight
        if self._from_browser_page():
            return self._refuse_page()
        self._send(200, "")

    def _answer(self, text: str, received: float) -> None:
        try:
            status, body = self.server.message_handler(text.strip(), received)
        except Exception as exc:  # noqa: BLE001 - the server must outlive any message
            log.exception("message handler failed")
            status, body = 500, f"error: {type(exc).__name__}"
        self._send(status, body)
        # replies are written by hand (ggp-base's headers), so http.server's own request
        # log never runs: this is the log line `ggp serve -v` promises
        log.debug("%s %s %.120r -> %d %.80r in %.3f s", self.address_string(), self.command,
                  text.strip(), status, body, time.monotonic() - received)

    def _refuse_oversized(self, limit: int) -> None:
        """Answer 413, then read (briefly, boundedly) what the client is still sending:
        closing a socket with unread data resets the connection, and the client would
        lose the reply."""
        self._send(413, f"error: message larger than {limit} bytes")
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_WR)
            self.connection.settimeout(0.2)
            end = time.monotonic() + 2.0
            drained = 0
            while time.monotonic() < end and drained < 4 * limit + 65536:
                chunk = self.connection.recv(65536)
                if not chunk:
                    break
                drained += len(chunk)
        except OSError:
            pass

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """HTTP-level errors (bad request line, huge headers) in the same reply format."""
        self.close_connection = True
        self._send(code, f"error: {message or 'bad request'}")

    def _send(self, status: int, body: str) -> None:
        try:
            self.wfile.write(http_reply(status, body, self._allowed_origin()))
        except OSError:  # the client gave up; nothing to tell it
            pass

    def log_message(self, format: str, *args) -> None:  # noqa: A002
        log.debug("%s %s", self.address_string(), format % args)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address, handler: MessageHandler, max_message: int,
                 read_timeout: float, allowed_origins: tuple[str, ...] = ()) -> None:
        self.message_handler = handler
        self.allowed_origins = frozenset(allowed_origins)
        self.max_message = max_message
        self.read_timeout = read_timeout
        # when each connection was accepted: clocks count from there, not from when a
        # (possibly CPU-starved) handler thread got round to reading the request
        self.accepted: dict[int, float] = {}
        super().__init__(address, _Handler)

    def process_request(self, request, client_address) -> None:
        self.accepted[id(request)] = time.monotonic()
        super().process_request(request, client_address)

    def shutdown_request(self, request) -> None:
        self.accepted.pop(id(request), None)
        super().shutdown_request(request)


class GGPServer:
    """An HTTP server answering GGP messages with ``handler``, in a background thread.

    Binds to 127.0.0.1 and a port the OS picks unless told otherwise. Use it as a
    context manager (or call :meth:`close`) so the socket is always released.
    ``allowed_origins``: web pages (``https://host``) whose requests are answered, with
    CORS headers naming them; requests from any other page are refused.
    """

    def __init__(self, handler: MessageHandler, host: str = "127.0.0.1", port: int = 0, *,
                 max_message: int = MAX_MESSAGE, read_timeout: float = 30.0,
                 allowed_origins: tuple[str, ...] = ()) -> None:
        self._server = _Server((host, port), handler, max_message, read_timeout,
                               tuple(allowed_origins))
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.1}, daemon=True,
                                        name="ggp-http")
        self._thread.start()

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        host = self._server.server_address[0]
        return f"http://{host}:{self.port}/"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> GGPServer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# ---------------------------------------------------------------------------- client
@dataclass
class Exchange:
    """The outcome of sending one message: the reply body (None if none came), the
    seconds from connecting to the end of the reply, and what went wrong if anything
    (``"refused"``, ``"timeout"``, ``"connection"``, ``"http 4xx/5xx"``, ``"bad reply"``)."""

    reply: str | None
    seconds: float
    error: str | None = None


def parse_endpoint(endpoint: str) -> tuple[str, int]:
    """``http://host:port/``, ``host:port`` -> ``(host, port)``."""
    text = endpoint if "//" in endpoint else "http://" + endpoint
    parsed = urllib.parse.urlsplit(text)
    if not parsed.hostname or parsed.port is None:
        raise ValueError(f"player address {endpoint!r} needs a host and a port")
    return parsed.hostname, parsed.port


def send_message(endpoint: str, message: str, timeout: float, *,
                 receiver: str = "player", max_reply: int = MAX_REPLY) -> Exchange:
    """POST ``message`` to a player and wait at most ``timeout`` seconds for the reply."""
    host, port = parse_endpoint(endpoint)
    body = message.encode("utf-8")
    request = (f"POST / HTTP/1.0\r\nAccept: text/delim\r\nHost: {host}:{port}\r\n"
               f"Sender: GAMESERVER\r\nReceiver: {receiver}\r\nContent-Type: text/acl\r\n"
               f"Content-Length: {len(body)}\r\n\r\n").encode("ascii") + body
    began = time.monotonic()
    deadline = began + timeout

    def elapsed() -> float:
        return time.monotonic() - began

    try:
        sock = socket.create_connection((host, port),
                                        timeout=max(0.001, min(timeout, CONNECT_TIMEOUT)))
    except ConnectionRefusedError:
        return Exchange(None, elapsed(), "refused")
    except TimeoutError:
        return Exchange(None, elapsed(), "timeout")
    except OSError as exc:
        return Exchange(None, elapsed(), f"connection: {exc}")
    chunks: list[bytes] = []
    try:
        with sock:
            sock.settimeout(max(0.001, deadline - time.monotonic()))
            sock.sendall(request)
            size = 0
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    return Exchange(None, elapsed(), "timeout")
                sock.settimeout(left)
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
                if size > max_reply + 65536:
                    return Exchange(None, elapsed(), "bad reply: too large")
                if _complete(b"".join(chunks)):
                    break
    except TimeoutError:
        return Exchange(None, elapsed(), "timeout")
    except OSError as exc:
        return Exchange(None, elapsed(), f"connection: {exc}")
    return _parse_reply(b"".join(chunks), elapsed())


def _split(data: bytes) -> tuple[bytes, bytes] | None:
    for sep in (b"\r\n\r\n", b"\n\n"):
        at = data.find(sep)
        if at >= 0:
            return data[:at], data[at + len(sep):]
    return None


def _content_length(head: bytes) -> int | None:
    for line in head.split(b"\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length" and value.strip().isdigit():
            return int(value.strip())
    return None


def _complete(data: bytes) -> bool:
    """Whether a reply with a Content-length has fully arrived (else read to EOF)."""
    parts = _split(data)
    if parts is None:
        return False
    length = _content_length(parts[0])
    return length is not None and len(parts[1]) >= length


def _parse_reply(data: bytes, seconds: float) -> Exchange:
    parts = _split(data)
    if parts is None:
        problem = "bad reply: no HTTP header" if data else "connection: closed without a reply"
        return Exchange(None, seconds, problem)
    head, body = parts
    status_line = head.split(b"\n", 1)[0].split()
    if len(status_line) < 2 or not status_line[0].startswith(b"HTTP/"):
        return Exchange(None, seconds, "bad reply: no HTTP status line")
    length = _content_length(head)
    if length is not None:
        body = body[:length]
    text = body.decode("utf-8", errors="replace").strip()
    if status_line[1] != b"200":
        return Exchange(text, seconds, f"http {status_line[1].decode('ascii', 'replace')}")
    return Exchange(text, seconds)
