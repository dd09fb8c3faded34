"""Self-play with one network for every seat: win rate against random before and after.

    python bench/selfplay.py tic_tac_toe --steps 30000
    python bench/selfplay.py connect_four --steps 30000

Trains :func:`ggp.learn.selfplay.train_self_play` (16 games × 32 steps per update, a
64-unit MLP, lr 1e-3, league of 5) and evaluates the same network in every seat against
uniformly random opponents, before training (the fresh network, nearly uniform) and after.
"""

from __future__ import annotations

import argparse
import tempfile
import time

import torch

from ggp.env.envs import Encoding
from ggp.learn.ppo import Policy, PolicyNet, PPOConfig, evaluate
from ggp.learn.selfplay import train_self_play
from ggp.load import load_model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--steps", type=int, default=30_000)
    parser.add_argument("--eval-games", type=int, default=200)
    args = parser.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(0)
    model = load_model(args.game)
    encoding = Encoding.for_model(model, games=200)
    config = PPOConfig(num_envs=16, horizon=32, minibatches=4, lr=1e-3, hidden=64)
    seats = range(model.num_players)
    fresh = Policy(PolicyNet(encoding.encoder.size, len(encoding.index), "mlp", 64), encoding)
    before = [evaluate(fresh, model, s, args.eval_games, seed=1)["win"] for s in seats]
    t0 = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        trainer = train_self_play(model, encoding, config, args.steps, f"{tmp}/c.pt")
    seconds = time.time() - t0
    after = [evaluate(Policy(trainer.net, encoding), model, s, args.eval_games, seed=1)
             for s in seats]
    print(f"{args.game}: {len(encoding.index)} actions for {model.num_players} seats, "
          f"{args.steps} steps in {seconds:.0f} s")
    for s in seats:
        r = after[s]
        print(f"  P{s}: win {before[s]:.3f} -> {r['win']:.3f} (draw {r['draw']:.3f}, "
              f"loss {r['loss']:.3f}) over {args.eval_games} games against random")


if __name__ == "__main__":
    main()
