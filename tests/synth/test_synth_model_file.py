"""A user's own game as a .py model file is the ground truth of a synthesis (issue 17).

The answer below is SCRIPTED (the example file's own code), not a model's work."""

from __future__ import annotations

from pathlib import Path

import pytest

from ggp import llm
from ggp.synth.model_file import ModelFileError
from ggp.synth.refine import Settings
from ggp.synth.run import RunError, model_file_task, synthesize

NIM = Path(__file__).resolve().parents[2] / "examples" / "games" / "nim.py"


def test_a_model_file_is_recorded_in_a_sandbox_and_synthesized_like_a_registered_game(
        tmp_path):
    task = model_file_task(NIM, games=3, test_games=10, seed=0)
    assert task.rules.startswith("Nim with a random pile")
    assert len(task.train.trajectories) == 3 and len(task.test.trajectories) == 10
    assert task.train.trajectories[0].steps[0].current_player == -1  # chance sets the pile
    code = NIM.read_text()
    answer = "```python\n" + code[code.index("INITIAL_STATE"):] + "```"
    meta = synthesize(tmp_path / "run", task, llm.ScriptedLLM([answer]), Settings(),
                      test_games=10)
    assert meta.source == "model file nim.py" and meta.status == "solved"
    assert meta.test.accuracy == 1.0 and meta.test.games == 10
    assert meta.test.players == ["random", "mcts:sims=100:rollouts=1"]


def test_rules_come_from_a_file_when_given(tmp_path):
    rules = tmp_path / "rules.txt"
    rules.write_text("My own words.")
    task = model_file_task(NIM, rules_file=rules, games=1, test_games=0)
    assert task.rules == "My own words." and task.test is None


def test_a_model_file_without_rules_or_with_failing_code_is_a_clear_error(tmp_path):
    bare = tmp_path / "bare.py"
    code = NIM.read_text()
    bare.write_text(code.replace("RULES =", "NOT_RULES ="))
    with pytest.raises(RunError, match="--rules FILE or define a RULES"):
        model_file_task(bare, games=1, test_games=0)
    broken = tmp_path / "broken.py"
    broken.write_text(code.replace('"pile": int(number),', '"pile": int(number) // 0,'))
    with pytest.raises(ModelFileError, match="ZeroDivisionError"):
        model_file_task(broken, games=1, test_games=0)
    with pytest.raises(ModelFileError, match="No such model file"):
        model_file_task(tmp_path / "missing.py", games=1, test_games=0)
