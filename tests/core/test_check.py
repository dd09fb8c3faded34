"""`ggp check` accepts correct models and catches each kind of broken one."""

from pathlib import Path

import pytest

from ggp.check import check_model
from ggp.core.errors import ModelLoadError
from ggp.load import load_model

BROKEN = Path(__file__).parent / "broken_models"


def check(name, **kwargs):
    return check_model(load_model(str(BROKEN / f"{name}.py")), games=20, **kwargs)


def test_correct_model_passes():
    report = check("counting")
    assert report.ok, report.violations
    assert report.games == 20 and report.steps > 20
    assert {tuple(r) for r in report.terminal_returns} == {(1.0, -1.0), (-1.0, 1.0)}


@pytest.mark.parametrize(
    "name, kind, function",
    [
        ("mutating", "mutates-input", "apply_action"),
        ("non_json", "non-json-state", "apply_action"),
        ("wrong_rewards", "bad-rewards", "get_rewards"),
        ("raising", "exception", "apply_action"),
    ],
)
def test_broken_model_is_caught(name, kind, function):
    report = check(name)
    assert not report.ok
    assert kind in report.violations, report.violations
    assert report.violations[kind].function == function


def test_non_termination_is_caught_with_reproducer():
    report = check("non_terminating", max_steps=100)
    violation = report.violations["non-terminating"]
    assert len(violation.actions) == 100


def test_reproducer_is_shortest_and_replays():
    report = check("raising")
    violation = report.violations["exception"]
    model = load_model(str(BROKEN / "raising.py"))
    state = model.initial_state()
    for action in violation.actions[:-1]:
        state = model.apply(state, action)
    # The reproducer ends with the failing move, which reaches a total of 4.
    assert state["total"] + int(violation.actions[-1]) == 4
    with pytest.raises(Exception, match="board"):
        model.apply(state, violation.actions[-1])


@pytest.mark.parametrize("name, phrase", [
    ("missing_function", "missing get_observations"),
    ("syntax_error", "syntax error at line"),
])
def test_unloadable_models_get_clear_errors(name, phrase):
    with pytest.raises(ModelLoadError, match=phrase):
        load_model(str(BROKEN / f"{name}.py"))


def test_inference_is_checked():
    from ggp.core.model import load_model_source

    source = (BROKEN / "counting.py").read_text() + (
        "\n\ndef resample_history(history, player_id):\n    return ['+1'] * len(history)\n"
    )
    report = check_model(load_model_source(source, name="bad_inference"), games=10)
    assert "bad-inference" in report.violations


def test_untrusted_source_is_checked_in_a_sandbox():
    from ggp.check import check_source

    source = (BROKEN / "mutating.py").read_text()
    report = check_source(source, name="mutating", filename="mutating.py", games=5)
    assert "mutates-input" in report.violations and report.games == 5
    with pytest.raises(ModelLoadError, match="syntax error"):
        check_source((BROKEN / "syntax_error.py").read_text(), name="s", filename="s.py")


def test_a_model_that_hangs_is_stopped_by_the_sandbox():
    from ggp.check import check_source

    source = (BROKEN / "counting.py").read_text().replace(
        "def get_rewards(state):\n", "def get_rewards(state):\n    while True:\n        pass\n")
    report = check_source(source, name="hang", filename="hang.py", games=2, timeout=5)
    assert "sandbox" in report.violations
    assert "timeout" in report.violations["sandbox"].message or "cpu" in \
        report.violations["sandbox"].message
