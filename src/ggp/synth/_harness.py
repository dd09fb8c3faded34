"""Runs generated unit tests against a candidate model, inside the sandbox.

This file is copied into the sandbox's private directory and run as a script with
``python -I -S``: it must use the standard library only. Inputs in the working directory:
``cwm.py`` (the candidate) and ``tests.json`` (``{"prelude": str, "tests": [{"id",
"source"}], "test_seconds": float, "max_timeouts": int}``); after ``max_timeouts`` tests
timed out, the remaining ones are reported as not run. It appends one JSON line per test to
``results.jsonl`` as soon as the test ends: ``{"id", "passed", "error", "output"}``, so a
run that is killed still reports the tests that finished.

Before the candidate is loaded, an audit hook refuses process creation, raw native
calls, sockets and writing or deleting outside this directory (a second line of defence
behind the sandbox's operating-system limits).
"""

import contextlib
import io
import json
import os
import signal
import sys
import traceback
import types
import unittest

HERE = os.path.realpath(os.getcwd())
BLOCKED_EVENTS = {
    "os.fork", "os.forkpty", "os.system", "os.exec", "os.posix_spawn", "os.spawn",
    "subprocess.Popen", "os.kill", "os.killpg", "socket.connect", "socket.bind",
    "ctypes.dlopen", "ctypes.dlsym", "os.putenv", "os.unsetenv",
}
PATH_EVENTS = {"os.remove", "os.rmdir", "os.rename", "shutil.rmtree", "os.chmod",
               "os.chown", "os.mkdir", "os.symlink", "os.link", "os.truncate"}
BLOCKED_MODULES = {"_posixsubprocess", "_ctypes", "_socket", "multiprocessing"}


class TestTimeout(BaseException):
    """Raised by the per-test timer (a BaseException so ``except Exception`` misses it)."""


def _inside(path) -> bool:
    if isinstance(path, int):
        return True
    try:
        path = os.fsdecode(path)
    except TypeError:
        return False
    return os.path.realpath(path).startswith(HERE + os.sep)


def _audit(event, args):
    if event in BLOCKED_EVENTS:
        raise PermissionError(f"the test sandbox does not allow {event}")
    if event == "import" and args and args[0] in BLOCKED_MODULES:
        raise PermissionError(f"the test sandbox does not allow importing {args[0]}")
    if event == "open":
        path, mode = args[0], args[1] or "r"
        writing = isinstance(mode, str) and any(c in mode for c in "wax+")
        if isinstance(mode, int):
            writing = bool(mode & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))
        if writing and not _inside(path):
            raise PermissionError(f"the test sandbox does not allow writing {path!r}")
    if event in PATH_EVENTS and args and not _inside(args[0]):
        raise PermissionError(f"the test sandbox does not allow {event} on {args[0]!r}")


def _on_timer(signum, frame):
    raise TestTimeout()


def _error_text(err) -> str:
    """The assertion message, or the exception with the candidate's lines of the stack."""
    kind, value, tb = err
    if isinstance(value, AssertionError):
        return str(value)
    frames = [f for f in traceback.extract_tb(tb) if f.filename in ("cwm.py", "<test>")]
    lines = traceback.format_list(frames[-6:])
    return "".join(lines) + "".join(traceback.format_exception_only(kind, value))


def load_candidate():
    with open("cwm.py", encoding="utf-8") as fh:
        source = fh.read()
    module = types.ModuleType("cwm")
    module.__file__ = "cwm.py"
    exec(compile(source, "cwm.py", "exec"), module.__dict__)
    return module


class _Result(unittest.TestResult):
    """Keeps one readable error text per failure (assertion message or trimmed trace)."""

    def __init__(self, seconds):
        super().__init__()
        self.seconds = seconds
        self.texts = []

    def _record(self, err):
        if isinstance(err[1], TestTimeout):
            self.texts.append(f"Timed out: the test took more than {self.seconds:g} seconds.")
        else:
            self.texts.append(_error_text(err))

    def addFailure(self, test, err):
        self._record(err)
        super().addFailure(test, err)

    def addError(self, test, err):
        self._record(err)
        super().addError(test, err)


def run_test(test, prelude_ns, seconds):
    """Run one test's source; returns its result record."""
    namespace = dict(prelude_ns)
    output = io.StringIO()
    result = _Result(seconds)
    error = None
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        with contextlib.redirect_stdout(output):
            exec(compile(test["source"], "<test>", "exec"), namespace)
            case_class = next(v for k, v in namespace.items()
                              if isinstance(v, type) and k.startswith("Test")
                              and k not in prelude_ns)
            unittest.defaultTestLoader.loadTestsFromTestCase(case_class).run(result)
    except TestTimeout:
        error = f"Timed out: the test took more than {seconds:g} seconds."
    except BaseException as exc:  # noqa: BLE001 - candidate code can raise anything
        error = "".join(traceback.format_exception_only(type(exc), exc))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    if error is None and result.texts:
        error = result.texts[0]
    if error is None and result.testsRun == 0:
        error = "The test did not run."
    tail = output.getvalue().splitlines()[-10:]
    return {"id": test["id"], "passed": error is None, "error": error,
            "output": "\n".join(line[:500] for line in tail)}


def main():
    with open("tests.json", encoding="utf-8") as fh:
        spec = json.load(fh)
    out = open("results.jsonl", "w", encoding="utf-8")
    signal.signal(signal.SIGALRM, _on_timer)
    sys.addaudithook(_audit)
    seconds = float(spec.get("test_seconds", 5.0))
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        with contextlib.redirect_stdout(io.StringIO()):
            candidate = load_candidate()
        signal.setitimer(signal.ITIMER_REAL, 0)
    except BaseException as exc:  # noqa: BLE001
        signal.setitimer(signal.ITIMER_REAL, 0)
        if isinstance(exc, TestTimeout):
            message = f"Loading the code took more than {seconds:g} seconds."
        else:
            frames = [f for f in traceback.extract_tb(exc.__traceback__)
                      if f.filename == "cwm.py"]
            message = ("Loading the code failed:\n" + "".join(traceback.format_list(frames))
                       + "".join(traceback.format_exception_only(type(exc), exc)))
        out.write(json.dumps({"load_error": message}) + "\n")
        out.close()
        return
    prelude_ns = {k: v for k, v in vars(candidate).items() if not k.startswith("__")}
    exec(compile(spec["prelude"], "<prelude>", "exec"), prelude_ns)
    timeouts = 0
    max_timeouts = int(spec.get("max_timeouts", 3))
    for test in spec["tests"]:
        if timeouts >= max_timeouts:
            # Slow code would make every remaining test wait for its timer too.
            record = {"id": test["id"], "passed": False, "output": "",
                      "error": f"Not run: {timeouts} earlier tests timed out."}
        else:
            record = run_test(test, prelude_ns, seconds)
            timeouts += bool(record["error"] and record["error"].startswith("Timed out"))
        out.write(json.dumps(record) + "\n")
        out.flush()
    out.close()


if __name__ == "__main__":
    main()
