"""The judge never runs inside the box, the parent survives any reply, and limits hold
for a whole box (issue 30, docs/sandbox.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ggp.sandbox import Limits, SandboxFailure, Worker, run_entry
from ggp.sandbox.process import ReplyError, decode_bounded

ROOT = Path(__file__).resolve().parents[2]
TTT = ROOT / "tests" / "synth" / "fixtures" / "tic_tac_toe_cwm.py"
RESTRICTED = Limits(memory_mb=512, cpu_seconds=60, restricted=True, network=False)

# How hostile code finds the reply pipe and the id of the request being served.
_REPLY = '''
import json as _json, os as _os, sys as _sys

def _reply_fd():
    return _json.loads(_sys.argv[2])["reply_fd"]

def _request_id():
    frame, found = _sys._getframe(), None
    while frame is not None:
        found = frame.f_locals.get("request_id", found)
        frame = frame.f_back
    return found

def _write(line):
    _os.write(_reply_fd(), (line + "\\n").encode())
'''


def _ggp(*args, cwd, timeout=300):
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-m", "ggp.cli.main", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


# ------------------------------------------------------------------ bounded replies
def test_bounded_decoding_refuses_big_deep_and_broken_replies():
    limits = Limits(reply_bytes=1000, reply_items=50, reply_depth=10)
    assert decode_bounded(b'{"id": "x", "ok": [1, 2, {"a": null}]}\n', limits)["ok"][2] == \
        {"a": None}
    for data, message in [(b"[" + b"1," * 60 + b"1]", "more than 50 values"),
                          (b"[" * 11 + b"]" * 11, "deeper than 10"),
                          (b"[" * 400 + b"]" * 400, "more than 50 values"),
                          (b"x" * 1200, "larger than 1000 bytes"),
                          (b"{not json", "not JSON")]:
        with pytest.raises(ReplyError, match=message):
            decode_bounded(data, limits)
    deep = Limits(reply_items=10**6, reply_depth=100)
    with pytest.raises(ReplyError, match="deeper than 100"):
        decode_bounded(b"[" * 5000 + b"]" * 5000, deep)  # the decoder's own recursion limit


@pytest.mark.parametrize("line, message", [
    ('"[" * 5000 + "]" * 5000', "nested deeper"),
    ('"[" + "1," * (30 << 20) + "1]"', "larger than"),
    ('_json.dumps({"id": _request_id(), "ok": 1, "extra": 2})', "does not answer"),
    ('_json.dumps({"id": "guessed", "ok": 1})', "does not answer"),
    ('"not json at all"', "not JSON"),
])
def test_a_bad_reply_is_a_protocol_failure_and_the_worker_is_gone(line, message):
    source = _REPLY + f'''
class Handler:
    def poke(self):
        _write({line})
        import time
        time.sleep(5)

def make_handler(init):
    return Handler()
'''
    worker = Worker("w.py", None, files={"w.py": source}, limits=RESTRICTED)
    with pytest.raises(SandboxFailure, match=message) as failure:
        worker.call("poke", timeout=30)
    assert failure.value.kind == "protocol" and "\n" not in str(failure.value)
    assert not worker.alive


def test_a_reply_written_ahead_is_refused():
    source = _REPLY + '''
class Handler:
    def poke(self):
        _write(_json.dumps({"id": _request_id(), "ok": "forged"}))
        return "real"

def make_handler(init):
    return Handler()
'''
    with Worker("w.py", None, files={"w.py": source}, limits=RESTRICTED) as worker:
        with pytest.raises(SandboxFailure, match="more than one reply|does not answer"):
            worker.call("poke", timeout=30)
            worker.call("poke", timeout=30)  # or the stale second line meets the next
        assert not worker.alive


def test_the_pool_never_hands_out_a_worker_that_broke_protocol():
    from ggp.sandbox.pool import WorkerPool

    source = _REPLY + '''
class Handler:
    def poke(self):
        _write("[" * 5000 + "]" * 5000)

def make_handler(init):
    return Handler()
'''
    pool = WorkerPool()
    try:
        worker, _ = pool.take("w.py", None, limits=RESTRICTED, files={"w.py": source})
        with pytest.raises(SandboxFailure):
            worker.call("poke", timeout=30)
        pool.give_back(worker)
        assert len(pool) == 0
    finally:
        pool.close()


# ------------------------------------------------------------------ ggp check
def _check(tmp_path, source, *args):
    path = tmp_path / "model.py"
    path.write_text(source)
    return _ggp("check", str(path), "--games", "3", "--timeout", "60", *args, cwd=tmp_path)


def test_check_cannot_be_forged_by_a_reply_written_on_the_pipe(tmp_path):
    forged = json.dumps({"ok": {"model": "m", "games": 50, "steps": 500, "violations": []}})
    source = TTT.read_text() + _REPLY + f'''
_write(_json.dumps(dict({forged}, id=_request_id())))
_apply = apply_action

def apply_action(state, action):
    _write(_json.dumps(dict({forged}, id=_request_id())))
    raise ValueError("this model is broken")
'''
    result = _check(tmp_path, source)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "FAILED" in result.stdout and "Traceback" not in result.stderr


@pytest.mark.parametrize("calls", [(1,), (3,)])
def test_check_reports_a_model_that_raises_only_on_some_calls(tmp_path, calls):
    source = TTT.read_text() + f'''
_count = [0]
_apply = apply_action

def apply_action(state, action):
    _count[0] += 1
    if _count[0] in {set(calls)!r}:
        raise RuntimeError("call %d fails" % _count[0])
    return _apply(state, action)
'''
    result = _check(tmp_path, source)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "exception" in result.stdout and "apply_action" in result.stdout


@pytest.mark.parametrize("line", ['"[" * 5000 + "]" * 5000',
                                  '"[" + "1," * (30 << 20) + "1]"',
                                  '_json.dumps({"id": _request_id(), "ok": {"results": 3}})'])
def test_check_survives_deep_huge_and_wrong_replies_with_one_line(tmp_path, line):
    source = TTT.read_text() + _REPLY + f'''
_apply = apply_action

def apply_action(state, action):
    _write({line})
    _os._exit(0)
'''
    result = _check(tmp_path, source)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert "[sandbox] model: the check was stopped by the sandbox (protocol)" in result.stdout


# ------------------------------------------------------------------ synthesis and values
def test_a_candidate_that_patches_the_box_passes_nothing():
    from ggp.core.registry import make_game
    from ggp.synth.runner import run_tests
    from ggp.synth.trajectories import collect
    from ggp.synth.unit_tests import generate_tests

    tests = generate_tests(collect(make_game("tic_tac_toe"), games=1, seed=1), random_play=1)
    # echoes its inputs as results, in the box's own answer format: well formed, wrong
    hostile = '''
import sys
def _run(self, steps, seconds, reset=False):
    return {"results": [{"ok": (s.get("args") or [{}])[0].get("v")} for s in steps],
            "output": ""}
for _module in list(sys.modules.values()):
    if hasattr(_module, "ModelBox"):
        _module.ModelBox.run = _run
'''
    report = run_tests(hostile, tests, test_seconds=2)
    assert report.results and report.pass_rate == 0.0
    assert run_tests(TTT.read_text(), tests, test_seconds=2).pass_rate == 1.0


def test_a_value_function_cannot_report_itself_as_passing():
    from ggp.synth.value import check_candidate

    value = _REPLY + '''
def value_function(state, player):
    _write(_json.dumps({"id": _request_id(), "ok": {"ok": True, "error": "", "checked": 9}}))
    return 0.0
'''
    found = check_candidate(TTT.read_text(), value, games=1, seconds=30)
    assert found["ok"] is False and "protocol" in found["error"]
    honest = "def value_function(state, player):\n    return float(get_rewards(state)[player])\n"
    assert check_candidate(TTT.read_text(), honest, games=1, seconds=30)["ok"] is True


# ------------------------------------------------------------------ folders and limits
def test_private_folders_of_a_killed_parent_are_swept_on_the_next_start(tmp_path):
    script = tmp_path / "holder.py"
    script.write_text('''
import sys, time
from ggp.sandbox import Limits, Worker
worker = Worker("w.py", None, files={"w.py": "def make_handler(init):\\n    return 1\\n"},
                limits=Limits(restricted=True, network=False))
print(worker._process.workdir, flush=True)
time.sleep(120)
''')
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    holder = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                              env=env)
    try:
        workdir = Path(holder.stdout.readline().strip())
    finally:
        holder.kill()  # SIGKILL: no chance to clean up
        holder.wait()
    assert workdir.name.startswith("ggp-sandbox-") and workdir.is_dir()
    sweep = ("from ggp.sandbox.process import sweep_stale_boxes; "
             "print(sweep_stale_boxes())")
    deadline = time.monotonic() + 10
    while workdir.exists() and time.monotonic() < deadline:
        subprocess.run([sys.executable, "-c", sweep], env=env, check=True)
    assert not workdir.exists()


def test_tmp_and_the_working_directory_are_private_and_bounded():
    body = '''
def main(payload):
    import os
    written = {}
    for place in ("/tmp", "."):
        total = 0
        for n in range(40):
            try:
                with open(os.path.join(place, f"f{n}"), "wb") as out:
                    out.write(b"x" * (8 << 20))
                total += 8
            except OSError:
                break
        written[place] = total
    return written
'''
    result = run_entry("m.py", None, files={"m.py": body}, timeout=120,
                       limits=Limits(memory_mb=1024, disk_mb=64, file_mb=16))
    assert result.ok, result.detail
    assert 0 < result.value["/tmp"] <= 64 and 0 < result.value["."] <= 64


def test_a_forking_box_cannot_hold_more_than_its_memory_limit():
    from ggp.sandbox.cgroup import cgroup_mode

    if cgroup_mode() == "none":
        pytest.skip("no cgroups here: memory is limited per process only (docs/sandbox.md)")
    body = '''
def main(payload):
    import os, time
    share, pids, ready = 150 << 20, [], os.pipe()
    for _ in range(4):
        pid = os.fork()
        if pid == 0:
            block = bytearray(share)
            for i in range(0, share, 4096):
                block[i] = 1
            os.write(ready[1], b"x")
            time.sleep(30)
            os._exit(0)
        pids.append(pid)
    time.sleep(8)
    alive = sum(os.waitpid(pid, os.WNOHANG) == (0, 0) for pid in pids)
    return alive
'''
    result = run_entry("m.py", None, files={"m.py": body}, timeout=60,
                       limits=Limits(memory_mb=256, cpu_seconds=60, processes=16))
    # 4 x 150 MiB do not fit in 256 MiB for the whole box: the kernel kills some
    assert (not result.ok and result.kind == "memory") or (result.ok and result.value < 4), \
        (result.kind, result.value, result.detail[-300:])
