"""Run generated unit tests against candidate code in the sandbox; structured results.

Each call starts fresh sandboxed processes (see :mod:`ggp.synth.sandbox`), so a candidate
that loops, crashes, floods output or misbehaves in any other way only fails its own
tests. Large test sets are split into chunks, one process each.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources

from ggp.synth.sandbox import Limits, run_python
from ggp.synth.unit_tests import KINDS, PRELUDE, UnitTest


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


def _harness_source() -> str:
    return resources.files("ggp.synth").joinpath("_harness.py").read_text(encoding="utf-8")


def run_tests(
    code: str,
    tests: list[UnitTest],
    *,
    test_seconds: float = 5.0,
    chunk: int = 2000,
    limits: Limits | None = None,
) -> RunReport:
    """Run ``tests`` against ``code``; every test gets a result, passed or not."""
    report = RunReport()
    for start in range(0, len(tests), chunk):
        part = tests[start:start + chunk]
        _run_chunk(code, part, test_seconds, limits, report)
        if report.load_error is not None:
            # The code does not load: the remaining tests fail the same way.
            for test in tests[start + chunk:]:
                report.results.append(TestResult(test.id, test.kind, False, report.load_error))
            break
    return report


def _run_chunk(code: str, tests: list[UnitTest], test_seconds: float,
               limits: Limits | None, report: RunReport, restarts: int = 3) -> None:
    """Run ``tests`` in one process; if it dies, blame the test it was running and
    start a fresh process for the rest (at most ``restarts`` times)."""
    pending = list(tests)
    while pending:
        records, problem = _run_process(code, pending, test_seconds, limits, report)
        if report.load_error is not None:
            records = {}
        done = [t for t in pending if t.id in records]
        for test in done:
            record = records[test.id]
            report.results.append(TestResult(test.id, test.kind, bool(record["passed"]),
                                              record.get("error"), record.get("output", "")))
        pending = [t for t in pending if t.id not in records]
        if not pending:
            return
        if report.load_error is not None or problem is None or restarts == 0:
            error = report.load_error or (f"Not run: {problem}" if problem
                                          else "Not run: no result was reported.")
            report.results += [TestResult(t.id, t.kind, False, error) for t in pending]
            return
        culprit, pending = pending[0], pending[1:]
        report.results.append(TestResult(culprit.id, culprit.kind, False,
                                         f"The test process ended early: {problem}"))
        restarts -= 1


def _run_process(code: str, tests: list[UnitTest], test_seconds: float,
                 limits: Limits | None, report: RunReport) -> tuple[dict, str | None]:
    spec = {"prelude": PRELUDE, "test_seconds": test_seconds,
            "tests": [{"id": t.id, "source": t.source} for t in tests]}
    wall = min(10.0 + test_seconds * len(tests), 600.0)
    limits = limits or Limits(wall_seconds=wall, cpu_seconds=int(wall))
    outcome = run_python("harness.py", {"harness.py": _harness_source(), "cwm.py": code,
                                        "tests.json": json.dumps(spec)},
                         limits=limits, read_back=("results.jsonl",))
    records: dict[str, dict] = {}
    for line in outcome.files.get("results.jsonl", "").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by a kill
        if isinstance(record, dict) and "load_error" in record:
            report.load_error = str(record["load_error"])
        elif isinstance(record, dict) and "id" in record:
            records[record["id"]] = record
    problem = None
    if not outcome.ok:
        problem = outcome.describe()
        if outcome.stderr.strip():
            problem += ":\n" + "\n".join(outcome.stderr.strip().splitlines()[-8:])
        report.sandbox_problems.append(problem)
    return records, problem
