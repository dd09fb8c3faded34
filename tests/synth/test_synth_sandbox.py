"""Containment: broken or hostile candidate models only fail their own tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from synth_fakes import fixture

from ggp.core.registry import make_game
from ggp.sandbox import Limits, run_entry
from ggp.synth.runner import run_tests
from ggp.synth.trajectories import collect
from ggp.synth.unit_tests import generate_tests

GOOD = fixture("tic_tac_toe_cwm.py")
# what the runner gives candidates, for the direct sandbox checks below
CANDIDATE = Limits(memory_mb=1024, cpu_seconds=60, restricted=True, network=False)


def run_python(body, limits=CANDIDATE, timeout=60.0):
    """Run ``main()`` with ``body`` (indented source) in a sandbox like the runner's."""
    source = "def main(payload):\n" + body
    return run_entry("m.py", None, files={"m.py": source}, limits=limits, timeout=timeout)


@pytest.fixture(scope="module")
def tests():
    trajectories = collect(make_game("tic_tac_toe"), games=1, seed=3)
    return generate_tests(trajectories, random_play=1)[:4]


def _all_failed(report, *fragments):
    assert report.results and not any(r.passed for r in report.results)
    text = " ".join((r.error or "") for r in report.results) + " ".join(report.sandbox_problems)
    for fragment in fragments:
        assert fragment in text, text


def test_good_candidate_passes(tests):
    assert run_tests(GOOD, tests, test_seconds=2).pass_rate == 1.0


def test_infinite_loop_at_import_is_reported(tests):
    _all_failed(run_tests("while True:\n    pass\n", tests, test_seconds=1),
                "Loading the code took more than")


def test_infinite_loop_in_a_function_times_out_per_test(tests):
    code = GOOD.replace("def get_current_player(state):\n",
                        "def get_current_player(state):\n    while True:\n        pass\n")
    _all_failed(run_tests(code, tests, test_seconds=0.5), "Timed out")


def test_loop_that_swallows_the_timer_is_killed(tests):
    code = GOOD + (
        "\n\ndef get_current_player(state):\n"
        "    while True:\n"
        "        try:\n"
        "            while True:\n"
        "                pass\n"
        "        except BaseException:\n"
        "            pass\n"
    )
    report = run_tests(code, tests[:2], test_seconds=0.5,
                       limits=Limits(cpu_seconds=3))
    assert len(report.results) == 2 and not any(r.passed for r in report.results)
    assert report.sandbox_problems  # the process had to be killed from outside


def test_fork_bomb_is_refused(tests):
    code = "import os\nwhile True:\n    os.fork()\n"
    _all_failed(run_tests(code, tests, test_seconds=1), "Loading the code failed")


def test_fork_bomb_through_raw_module_is_refused(tests):
    code = "import _posixsubprocess\n"
    _all_failed(run_tests(code, tests, test_seconds=1), "does not allow importing")


def test_memory_bomb_is_contained(tests):
    code = GOOD + "\n\nBIG = bytearray(8 << 30)\n"
    _all_failed(run_tests(code, tests, test_seconds=2), "MemoryError")


def test_huge_output_is_capped(tests):
    code = "import sys\nwhile True:\n    sys.__stdout__.write('x' * 65536)\n"
    report = run_tests(code, tests[:1], test_seconds=5,
                       limits=Limits(max_output_bytes=1 << 16))
    assert not report.results[0].passed
    assert any("output" in p for p in report.sandbox_problems)


def test_environment_secrets_are_not_visible(tests, monkeypatch):
    monkeypatch.setenv("GGP_TEST_SECRET", "hunter2")
    code = GOOD + "\n\nimport os\nINITIAL_STATE = dict(INITIAL_STATE, env=sorted(os.environ))\n"
    outcome = run_python("    import os\n    return sorted(os.environ)\n")
    assert "GGP_TEST_SECRET" not in outcome.value and outcome.ok
    report = run_tests(code, tests, test_seconds=2)
    assert "GGP_TEST_SECRET" not in str(report.as_dict())


def test_writing_outside_the_private_directory_is_refused(tests, tmp_path):
    target = tmp_path / "pwned.txt"
    code = f"open({str(target)!r}, 'w').write('x')\n"
    _all_failed(run_tests(code, tests, test_seconds=1), "Loading the code failed")
    assert not target.exists()


def test_deleting_files_is_refused(tests, tmp_path):
    victim = tmp_path / "keep.txt"
    victim.write_text("precious")
    os.chmod(tmp_path, 0o777)  # even a writable folder is protected
    code = f"import os\nos.remove({str(victim)!r})\n"
    _all_failed(run_tests(code, tests, test_seconds=1), "Loading the code failed")
    assert victim.read_text() == "precious"


def test_private_directory_is_removed_after_the_run():
    outcome = run_python("    import os\n    return os.getcwd()\n")
    assert outcome.ok
    assert not Path(outcome.value).exists()


def test_cpu_limit_kills_a_busy_process():
    outcome = run_python("    while True:\n        pass\n", timeout=10,
                         limits=Limits(cpu_seconds=1, restricted=True, network=False))
    assert not outcome.ok
    assert outcome.kind in ("cpu", "timeout")


def test_wall_clock_kills_a_sleeping_process():
    outcome = run_python("    import time\n    time.sleep(60)\n", timeout=1,
                         limits=Limits(cpu_seconds=5, restricted=True, network=False))
    assert outcome.kind == "timeout"


def test_network_is_cut_off_where_namespaces_are_allowed():
    import socket

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]
        code = (
            "    import os, socket\n"
            "    mode = os.environ['GGP_SANDBOX_NETWORK']\n"
            "    try:\n"
            f"        socket.create_connection(('127.0.0.1', {port}), timeout=2)\n"
            "        return [mode, 'connected']\n"
            "    except OSError:\n"
            "        return [mode, 'refused']\n"
        )
        outcome = run_python(code, limits=Limits(network=False))
    mode, result = outcome.value
    if mode != "none":
        pytest.skip("this kernel does not allow unprivileged network namespaces")
    assert result == "refused"
