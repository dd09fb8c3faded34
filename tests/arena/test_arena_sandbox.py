"""Tests of ggp.sandbox: limits, failure kinds, output capture, the worker protocol."""

import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ggp.sandbox import Limits, SandboxFailure, Worker, run_entry
from ggp.sandbox.attacks import wait_until_gone

ENTRIES = str(Path(__file__).with_name("sandbox_entries.py"))
SMALL = Limits(memory_mb=512, cpu_seconds=30, max_output_bytes=200_000)


def run(do, timeout=10.0, limits=SMALL, **payload):
    return run_entry(ENTRIES, {"do": do, **payload}, timeout=timeout, limits=limits)


def test_returns_the_value_and_the_printed_tail():
    result = run("print_then_return")
    assert result.ok and result.value == "done" and result.kind == "ok"
    assert result.stdout.splitlines()[-1] == "line 99"
    assert result.stdout_bytes == len("".join(f"line {i}\n" for i in range(100)))


def test_kept_output_is_capped_to_the_tail():
    limits = Limits(memory_mb=512, output_bytes=100)
    result = run("print_then_return", limits=limits)
    assert result.ok
    assert len(result.stdout) == 100 and result.stdout.endswith("line 99\n")


def test_environment_is_scrubbed_and_cwd_is_private(monkeypatch):
    monkeypatch.setenv("GGP_TEST_SECRET_KEY", "do-not-leak")
    result = run("env")
    assert result.ok
    assert "GGP_TEST_SECRET_KEY" not in result.value["env"]
    assert "PATH" in result.value["env"]
    cwd = result.value["cwd"]
    assert Path(cwd).name.startswith("ggp-sandbox-")
    assert not Path(cwd).exists(), "the private directory is removed afterwards"


def test_exception_is_reported_with_traceback():
    result = run("raise")
    assert not result.ok and result.kind == "exception"
    assert "KeyError" in result.detail and "sandbox_entries.py" in result.detail


def test_wall_clock_timeout_kills():
    started = time.monotonic()
    result = run("sleep", timeout=0.5)
    assert result.kind == "timeout"
    assert time.monotonic() - started < 30


def test_memory_limit():
    assert run("allocate").kind == "memory"


def test_output_flood_is_killed():
    result = run("flood")
    assert result.kind == "output"
    assert result.stdout_bytes > SMALL.max_output_bytes
    assert len(result.stdout) <= SMALL.output_bytes


def test_exit_is_a_crash_with_its_code():
    result = run("exit")
    assert result.kind == "crash" and "exit code 5" in result.detail


def test_cpu_limit():
    limits = Limits(memory_mb=512, cpu_seconds=1)
    assert run("spin", timeout=20, limits=limits).kind == "cpu"


def test_file_size_limit():
    assert run("write_big_file", mb=1).ok
    limits = Limits(memory_mb=512, file_mb=1)
    result = run("write_big_file", mb=3, limits=limits)
    assert not result.ok and result.kind in ("crash", "exception")


def test_forked_children_die_with_the_group():
    result = run("fork_and_sleep", timeout=2.0)
    assert result.kind == "timeout"
    namespace = result.stdout.split("\n")[0]
    assert result.stdout.count("pid ") == 4  # the child and its three forks
    assert wait_until_gone(namespace) == []


def test_worker_keeps_state_and_reports_failures():
    with Worker(ENTRIES, {"start": 10}, limits=SMALL) as worker:
        assert worker.call("add", {"amount": 5}) == 15
        assert worker.call("add", {"amount": 1}) == 16
        with pytest.raises(SandboxFailure) as failure:
            worker.call("fail")
        assert failure.value.kind == "exception" and "handler failed" in failure.value.detail
        assert not worker.alive
        with pytest.raises(SandboxFailure):
            worker.call("add", {"amount": 1})


def test_worker_deadline():
    with Worker(ENTRIES, {"start": 0}, limits=SMALL) as worker:
        assert worker.call("sleep", {"seconds": 0.01}, timeout=10) == 0.01
        with pytest.raises(SandboxFailure) as failure:
            worker.call("sleep", {"seconds": 100}, timeout=0.3)
        assert failure.value.kind == "timeout"


def test_a_worker_that_stops_reading_cannot_block_the_parent():
    with Worker(ENTRIES, {"start": 0}, limits=SMALL) as worker:
        assert worker.call("stop_reading") == "deaf"
        started = time.monotonic()
        with pytest.raises(SandboxFailure) as failure:
            worker.call("echo", {"value": "x" * 1_000_000}, timeout=1.0)
        assert failure.value.kind == "timeout"
        assert time.monotonic() - started < 30


def test_worker_rejects_private_methods():
    with Worker(ENTRIES, {"start": 0}, limits=SMALL) as worker:
        with pytest.raises(SandboxFailure) as failure:
            worker.call("__init__", {"start": 1})
        assert failure.value.kind == "exception"


def test_worker_that_cannot_start():
    with pytest.raises(SandboxFailure) as failure:
        Worker(ENTRIES, {"wrong": 0}, limits=SMALL)
    assert failure.value.kind == "exception" and "KeyError" in failure.value.detail


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**53, 2**53)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@pytest.fixture(scope="module")
def echo_worker():
    worker = Worker(ENTRIES, {"start": 0}, limits=SMALL)
    yield worker
    worker.close()


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=json_values)
def test_worker_protocol_round_trips_json(echo_worker, value):
    assert echo_worker.call("echo", {"value": value}) == value


def test_network_can_be_cut_off():
    import socket

    from ggp.sandbox.process import network_isolation_available

    if not network_isolation_available():
        pytest.skip("no network namespaces on this machine")
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        assert run("connect", port=port).value == "connected"
        isolated = Limits(memory_mb=512, network=False)
        result = run("connect", port=port, limits=isolated)
        assert result.ok and result.value != "connected"


def test_files_are_written_into_the_private_directory():
    candidate = "import os\n\ndef main(payload):\n    return [payload * 2, os.getcwd()]\n"
    result = run_entry("candidate.py", 21, files={"candidate.py": candidate}, limits=SMALL)
    assert result.ok and result.value[0] == 42
    assert Path(result.value[1]).name.startswith("ggp-sandbox-")
    broken = run_entry("candidate.py", 0, files={"candidate.py": "def main(:\n"},
                       limits=SMALL)
    assert broken.kind == "exception" and "SyntaxError" in broken.detail


RESTRICTED = Limits(memory_mb=512, restricted=True)


def test_restricted_child_may_only_compute(tmp_path):
    target = tmp_path / "outside.txt"
    probe = (
        "import os\n\n"
        "def attempt(action):\n"
        "    try:\n"
        "        action()\n"
        "        return 'done'\n"
        "    except Exception as exc:\n"
        "        return f'{type(exc).__name__}: {exc}'\n\n"
        "def main(payload):\n"
        "    return {\n"
        "        'fork': attempt(os.fork),\n"
        "        'ctypes': attempt(lambda: __import__('ctypes')),\n"
        "        'inside': attempt(lambda: open('mine.txt', 'w').close()),\n"
        "        'outside': attempt(lambda: open(payload, 'w').close()),\n"
        "    }\n"
    )
    result = run_entry("probe.py", str(target), files={"probe.py": probe}, limits=RESTRICTED)
    assert result.ok, result.detail
    assert "does not allow os.fork" in result.value["fork"]
    assert "does not allow importing _ctypes" in result.value["ctypes"]
    assert result.value["inside"] == "done"
    assert "does not allow writing" in result.value["outside"]
    assert not target.exists()


def test_restricted_child_may_not_start_threads_unless_root():
    probe = ("import os, threading\n\n"
             "def main(payload):\n"
             "    try:\n"
             "        threading.Thread(target=print).start()\n"
             "        return [os.geteuid(), 'started']\n"
             "    except RuntimeError:\n"
             "        return [os.geteuid(), 'refused']\n")
    result = run_entry("probe.py", None, files={"probe.py": probe}, limits=RESTRICTED)
    assert result.ok, result.detail
    euid, outcome = result.value
    if euid == 0:
        pytest.skip("RLIMIT_NPROC does not hold for root (no unprivileged user here)")
    assert outcome == "refused"


def test_offline_child_sees_no_network_interface_but_loopback():
    from ggp.sandbox import network_isolation_available

    if not network_isolation_available():
        pytest.skip("no network namespaces on this machine")
    probe = ("def main(payload):\n"
             "    lines = open('/proc/net/dev').read().splitlines()[2:]\n"
             "    return sorted(line.split(':')[0].strip() for line in lines)\n")
    result = run_entry("probe.py", None, files={"probe.py": probe},
                       limits=Limits(memory_mb=512, network=False))
    assert result.ok and result.value == ["lo"], result
