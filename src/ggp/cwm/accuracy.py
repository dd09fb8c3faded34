"""Accuracy of a CWM against the ground truth on games it was not trained on.

* :func:`arena_accuracy` — *online* accuracy: the games an arena tournament actually
  played (its ``trajectories.jsonl``) are re-recorded with the reference model and turned
  into transition, terminal and (history-)inference unit tests, which run on the CWM in
  the synthesis sandbox.
* :func:`ground_truth_accuracy` — for a closed-deck run, the same tests on its held-out
  games with the hidden states the learner never saw.

Transition tests compare states with ``==``, so they measure a CWM that uses the
reference's state layout; inference tests only compare observations and actions, so they
hold for any layout.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ggp.core.model import WorldModel
from ggp.cwm.rundir import model_file
from ggp.synth.runner import run_tests
from ggp.synth.trajectories import TrajectorySet, record_game
from ggp.synth.unit_tests import generate_tests


def tests_accuracy(model_code: str, trajectories: TrajectorySet, *, inference: bool,
                   test_seconds: float = 5.0) -> dict[str, Any]:
    """Pass rates of ``model_code`` on the tests of ``trajectories`` (by kind)."""
    tests = generate_tests(trajectories, prefix="Online", random_play=0, inference=inference)
    result = run_tests(model_code, tests, test_seconds=test_seconds)
    return {"tests": len(tests), "accuracy": result.pass_rate,
            "transition_accuracy": result.rate(("transition", "terminal")),
            "inference_accuracy": result.rate(("inference",)),
            "by_kind": {k: list(v) for k, v in result.by_kind().items()}}


def arena_accuracy(run: str | Path, arena_dir: str | Path, truth: WorldModel, *,
                   agent_contains: str = "", max_games: int = 50) -> dict[str, Any]:
    """Online accuracy of the CWM of ``run`` on the games of an arena directory (those
    whose agents include ``agent_contains``, at most ``max_games``)."""
    games = []
    with open(Path(arena_dir) / "trajectories.jsonl", encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            if agent_contains and agent_contains not in record["key"]:
                continue
            actions = [step["action"] for step in record["steps"]]
            games.append(record_game(truth, actions))
            if len(games) >= max_games:
                break
    trajectories = TrajectorySet("open", truth.num_players, games, truth.name)
    inference = not truth.metadata.perfect_information
    return tests_accuracy(model_file(run).read_text(encoding="utf-8"), trajectories,
                          inference=inference)


def ground_truth_accuracy(run: str | Path, truth: WorldModel, *,
                          games: int = 20) -> dict[str, Any]:
    """Accuracy of a run's model on open-deck games of the reference (hidden states
    included), regenerated with the run's held-out seed."""
    from ggp.synth.run import heldout_set

    run = Path(run)
    meta = json.loads((run / "metadata.json").read_text(encoding="utf-8"))
    seed = meta["seeds"]["test_set"]
    players = meta.get("test", {}).get("players")
    test, _ = heldout_set(truth, games=games, seed=seed,
                          players=players if isinstance(players, list) else None)
    return tests_accuracy(model_file(run).read_text(encoding="utf-8"), test,
                          inference=not truth.metadata.perfect_information)
