"""The attack suite: every attack of ggp.sandbox.attacks through every entry point that
runs code the user did not write, each ending contained (see docs/sandbox.md)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ggp.cwm.attack_suite import ENTRY_POINTS, GROUPS, run_attack
from ggp.sandbox import attacks
from ggp.sandbox.cgroup import cgroup_mode
from ggp.sandbox.attacks import (
    bait,
    hostile_agent,
    hostile_model,
    leftover_processes,
    tagged_boxes,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lure():
    with bait() as laid:
        yield laid


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
@pytest.mark.parametrize("group", GROUPS, ids=lambda g: g[0] if len(g) == 1 else "all_nonfatal")
def test_attack_is_contained(lure, entry, group):
    if group == ("cpu_bomb",) and entry not in ("synthesis", "cwm_agent"):
        pytest.skip("the CPU bomb costs its full timeout; two entry points suffice")
    if group == ("fork_memory",) and cgroup_mode() == "none":
        pytest.skip("no cgroups here: memory is limited per process (docs/sandbox.md)")
    outcome = run_attack(entry, group, lure)
    assert outcome.breaches == []
    assert outcome.left_behind == []
    assert outcome.error == ""
    assert not outcome.forged  # no pass of hostile code
    assert outcome.left_folders == []
    assert not outcome.memory_blown, (outcome.clean_mb, outcome.start_mb, outcome.peak_mb)
    assert outcome.contained, outcome.problems()
    assert os.getpgid(0) == os.getpgrp()  # this process (and its group) lives on


def test_the_guard_tampering_really_disables_the_guard(lure, tmp_path):
    # Proof that the attack is real: the tampering leaves the restricted child's guard off
    # (what stops it then is the box: no network, no processes).
    from ggp.core.errors import GGPError
    from ggp.core.registry import make_game
    from ggp.sandbox.hosted import HostedModel

    path = tmp_path / "hostile.py"
    path.write_text(hostile_model(["audit_hook_tampering"], lure.ctx()))
    game = HostedModel(path, make_game("tic_tac_toe").metadata, call_seconds=5.0)
    try:
        with pytest.raises(GGPError) as failure:
            game.apply(game.initial_state(), "x(0,0)")
    finally:
        game.close()
    error = str(failure.value)
    assert "does not allow" not in error  # the guard said nothing: it was switched off
    assert "ConnectionRefusedError" in error or "Network is unreachable" in error


@pytest.mark.no_box
def test_the_suite_sees_breaches_of_the_weak_mode(monkeypatch):
    """The judge can fail: without the box an unrestricted worker leaks the bait."""
    from ggp.sandbox import process

    monkeypatch.setattr(process, "box_problem", lambda: "pretend bwrap is missing")
    monkeypatch.setenv(process.WEAK_ENV, "1")
    with bait() as own:
        outcome = run_attack("file_agent", ("read_ancestor_environ", "write_outside"), own)
    # (the secret stays hidden here: /proc/<pid>/environ shows a process's environment
    # at its start, and this one got the secret later; the command-line tests below start
    # ggp with it)
    assert any(b.startswith("wrote /tmp/") for b in outcome.breaches)


@pytest.mark.no_box
def test_untrusted_code_is_refused_without_the_box(monkeypatch):
    from ggp.sandbox import Limits, process, run_entry

    monkeypatch.setattr(process, "box_problem", lambda: "bubblewrap (bwrap) is not installed")
    monkeypatch.delenv(process.WEAK_ENV, raising=False)
    with pytest.raises(process.SandboxUnavailable, match="GGP_ALLOW_WEAK_SANDBOX=1"):
        run_entry("ggp.synth.checks", {}, limits=Limits(restricted=True))


def test_each_run_has_its_own_uid_and_sees_no_other_run():
    from ggp.sandbox import Worker

    entry = Path(__file__).with_name("peek.py")
    with Worker(str(entry), None) as first, Worker(str(entry), None) as second:
        a, b = first.call("whoami"), second.call("whoami")
        assert a["tmp"] == b["tmp"] == [] or a["tmp"] != b["tmp"]
        assert a["cwd"] not in b["visible"] and b["cwd"] not in a["visible"]
        if os.geteuid() == 0:
            assert a["uid"] != b["uid"] and a["uid"] != 0
        assert a["pid"] == b["pid"] == 2  # each in its own PID namespace
        assert not a["shadow"] and "GGP_LLM_API_KEY" not in a["env"]


def test_a_tag_tells_this_runs_boxes_from_boxes_beside_it():
    from ggp.sandbox import Worker
    from ggp.sandbox.attacks import boxed_processes

    entry = str(Path(__file__).with_name("peek.py"))
    with Worker(entry, None) as beside:  # another test's box, started without the tag
        beside.call("whoami")
        with tagged_boxes() as tag:
            assert boxed_processes(tag) == {}
            with Worker(entry, None) as ours:
                ours.call("whoami")
                mine = boxed_processes(tag)
                assert mine and set(mine) <= set(boxed_processes())
                assert len(set(boxed_processes()) - set(mine)) >= 1  # beside is not ours
        assert leftover_processes({}, tag=tag) == []


# ------------------------------------------------------------------ the command line
def _ggp(*args, cwd, env_extra=None, timeout=300):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), **(env_extra or {})}
    return subprocess.run([sys.executable, "-m", "ggp.cli.main", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def _names():
    return [a.name for a in attacks.ATTACKS
            if a.name not in ("cpu_bomb", "memory_bomb", "fork_bomb", "output_flood",
                              "fork_memory", "disk_fill")]


@pytest.mark.parametrize("how, workers", [("cwm_agent", "0"), ("cwm_agent", "1"),
                                          ("file_agent", "0")])
def test_arena_cli_contains_a_hostile_agent(lure, tmp_path, how, workers):
    # every attack in one file, the fatal ones last (kill parent, kill group...): through
    # `ggp arena -j 0` (matches in the ggp process) and `-j 1` (in a pool worker), whose
    # processes the hostile code would kill if it could
    build = hostile_model if how == "cwm_agent" else hostile_agent
    path = tmp_path / "hostile.py"
    path.write_text(build(_names(), lure.ctx()))
    spec = (f"cwm_mcts:run={path}:sims=4:rollouts=1:move_seconds=5" if how == "cwm_agent"
            else str(path))
    out = tmp_path / "out"
    with tagged_boxes() as tag:  # the boxes of this command, not of tests beside it
        result = _ggp("arena", "-g", "tic_tac_toe", "-a", spec, "-o", "random", "-n", "1",
                      "-j", workers, "--out", str(out), "--no-plots", "--move-seconds", "5",
                      cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(records) == 2  # both seats played: the tournament survived
    assert lure.breaches([result.stdout, result.stderr, str(out)]) == []
    assert leftover_processes({}, tag=tag) == []


def test_check_cli_contains_a_hostile_model(lure, tmp_path):
    path = tmp_path / "hostile.py"
    path.write_text(hostile_model(_names(), lure.ctx()))
    with tagged_boxes() as tag:
        result = _ggp("check", str(path), "--games", "2", "--timeout", "20", cwd=tmp_path)
    assert result.returncode == 1 and "FAILED" in result.stdout  # a clear failure
    assert lure.breaches([result.stdout, result.stderr]) == []
    assert leftover_processes({}, tag=tag) == []


@pytest.mark.no_box
@pytest.mark.parametrize("command", [["play"], ["arena", "-a", "random", "-n", "1"]])
def test_play_and_arena_refuse_a_py_game_without_trusted(tmp_path, command):
    path = tmp_path / "game.py"
    path.write_text("raise SystemExit('this must never run')\n")
    args = [command[0], str(path), *command[1:]] if command[0] == "play" else \
        ["arena", "-g", str(path), *command[1:]]
    result = _ggp(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert "--trusted" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.no_box
def test_arena_sandbox_does_not_box_a_cwm_agent_twice():
    from ggp.arena.tournament import TournamentConfig, schedule

    config = TournamentConfig(games=["tic_tac_toe"], agents=["cwm_mcts:run=x.py", "mcts"],
                              opponents=["agent.py"], matches=1, sandbox=True)
    flags = {task.focal: task.sandboxed[task.focal_seat]
             for task in schedule(config, {"tic_tac_toe": 2})}
    assert flags == {"cwm_mcts:run=x.py": False, "mcts": True}
    assert all(task.sandboxed[1 - task.focal_seat] for task in schedule(config, {"tic_tac_toe": 2}))


def test_check_timeout_option_bounds_a_hanging_model(tmp_path):
    path = tmp_path / "hanging.py"
    path.write_text("while True:\n    pass\n")
    result = _ggp("check", str(path), "--timeout", "2", cwd=tmp_path, timeout=120)
    assert result.returncode == 1, result.stderr[-500:]
    assert "sandbox" in result.stdout and "timeout" in result.stdout
