"""Differential testing of two boxed models (ggp.synth.differential): agreement, the first
divergence with moves that reproduce it, chance probabilities, and measured playouts."""

from __future__ import annotations

from pathlib import Path

import pytest

from ggp.core.registry import make_game
from ggp.synth.differential import (
    DifferentialError,
    compare_models,
    measure_speed,
    open_box,
    random_trajectories,
    replay,
)

ROOT = Path(__file__).resolve().parents[2]
TTT = (ROOT / "src" / "ggp" / "games" / "tic_tac_toe.py").read_text(encoding="utf-8")

DICE = '''
INITIAL_STATE = {"roll": None, "rewards": [0.0, 0.0]}

def get_current_player(state):
    if state["roll"] is None:
        return -1
    return -4 if state.get("done") else 0

def get_player_name(p):
    return str(p)

def get_legal_actions(state):
    p = get_current_player(state)
    if p == -1:
        return ["1", "2", "3"]
    return [] if p == -4 else ["stop"]

def get_chance_outcomes(state):
    return [("1", PROBS[0]), ("2", PROBS[1]), ("3", PROBS[2])]

PROBS = (0.5, 0.25, 0.25)

def apply_action(state, action):
    if state["roll"] is None:
        return {"roll": int(action), "rewards": [0.0, 0.0]}
    r = float(state["roll"])
    return {"roll": state["roll"], "done": True, "rewards": [r, -r]}

def get_rewards(state):
    return list(state["rewards"])

def get_observations(state):
    return [state, state]
'''


@pytest.fixture
def boxes():
    opened = []

    def open_(code):
        box = open_box(code)
        opened.append(box)
        return box

    yield open_
    for box in opened:
        box.close()


def test_a_program_agrees_with_itself(boxes):
    a, b = boxes(TTT), boxes(TTT)
    report = compare_models(a, b, random_count=100, seed=1)
    assert report.identical and report.agreed == 100 and report.first_divergence is None
    assert report.states > 500


def test_a_wrong_program_diverges_with_a_reproducing_sequence(boxes):
    # a draw is declared once the top two rows are full
    wrong = TTT.replace('    if "." not in board[0] and "." not in board[1] and "." not in board[2]:',
                        '    if "." not in board[0] and "." not in board[1]:')
    assert wrong != TTT
    report = compare_models(boxes(TTT), boxes(wrong), random_count=200, seed=1)
    assert not report.identical and 0 < report.agreement < 1
    d = report.first_divergence
    assert d.what == "current players (terminal flags)" and d.candidate == "-4"
    game = make_game("tic_tac_toe")  # the moves reproduce a state the two disagree on
    state = game.initial_state()
    for action in d.actions:
        state = game.apply(state, action)
    assert not game.is_terminal(state)
    assert all(cell != "." for row in state["board"][:2] for cell in row)


def test_chance_probabilities_and_errors_are_compared(boxes):
    original = boxes(DICE)
    skewed = boxes(DICE.replace("PROBS = (0.5, 0.25, 0.25)", "PROBS = (0.4, 0.3, 0.3)"))
    report = compare_models(original, skewed, random_count=20, seed=0)
    assert report.agreed == 0
    assert report.first_divergence.what == "chance outcome probabilities"
    assert report.first_divergence.actions == []
    broken = boxes(DICE.replace("    r = float(state", "    r = 1 / 0 + float(state"))
    report = compare_models(original, broken, random_count=20, seed=0)
    assert report.agreed == 0 and report.first_divergence.what == "errors"
    assert "ZeroDivisionError" in report.first_divergence.candidate


def test_random_sequences_follow_the_chance_probabilities(boxes):
    sequences = random_trajectories(boxes(DICE), 400, seed=3)
    first = [s[0] for s in sequences]
    assert all(s[1:] == ["stop"] for s in sequences)
    assert 0.42 < first.count("1") / 400 < 0.58  # drawn by probability, not uniformly


def test_replay_reports_every_state_and_long_games_in_pieces(boxes):
    c4 = (ROOT / "src" / "ggp" / "games" / "connect_four.py").read_text(encoding="utf-8")
    box = boxes(c4)
    actions = max(random_trajectories(box, 20, seed=5), key=len)
    snapshots = replay(box, actions)
    assert len(actions) > 25 and len(snapshots) == len(actions) + 1  # several round trips
    assert snapshots[-1].player == -4 and snapshots[-1].legal == []
    assert snapshots[0].observations[0]["current_player"] == 0


def test_speed_is_measured_on_the_same_playouts(boxes):
    a, b = boxes(TTT), boxes(TTT)
    report = measure_speed(a, b, playouts=30, rounds=2, seed=0)
    assert report.same_playouts and report.original > 0 and report.candidate > 0
    liar = boxes(TTT + "\ndef get_current_player(state):\n    return -4\n")
    report = measure_speed(a, liar, playouts=30, rounds=2, seed=0)
    assert not report.same_playouts and "playout seed" in report.mismatch


def test_an_original_that_does_not_load_is_an_error():
    with pytest.raises(DifferentialError, match="does not load"):
        open_box("raise RuntimeError('no')", what="original")


def test_a_model_with_a_huge_chance_list_is_walked_in_small_batches():
    """The recorded bargaining CWM's deal lists 5,793 chance outcomes (about half a megabyte): walking 100
    games at once answered with more than the box's 16 MiB reply limit, which ends the
    box; the batch now shrinks to fit."""
    from ggp.synth import differential

    recorded = Path(__file__).resolve().parents[2] / "examples/recorded/bargaining/cwm.py"
    box = differential.open_box(recorded.read_text(), what="original")
    try:
        assert differential._walk_batch(box, 60.0) < differential.WALK_BATCH
        games = differential.random_trajectories(box, 12, seed=1, seconds=60.0)
    finally:
        box.close()
    assert len(games) == 12 and all(games)
