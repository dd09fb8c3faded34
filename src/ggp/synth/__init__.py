"""Code world model synthesis: rules + trajectories -> an LLM-written, tested world model.

Parts (one module each): :mod:`~ggp.synth.trajectories` (record and load games),
:mod:`~ggp.synth.unit_tests` (tests from trajectories), :mod:`~ggp.synth.runner` (run
tests on candidate code in a restricted :mod:`ggp.sandbox` worker),
:mod:`~ggp.synth.prompts` (requests and code extraction), :mod:`~ggp.synth.refine`
(conversation and REx tree search), :mod:`~ggp.synth.run` (run directories, metrics,
resume). See docs/synth.md.
"""

from ggp.synth.refine import Settings
from ggp.synth.run import Task, reference_task, synthesize, user_task

__all__ = ["Settings", "Task", "reference_task", "synthesize", "user_task"]
