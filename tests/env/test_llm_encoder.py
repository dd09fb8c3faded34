"""The LLM-written encoder: requested through ggp.llm, checked in the sandbox. Every answer
here is SCRIPTED (ggp.llm.scripted.ScriptedLLM), never a language model's work."""

from __future__ import annotations

import pytest

from ggp.env.encoding import EncodingError
from ggp.env.llm_encoder import LLMEncoder, check_encoder, request_llm_encoder
from ggp.env.samples import random_play_samples
from ggp.llm.client import LLMClient
from ggp.llm.scripted import ScriptedLLM
from ggp.load import load_model

# SCRIPTED answer: a correct tic-tac-toe encoder (board one-hot, player, winner, rewards).
GOOD = '''Here it is:
```python
MARKS = [".", "x", "o"]
PLAYERS = [0, 1, -4]
WINNERS = [None, 0, 1, -1]

def observation_to_tensor(observation):
    out = []
    for row in observation["board"]:
        for cell in row:
            out += [1.0 if cell == m else 0.0 for m in MARKS]
    out += [1.0 if observation["current_player"] == p else 0.0 for p in PLAYERS]
    out += [1.0 if observation["winner"] == w else 0.0 for w in WINNERS]
    out += [float(r) for r in observation["rewards"]]
    return out

def tensor_to_observation(tensor):
    board = [[MARKS[tensor[3 * (3 * r + c):3 * (3 * r + c) + 3].index(1.0)]
              for c in range(3)] for r in range(3)]
    player = PLAYERS[tensor[27:30].index(1.0)]
    winner = WINNERS[tensor[30:34].index(1.0)]
    return {"board": board, "current_player": player, "winner": winner,
            "rewards": [tensor[34], tensor[35]]}
```'''

# SCRIPTED answer: forgets the rewards, so it is not a bijection.
LOSSY = GOOD.replace('    out += [float(r) for r in observation["rewards"]]\n', '').replace(
    '"rewards": [tensor[34], tensor[35]]', '"rewards": [0.0, 0.0]')


def _observations() -> list:
    return random_play_samples(load_model("tic_tac_toe"), 40, seed=0).observations


def test_lossy_answer_is_refused_with_feedback_then_fixed() -> None:
    fake = ScriptedLLM([LOSSY, GOOD])
    encoder = request_llm_encoder(LLMClient(fake), _observations(), game="tic_tac_toe")
    try:
        assert encoder.size == 36 and encoder.scripted
        assert "tensor_to_observation gave back" in fake.requests[1][-1]["content"]
        observations = _observations()[:5]
        batch = encoder.encode_batch(observations)
        assert batch.shape == (5, 36)
        assert (encoder.encode(observations[3]) == batch[3]).all()
        again = LLMEncoder.from_dict(encoder.to_dict())
        assert (again.encode(observations[0]) == batch[0]).all()
        again.close()
    finally:
        encoder.close()


def test_no_passing_answer_is_a_clear_error() -> None:
    fake = ScriptedLLM([LOSSY, "no code at all", "def observation_to_tensor(o): return []"])
    with pytest.raises(EncodingError, match="no LLM-written encoder passed"):
        request_llm_encoder(LLMClient(fake), _observations(), attempts=3)


def test_hostile_encoder_is_contained() -> None:
    source = "import os\nos.system('echo hi')\n" + GOOD.split("```python")[1].split("```")[0]
    size, reason = check_encoder(source, _observations()[:3])
    assert size == 0 and reason


def test_ppo_trains_through_an_llm_written_encoder(tmp_path) -> None:
    pytest.importorskip("torch")
    from ggp.agents import make_agent
    from ggp.arena.match import play_match
    from ggp.learn.run import TrainSpec, train_seeds

    spec = TrainSpec(game="tic_tac_toe", out=str(tmp_path), steps=200, fit_games=20,
                     eval_games=5, num_envs=4, horizon=25, encoder="llm",
                     llm=LLMClient(ScriptedLLM([GOOD])))
    summary = train_seeds(spec)
    assert summary["obs_size"] == 36
    model = load_model("tic_tac_toe")
    agent = make_agent(f"ppo:checkpoint={summary['best']}", model)
    assert play_match(model, [agent, make_agent("random", model)], seed=1).forfeit is None
