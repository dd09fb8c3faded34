"""Our masked PPO against sb3-contrib's MaskablePPO on the same Gymnasium environment.

Usage: python bench/ppo_vs_maskable.py [--game tic_tac_toe] [--seat 0] [--steps 50000]
       [--eval-games 500]

Both train the feed-forward case (2 x 256 tanh, Table 17 hyperparameters where
MaskablePPO has them: 50 environments x 100 steps, gamma 0.99, lambda 0.95, clip 0.2,
value coefficient 0.5, lr 3e-4, grad-norm 0.5, 4 epochs, minibatch 500 = 5000 / 10;
MaskablePPO's entropy coefficient is constant, set to 0.01) for ``--steps`` learner
steps on ``ggp.env.envs.SeatEnv`` / ``VectorSeatEnv`` of one seat against random, and are
evaluated on the same games against random (MaskablePPO: the same sampling policy through
its ``predict(..., action_masks=...)``). Prints the win rates and the wall-clock ratio.
Needs ``pip install sb3-contrib`` (not a ggp dependency).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time

import torch

from ggp.env.envs import Encoding, SeatEnv, VectorSeatEnv
from ggp.env.games import SeatGame
from ggp.learn.ppo import Policy, PPOConfig, Trainer, evaluate
from ggp.load import load_model


def evaluate_sb3(model, game_model, encoding, seat: int, games: int, seed: int) -> float:
    game = SeatGame(game_model, seat, random.Random(seed + 1))
    wins = 0
    for _ in range(games):
        obs, legal = game.reset()
        done = False
        while not done:
            vector = encoding.encode(obs)
            mask = encoding.index.mask(legal, seat).astype(bool)
            action, _ = model.predict(vector, action_masks=mask, deterministic=False)
            obs, legal, _, done, _ = game.step(encoding.index.action(int(action), legal, seat))
        wins += game.episode_return > 0
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tic_tac_toe")
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--steps", type=int, default=50_000)
    parser.add_argument("--eval-games", type=int, default=500)
    args = parser.parse_args()
    torch.set_num_threads(1)
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    truth = load_model(args.game)
    encoding = Encoding.for_model(truth, games=300, unknown="ignore")

    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        ours = Trainer(VectorSeatEnv(truth, encoding, 50, args.seat, seed=0), encoding,
                       PPOConfig(network="mlp"), checkpoint=f"{tmp}/c.pt")
        ours.train(args.steps, checkpoint_every=10**9)
    ours_s = time.perf_counter() - start
    ours_win = evaluate(Policy(ours.net, encoding), truth, args.seat, args.eval_games, 7)["win"]

    start = time.perf_counter()
    venv = DummyVecEnv([lambda i=i: SeatEnv(truth, args.seat, encoding) for i in range(50)])
    sb3 = MaskablePPO("MlpPolicy", venv, n_steps=100, batch_size=500, n_epochs=4,
                      gamma=0.99, gae_lambda=0.95, clip_range=0.2, vf_coef=0.5,
                      ent_coef=0.01, learning_rate=3e-4, max_grad_norm=0.5, seed=0,
                      policy_kwargs={"net_arch": [256, 256], "activation_fn": torch.nn.Tanh},
                      device="cpu")
    sb3.learn(args.steps)
    sb3_s = time.perf_counter() - start
    sb3_win = evaluate_sb3(sb3, truth, encoding, args.seat, args.eval_games, 7)

    print(f"{args.game} seat {args.seat}, {args.steps:,} steps, "
          f"{args.eval_games} evaluation games against random")
    print("| implementation | win rate | train seconds | time ratio to ours |")
    print("|---|---:|---:|---:|")
    print(f"| ggp.learn.ppo (mlp) | {ours_win:.3f} | {ours_s:.1f} | 1.00 |")
    print(f"| sb3-contrib MaskablePPO | {sb3_win:.3f} | {sb3_s:.1f} | {sb3_s / ours_s:.2f} |")


if __name__ == "__main__":
    main()
