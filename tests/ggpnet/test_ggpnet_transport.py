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


def test_reply_has_ggp_base_headers():
    reply = http_reply(200, "ready").decode()
    head, body = reply.split("\r\n\r\n")
    assert body == "ready"
    lines = head.split("\r\n")
    assert lines[0] == "HTTP/1.0 200 OK"
    assert set(lines[1:]) == {
        "Content-type: text/acl", "Content-length: 5", "Access-Control-Allow-Origin: *",
        "Access-Control-Allow-Methods: POST, GET, OPTIONS",
        "Access-Control-Allow-Headers: Content-Type", "Access-Control-Allow-Age: 86400"}


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
