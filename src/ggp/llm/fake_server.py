"""A scripted fake LLM server on 127.0.0.1 that speaks the real wire protocols.

:class:`ScriptedServer` answers the OpenAI chat-completions protocol
(``POST /v1/chat/completions``), the Anthropic messages protocol (``POST /v1/messages``)
and the Google generateContent protocol (``POST /v1beta/models/{model}:generateContent``)
from a script, so tests drive the official SDKs through their real HTTP code paths
without any model. Every answer it gives reports the model as ``"scripted:<name>"`` so
fake output is never mistaken for a model's work.

A script is one of

* a list of actions, answered in order (a plain string is ``Reply(string)``);
* :class:`Rules`: ``(regex, action)`` pairs matched against the last user message, first
  match wins (the action may be a list, consumed in order, the last one repeating);
* a callable ``f(request: FakeRequest) -> action``.

Actions: :class:`Reply`, :class:`Fail` (any HTTP error, e.g. 429 or 500),
:class:`Malformed` (a 200 response whose body is not valid JSON), :class:`Delay` (sleep,
then do another action: use it to provoke client timeouts). A request for a model not in
``models`` (when given) gets a 404 "model not found" in that protocol's error format.

Use it as a context manager::

    with ScriptedServer(["first answer", Fail(429), "second answer"]) as server:
        client = openai.OpenAI(base_url=server.openai_base_url, api_key="x")
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Reply:
    """Answer with ``text`` (finish reason "stop")."""

    text: str


@dataclass(frozen=True)
class Fail:
    """Answer with HTTP ``status`` in the protocol's error format."""

    status: int
    message: str = "scripted failure"
    retry_after: float | None = None


@dataclass(frozen=True)
class Malformed:
    """Answer 200 with a body that is not valid JSON."""

    body: str = '{"id": "scripted-broken", "choices": [ {"message": '


@dataclass(frozen=True)
class Delay:
    """Sleep ``seconds``, then perform ``then``."""

    seconds: float
    then: Action = Reply("")


Action = str | Reply | Fail | Malformed | Delay


@dataclass
class Rules:
    """Regex rules on the last user message; ``default`` answers when none matches."""

    rules: Sequence[tuple[str, Action | list[Action]]]
    default: Action | None = None


@dataclass
class FakeRequest:
    """A request as the fake server saw it, normalized across protocols."""

    protocol: str  # "openai" | "anthropic" | "google"
    path: str
    model: str
    messages: list[dict[str, str]]
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)  # names in lower case

    @property
    def last_user_message(self) -> str:
        users = [m["content"] for m in self.messages if m["role"] == "user"]
        return users[-1] if users else ""


Script = Sequence[Action] | Rules | Callable[[FakeRequest], Action]


# --------------------------------------------------------------------------- server


class ScriptedServer:
    """A loopback HTTP server answering LLM requests from a script (see module docs).

    ``requests`` lists every :class:`FakeRequest` received, in arrival order.
    """

    def __init__(self, script: Script, *, models: Sequence[str] | None = None):
        self._script = script
        self._queue = list(script) if isinstance(script, (list, tuple)) else None
        self._rule_queues: dict[int, list[Action]] = {}
        self._models = set(models) if models is not None else None
        self._lock = threading.Lock()
        self.requests: list[FakeRequest] = []
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.owner = self
        self._thread: threading.Thread | None = None

    # -- lifecycle
    def start(self) -> ScriptedServer:
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- addresses
    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def openai_base_url(self) -> str:
        return self.url + "/v1"

    @property
    def anthropic_base_url(self) -> str:
        return self.url

    @property
    def google_base_url(self) -> str:
        return self.url

    # -- scripting
    def _next_action(self, request: FakeRequest) -> Action:
        with self._lock:
            self.requests.append(request)
            if self._models is not None and request.model not in self._models:
                return Fail(404, f"The model '{request.model}' does not exist.")
            if self._queue is not None:
                if not self._queue:
                    return Fail(400, "scripted fake server: the script is exhausted")
                return self._queue.pop(0)
            if isinstance(self._script, Rules):
                return self._match_rule(self._script, request.last_user_message)
            return self._script(request)  # type: ignore[operator]

    def _match_rule(self, rules: Rules, text: str) -> Action:
        for index, (pattern, action) in enumerate(rules.rules):
            if re.search(pattern, text):
                if not isinstance(action, list):
                    return action
                queue = self._rule_queues.setdefault(index, list(action))
                return queue.pop(0) if len(queue) > 1 else queue[0]
        if rules.default is None:
            return Fail(400, "scripted fake server: no rule matches the request")
        return rules.default


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # a handler sleeping in a Delay must not block stop()
    owner: ScriptedServer


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - keep test output quiet
        pass

    def do_POST(self) -> None:  # noqa: N802 (http.server naming)
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw or b"{}")
            request = _parse_request(
                self.path, body, {k.lower(): v for k, v in self.headers.items()}
            )
        except (ValueError, KeyError, TypeError) as exc:
            self._send(400, {"error": {"message": f"fake server cannot read request: {exc}"}})
            return
        if request is None:
            self._send(404, {"error": {"message": f"unknown path {self.path}"}})
            return
        self._perform(request, self.server.owner._next_action(request))

    def _perform(self, request: FakeRequest, action: Action) -> None:
        if isinstance(action, str):
            action = Reply(action)
        if isinstance(action, Delay):
            time.sleep(action.seconds)
            self._perform(request, action.then)
        elif isinstance(action, Reply):
            self._send(200, _SUCCESS[request.protocol](request, action.text))
        elif isinstance(action, Malformed):
            self._send_raw(200, action.body.encode(), {})
        elif isinstance(action, Fail):
            headers = {}
            if action.retry_after is not None:
                headers["Retry-After"] = str(action.retry_after)
            self._send(action.status, _error_body(request.protocol, action), headers)
        else:
            self._send(500, {"error": {"message": f"bad scripted action {action!r}"}})

    def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        self._send_raw(status, json.dumps(payload).encode(), headers or {})

    def _send_raw(self, status: int, data: bytes, headers: dict[str, str]) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for key, value in headers.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout test); nothing to tell it


# --------------------------------------------------------------------------- protocols

_GOOGLE_PATH = re.compile(r"^/v1(?:beta\d*)?/models/([^/:]+):generateContent")


def _parse_request(path: str, body: dict[str, Any], headers: dict[str, str]) -> FakeRequest | None:
    path = path.split("?", 1)[0]
    if path.endswith("/chat/completions"):
        messages = [
            {"role": m["role"], "content": _text_of(m.get("content"))} for m in body["messages"]
        ]
        return FakeRequest("openai", path, body.get("model", ""), messages, body, headers)
    if path.endswith("/v1/messages"):
        messages = []
        if body.get("system"):
            messages.append({"role": "system", "content": _text_of(body["system"])})
        messages += [
            {"role": m["role"], "content": _text_of(m.get("content"))} for m in body["messages"]
        ]
        return FakeRequest("anthropic", path, body.get("model", ""), messages, body, headers)
    match = _GOOGLE_PATH.match(path)
    if match:
        messages = []
        system = body.get("systemInstruction") or body.get("system_instruction")
        if system:
            messages.append({"role": "system", "content": _parts_text(system.get("parts", []))})
        for content in body.get("contents", []):
            role = "assistant" if content.get("role") == "model" else "user"
            messages.append({"role": role, "content": _parts_text(content.get("parts", []))})
        return FakeRequest("google", path, match.group(1), messages, body, headers)
    return None


def _text_of(content: Any) -> str:
    """Text of an OpenAI/Anthropic content field: a string or a list of text blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(block.get("text", "") for block in content if isinstance(block, dict))
    return ""


def _parts_text(parts: list[dict[str, Any]]) -> str:
    return "".join(part.get("text", "") for part in parts)


def _words(messages: list[dict[str, str]]) -> int:
    return sum(len(m["content"].split()) for m in messages)


def _openai_success(request: FakeRequest, text: str) -> dict[str, Any]:
    prompt, completion = _words(request.messages), len(text.split())
    return {
        "id": f"scripted-{len(text)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": f"scripted:{request.model}",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": text},
            }
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }


def _anthropic_success(request: FakeRequest, text: str) -> dict[str, Any]:
    return {
        "id": "msg_scripted",
        "type": "message",
        "role": "assistant",
        "model": f"scripted:{request.model}",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": _words(request.messages), "output_tokens": len(text.split())},
    }


def _google_success(request: FakeRequest, text: str) -> dict[str, Any]:
    prompt, completion = _words(request.messages), len(text.split())
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}
        ],
        "usageMetadata": {
            "promptTokenCount": prompt,
            "candidatesTokenCount": completion,
            "totalTokenCount": prompt + completion,
        },
        "modelVersion": f"scripted:{request.model}",
    }


_SUCCESS = {"openai": _openai_success, "anthropic": _anthropic_success, "google": _google_success}

_ANTHROPIC_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
    529: "overloaded_error",
}
_GOOGLE_STATUS = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    503: "UNAVAILABLE",
}


def _error_body(protocol: str, fail: Fail) -> dict[str, Any]:
    if protocol == "anthropic":
        kind = _ANTHROPIC_TYPES.get(fail.status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": fail.message}}
    if protocol == "google":
        status = _GOOGLE_STATUS.get(fail.status, "INTERNAL")
        return {"error": {"code": fail.status, "message": fail.message, "status": status}}
    code = "model_not_found" if fail.status == 404 else None
    return {
        "error": {"message": fail.message, "type": "scripted_error", "param": None, "code": code}
    }
