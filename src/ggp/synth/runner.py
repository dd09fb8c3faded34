"""Run generated unit tests against candidate code in the sandbox; structured results.

Each call starts fresh restricted sandbox workers (:class:`ggp.sandbox.modelbox.CallBox`,
see docs/sandbox.md) that load the candidate once; its tests run one by one, each as its
plan: the judge (:mod:`ggp.synth.judge`, in this process) sends the model calls, the box
returns what they returned, and the judge compares with the expected values, which never
enter the box. A candidate that loops, crashes, floods output, tampers with its box or
misbehaves in any other way only fails its own tests. Large test sets are split into
chunks, one worker each.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ggp.sandbox import Limits, SandboxFailure
from ggp.sandbox.modelbox import CallBox
from ggp.synth.judge import judge
from ggp.synth.unit_tests import KINDS, UnitTest

#: After this many tests of one chunk timed out, its remaining tests are not run (slow
#: code would make each of them wait for its timer too).
MAX_TIMEOUTS = 3


@dataclass
class TestResult:
    """The outcome of one unit test."""

    id: str
    kind: str
    passed: bool
    error: str | None = None
    output: str = ""

    def to_dict(self) -> dict:
        return {"id": self.id, "kind": self.kind, "passed": self.passed,
                "error": self.error, "output": self.output}


@dataclass
class RunReport:
    """All test results of one candidate, plus what went wrong around them."""

    results: list[TestResult] = field(default_factory=list)
    load_error: str | None = None
    sandbox_problems: list[str] = field(default_factory=list)

    @property
    def pass_rate(self) -> float:
        """Fraction of tests passed (0 for an empty set)."""
        return sum(r.passed for r in self.results) / len(self.results) if self.results else 0.0

    def rate(self, kinds: tuple[str, ...]) -> float | None:
        """Pass rate over tests of the given kinds (None if there are none)."""
        chosen = [r for r in self.results if r.kind in kinds]
        return sum(r.passed for r in chosen) / len(chosen) if chosen else None

    def by_kind(self) -> dict[str, tuple[int, int]]:
        """``kind -> (passed, total)``."""
        out = {}
        for kind in KINDS:
            chosen = [r for r in self.results if r.kind == kind]
            if chosen:
                out[kind] = (sum(r.passed for r in chosen), len(chosen))
        return out

    def failed(self) -> list[TestResult]:
        return [r for r in self.results if not r.passed]

    def as_dict(self) -> dict[str, dict]:
        return {r.id: r.to_dict() for r in self.results}


def run_tests(
    code: str,
    tests: list[UnitTest],
    *,
    test_seconds: float = 5.0,
    chunk: int = 2000,
    limits: Limits | None = None,
    on_test: Callable[[int, int], None] | None = None,
) -> RunReport:
    """Run ``tests`` against ``code``; every test gets a result, passed or not.

    ``limits`` sets the workers' resources; they always run restricted and offline.
    ``on_test(done, total)`` is called as results come in. Every test needs a plan (the
    generators of :mod:`ggp.synth.unit_tests` give one).
    """
    unplanned = [t.id for t in tests if not t.plan]
    if unplanned:
        raise ValueError(f"tests without a plan cannot be judged: {unplanned[:3]}")
    report = RunReport()
    for start in range(0, len(tests), chunk):
        part = tests[start:start + chunk]
        _run_chunk(code, part, test_seconds, _worker_limits(limits, test_seconds, len(part)),
                   report, tick=(lambda: on_test(len(report.results), len(tests)))
                   if on_test else None)
        if on_test:
            on_test(len(report.results), len(tests))
        if report.load_error is not None:
            # The code does not load: the remaining tests fail the same way.
            for test in tests[start + chunk:]:
                report.results.append(TestResult(test.id, test.kind, False, report.load_error))
            break
    return report


def _worker_limits(limits: Limits | None, test_seconds: float, count: int) -> Limits:
    if limits is None:
        cpu = int(min(10 + test_seconds * count, 600))
        limits = Limits(memory_mb=1024, cpu_seconds=cpu, file_mb=64,
                        max_output_bytes=1 << 20)
    return replace(limits, restricted=True, network=False)


def _run_chunk(code: str, tests: list[UnitTest], test_seconds: float, limits: Limits,
               report: RunReport, restarts: int = 3,
               tick: Callable[[], None] | None = None) -> None:
    """Run ``tests`` in one worker; if it dies, blame the test it was running and start a
    fresh worker for the rest (at most ``restarts`` times)."""
    pending = list(tests)
    timeouts = 0
    while pending:
        worker = _start(code, test_seconds, limits, report)
        if worker is None:
            report.results += [TestResult(t.id, t.kind, False, report.load_error)
                               for t in pending]
            return
        try:
            while pending:
                if timeouts >= MAX_TIMEOUTS:
                    error = f"Not run: {timeouts} earlier tests timed out."
                    report.results += [TestResult(t.id, t.kind, False, error) for t in pending]
                    return
                test = pending[0]
                passed, error, output = judge(worker, test.plan, test_seconds)
                result = TestResult(test.id, test.kind, passed, error, output)
                report.results.append(result)
                pending.pop(0)
                if tick and len(report.results) % 50 == 0:
                    tick()
                timeouts += (result.error or "").startswith("Timed out")
        except SandboxFailure as failure:
            problem = _describe(failure)
            report.sandbox_problems.append(problem)
            culprit = pending.pop(0)
            report.results.append(TestResult(culprit.id, culprit.kind, False,
                                             f"The test process ended early: {problem}"))
            if restarts == 0:
                report.results += [TestResult(t.id, t.kind, False, f"Not run: {problem}")
                                   for t in pending]
                return
            restarts -= 1
        finally:
            worker.close()


def _start(code: str, test_seconds: float, limits: Limits, report: RunReport) -> CallBox | None:
    """A box with the candidate loaded, or None (and ``report.load_error`` set)."""
    try:
        worker = CallBox(code, loader="cwm", limits=limits, load_seconds=test_seconds)
        report.load_error = worker.load_error
    except SandboxFailure as failure:
        problem = _describe(failure)
        report.sandbox_problems.append(problem)
        report.load_error = f"Loading the code failed: the test process ended ({problem})."
        return None
    if report.load_error is not None:
        worker.close()
        return None
    return worker


def _describe(failure: SandboxFailure) -> str:
    """A short reason for a dead worker: its failure kind and the last lines of detail."""
    return f"{failure.kind}: " + "\n".join(failure.detail.strip().splitlines()[-8:])
