"""Self-play at equal time: ggp's PPO against sb3-contrib's MaskablePPO.

Usage: nice -n 19 python bench/selfplay_vs_maskable.py [GAME ...] [--seconds 150]
       [--eval-games 200] [--envs 16]

For each game (default: tic_tac_toe connect_four), each learner trains ONE network for
every seat by self-play for the same budget of this process's CPU seconds
(``time.process_time``, single-threaded with ``torch.set_num_threads(1)``: on an idle
machine that is its wall time, and on a shared one other jobs do not change it), in this
process, one after the other:

* ``ggp table17``: :func:`ggp.learn.selfplay.train_self_play` with ``PPOConfig()`` (seed
  000's Table 17: 50 games x 100 steps, 2 x 256 tanh, lr 3e-4, 10 x 4 minibatch epochs,
  entropy 0.1 -> 0.01 annealed over the time budget), a league of 5 past copies;
* ``ggp small``: the same with 16 games x 32 steps, 2 x 64, lr 1e-3, 4 minibatches
  (``bench/selfplay.py``'s settings);
* ``MaskablePPO``: sb3-contrib's library defaults (2 x 64 tanh, lr 3e-4, batch 64,
  10 epochs, no entropy bonus) with ``--envs`` games of :class:`ggp.env.sb3.GameVecEnv`
  and a rollout of 2,048 steps (the library's default size), the other seats played by
  its live policy (no league).

Game ``i`` of every learner has the learner in seat ``i mod players``. Each network is then
evaluated, sampling from its masked policy, against uniformly random play in every seat,
and each ggp network plays the MaskablePPO network (``--eval-games`` per seat
arrangement). Prints a Markdown table; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from typing import Any, Callable

import numpy as np
import torch

from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL
from ggp.env.envs import Encoding
from ggp.learn.ppo import NEG, PolicyNet, PPOConfig, midpoint
from ggp.learn.selfplay import train_self_play
from ggp.load import load_model

#: picks an action index from an encoded observation and its legal mask
Picker = Callable[[np.ndarray, np.ndarray], int]


def ggp_picker(net: PolicyNet, rng: np.random.Generator) -> Picker:
    @torch.no_grad()
    def pick(obs: np.ndarray, mask: np.ndarray) -> int:
        logits, _, _ = net(torch.as_tensor(obs).view(1, 1, -1), torch.ones(1, 1),
                           net.initial_hidden(1))
        logits = logits[0, 0].masked_fill(~torch.as_tensor(mask), NEG)
        probs = torch.softmax(logits, -1).numpy().astype(np.float64)
        return int(rng.choice(len(probs), p=probs / probs.sum()))
    return pick


def sb3_picker(agent: Any) -> Picker:
    def pick(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = agent.predict(obs, action_masks=mask, deterministic=False)
        return int(action)
    return pick


def random_picker(rng: np.random.Generator) -> Picker:
    return lambda obs, mask: int(rng.choice(np.flatnonzero(mask)))


def play(model: WorldModel, encoding: Encoding, pickers: list[Picker],
         rng: random.Random) -> list[float]:
    """One game with ``pickers[p]`` choosing for seat ``p``; returns the returns."""
    state, returns = model.initial_state(), [0.0] * model.num_players
    while (player := model.current_player(state)) != TERMINAL:
        if player == CHANCE:
            action = model.sample_chance(state, rng)
        else:
            legal = model.legal_actions(state)
            mask = encoding.index.mask(legal, player).astype(bool)
            i = pickers[player](encoding.encode(model.observation(state, player)), mask)
            action = encoding.index.action(i, legal, player)
        state = model.apply(state, action)
        returns = [a + float(b) for a, b in zip(returns, model.rewards(state))]
    return returns


def rates(model: WorldModel, encoding: Encoding, me: Picker, other: Picker, seat: int,
          games: int, seed: int) -> tuple[float, float, float]:
    """Win / draw / loss of ``me`` in ``seat`` against ``other`` in every other seat."""
    rng, mid, outcome = random.Random(seed), midpoint(model), []
    for _ in range(games):
        pickers = [me if p == seat else other for p in range(model.num_players)]
        r = play(model, encoding, pickers, rng)[seat]
        outcome.append(1 if r > mid else (0 if r == mid else -1))
    o = np.array(outcome)
    return float((o == 1).mean()), float((o == 0).mean()), float((o == -1).mean())


def train_ggp(model: WorldModel, encoding: Encoding, config: PPOConfig,
              seconds: float) -> tuple[PolicyNet, int, float]:
    """The trained network, its learner steps and the CPU seconds used."""
    start = time.process_time()
    with tempfile.TemporaryDirectory() as tmp:
        trainer = train_self_play(model, encoding, config, 10**12, f"{tmp}/c.pt",
                                  seconds=seconds, clock=time.process_time,
                                  progress=_progress("ggp", start))
    return trainer.net, trainer.step, time.process_time() - start


def train_maskable(model: WorldModel, encoding: Encoding, envs: int,
                   seconds: float) -> tuple[Any, int, float]:
    """The trained MaskablePPO, its learner steps and the CPU seconds used."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    from ggp.env.sb3 import GameVecEnv

    class LivePolicy:
        """The other seats, played by the network being trained (set once it exists)."""
        agent: Any = None

        def __init__(self, seed: int) -> None:
            self.rng = np.random.default_rng(seed)

        def __call__(self, model: WorldModel, state: dict, player: int,
                     rng: random.Random) -> str:
            legal = model.legal_actions(state)
            mask = encoding.index.mask(legal, player).astype(bool)
            obs = encoding.encode(model.observation(state, player))
            i = sb3_picker(LivePolicy.agent)(obs, mask)
            return encoding.index.action(i, legal, player) or rng.choice(legal)

    class Budget(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.start, self.shown = time.process_time(), 0.0

        def _on_step(self) -> bool:
            elapsed = time.process_time() - self.start
            if elapsed - self.shown >= 15:
                self.shown = elapsed
                print(f"  MaskablePPO: {self.num_timesteps:,} steps, {elapsed:.0f} CPU s",
                      file=sys.stderr, flush=True)
            return elapsed < seconds

    seats = [i % model.num_players for i in range(envs)]
    venv = GameVecEnv(model, encoding, envs, seats,
                      opponents=[LivePolicy(i) for i in range(envs)])
    start = time.process_time()
    agent = MaskablePPO("MlpPolicy", venv, n_steps=max(1, 2048 // envs), seed=0, device="cpu")
    LivePolicy.agent = agent
    agent.learn(10**12, callback=Budget())
    return agent, agent.num_timesteps, time.process_time() - start


def _progress(name: str, start: float) -> Callable[[dict[str, Any]], None]:
    shown = [0.0]

    def show(row: dict[str, Any]) -> None:
        elapsed = time.process_time() - start
        if elapsed - shown[0] >= 15:
            shown[0] = elapsed
            print(f"  {name}: {row['step']:,} steps, {elapsed:.0f} CPU s, training win rate "
                  f"{row['win_rate']:.2f}", file=sys.stderr, flush=True)
    return show


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=["tic_tac_toe", "connect_four"])
    parser.add_argument("--seconds", type=float, default=150.0,
                        help="CPU seconds of training per learner")
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--envs", type=int, default=16, help="MaskablePPO's games")
    args = parser.parse_args()
    torch.set_num_threads(1)
    print("| game | learner | steps | CPU s | steps/CPU s | win/draw/loss vs random, P0 | "
          "P1 | vs MaskablePPO, P0 | P1 |")
    print("|---|---|---:|---:|---:|---|---|---|---|")
    small = PPOConfig(num_envs=16, horizon=32, minibatches=4, lr=1e-3, hidden=64)
    for game in args.games:
        model = load_model(game)
        encoding = Encoding.for_model(model)
        print(f"{game}: MaskablePPO ({args.seconds:.0f} CPU s)", file=sys.stderr, flush=True)
        torch.manual_seed(0)
        sb3, sb3_steps, sb3_s = train_maskable(model, encoding, args.envs, args.seconds)
        learners: list[tuple[str, Picker, int, float]] = [
            ("MaskablePPO (defaults)", sb3_picker(sb3), sb3_steps, sb3_s)]
        for name, config in [("ggp table17", PPOConfig()), ("ggp small", small)]:
            print(f"{game}: {name} ({args.seconds:.0f} CPU s)", file=sys.stderr, flush=True)
            net, steps, secs = train_ggp(model, encoding, config, args.seconds)
            learners.append((name, ggp_picker(net, np.random.default_rng(1)), steps, secs))
        print(f"{game}: evaluating", file=sys.stderr, flush=True)
        rand = random_picker(np.random.default_rng(2))
        for name, pick, steps, secs in learners:
            cells = []
            for seat in range(model.num_players):
                w, d, lo = rates(model, encoding, pick, rand, seat, args.eval_games, 10 + seat)
                cells.append(f"{w:.2f} / {d:.2f} / {lo:.2f}")
            for seat in range(model.num_players):
                if name.startswith("ggp"):
                    w, d, lo = rates(model, encoding, pick, learners[0][1], seat,
                                     args.eval_games, 20 + seat)
                    cells.append(f"{w:.2f} / {d:.2f} / {lo:.2f}")
                else:
                    cells.append("—")
            print(f"| {game} | {name} | {steps:,} | {secs:.0f} | {steps / secs:,.0f} | "
                  + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
