"""PPO: learns a cue-dependent choice (MLP and GRU), resumes from checkpoints, plays as an
arena agent. Tiny budgets: a few thousand steps of a one-decision game."""

from __future__ import annotations

import pytest

from ggp.core.errors import GGPError

torch = pytest.importorskip("torch")
pytest.importorskip("pettingzoo")

from ggp.agents import make_agent  # noqa: E402
from ggp.arena.match import play_match  # noqa: E402
from ggp.cli.main import main  # noqa: E402
from ggp.core.model import WorldModel  # noqa: E402
from ggp.core.protocol import GameMetadata  # noqa: E402
from ggp.env.envs import Encoding, VectorSeatEnv  # noqa: E402
from ggp.env.samples import random_play_samples  # noqa: E402
from ggp.learn.ppo import Policy, PPOConfig, Trainer, evaluate  # noqa: E402
from ggp.load import load_model  # noqa: E402

torch.set_num_threads(1)


class CueGame:
    """Chance shows player 0 a cue; answering "left" to "L" or "right" to "R" wins."""

    INITIAL_STATE = {"cue": None, "answer": None}
    METADATA = GameMetadata(num_players=1, min_utility=-1, max_utility=1, zero_sum=False,
                            chance=True)

    @staticmethod
    def get_current_player(s):
        return -1 if s["cue"] is None else (0 if s["answer"] is None else -4)

    @staticmethod
    def get_player_name(p):
        return {-1: "chance", -4: "terminal"}.get(p, "solo")

    @staticmethod
    def get_legal_actions(s):
        p = CueGame.get_current_player(s)
        return ["L", "R"] if p == -1 else ["left", "right"] if p == 0 else []

    @staticmethod
    def apply_action(s, a):
        return {"cue": a, "answer": None} if s["cue"] is None else {**s, "answer": a}

    @staticmethod
    def get_rewards(s):
        if s["answer"] is None:
            return [0.0]
        return [1.0 if s["answer"][0].upper() == s["cue"] else -1.0]

    @staticmethod
    def get_observations(s):
        return [{"cue": s["cue"], "done": s["answer"] is not None}]


def _cue_model() -> WorldModel:
    return WorldModel(CueGame, name="cue", trusted=True, metadata=CueGame.METADATA)


@pytest.mark.parametrize("network", ["mlp", "gru"])
def test_ppo_learns_a_cue_dependent_choice(network: str, tmp_path) -> None:
    model = _cue_model()
    encoding = Encoding.fit(random_play_samples(model, 20))
    config = PPOConfig(network=network, num_envs=8, horizon=16, minibatches=4, lr=3e-3)
    env = VectorSeatEnv(model, encoding, config.num_envs, 0, seed=0)
    trainer = Trainer(env, encoding, config, checkpoint=tmp_path / "c.pt")
    before = evaluate(Policy(trainer.net, encoding), model, 0, 200, seed=1)
    trainer.train(3000)
    after = evaluate(Policy(trainer.net, encoding), model, 0, 200, seed=1)
    assert 0.3 < before["win"] < 0.7
    assert after["win"] > 0.9


def test_training_resumes_from_its_checkpoint(tmp_path) -> None:
    model = _cue_model()
    encoding = Encoding.fit(random_play_samples(model, 20))
    config = PPOConfig(num_envs=4, horizon=10, minibatches=2)

    def trainer() -> Trainer:
        env = VectorSeatEnv(model, encoding, 4, 0, seed=0)
        return Trainer(env, encoding, config, checkpoint=tmp_path / "c.pt")

    first = trainer()
    first.train(80, checkpoint_every=1)
    again = trainer()
    assert again.step == 80 and len(again.history) == 2
    for a, b in zip(first.net.parameters(), again.net.parameters()):
        assert torch.equal(a, b)
    again.train(120)
    assert again.step == 120 and trainer().step == 120


def test_cli_train_eval_and_arena_agent(tmp_path, capsys) -> None:
    out = tmp_path / "run"
    args = ["ppo", "train", "tic_tac_toe", "--out", str(out), "--seat", "1", "--steps", "400",
            "--envs", "4", "--horizon", "20", "--seeds", "2", "--fit-games", "20",
            "--eval-games", "10"]
    assert main(args) == 0
    best = out / "seat1" / "best.pt"
    assert best.is_file() and (out / "seat1" / "seed1" / "eval.json").is_file()
    assert main(["ppo", "eval", str(best), "--games", "5"]) == 0
    assert '"seat": 1' in capsys.readouterr().out
    model = load_model("tic_tac_toe")
    agent = make_agent(f"ppo:checkpoint={best}", model)
    result = play_match(model, [make_agent("random", model), agent], seed=3)
    assert result.forfeit is None
    by_seat = make_agent(f"ppo:checkpoint={out}", model)  # the run folder: seat1/best.pt
    assert play_match(model, [make_agent("random", model), by_seat], seed=4).forfeit is None
    missing = play_match(model, [by_seat, make_agent("random", model)], seed=4)
    assert "no PPO checkpoint for seat 0" in missing.forfeit.detail
    # a checkpoint knows its game: another one is a one-line error, not blind play
    with pytest.raises(GGPError, match="trained on tic_tac_toe .* not on connect_four"):
        make_agent(f"ppo:checkpoint={best}", load_model("connect_four"))


def test_cli_errors_are_one_line(tmp_path, capsys) -> None:
    assert main(["ppo", "eval", str(tmp_path / "missing.pt")]) == 2
    (tmp_path / "junk.pt").write_text("not a checkpoint")
    assert main(["ppo", "eval", str(tmp_path / "junk.pt")]) == 2
    assert main(["ppo", "train", "tic_tac_toe", "--out", str(tmp_path), "--seat", "5"]) == 2
    err = capsys.readouterr().err
    assert "No PPO checkpoint" in err and "not a PPO checkpoint" in err and "no seat 5" in err
    assert "Traceback" not in err
