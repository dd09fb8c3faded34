"""The HTTP layer: exact reply headers, GET/OPTIONS, hostile requests, client errors."""

import socket
import threading
import time
import urllib.parse

from ggpnet_helpers import running

from ggp.ggpnet.transport import GGPServer, http_reply, parse_endpoint, send_message


def echo(text, received):
    return 200, f"got {text}"


def raw(port, data: bytes, timeout=5.0) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
        chunks = []
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)


def test_reply_has_ggp_base_headers_but_no_cors_for_everyone():
    reply = http_reply(200, "ready").decode()
    head, body = reply.split("\r\n\r\n")
    assert body == "ready"
    lines = head.split("\r\n")
    assert lines[0] == "HTTP/1.0 200 OK"
    assert set(lines[1:]) == {"Content-type: text/acl", "Content-length: 5"}
    # an allowed page's origin is named, never '*'
    allowed = http_reply(200, "ready", "https://manager.example").decode()
    assert "Access-Control-Allow-Origin: https://manager.example\r\n" in allowed
    assert "*" not in allowed


def _raw(server, request: bytes) -> bytes:
    import socket

    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def test_requests_from_web_pages_are_refused_unless_their_origin_is_allowed():
    seen = []

    def handler(text, received):
        seen.append(text)
        return 200, "ready"

    body = b"( INFO )"
    page = (b"POST / HTTP/1.0\r\nContent-Type: text/plain\r\nOrigin: https://evil.example"
            b"\r\nContent-Length: 8\r\n\r\n" + body)
    img = b"GET /(INFO) HTTP/1.0\r\nSec-Fetch-Site: cross-site\r\n\r\n"
    preflight = b"OPTIONS / HTTP/1.0\r\nOrigin: null\r\n\r\n"
    with running(handler, allowed_origins=("https://manager.example",)) as (server,):
        for request in (page, img, preflight):
            reply = _raw(server, request)
            assert reply.startswith(b"HTTP/1.0 403 ") and b"Access-Control" not in reply
        assert seen == []  # none of them reached the player
        allowed = _raw(server, page.replace(b"https://evil.example",
                                            b"https://manager.example"))
        assert allowed.startswith(b"HTTP/1.0 200 ")
        assert b"Access-Control-Allow-Origin: https://manager.example\r\n" in allowed
        # a game manager sends no Origin: answered as before
        assert _raw(server, page.replace(b"Origin: https://evil.example\r\n", b"")
                    ).startswith(b"HTTP/1.0 200 ")
        assert seen == ["( INFO )", "( INFO )"]


def test_post_get_options_and_client_round_trip():
    with running(echo) as (server,):
        ex = send_message(server.url, "( INFO )", 5)
        assert ex.error is None and ex.reply == "got ( INFO )"
        # ggp-base's request, byte for byte in its header layout
        body = b"(PLAY m NIL)"
        request = (b"POST / HTTP/1.0\r\nAccept: text/delim\r\nHost: 127.0.0.1\r\n"
                   b"Sender: GAMESERVER\r\nReceiver: p\r\nContent-Type: text/acl\r\n"
                   b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        assert raw(server.port, request).endswith(b"\r\n\r\ngot (PLAY m NIL)")
        # no Content-Length: the body runs to the end of the stream
        assert raw(server.port, b"POST / HTTP/1.0\r\n\r\n(INFO)").endswith(b"got (INFO)")
        get = b"GET /" + urllib.parse.quote("(INFO)").encode() + b" HTTP/1.0\r\n\r\n"
        assert raw(server.port, get).endswith(b"got (INFO)")
        options = raw(server.port, b"OPTIONS / HTTP/1.0\r\n\r\n")
        assert options.startswith(b"HTTP/1.0 200") and options.endswith(b"\r\n\r\n")


def test_hostile_requests_get_errors_and_server_survives():
    with running(echo, max_message=1000, read_timeout=1.0) as (server,):
        big = raw(server.port, b"POST / HTTP/1.0\r\nContent-Length: 1000000000\r\n\r\nx")
        assert big.startswith(b"HTTP/1.0 413")
        endless = raw(server.port, b"POST / HTTP/1.0\r\n\r\n" + b"(" * 5000)
        assert endless.startswith(b"HTTP/1.0 413")
        assert raw(server.port, b"POST / HTTP/1.0\r\nContent-Length: abc\r\n\r\n").startswith(
            b"HTTP/1.0 400")
        assert raw(server.port, b"\x00\xff garbage\r\n\r\n").startswith(b"HTTP/1.0 400")
        assert raw(server.port, b"POST / HTTP/1.0\r\n" + b"X: y\r\n" * 200 + b"\r\n")[:12] in (
            b"HTTP/1.0 431", b"HTTP/1.0 400")
        # a client that connects and says nothing neither blocks others nor lives forever
        idle = socket.create_connection(("127.0.0.1", server.port))
        try:
            assert send_message(server.url, "(INFO)", 5).reply == "got (INFO)"
            idle.settimeout(5)
            assert idle.recv(100) == b""  # the server hung up after its read timeout
        finally:
            idle.close()
        assert send_message(server.url, "(INFO)", 5).reply == "got (INFO)"


def test_handler_exception_becomes_500():
    def broken(text, received):
        raise RuntimeError("boom")

    with running(broken) as (server,):
        ex = send_message(server.url, "(INFO)", 5)
        assert ex.error == "http 500" and "RuntimeError" in ex.reply


def test_client_reports_refused_timeout_and_bad_replies():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nobody listens there now
    assert send_message(f"127.0.0.1:{port}", "(INFO)", 2).error == "refused"

    release = threading.Event()

    def slow(text, received):
        release.wait(5)
        return 200, "late"

    with running(slow) as (server,):
        began = time.monotonic()
        ex = send_message(server.url, "(INFO)", 0.3)
        assert ex.error == "timeout" and ex.reply is None
        assert time.monotonic() - began < 3
        release.set()

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)

    def answer_garbage():
        conn, _ = listener.accept()
        with conn:
            conn.recv(65536)
            conn.sendall(b"this is not HTTP")

    thread = threading.Thread(target=answer_garbage)
    thread.start()
    try:
        ex = send_message(f"127.0.0.1:{listener.getsockname()[1]}", "(INFO)", 2)
        assert ex.error.startswith("bad reply")
    finally:
        thread.join(5)
        listener.close()


def test_endpoints():
    assert parse_endpoint("http://127.0.0.1:9147/") == ("127.0.0.1", 9147)
    assert parse_endpoint("127.0.0.1:80") == ("127.0.0.1", 80)


def test_server_binds_loopback_by_default():
    server = GGPServer(echo)
    try:
        assert server.url.startswith("http://127.0.0.1:")
    finally:
        server.close()
