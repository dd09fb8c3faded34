"""ggp web on a shared machine (issue 30): a token on every route, no file read through a
link out of a record folder or through a game's parameters, no game error text echoed."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest
from web_helpers import Client

MARK = "GGP-WEB-SECRET-4242"


def _get(url: str, headers: dict | None = None) -> tuple[int, bytes, dict]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), dict(exc.headers)


def test_every_route_needs_the_token(web_server, tmp_path):
    server = web_server()
    routes = ["", "viewer", "static/app.js", "api/options", "api/play/x",
              f"api/record?path={tmp_path}", f"api/record/plot?path={tmp_path}&name=a.png"]
    for route in routes:
        for headers in ({}, {"X-GGP-Token": "wrong"}, {"Cookie": "ggp-web-token-0=wrong"}):
            status, body, _ = _get(server.url + route, headers)
            assert status == 403, route
            assert b"token" in body
        status, body, _ = _get(server.url + route + ("&" if "?" in route else "?")
                               + "token=wrong")
        assert status == 403
    request = urllib.request.Request(server.url + "api/play", data=b"{}",
                                     headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 403 and not server.app.state.sessions
    # the token in the URL: answered, and kept in a cookie only this site sends back
    status, body, headers = _get(server.login_url)
    assert status == 200 and b'data-page="play"' in body
    cookie = headers["set-cookie"]
    assert server.token in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    name = cookie.split("=")[0]
    assert _get(server.url + "api/options", {"Cookie": f"{name}={server.token}"})[0] == 200
    assert _get(server.url + "api/options", {"X-GGP-Token": server.token})[0] == 200
    # two servers have two tokens
    assert web_server().token != server.token


def _arena_record(tmp_path):
    from ggp.arena.report import write_report
    from ggp.arena.tournament import TournamentConfig, run_tournament

    out = tmp_path / "arena"
    run_tournament(TournamentConfig(games=["tic_tac_toe"], agents=["random"],
                                    opponents=["random"], matches=1, seed=0), out, workers=0)
    write_report(out, plots=False)
    return out


def test_plots_are_served_only_from_inside_the_record_folder(web_server, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text(MARK)
    out = _arena_record(tmp_path)
    plots = out / "plots"
    plots.mkdir()
    png = b"\x89PNG\r\n\x1a\n" + b"0" * 32
    (plots / "real.png").write_bytes(png)
    (plots / "evil.png").symlink_to(secret)
    (plots / "inside.png").symlink_to(plots / "real.png")  # a link within the folder: fine
    client = Client(server := web_server())
    status, summary = client.call(f"/api/record?path={out}")
    assert status == 200 and sorted(summary["plots"]) == ["inside.png", "real.png"]
    token = {"X-GGP-Token": server.token}
    for name in ("evil.png", "../../secret.txt", str(secret)):
        status, body, _ = _get(f"{server.url}api/record/plot?path={out}&name={name}", token)
        assert status == 404 and MARK.encode() not in body
    for name in ("real.png", "inside.png"):
        status, body, _ = _get(f"{server.url}api/record/plot?path={out}&name={name}", token)
        assert status == 200 and body == png
    # the whole plots folder a link out of the record
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.png").write_text(MARK)
    for child in plots.iterdir():
        child.unlink()
    plots.rmdir()
    plots.symlink_to(outside)
    assert client.call(f"/api/record?path={out}")[1]["plots"] == []
    status, body, _ = _get(f"{server.url}api/record/plot?path={out}&name=x.png", token)
    assert status == 404 and MARK.encode() not in body


@pytest.mark.parametrize("game", [
    "openspiel:efg_game(filename={secret})",
    "openspiel:nfg_game(filename={secret})",
    "openspiel:turn_based_simultaneous_game(game=efg_game(filename={secret}))",
    "openspiel:crossword(word_list_file={secret})",
    "openspiel:bargaining(instances_file={secret})",
    "openspiel:kuhn_poker(players={secret})",
])
def test_openspiel_games_that_read_files_are_refused(web_server, tmp_path, game):
    pytest.importorskip("pyspiel")
    secret = tmp_path / "secret.efg"
    secret.write_text(f"EFG 2 R \"{MARK}\" {{ \"a\" \"b\" }}\n{MARK}\n")
    client = Client(web_server())
    status, body = client.call("/api/play", {"game": game.format(secret=secret),
                                             "opponents": ["random"]})
    assert status == 400 and MARK not in json.dumps(body)
    assert "file or another game" in body["error"]


def test_ordinary_openspiel_games_still_open(web_server):
    pytest.importorskip("pyspiel")
    client = Client(web_server())
    status, body = client.call("/api/play", {"game": "openspiel:goofspiel(num_cards=3)",
                                             "opponents": ["random"]})
    assert status == 200, body


def test_game_errors_reach_the_log_not_the_page(web_server, tmp_path, caplog):
    secret = tmp_path / "secret.txt"
    secret.write_text(f"(role {MARK}) ((( {MARK}\n")
    link = tmp_path / "looks_like_rules.kif"
    link.symlink_to(secret)
    client = Client(web_server())
    status, body = client.call("/api/play", {"game": str(link), "opponents": ["random"]})
    assert status == 400 and MARK not in json.dumps(body)
    assert "could not be opened" in body["error"] and "server's log" in body["error"]
    assert "never closed" in caplog.text  # the owner can still read why


def test_parameter_bombs_from_the_page_are_one_line_errors(web_server):
    client = Client(web_server())
    status, body = client.call("/api/play", {
        "game": "generalized_tic_tac_toe(rows=100000,cols=100000)", "opponents": ["random"]})
    assert status == 400 and "out of bounds" in body["error"]


def test_a_gdl_file_too_large_for_the_budget_is_refused(tmp_path, monkeypatch):
    from ggp.budget import Budget, BudgetExceeded
    from ggp.web import games

    rules = tmp_path / "bomb.kif"
    rules.write_text(
        "(role a) (role b)\n(d 0) (d 1) (d 2) (d 3) (d 4) (d 5) (d 6) (d 7) (d 8) (d 9)\n"
        "(<= (big ?p ?q ?r ?s ?t ?u ?v) (d ?p) (d ?q) (d ?r) (d ?s) (d ?t) (d ?u) (d ?v))\n"
        "(init (cell 0))\n(<= (legal a (mark ?p)) (big ?p ?q ?r ?s ?t ?u ?v))\n"
        "(<= (legal b noop))\n(<= (next (cell ?p)) (does a (mark ?p)))\n"
        "(<= terminal (true (cell 9)))\n(<= (goal a 100) (true (cell 9)))\n"
        "(<= (goal b 0) (true (cell 9)))\n(<= (goal a 0) (not (true (cell 9))))\n"
        "(<= (goal b 100) (not (true (cell 9))))\n")
    monkeypatch.setattr(games, "WEB_BUDGET", Budget(memory_mb=300, seconds=60))
    with pytest.raises(BudgetExceeded, match="too large") as refused:
        games.open_game(str(rules))
    assert "\n" not in str(refused.value)


def test_record_files_are_read_only_from_inside_the_record_folder(tmp_path):
    from ggp.web.records import RecordError, open_record

    out = _arena_record(tmp_path)
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"format": "ggp.ggpnet.match", "match_id": MARK,
                                  "steps": [], "roles": []}))
    # a results line whose key climbs out of the folder names no record there
    rows = (out / "results.jsonl").read_text().splitlines()
    row = json.loads(rows[0])
    row["key"] = "../secret"
    (out / "results.jsonl").write_text(json.dumps(row) + "\n")
    assert MARK not in json.dumps(open_record(out).match(0))
    # a trajectories file linked out of the folder is not read either
    (out / "trajectories.jsonl").unlink()
    (out / "trajectories.jsonl").symlink_to(secret)
    assert open_record(out).match(0)["steps"] == []
    (out / "results.jsonl").rename(tmp_path / "elsewhere.jsonl")
    (out / "results.jsonl").symlink_to(tmp_path / "elsewhere.jsonl")
    with pytest.raises(RecordError, match="not a file inside"):
        open_record(out)


def test_an_openspiel_game_too_large_for_the_budget_is_refused(monkeypatch):
    pytest.importorskip("pyspiel")
    from ggp.budget import Budget, BudgetExceeded
    from ggp.web import games

    monkeypatch.setattr(games, "WEB_BUDGET", Budget(memory_mb=600, seconds=60))
    with pytest.raises(BudgetExceeded, match="more than 600 MB"):
        games.open_game("openspiel:coin_game(rows=100000,columns=100000)")


def test_a_model_failure_while_starting_is_not_echoed(web_server, caplog, monkeypatch):
    from ggp.core.errors import ModelError
    from ggp.web import session

    def failing(*args, **kwargs):
        raise ModelError(f"state quoted: {MARK}", function="get_observations",
                         state={"hidden": MARK})

    monkeypatch.setattr(session, "make_seat_agent", failing)
    client = Client(web_server())
    status, body = client.call("/api/play", {"game": "tic_tac_toe", "opponents": ["random"]})
    assert status == 400 and MARK not in json.dumps(body) and "ModelError" in body["error"]
    assert MARK in caplog.text
