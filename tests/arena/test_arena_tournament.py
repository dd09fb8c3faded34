"""Tournaments: schedule, reproducibility, resuming, evil agents, a real kill and restart."""

import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ggp.arena.store import ResultsError, read_records
from ggp.arena.task import run_match_task
from ggp.arena.tournament import (
    TournamentConfig,
    pairings,
    run_tournament,
    schedule,
)

HERE = Path(__file__).parent
EVIL = str(HERE / "evil_agent.py")
COIN = str(HERE / "coin_game.py")


def outcomes(records):
    """What must not depend on the backend: everything but timings."""
    return {r["key"]: (r["seed"], r["returns"], r["forfeit"], r["moves"]) for r in records}


def test_schedule_covers_pairings_seats_and_matches():
    config = TournamentConfig(games=["tic_tac_toe"], agents=["a", "b", "c"], matches=3)
    assert pairings(config) == [("a", "b"), ("a", "c"), ("b", "c")]
    tasks = schedule(config, {"tic_tac_toe": 2})
    assert len(tasks) == 3 * 2 * 3
    assert len({t.key for t in tasks}) == len(tasks)
    assert len({t.seed for t in tasks}) == len(tasks)
    assert {t.seats for t in tasks if t.focal == "a" and t.opponent == "b"} == {
        ("a", "b"), ("b", "a")}
    field = TournamentConfig(games=["g"], agents=["a"], opponents=["x", "y"], matches=1)
    assert pairings(field) == [("a", "x"), ("a", "y")]
    three = schedule(field, {"g": 3})
    assert [t.seats for t in three[:3]] == [("a", "x", "x"), ("x", "a", "x"), ("x", "x", "a")]
    # seeds depend on the tournament seed and the match, not on the schedule order
    reseeded = TournamentConfig(games=["g"], agents=["a"], opponents=["y"], matches=1)
    assert schedule(reseeded, {"g": 3})[0].seed == three[3].seed


def test_a_match_is_reproducible_from_its_task():
    config = TournamentConfig(games=["tic_tac_toe"], agents=["random"], matches=1)
    task = schedule(config, {"tic_tac_toe": 2})[0]
    (first, trajectory), (second, _) = run_match_task(task), run_match_task(task)
    assert outcomes([first]) == outcomes([second])
    assert trajectory["steps"] and trajectory["histories"]


def test_matches_do_not_depend_on_what_the_process_ran_before():
    import random

    agent = str(HERE / "global_random_agent.py")
    config = TournamentConfig(games=["tic_tac_toe"], agents=[agent], matches=1)
    task = dataclasses.replace(schedule(config, {"tic_tac_toe": 2})[0],
                               sandboxed=(False, False))  # in process, for the test only
    first, _ = run_match_task(task)
    random.random()
    second, _ = run_match_task(task)
    assert first["forfeit"] is None and outcomes([first]) == outcomes([second])


def test_pool_and_serial_runs_agree_and_finished_tournaments_are_not_rerun(tmp_path):
    config = TournamentConfig(games=["tic_tac_toe", COIN], agents=["random"],
                              opponents=["random"], matches=6, seed=3)
    serial = run_tournament(config, tmp_path / "serial", workers=0)
    pooled = run_tournament(config, tmp_path / "pool", workers=2)
    assert serial.total == pooled.total == 2 * 2 * 6
    assert outcomes(read_records(tmp_path / "serial" / "results.jsonl")) == outcomes(
        read_records(tmp_path / "pool" / "results.jsonl"))
    again = run_tournament(config, tmp_path / "pool", workers=2)
    assert again.played == 0 and again.already_done == again.total


def test_resume_after_a_cut_off_line(tmp_path):
    config = TournamentConfig(games=["tic_tac_toe"], agents=["random"], matches=10)
    run_tournament(config, tmp_path, workers=0)
    results = tmp_path / "results.jsonl"
    lines = results.read_text().splitlines(keepends=True)
    # as if killed while writing the 8th line
    results.write_text("".join(lines[:7]) + lines[7][:25])
    resumed = run_tournament(config, tmp_path, workers=0)
    assert resumed.already_done == 7 and resumed.played == 13
    records = read_records(results)
    assert len(records) == 20 and len({r["key"] for r in records}) == 20
    assert results.read_text().startswith("".join(lines[:7]))


def test_more_matches_extend_a_finished_tournament(tmp_path):
    from ggp.arena.store import load_tournament

    small = TournamentConfig(games=["tic_tac_toe"], agents=["random"], matches=3)
    first = run_tournament(small, tmp_path, workers=0)
    bigger = run_tournament(dataclasses.replace(small, matches=5), tmp_path, workers=0)
    assert (bigger.already_done, bigger.played) == (first.total, 4)
    assert outcomes(first.records).items() <= outcomes(read_records(
        tmp_path / "results.jsonl")).items()
    run_tournament(small, tmp_path, workers=0)  # back to 3: nothing to play
    assert len(load_tournament(tmp_path)[1]) == first.total


def test_a_different_tournament_in_the_same_directory_is_refused(tmp_path):
    run_tournament(TournamentConfig(games=["tic_tac_toe"], agents=["random"], matches=1),
                   tmp_path, workers=0)
    with pytest.raises(ResultsError, match="different tournament"):
        run_tournament(TournamentConfig(games=["tic_tac_toe"], agents=["random"], matches=1,
                                        seed=9), tmp_path, workers=0)


def test_evil_agents_forfeit_and_the_tournament_goes_on(tmp_path):
    evil = [f"{EVIL}:mode={m}" for m in ("raise", "hang", "allocate", "print", "illegal",
                                         "crash")]
    config = TournamentConfig(games=["tic_tac_toe"], agents=evil, opponents=["random"],
                              matches=1, move_seconds=5.0, memory_mb=256)
    run = run_tournament(config, tmp_path, workers=2)
    assert run.played == len(evil) * 2
    reasons = {}
    for record in run.records:
        forfeit = record["forfeit"]
        if forfeit is not None:
            reasons.setdefault(record["seats"][forfeit["player"]], set()).add(
                forfeit["reason"])
    assert reasons == {
        evil[0]: {"exception"}, evil[1]: {"timeout"}, evil[2]: {"memory"},
        evil[3]: {"output"}, evil[4]: {"illegal"}, evil[5]: {"crash"},
    }


def _count_lines(path):
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def test_killed_tournament_resumes_without_rerunning_or_losing_matches(tmp_path):
    out = tmp_path / "run"
    command = [sys.executable, "-m", "ggp.cli.main", "arena", "-g", "tic_tac_toe",
               "-a", "random", "-o", "random", "-n", "1500", "-j", "1", "--out", str(out),
               "--no-plots"]
    env = {**os.environ, "COLUMNS": "120"}
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True, env=env)
    results = out / "results.jsonl"
    deadline = time.monotonic() + 120
    while _count_lines(results) < 100 and process.poll() is None:
        assert time.monotonic() < deadline, "the tournament did not start"
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGKILL)  # the CLI and its pool workers
    process.wait()
    before = results.read_bytes()
    done_before = before.count(b"\n")
    assert 100 <= done_before < 3000, "killed too late to test resuming"

    finished = subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)
    assert finished.returncode == 0, finished.stderr
    assert "already played" in finished.stdout
    after = results.read_bytes()
    whole_lines_before = before[: before.rfind(b"\n") + 1]
    assert after.startswith(whole_lines_before), "finished matches were rewritten"
    keys = [json.loads(line)["key"] for line in after.splitlines()]
    assert len(keys) == 3000 and len(set(keys)) == 3000
    assert (out / "report.md").exists()


def test_a_crashing_in_process_agent_stops_the_pool_with_a_clear_error(tmp_path):
    from ggp.arena.backends import run_local
    from ggp.core.errors import GGPError

    config = TournamentConfig(games=["tic_tac_toe"], agents=[f"{EVIL}:mode=crash"],
                              opponents=["random"], matches=1)
    tasks = [dataclasses.replace(t, sandboxed=(False, False))  # unsafe on purpose
             for t in schedule(config, {"tic_tac_toe": 2})]
    with pytest.raises(GGPError, match="--sandbox"):
        run_local(tasks, lambda record, trajectory: None, workers=1)


def test_two_writers_cannot_share_a_directory(tmp_path):
    from ggp.arena.store import ResultStore

    config = TournamentConfig(games=["tic_tac_toe"], agents=["random"], matches=1)
    games = {"tic_tac_toe": {"name": "tic_tac_toe", "num_players": 2}}
    first = ResultStore.open(tmp_path, config, games)
    with pytest.raises(ResultsError, match="Another 'ggp arena'"):
        ResultStore.open(tmp_path, config, games)
    first.close()
    ResultStore.open(tmp_path, config, games).close()


def _descendants(pid):
    """Every live process below ``pid`` (read from /proc)."""
    children = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                children.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _is_sandbox(pid):
    try:
        return b"ggp.sandbox._child" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def test_killing_a_sandboxed_tournament_leaves_no_agent_behind(tmp_path):
    command = [sys.executable, "-m", "ggp.cli.main", "arena", "-g", "tic_tac_toe",
               "-a", f"{EVIL}:mode=hang", "-o", "random", "-n", "2", "-j", "2",
               "--move-seconds", "60", "--out", str(tmp_path), "--no-plots"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    deadline = time.monotonic() + 120
    # wait until both pool workers have a sandboxed agent worker, then until they hang
    while len(sandboxes := [p for p in _descendants(process.pid) if _is_sandbox(p)]) < 2:
        assert process.poll() is None and time.monotonic() < deadline, "no workers started"
        time.sleep(0.1)
    time.sleep(2.0)
    below = _descendants(process.pid)
    assert set(sandboxes) <= set(below)
    os.killpg(process.pid, signal.SIGKILL)  # the CLI and its pool, not the sandboxes
    process.wait()
    deadline = time.monotonic() + 10
    while (alive := [p for p in below if Path(f"/proc/{p}").exists()
                     and "\nState:\tZ" not in Path(f"/proc/{p}/status").read_text()]):
        assert time.monotonic() < deadline, f"left behind: {alive}"
        time.sleep(0.1)


def test_kill_9_of_the_tournament_alone_leaves_no_pool_process(tmp_path):
    # only the CLI is killed (not its group): its pool workers, the forkserver and the
    # resource tracker must notice and go
    command = [sys.executable, "-m", "ggp.cli.main", "arena", "-g", "tic_tac_toe",
               "-a", "mcts:sims=2000", "-o", "random", "-n", "50", "-j", "2",
               "--out", str(tmp_path), "--no-plots"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    deadline = time.monotonic() + 120
    while len(below := _descendants(process.pid)) < 4:  # tracker, forkserver, 2 workers
        assert process.poll() is None and time.monotonic() < deadline, "no pool started"
        time.sleep(0.1)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    deadline = time.monotonic() + 20
    while (alive := [p for p in below if Path(f"/proc/{p}").exists()
                     and "\nState:\tZ" not in Path(f"/proc/{p}/status").read_text()]):
        if time.monotonic() > deadline:
            for pid in alive:  # the leftovers of this test, still alive: end them
                os.kill(pid, signal.SIGKILL)
            pytest.fail(f"left behind: {alive}")
        time.sleep(0.1)
