"""Self-play: one network plays both seats of tic-tac-toe, against itself and a league."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("pettingzoo")
from ggp.agents import make_agent  # noqa: E402
from ggp.arena.match import play_match  # noqa: E402
from ggp.core.errors import GGPError  # noqa: E402
from ggp.env.envs import Encoding  # noqa: E402
from ggp.learn.ppo import PPOConfig, load_checkpoint  # noqa: E402
from ggp.learn.selfplay import train_self_play  # noqa: E402
from ggp.load import load_model  # noqa: E402


def test_one_network_trains_and_plays_both_seats(tmp_path) -> None:
    model = load_model("tic_tac_toe")
    encoding = Encoding.for_model(model, games=50)
    assert len(encoding.index) == 9  # the shared index makes one network possible
    config = PPOConfig(num_envs=8, horizon=16, minibatches=2, hidden=32)
    snapshots = []
    trainer = train_self_play(model, encoding, config, 8 * 16 * 6, tmp_path / "c.pt",
                              league_size=2, snapshot_every=2,
                              progress=lambda row: snapshots.append(row["step"]))
    assert trainer.step == 768 and len(snapshots) == 6
    assert trainer.env.seats == [0, 1] * 4
    data = load_checkpoint(tmp_path / "c.pt")
    assert data["self_play"] and data["seats"] == [0, 1]
    agent = make_agent(f"ppo:checkpoint={tmp_path / 'c.pt'}", model)  # one file, any seat
    for seat in (0, 1):
        players = [make_agent("random", model), make_agent("random", model)]
        players[seat] = agent
        assert play_match(model, players, seed=seat).forfeit is None


def test_a_time_budget_ends_training_and_the_entropy_schedule(tmp_path) -> None:
    model = load_model("tic_tac_toe")
    encoding = Encoding.for_model(model, games=10)
    config = PPOConfig(num_envs=4, horizon=8, minibatches=2, hidden=16)
    rows = []
    trainer = train_self_play(model, encoding, config, 10**9, tmp_path / "c.pt", seconds=0,
                              progress=rows.append)
    assert trainer.step == 32 and len(rows) == 1  # stopped after the update that used it
    assert rows[0]["entropy_coef"] == pytest.approx(config.entropy_end)  # annealed by time
    assert load_checkpoint(tmp_path / "c.pt")["step"] == 32


def test_self_play_needs_the_feed_forward_network(tmp_path) -> None:
    model = load_model("tic_tac_toe")
    encoding = Encoding.for_model(model, games=5)
    with pytest.raises(GGPError, match="mlp"):
        train_self_play(model, encoding, PPOConfig(network="gru", num_envs=10), 10,
                        tmp_path / "c.pt")


def test_cli_self_play_and_agent_opponent(tmp_path, capsys) -> None:
    from ggp.cli.main import main

    out = tmp_path / "sp"
    common = ["--steps", "160", "--envs", "4", "--horizon", "20", "--fit-games", "10",
              "--eval-games", "4"]
    assert main(["ppo", "train", "tic_tac_toe", "--out", str(out), "--self-play",
                 *common]) == 0
    assert (out / "seat0" / "best.pt").is_file() and (out / "seat1" / "best.pt").is_file()
    summary = (out / "self_play" / "summary.json").read_text()
    assert '"by_seat"' in summary and '"self_play": true' in summary
    model = load_model("tic_tac_toe")
    agents = [make_agent(f"ppo:checkpoint={out}", model) for _ in range(2)]
    assert play_match(model, agents, seed=1).forfeit is None  # the same network, both seats
    vs = tmp_path / "vs"
    assert main(["ppo", "train", "tic_tac_toe", "--out", str(vs), "--seat", "1",
                 "--opponent", "gt_mcts:sims=5", *common]) == 0
    assert load_checkpoint(vs / "seat1" / "best.pt")["opponent"] == "gt_mcts:sims=5"
    assert main(["ppo", "train", "tic_tac_toe", "--out", str(vs), "--self-play",
                 "--opponent", "random"]) == 2
    assert "exclude each other" in capsys.readouterr().err
