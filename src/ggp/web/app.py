"""The web app (Starlette): the play page, the match viewer and their JSON API.

Pages are plain HTML with one hand-written script (``static/app.js``); no build step.
Every route below, and the static files, answer only requests carrying the server's access
token (:class:`_TokenGate`: ``?token=``, its cookie, or an ``X-GGP-Token`` header).

=================================  ==================================================
``GET /``, ``GET /viewer``         the play page, the match viewer
``GET /api/options``               games for the picker, agents for the opponents
``POST /api/play``                 start a match: ``{game, seat, opponents, seed}``
``GET /api/play/{id}``             the person's view (:meth:`PlaySession.view`)
``POST /api/play/{id}/move``       ``{action}``
``POST /api/play/{id}/quit``       leave (the person forfeits)
``GET /api/record?path=``          open a record: its matches and plots
``GET /api/record/match?path=&index=``   one match, step by step
``GET /api/record/plot?path=&name=``     one of the report's plots (PNG)
=================================  ==================================================
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import secrets
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ggp.core.errors import GGPError, ModelError
from ggp.core.text import clean_line
from ggp.sandbox.hosted import HostFailure
from ggp.sandbox.process import SandboxFailure
from ggp.web.games import agent_choices, game_choices, open_game
from ggp.web.records import RecordError, open_record, read_inside
from ggp.web.session import PlaySession

STATIC = Path(__file__).parent / "static"
log = logging.getLogger("ggp.web")
# failures whose text a game or a model wrote: logged, never shown on the page
_GAME_FAILURES = (ModelError, HostFailure, SandboxFailure)

#: The query parameter, header and cookie (name prefix) that carry the access token.
TOKEN_PARAM = "token"
TOKEN_HEADER = "x-ggp-token"
TOKEN_COOKIE = "ggp-web-token"


@dataclass
class WebConfig:
    """Settings of ``ggp web``.

    ``game_dirs``: folders scanned for GDL files and synthesis runs for the picker;
    ``sandbox``: run every opponent in a sandboxed worker (agents from files always are);
    ``move_seconds``: a sandboxed opponent's time per move; ``record``: a record the viewer
    opens first; ``max_sessions``: matches kept at once (the oldest is closed);
    ``allowed_hosts``: the Host headers answered (empty: any), so that a server on the
    loopback address answers only requests for it, not a rebound DNS name;
    ``token``: the access token every request must carry (a fresh random one by default,
    printed in the URL ``ggp web`` shows; see :class:`_TokenGate`)."""

    game_dirs: list[Path] = field(default_factory=list)
    sandbox: bool = False
    move_seconds: float = 60.0
    record: str = ""
    max_sessions: int = 8
    allowed_hosts: list[str] = field(default_factory=list)
    token: str = field(default_factory=lambda: secrets.token_urlsafe(24))


class _Server:
    """What the handlers share: the settings and the live matches (``app.state.server``).

    ``sessions`` maps match ids to their :class:`PlaySession`, oldest first; ``lock``
    guards it, since handlers run in worker threads."""

    def __init__(self, config: WebConfig) -> None:
        self.config = config
        self.sessions: dict[str, PlaySession] = {}
        self.lock = threading.Lock()

    def session(self, request: Request) -> PlaySession:
        """The match named in the path, or a GGPError when it is over or unknown."""
        found = self.sessions.get(request.path_params["id"])
        if found is None:
            raise GGPError("This match is over or unknown: start a new one.")
        return found

    def start(self, body: dict[str, Any]) -> dict[str, Any]:
        """Open the game, start a match on it and return the person's first view; the
        oldest match is closed when there are more than ``max_sessions``."""
        config = self.config
        game = open_game(str(body.get("game", "")))
        try:
            opponents = [str(s) for s in body.get("opponents", [])]
            new = PlaySession(game, int(body.get("seat", 0)), opponents,
                              seed=int(body.get("seed", 0)), sandbox=config.sandbox,
                              move_seconds=config.move_seconds)
        except Exception:
            game.close()
            raise
        with self.lock:
            self.sessions[new.id] = new
            while len(self.sessions) > config.max_sessions:
                oldest = next(iter(self.sessions))
                self.sessions.pop(oldest).close()
        return new.view()

    def quit(self, match_id: str) -> dict[str, Any]:
        """End a match (the person forfeits); an unknown id is already over."""
        with self.lock:
            found = self.sessions.pop(match_id, None)
        if found is not None:
            found.close()
        return {"ok": True}

    def close_all(self) -> None:
        """End every match (the server stops)."""
        with self.lock:
            for found in self.sessions.values():
                found.close()
            self.sessions.clear()


def _server(request: Request) -> _Server:
    return request.app.state.server


async def page_play(request: Request) -> Response:
    """The play page."""
    return FileResponse(STATIC / "play.html", media_type="text/html")


async def page_viewer(request: Request) -> Response:
    """The match viewer."""
    return FileResponse(STATIC / "viewer.html", media_type="text/html")


async def options(request: Request) -> Response:
    """Games for the picker, agents for the opponents, the record to open first."""
    config = _server(request).config
    return JSONResponse({"games": game_choices(config.game_dirs),
                         "agents": agent_choices(), "record": config.record})


async def play(request: Request) -> Response:
    """Start a match: ``{game, seat, opponents, seed}``."""
    body = await _json(request)
    return await _guard(_server(request).start, body)


async def state(request: Request) -> Response:
    """The person's view of a match."""
    return await _guard(lambda: _server(request).session(request).view())


async def move(request: Request) -> Response:
    """The person's move, ``{action}``; answers the view after it."""
    body = await _json(request)

    def go() -> dict[str, Any]:
        found = _server(request).session(request)
        found.move(str(body.get("action", "")).strip())
        return found.view()

    return await _guard(go)


async def quit_(request: Request) -> Response:
    """Leave a match (the person forfeits)."""
    return await _guard(_server(request).quit, request.path_params["id"])


async def record(request: Request) -> Response:
    """A record's matches and plots."""
    dirs = _server(request).config.game_dirs
    return await _guard(lambda: open_record(request.query_params.get("path", ""),
                                            dirs).summary())


async def record_match(request: Request) -> Response:
    """One match of a record, step by step."""
    dirs = _server(request).config.game_dirs

    def go() -> dict[str, Any]:
        opened = open_record(request.query_params.get("path", ""), dirs)
        try:
            index = int(request.query_params.get("index", "0"))
        except ValueError as exc:
            raise RecordError("index must be a number") from exc
        return opened.match(index)

    return await _guard(go)


async def record_plot(request: Request) -> Response:
    """One of a record's report plots (PNG); only the report's own plots are served."""
    try:
        opened = open_record(request.query_params.get("path", ""),
                             _server(request).config.game_dirs)
    except GGPError as exc:
        return JSONResponse({"error": clean_line(exc, 500)}, status_code=400)
    name = request.query_params.get("name", "")
    for plot in opened.plots:
        if plot.name == name:
            # the plot list holds only files that resolve inside the record's folder
            # (no symlink out of it: see records._plots); read it now, as a file
            # swapped for a link after the listing must not be followed either
            data = read_inside(plot, opened.path)
            if data is None:
                return JSONResponse({"error": "no such plot"}, status_code=404)
            return Response(data, media_type="image/png")
    return JSONResponse({"error": "no such plot"}, status_code=404)


ROUTES = [
    Route("/", page_play),
    Route("/viewer", page_viewer),
    Route("/api/options", options),
    Route("/api/play", play, methods=["POST"]),
    Route("/api/play/{id}", state),
    Route("/api/play/{id}/move", move, methods=["POST"]),
    Route("/api/play/{id}/quit", quit_, methods=["POST"]),
    Route("/api/record", record),
    Route("/api/record/match", record_match),
    Route("/api/record/plot", record_plot),
    Mount("/static", StaticFiles(directory=STATIC), name="static"),
]


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    yield
    app.state.server.close_all()


def create_app(config: WebConfig | None = None) -> Starlette:
    """The web app for ``config`` (defaults: no game folders, a fresh token): the routes
    above behind the token gate, JSON-only POSTs and, when ``allowed_hosts`` is set, a
    Host check. ``app.state.sessions`` holds the live matches."""
    config = config or WebConfig()
    middleware = [Middleware(_TokenGate, token=config.token), Middleware(_JSONPosts)]
    if config.allowed_hosts:
        middleware.insert(0, Middleware(TrustedHostMiddleware,
                                        allowed_hosts=config.allowed_hosts))
    app = Starlette(routes=ROUTES, lifespan=_lifespan, middleware=middleware)
    app.state.server = _Server(config)
    app.state.sessions = app.state.server.sessions  # the live matches (tests look here)
    return app


class _TokenGate:
    """Answer only requests that carry the server's token, as notebook servers do.

    Anyone who can reach the port — every local user on a shared machine, a sandboxed
    agent given ``--network`` — could otherwise start games and read records. The token
    comes in the URL ``ggp web`` prints (``?token=...``) and is kept in a cookie after
    that first visit (``HttpOnly``, ``SameSite=Strict``: pages of other sites cannot
    send it), so the page's own requests and images carry it; scripts may send it as
    an ``X-GGP-Token`` header. Every route — pages, API, static files — is behind it.
    The cookie's name holds the port: servers on different ports keep their own."""

    def __init__(self, app, token: str) -> None:
        if not token:
            raise ValueError("the web server needs an access token")
        self.app = app
        self.token = token.encode()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        cookie = f"{TOKEN_COOKIE}-{request.url.port or 0}"
        offered = request.query_params.get(TOKEN_PARAM)
        candidates = [offered, request.headers.get(TOKEN_HEADER), request.cookies.get(cookie)]
        if not any(c and hmac.compare_digest(c.encode(), self.token) for c in candidates):
            message = ("This ggp web server needs its access token: open the URL with "
                       "?token=... that 'ggp web' printed.")
            response: Response = (JSONResponse({"error": message}, status_code=403)
                                  if scope["path"].startswith("/api/")
                                  else Response(message + "\n", status_code=403,
                                                media_type="text/plain"))
            await response(scope, receive, send)
            return
        if not (offered and hmac.compare_digest(offered.encode(), self.token)):
            await self.app(scope, receive, send)
            return
        value = (f"{cookie}={self.token.decode()}; Path=/; HttpOnly; SameSite=Strict")

        async def send_with_cookie(message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []),
                                                  (b"set-cookie", value.encode())]}
            await send(message)

        await self.app(scope, receive, send_with_cookie)


class _JSONPosts:
    """Refuse a POST whose body is not declared JSON: a page of another site can send a
    plain-text POST to this machine without asking, but not a JSON one."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST":
            headers = dict(scope.get("headers", []))
            kind = headers.get(b"content-type", b"").split(b";")[0].strip()
            if kind != b"application/json":
                response = JSONResponse({"error": "POST bodies must be application/json"},
                                        status_code=415)
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def _json(request: Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except ValueError:
        body = None
    return body if isinstance(body, dict) else {}


async def _guard(fn, *args) -> Response:
    """Run ``fn`` in a worker thread (it may block on a sandboxed worker); bad input (a
    GGPError, a malformed number) becomes ``{"error": message}`` with status 400."""
    from starlette.concurrency import run_in_threadpool

    try:
        return JSONResponse(await run_in_threadpool(fn, *args))
    except _GAME_FAILURES as exc:  # a game's or a model's own words: they may quote a state
        log.warning("request failed in a game or model: %s: %s", type(exc).__name__,
                    clean_line(exc, 4000))
        return JSONResponse({"error": f"{type(exc).__name__} in the game or a model (the "
                                      "details are in the server's log)."}, status_code=400)
    except (GGPError, ImportError) as exc:  # bad input in ggp's own words, a missing extra
        return JSONResponse({"error": clean_line(exc, 500)}, status_code=400)
    except (ValueError, TypeError) as exc:  # a malformed number, a missing extra
        # the text may come from anywhere (a game's own check, a library): the log has it
        log.warning("request refused: %s: %s", type(exc).__name__, clean_line(exc, 2000))
        return JSONResponse({"error": f"Bad request ({type(exc).__name__}; the details are "
                                      "in the server's log)."}, status_code=400)
