"""Attacks on the code around the box: outputs, the web server, small inputs (issue 30).

The box attacks (:mod:`ggp.sandbox.attacks`) run hostile code inside the sandbox. These
attack what runs *outside* it, with what an attacker controls there: links planted in an
output folder, requests to ``ggp web``, game names and GDL STARTs of a few hundred bytes,
text with terminal escapes. Each attack returns its breaches (empty: contained):

* ``symlinked_outputs`` — links in ``--out`` (``results.jsonl``, ``tournament.json``,
  ``report.md``, ``plots/``) to a victim file: the arena and the report must refuse, the
  victim must stay as it was;
* ``web_file_reads`` — ``ggp web`` without its token, a plot linked to a secret file, a
  ``plots`` folder linked out of the record, ``openspiel:efg_game(filename=SECRET)`` (also
  wrapped in another game): all refused, the secret never in an answer;
* ``parameter_bombs`` — ``generalized_tic_tac_toe(rows=100000,cols=100000)`` and friends
  from the command line's loader and from the web page, and an OpenSpiel game string with
  no declared bounds under a 600 MB budget: one-line errors, the process not grown;
* ``start_bomb`` — a 470-byte GDL START whose static relation has ten million facts, sent
  to a player with a 300 MB budget: refused with 400, the player not grown, and it plays
  the next match;
* ``escape_text`` — terminal escapes and newlines in an agent's name and a model's
  message: nothing but colour codes reaches the console, no line is injected into
  ``report.md``.

``ggp sandbox selftest`` runs them after the box attacks (``-e host`` alone); so does
``tests/sandbox/test_host_attacks.py``.
"""

from __future__ import annotations

import io
import json
import re
import resource
import secrets
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ggp.core.errors import GGPError

#: Bytes the attacking process may grow by (peak resident set) during one attack.
MAX_GROWTH_MB = 150

_START_BOMB = """(role a) (role b)
(d 0) (d 1) (d 2) (d 3) (d 4) (d 5) (d 6) (d 7) (d 8) (d 9)
(<= (big ?p ?q ?r ?s ?t ?u ?v) (d ?p) (d ?q) (d ?r) (d ?s) (d ?t) (d ?u) (d ?v))
(init (cell 0)) (<= (legal a (mark ?p)) (big ?p ?q ?r ?s ?t ?u ?v)) (<= (legal b noop))
(<= (next (cell ?p)) (does a (mark ?p))) (<= terminal (true (cell 9)))
(<= (goal a 100) (true (cell 9))) (<= (goal b 0) (true (cell 9)))
(<= (goal a 0) (not (true (cell 9)))) (<= (goal b 100) (not (true (cell 9))))"""

_PARAMETER_BOMBS = ("generalized_tic_tac_toe(rows=100000,cols=100000)",
                    "goofspiel(num_cards=10000000)",
                    "battleship(board_height=100000,board_width=100000)")


@dataclass
class HostOutcome:
    """One host attack and what got through."""

    attack: str
    breaches: list[str] = field(default_factory=list)
    seconds: float = 0.0
    skipped: str = ""

    @property
    def contained(self) -> bool:
        return not self.breaches


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _one_line(error: BaseException, what: str, breaches: list[str]) -> None:
    if not isinstance(error, GGPError):
        breaches.append(f"{what}: {type(error).__name__} escaped (not a one-line error)")
    elif "\n" in str(error):
        breaches.append(f"{what}: the error is more than one line")


def _tournament(out: Path) -> None:
    from ggp.arena.tournament import TournamentConfig, run_tournament

    run_tournament(TournamentConfig(games=["tic_tac_toe"], agents=["random"],
                                    opponents=["random"], matches=1, seed=0), out, workers=0)


# --------------------------------------------------------------------------- attacks
def symlinked_outputs(work: Path) -> list[str]:
    from ggp.arena.report import write_report
    from ggp.core.files import UnsafeOutputError

    breaches: list[str] = []
    victim = work / "victim.txt"
    for planted in ("results.jsonl", "tournament.json", "trajectories.jsonl"):
        victim.write_text("precious\n")
        out = work / f"arena-{planted}"
        out.mkdir()
        (out / planted).symlink_to(victim)
        try:
            _tournament(out)
            breaches.append(f"arena wrote with {planted} a link")
        except UnsafeOutputError:
            pass
        except Exception as exc:  # noqa: BLE001 - reported as a breach
            _one_line(exc, f"arena with {planted} a link", breaches)
        if victim.read_text() != "precious\n":
            breaches.append(f"arena wrote through {planted} into the victim")
    out = work / "report"
    _tournament(out)
    outside = work / "outside"
    outside.mkdir()
    for planted in ("report.md", "report.json", "plots"):
        (out / planted).symlink_to(outside if planted == "plots" else outside / planted)
        try:
            write_report(out)
            breaches.append(f"the report wrote with {planted} a link")
        except UnsafeOutputError:
            pass
        except Exception as exc:  # noqa: BLE001
            _one_line(exc, f"report with {planted} a link", breaches)
        (out / planted).unlink()
    if any(outside.iterdir()):
        breaches.append(f"the report wrote outside its folder: {sorted(outside.iterdir())}")
    return breaches


def web_file_reads(work: Path) -> list[str]:
    from ggp.arena.report import write_report
    from ggp.web.app import WebConfig
    from ggp.web.server import WebServer

    breaches: list[str] = []
    mark = "GGP-HOST-LEAK-" + secrets.token_hex(8)
    secret = work / "secret.efg"
    secret.write_text(f'EFG 2 R "{mark}" {{ "a" "b" }}\n{mark}\n')
    out = work / "arena"
    _tournament(out)
    write_report(out, plots=False)
    (out / "plots").mkdir()
    (out / "plots" / "evil.png").symlink_to(secret)
    linked = work / "linked"
    _tournament(linked)
    (work / "elsewhere").mkdir()
    (work / "elsewhere" / "x.png").write_text(mark)
    (linked / "plots").symlink_to(work / "elsewhere")
    server = WebServer(WebConfig(game_dirs=[]), "127.0.0.1", 0).start()

    def call(path: str, body: dict | None = None, token: bool = True) -> tuple[int, str]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["X-GGP-Token"] = server.token
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(server.url + path, data=data, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, response.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode("utf-8", "replace")

    try:
        for route in ("", "viewer", "static/app.js", "api/options",
                      f"api/record?path={out}", f"api/record/plot?path={out}&name=evil.png"):
            status, _ = call(route, token=False)
            if status != 403:
                breaches.append(f"/{route} answered {status} without the token")
        answers = [call(f"api/record/plot?path={out}&name=evil.png"),
                   call(f"api/record/plot?path={linked}&name=x.png"),
                   call(f"api/record?path={out}"), call(f"api/record?path={linked}")]
        pyspiel = True
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            pyspiel = False
        if pyspiel:
            for game in (f"openspiel:efg_game(filename={secret})",
                         f"openspiel:turn_based_simultaneous_game(game=efg_game(filename="
                         f"{secret}))"):
                status, text = call("api/play", {"game": game, "opponents": ["random"]})
                answers.append((status, text))
                if status != 400:
                    breaches.append(f"{game} answered {status}")
        for status, text in answers:
            if mark in text:
                breaches.append(f"the secret came back (status {status})")
    finally:
        server.stop()
    return breaches


def parameter_bombs(work: Path) -> list[str]:
    from ggp.load import load_model

    breaches: list[str] = []
    before = _peak_mb()
    for spec in _PARAMETER_BOMBS:
        try:
            load_model(spec)
            breaches.append(f"{spec} was built")
        except Exception as exc:  # noqa: BLE001
            _one_line(exc, spec, breaches)
    try:
        from ggp.web.games import open_game

        try:
            open_game(_PARAMETER_BOMBS[0]).close()
            breaches.append("the web page built a parameter bomb")
        except Exception as exc:  # noqa: BLE001
            _one_line(exc, "web page", breaches)
    except ImportError:
        pass  # no web extra: the loader above is what the page would call
    try:
        import pyspiel  # noqa: F401

        from ggp.budget import Budget, BudgetExceeded

        spec = "openspiel:coin_game(rows=100000,columns=100000)"  # no declared bounds
        try:
            load_model(spec, budget=Budget(memory_mb=600, seconds=60))
            breaches.append(f"{spec} was built")
        except BudgetExceeded:
            pass
        except Exception as exc:  # noqa: BLE001
            _one_line(exc, spec, breaches)
    except ImportError:
        pass  # no OpenSpiel: nothing of it to build
    grown = _peak_mb() - before
    if grown > MAX_GROWTH_MB:
        breaches.append(f"the process grew by {grown:.0f} MB")
    return breaches


def start_bomb(work: Path) -> list[str]:
    from ggp.budget import Budget
    from ggp.ggpnet.choosers import RandomChooser
    from ggp.ggpnet.player import GGPPlayer
    from ggp.ggpnet.transport import GGPServer, send_message

    breaches: list[str] = []
    player = GGPPlayer("attacked", RandomChooser(0), seed=0,
                       budget=Budget(memory_mb=300, seconds=60))
    message = f"(START bomb a ({_START_BOMB}) 60 5)"
    rules = "(role a) (role b) (init (s 0)) (<= (legal a go) (true (s 0))) " \
            "(<= (legal b noop) (true (s 0))) (<= (next (s 1)) (does a go)) " \
            "(<= terminal (true (s 1))) (<= (goal a 100) (true (s 1))) " \
            "(<= (goal b 0) (true (s 1)))"
    before = _peak_mb()
    with GGPServer(player.handle) as server:  # as ggp serve answers a game manager
        exchange = send_message(server.url, message, 90)
        grown = _peak_mb() - before
        if exchange.error != "http 400" or "too large" not in (exchange.reply or ""):
            breaches.append(f"a {len(message)}-byte START was answered "
                            f"{exchange.error or 'ok'} {str(exchange.reply)[:80]!r}")
        if grown > MAX_GROWTH_MB:
            breaches.append(f"the player grew by {grown:.0f} MB")
        page = send_message(server.url, "(INFO)", 10)  # still answering
        if page.reply is None:
            breaches.append("the player stopped answering after the START")
    if player.handle(f"(START next a ({rules}) 60 5)") != (200, "ready"):
        breaches.append("the player did not take the next match")
    player.close()
    return breaches


def escape_text(work: Path) -> list[str]:
    from ggp.arena.report import write_report
    from ggp.cli.output import make_console

    breaches: list[str] = []
    evil = "FAILED\x1b[2K\r\x1b[1AOK: all passed\x1b]0;title\x07\n# injected\u202e"
    console = make_console(file=io.StringIO(), force_terminal=True, width=100)
    console.print(f"model error: {evil}", markup=False)
    printed = console.file.getvalue()
    if re.search(r"\x1b(?!\[[0-9;]*m)|\r|\x07|\u202e", printed):
        breaches.append(f"the console printed an escape: {printed!r}")
    out = work / "arena"
    _tournament(out)
    stored = json.loads((out / "tournament.json").read_text())
    stored["config"]["agents"] = [evil]
    (out / "tournament.json").write_text(json.dumps(stored))
    write_report(out, plots=False)
    report = (out / "report.md").read_text()
    if "\x1b" in report or "\r" in report or "\n# injected" in report:
        breaches.append("an agent's name injected a line or an escape into report.md")
    return breaches


#: name -> the attack (a work folder -> breaches)
HOST_ATTACKS: dict[str, Callable[[Path], list[str]]] = {
    "symlinked_outputs": symlinked_outputs,
    "web_file_reads": web_file_reads,
    "parameter_bombs": parameter_bombs,
    "start_bomb": start_bomb,
    "escape_text": escape_text,
}


def run_host_attack(name: str) -> HostOutcome:
    """Run one host attack in a fresh folder; an escaping exception is a breach."""
    outcome = HostOutcome(name)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="ggp-host-attack-") as work:
        try:
            outcome.breaches = HOST_ATTACKS[name](Path(work))
        except ImportError as exc:  # an extra this attack needs (the web page's)
            outcome.skipped = f"needs {exc.name}"
        except Exception as exc:  # noqa: BLE001 - reported, not raised
            outcome.breaches = [f"escaped: {type(exc).__name__}: {exc}"[:500]]
    outcome.seconds = time.monotonic() - started
    return outcome


__all__ = ["HOST_ATTACKS", "HostOutcome", "run_host_attack"]
