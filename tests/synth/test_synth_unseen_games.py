"""Issue 31: ``ggp synth GAME.py`` on hidden-information games without an inference
function reaches its first prompt with the default held-out players (random and a
100-simulation ISMCTS on the generic belief, which falls back instead of forfeiting).

The answer is SCRIPTED (the game file's own code), not a model's work."""

from __future__ import annotations

from pathlib import Path

import pytest

from ggp import llm
from ggp.synth.refine import Settings
from ggp.synth.run import model_file_task, synthesize

UNSEEN = Path(__file__).resolve().parents[2] / "benchmarks" / "belief_unseen"


QUICK = ["dev/rank_asking.py", "dev/liar_dice.py"]  # the two games the issue was filed on
GAMES = QUICK + [pytest.param(str(p.relative_to(UNSEEN)), marks=pytest.mark.slow)
                 for p in sorted(UNSEEN.glob("*/*.py"))
                 if str(p.relative_to(UNSEEN)) not in QUICK]


@pytest.mark.parametrize("name", GAMES)
def test_synthesis_of_an_unseen_hidden_game_reaches_its_first_prompt(name, tmp_path):
    """Every game of benchmarks/belief_unseen (about 10-30 s each on a loaded machine:
    all but the two of the issue are marked slow)."""
    path = UNSEEN / name
    task = model_file_task(path, games=1, test_games=3, seed=0)  # default held-out players
    assert task.test is not None and len(task.test.trajectories) == 3
    code = path.read_text()
    fake = llm.ScriptedLLM(lambda messages: "```python\n" + code + "```")
    meta = synthesize(tmp_path / "run", task, fake, Settings(), test_games=3)
    assert fake.requests, "the language model was never asked"
    assert meta.test.players == ["random", "ismcts:sims=100:rollouts=1"]
