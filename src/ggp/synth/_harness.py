"""Runs generated unit tests against a candidate model: the entry of a sandbox worker.

:mod:`ggp.synth.runner` copies this file into the private directory of a restricted
:class:`ggp.sandbox.Worker`, whose guard already refuses process creation, native calls,
sockets and writing outside the directory: it must use the standard library only.
``make_handler({"prelude", "test_seconds"})`` loads ``cwm.py`` (the candidate) from the
working directory under a timer; ``load_error()`` says why that failed (None when it
loaded); ``run(test_id, source)`` runs one test under a timer of ``test_seconds`` and
returns ``{"id", "passed", "error", "output"}``. A candidate that swallows the timer is
killed by the parent's deadline instead.
"""

import contextlib
import io
import signal
import traceback
import types
import unittest


class TestTimeout(BaseException):
    """Raised by the per-test timer (a BaseException so ``except Exception`` misses it)."""


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


class Harness:
    """The candidate, loaded once, and the tests run against it one by one."""

    def __init__(self, prelude, seconds):
        self.seconds = seconds
        self.namespace = {}
        self._load_error = None
        signal.signal(signal.SIGALRM, _on_timer)
        try:
            signal.setitimer(signal.ITIMER_REAL, seconds)
            with contextlib.redirect_stdout(io.StringIO()):
                candidate = load_candidate()
        except BaseException as exc:  # noqa: BLE001 - candidate code can raise anything
            self._load_error = _load_error_text(exc, seconds)
            return
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        self.namespace = {k: v for k, v in vars(candidate).items() if not k.startswith("__")}
        exec(compile(prelude, "<prelude>", "exec"), self.namespace)

    def load_error(self):
        """Why the candidate did not load, or None."""
        return self._load_error

    def run(self, test_id, source):
        """Run one test; returns its result record."""
        return run_test({"id": test_id, "source": source}, self.namespace, self.seconds)


def _load_error_text(exc, seconds):
    if isinstance(exc, TestTimeout):
        return f"Loading the code took more than {seconds:g} seconds."
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == "cwm.py"]
    return ("Loading the code failed:\n" + "".join(traceback.format_list(frames))
            + "".join(traceback.format_exception_only(type(exc), exc)))


def make_handler(init):
    """Worker entry point: load the candidate."""
    return Harness(init["prelude"], float(init["test_seconds"]))
