"""ggp web without a browser: matches, hidden information, records, errors, the command."""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("starlette", reason="ggp web needs the web extra (starlette, uvicorn)")

from ggp.web.games import open_game  # noqa: E402
from ggp.web.session import PlaySession  # noqa: E402
from tests.web.web_helpers import REPO, Client  # noqa: E402


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _play_out(session: PlaySession, choose, seen: list[dict]) -> dict:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = session.view()
        seen.append(view)
        if view["status"] in ("over", "error"):
            return view
        if view["status"] == "your_turn":
            session.move(choose(view["legal"]))
        time.sleep(0.01)
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("game", ["kuhn_poker", "leduc_poker"])
@pytest.mark.parametrize("seat", [0, 1])
def test_the_page_never_gets_the_opponents_cards(game, seat):
    for seed in range(4):
        session = PlaySession(open_game(game), seat, ["random"], seed=seed)
        seen: list[dict] = []
        try:
            final = _play_out(session, lambda legal: sorted(legal)[seed % len(legal)], seen)
        finally:
            session.close()
        assert final["status"] == "over" and len(final["returns"]) == 2
        deal = [s for s in session._steps if s["player"] == -1]
        their = deal[1 - seat]["action"].split()[-1] if game == "kuhn_poker" else \
            deal[1 - seat]["action"].split()[-1]
        for view in seen:
            if view["status"] == "over":
                continue  # a showdown shows both cards in the player's own observation
            strings = set(_strings(view))
            assert their not in strings, (seed, view)
            assert not any(s.startswith("Deal") for s in strings)
        # the final observation is the player's own: the opponent's card only at showdown
        if final["observation"].get("showdown_cards") is None:
            assert their not in set(_strings(final))


def test_tic_tac_toe_against_random_until_the_end():
    session = PlaySession(open_game("tic_tac_toe"), 1, ["random"], seed=5)
    seen: list[dict] = []
    try:
        final = _play_out(session, lambda legal: legal[0], seen)
    finally:
        session.close()
    assert final["returns"][0] == -final["returns"][1]
    assert final["view"]["parts"][0]["kind"] == "grid"
    moves = [h["action"] for h in final["history"]]
    assert moves and all(m.startswith("o(") for m in moves)
    with pytest.raises(Exception, match="not your turn"):
        session.move("o(0,0)")


def test_illegal_moves_and_bad_requests_get_one_line_errors(web_server):
    client = Client(web_server())
    status, body = client.call("/api/play", {"game": "tictac", "opponents": ["random"]})
    assert status == 400 and "no game called 'tictac'" in body["error"]
    status, body = client.call("/api/play", {"game": "tic_tac_toe", "opponents": ["nope"]})
    assert status == 400 and "Unknown agent 'nope'" in body["error"]
    status, body = client.call("/api/play", {"game": "tic_tac_toe", "opponents": []})
    assert status == 400 and "pick 1 opponent" in body["error"]
    status, body = client.call("/api/play", {"game": "tic_tac_toe", "seat": "x",
                                             "opponents": ["random"]})
    assert status == 400 and "\n" not in body["error"]
    status, body = client.call("/api/play", {"game": "tic_tac_toe", "seat": 0,
                                             "opponents": ["random"]})
    assert status == 200
    for _ in range(200):
        if body["status"] == "your_turn":
            break
        time.sleep(0.02)
        status, body = client.call(f"/api/play/{body['id']}")
    status, moved = client.call(f"/api/play/{body['id']}/move", {"action": "x(9,9)"})
    assert status == 400 and "not a legal move" in moved["error"]
    status, _ = client.call(f"/api/play/{body['id']}/quit", {})
    assert status == 200
    status, gone = client.call(f"/api/play/{body['id']}")
    assert status == 400 and "start a new one" in gone["error"]


def test_a_synthesized_model_is_hosted_in_a_sandbox():
    from ggp.sandbox.hosted import HostedModel

    game = open_game(str(REPO / "examples/recorded/leduc_poker"))
    try:
        assert isinstance(game.model, HostedModel) and game.render_as == "leduc_poker"
        assert game.model.worker.alive and game.spec.endswith("cwm.py")
    finally:
        game.close()


def test_an_agent_from_a_file_runs_in_a_sandboxed_worker(tmp_path):
    from ggp.arena.sandboxed import SandboxedAgent
    from ggp.web.games import make_seat_agent

    agent_file = tmp_path / "first.py"
    agent_file.write_text("raise SystemExit('loaded in the web process')\n")
    game = open_game("tic_tac_toe")
    agent = make_seat_agent(str(agent_file), game)
    assert isinstance(agent, SandboxedAgent)  # built lazily, in its worker, at start
    agent.close()


def _arena_run(tmp_path):
    from ggp.arena.tournament import TournamentConfig, run_tournament

    out = tmp_path / "arena"
    run_tournament(TournamentConfig(games=["kuhn_poker"], agents=["random"],
                                    opponents=["random"], matches=1, seed=0),
                   out, workers=0)
    return out


def test_viewer_opens_arena_results_with_states_and_views(tmp_path, web_server):
    out = _arena_run(tmp_path)
    client = Client(web_server())
    status, record = client.call(f"/api/record?path={out}")
    assert status == 200 and record["kind"] == "arena results" and len(record["matches"]) == 2
    status, match = client.call(f"/api/record/match?path={out}&index=1")
    assert status == 200 and match["steps"][0]["actor"] == "chance"
    last = match["steps"][-1]
    assert last["state"] is not None and last["state_view"]["parts"]
    assert all(v is not None for v in last["views"])  # both players have moved by then
    # the last step is the final state, after the last move (terminal: no one to move)
    assert last["actor"] == "end" and last["action"] is None
    assert last["state"]["current_player"] == -4
    assert len(match["players"]) == 2 and match["returns"] is not None


def test_viewer_opens_manage_records_and_synthesis_trajectories(tmp_path):
    from ggp.gdl.match import MatchGame
    from ggp.ggpnet.manager import MatchConfig, run_match
    from ggp.web.records import RecordError, open_record

    rules = (REPO / "src/ggp/gdl/games/blind_tic_tac_toe.kif").read_text()
    game = MatchGame(rules, name="blind_tic_tac_toe")
    roles = [r for r in game.roles if r != game.nature]
    record = run_match(game, {r: "random" for r in roles}, MatchConfig(seed=3))
    path = tmp_path / "m1.json"
    path.write_text(json.dumps(record))
    match = open_record(path).match(0)
    assert len(match["steps"]) == len(record["steps"]) and match["returns"] is not None
    assert match["steps"][0]["views"][0]["role"] == roles[0]
    assert match["steps"][0]["state"] is None and "no GDL file" in match["notes"][0]
    # with the rules at hand, the states are replayed: the last one holds the last mark
    replayed = open_record(path, [REPO / "src/ggp/gdl/games"]).match(0)
    assert "replayed" in replayed["notes"][0]
    first, last = replayed["steps"][0], replayed["steps"][-1]
    assert first["state_view"]["parts"][0]["kind"] == "grid"
    assert any("(cell" in fact for fact in last["state"]["true"])
    assert first["state"] != last["state"]

    # a series directory: the results lines point at the match records beside them
    from ggp.ggpnet.manager import run_series

    run_series(game, ["random", "random"], 2, MatchConfig(seed=4), tmp_path / "series")
    series = open_record(tmp_path / "series", [REPO / "src/ggp/gdl/games"])
    assert series.kind == "ggp manage series" and len(series.matches) == 2
    assert series.match(1)["steps"][-1]["state"]["true"]

    trajectories = REPO / "examples/synth/tic_tac_toe_by_hand/run/trajectories.jsonl"
    opened = open_record(trajectories)
    assert opened.kind == "synthesis trajectories" and opened.matches
    first = opened.match(0)
    assert first["steps"][0]["state_view"]["parts"][0]["kind"] == "grid"

    (tmp_path / "junk.txt").write_text("hello\n")
    with pytest.raises(RecordError, match="not a record the viewer knows"):
        open_record(tmp_path / "junk.txt")
    with pytest.raises(RecordError, match="No such file"):
        open_record(tmp_path / "missing")


def test_ggp_web_reports_a_busy_port_in_one_line(capsys):
    from ggp.cli.main import main
    from ggp.web.server import bind

    sock = bind("127.0.0.1", 0)
    try:
        port = sock.getsockname()[1]
        assert main(["web", "--port", str(port)]) == 2
    finally:
        sock.close()
    err = capsys.readouterr().err
    assert f"Cannot listen on 127.0.0.1:{port}" in err and "Traceback" not in err


def test_a_thinking_opponent_shows_progress_and_runs_sandboxed():
    agent = REPO / "tests/web/slow_agent.py"
    session = PlaySession(open_game("tic_tac_toe"), 1, [f"{agent}:seconds=0.6"], seed=0,
                          move_seconds=30.0)
    try:
        thinking, deadline = None, time.monotonic() + 120
        while time.monotonic() < deadline:  # a bound for a stuck worker, not a timing test
            view = session.view()
            if view["status"] == "thinking" and view["thinking"]["seconds"] > 0.1:
                thinking = view["thinking"]
                break
            assert view["status"] in ("starting", "thinking"), view
            time.sleep(0.01)
        assert thinking is not None
        assert thinking["seat"] == 0 and thinking["limit"] == 30.0
        assert thinking["agent"] == "slow"  # the name it reported from its worker
        while session.view()["status"] != "your_turn" and time.monotonic() < deadline:
            time.sleep(0.02)
        assert session.view()["observation"]["board"][0][0] == "x"
    finally:
        session.close()


def test_ggp_web_prints_its_url_and_serves_the_page():
    import os
    import subprocess
    import sys
    import urllib.request

    env = {**os.environ, "PYTHONPATH": str(REPO / "src") + os.pathsep + str(REPO)}
    proc = subprocess.Popen([sys.executable, "-m", "ggp.cli.main", "web", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, cwd=REPO)
    try:
        line = proc.stdout.readline()
        assert line.startswith("ggp web: open http://127.0.0.1:"), line
        url = line.split()[3]
        assert "?token=" in url  # the printed URL carries the access token
        root = url.split("?")[0]
        with pytest.raises(urllib.error.HTTPError) as refused:  # not without it
            urllib.request.urlopen(root, timeout=30)
        assert refused.value.code == 403
        # a browser keeps the token in the cookie set by the first visit
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        with opener.open(url, timeout=30) as response:
            assert b'data-page="play"' in response.read()
        with opener.open(root + "api/options", timeout=30) as response:
            groups = {g["group"] for g in json.loads(response.read())["games"]}
        assert {"registered", "GDL", "synthesis run (sandboxed)"} <= groups
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_a_model_file_runs_only_in_its_worker_and_a_broken_one_is_one_line(tmp_path, caplog):
    from ggp.core.errors import GGPError

    marker = tmp_path / "loaded_by"
    model = tmp_path / "broken.py"
    model.write_text("try:\n"
                     f"    open({str(marker)!r}, 'w').write('escaped')\n"
                     "except OSError:\n"
                     "    pass\n"
                     "INITIAL_STATE = {}\n")
    with pytest.raises(GGPError) as error:
        open_game(str(model))
    message = str(error.value)
    # the page gets a generic line; what the model's load said goes to the server's log
    assert "\n" not in message and "could not be opened" in message
    assert "missing get_current_player" not in message
    assert "missing get_current_player" in caplog.text
    assert not marker.exists()  # it ran in the sandbox, which shows it none of our files


def test_playing_a_synthesized_model_to_the_end():
    game = open_game(str(REPO / "examples/recorded/leduc_poker"))
    session = PlaySession(game, 0, ["random"], seed=2)
    seen: list[dict] = []
    try:
        final = _play_out(session, lambda legal: sorted(legal)[0], seen)
    finally:
        session.close()
    assert final["status"] == "over", final["error"]
    assert sum(final["returns"]) == 0
    assert any(p["kind"] == "cards" for p in final["view"]["parts"])


def test_an_opponents_failure_shows_its_reason_not_its_details(tmp_path):
    agent = tmp_path / "leaky.py"
    agent.write_text(
        "from ggp.agents.base import Agent\n"
        "class Leaky(Agent):\n"
        "    def act(self, history):\n"
        "        raise ValueError('SECRET-STATE-42')\n"
        "def make_agent(model):\n"
        "    return Leaky()\n")
    session = PlaySession(open_game("kuhn_poker"), 1, [str(agent)], seed=0)
    try:
        final = _play_out(session, lambda legal: legal[0], [])
    finally:
        session.close()
    assert final["forfeit"]["player"] == 0 and final["forfeit"]["reason"] == "exception"
    assert "SECRET-STATE-42" not in json.dumps(final)
    assert final["returns"][1] > 0


def test_viewer_shows_only_the_recorded_player_of_a_closed_deck_file(tmp_path):
    from ggp.load import load_model
    from ggp.synth.trajectories import (
        TrajectorySet,
        close_deck,
        play_game,
        record_game,
        save_trajectories,
    )
    from ggp.web.records import open_record

    model = load_model("kuhn_poker")
    game = record_game(model, play_game(model, ["random", "random"], seed=1))
    path = tmp_path / "closed.jsonl"
    save_trajectories(TrajectorySet("closed", 2, [close_deck(game, 1)], game="kuhn_poker"),
                      path)
    match = open_record(path).match(0)
    assert "Closed deck" in match["notes"][0]
    assert all(step["state"] is None and step["views"][0] is None
               and step["views"][1]["player"] == 1 for step in match["steps"])


def test_the_loopback_server_refuses_other_hosts_and_non_json_posts(web_server):
    import urllib.error
    import urllib.request

    server = web_server()
    request = urllib.request.Request(server.url + "api/options",
                                     headers={"Host": "attacker.example",
                                              "X-GGP-Token": server.token})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 400
    request = urllib.request.Request(
        server.url + "api/play", data=b'{"game": "tic_tac_toe", "opponents": ["random"]}',
        headers={"Content-Type": "text/plain", "X-GGP-Token": server.token})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 415
    assert not server.app.state.sessions


def test_the_end_says_who_won_and_the_rules_are_shown():
    session = PlaySession(open_game("kuhn_poker"), 1, ["random"], seed=2)
    try:
        first = session.view()
        final = _play_out(session, lambda legal: legal[0], [])
    finally:
        session.close()
    assert "Kuhn" in first["rules"] and "showdown" in first["rules"]
    assert final["outcome"].startswith(("You won", "You lost", "Draw"))
    assert f"{final['returns'][1]:+g}" in final["outcome"]


def test_pages_carry_their_own_icon():
    # an inline icon: the browser asks for no /favicon.ico (a 404 on every page before)
    for page in ("play", "viewer"):
        html = (REPO / "src" / "ggp" / "web" / "static" / f"{page}.html").read_text()
        assert 'rel="icon" href="data:image/svg+xml' in html


def test_a_folder_of_runs_names_the_records_inside(tmp_path):
    from ggp.web.records import RecordError, open_record

    _arena_run(tmp_path)  # tmp_path/arena, as the quick start's runs/quickstart/arena-*
    with pytest.raises(RecordError, match="Open one of its folders: arena"):
        open_record(tmp_path)
