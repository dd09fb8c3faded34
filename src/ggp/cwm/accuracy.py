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
from ggp.rundir import (
    METADATA,
    RunError,
    TestInfo,
    TrainInfo,
    load_metadata,
    model_file,
)
from ggp.synth.runner import run_tests
from ggp.synth.trajectories import TrajectorySet, record_game
from ggp.synth.unit_tests import generate_tests


def tests_accuracy(model_code: str, trajectories: TrajectorySet, *, inference: bool,
                   test_seconds: float = 5.0, closed_api: bool = False) -> dict[str, Any]:
    """Pass rates of ``model_code`` on the tests of ``trajectories`` (by kind);
    ``closed_api`` for a model synthesized closed deck (see
    :func:`ggp.synth.unit_tests.inference_tests`)."""
    tests = generate_tests(trajectories, prefix="Online", random_play=0, inference=inference,
                           closed_api=closed_api)
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
    from ggp.synth.heldout import heldout_set

    run = Path(run)
    meta = load_metadata(run)
    seed = meta.seeds.test_set if meta.seeds else None
    if seed is None:
        raise RunError(f"{run}/{METADATA} records no held-out seed (seeds.test_set).")
    players = (meta.test or TestInfo()).players
    test, _ = heldout_set(truth, games=games, seed=seed,
                          players=players if isinstance(players, list) else None)
    return tests_accuracy(model_file(run).read_text(encoding="utf-8"), test,
                          inference=not truth.metadata.perfect_information,
                          closed_api=(meta.train or TrainInfo()).deck == "closed")


BEHAVIOUR_FIELDS = ("current_player", "legal_actions", "observations", "rewards", "terminal")


def behaviour_accuracy(run: str | Path, trajectories: TrajectorySet, metadata: Any, *,
                       call_seconds: float = 10.0) -> dict[str, Any] | None:
    """What a player of the CWM of ``run`` sees, compared with open-deck games of the
    ground truth, whatever the CWM's internal state looks like.

    The CWM (hosted in a sandboxed worker) plays each game's actions from its own initial
    state; at every step its current player, set of legal actions, observations, rewards
    and terminal flag are compared with the recorded ones. A step passes when all five
    agree; ``by_field`` counts each field. A differently spelled internal string (which
    fails whole-state equality) passes here; a wrong rule does not. After the first
    difference in a game, the rest of that game still counts (the CWM goes on from its own
    state), unless the CWM refuses a recorded action or fails: then the game's remaining
    steps fail. Returns None for closed-deck games (no complete states to compare).
    """
    from ggp.core.errors import GGPError
    from ggp.core.protocol import TERMINAL, canonical_json
    from ggp.sandbox.hosted import HostedModel

    if trajectories.deck != "open":
        return None
    fields = {name: [0, 0] for name in BEHAVIOUR_FIELDS}
    passed = total = 0
    model = HostedModel(run, metadata, call_seconds=call_seconds)
    try:
        for trajectory in trajectories.trajectories:
            try:
                state = model.initial_state()
            except GGPError:  # the model failed or answered out of protocol
                state = None
            for index, step in enumerate(trajectory.steps):
                total += 1
                if state is None:
                    for count in fields.values():
                        count[1] += 1
                    continue
                try:
                    player = model.current_player(state)
                    seen = {
                        "current_player": player == step.current_player,
                        "legal_actions": _same_set(model.legal_actions(state),
                                                   step.legal_actions),
                        "observations": canonical_json(model.observations(state))
                        == canonical_json(step.observations),
                        "rewards": [float(r) for r in model.rewards(state)]
                        == [float(r) for r in step.rewards],
                        "terminal": (player == TERMINAL) == (step.current_player == TERMINAL),
                    }
                    if step.action is not None and index + 1 < len(trajectory.steps):
                        following = model.apply(state, step.action)
                    else:
                        following = None
                except GGPError:  # the model failed or answered out of protocol
                    seen, following = dict.fromkeys(BEHAVIOUR_FIELDS, False), None
                for name, ok in seen.items():
                    fields[name][0] += ok
                    fields[name][1] += 1
                passed += all(seen.values())
                state = following
    finally:
        model.close()
    return {"steps": total, "accuracy": passed / total if total else None,
            "by_field": {name: list(count) for name, count in fields.items()}}


def _same_set(actual: list, expected: list) -> bool:
    """Whether two lists of actions hold the same actions (False for unhashable ones)."""
    try:
        return sorted(actual) == sorted(expected)
    except TypeError:
        return False
