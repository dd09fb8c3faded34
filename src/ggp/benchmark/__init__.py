"""Benchmarks of code world model synthesis over suites of games (docs/benchmark.md).

* :mod:`ggp.benchmark.suite` reads a suite folder (``suite.toml`` and its model files) and
  writes its catalogue;
* :mod:`ggp.benchmark.runner` synthesizes, measures and plays every game of a suite
  (``ggp bench synth SUITE``), resumably and in parallel over games;
* :mod:`ggp.benchmark.report` turns the per-game results into Markdown, JSON, CSV and a
  plot.
"""

from ggp.benchmark.suite import Suite, SuiteError, SuiteGame, load_suite

__all__ = ["Suite", "SuiteError", "SuiteGame", "load_suite"]
