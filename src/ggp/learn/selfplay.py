"""Self-play: one network for every seat, against itself and a league of its past selves.

The action index is shared across seats where the moves allow it
(:func:`ggp.env.encoding.seat_tokens`: tic-tac-toe's ``x``/``o`` moves are one index), so
one :class:`~ggp.learn.ppo.PolicyNet` can play any seat. :func:`train_self_play` runs PPO
on games in which the learner takes seat ``i mod players`` of game ``i``; every other seat
is played by a :class:`PolicyOpponent` that, at the start of each game, picks the live
network (probability ``live_share``) or one of the last ``league_size`` frozen copies
(a copy is taken every ``snapshot_every`` updates). The opponents sample from the masked
policy, as the learner does. Only the feed-forward network (``mlp``) can be an opponent:
a recurrent opponent would need its own hidden state per game.

Limits: the league lives in memory; a resumed run starts with an empty league.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import numpy as np
import torch

from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.learn.ppo import NEG, PPOConfig, PolicyNet, Trainer


class League:
    """The live network and frozen copies of it (see the module doc)."""

    def __init__(self, live: PolicyNet, size: int = 5, live_share: float = 0.5,
                 seed: int = 0) -> None:
        if live.recurrent:
            raise GGPError("self-play opponents need the feed-forward network (mlp)")
        self.live, self.size, self.live_share = live, size, live_share
        self.members: list[PolicyNet] = []
        self.rng = random.Random(seed)

    def snapshot(self) -> None:
        """Freeze a copy of the live network (the oldest copy goes past ``size``)."""
        if self.size <= 0:
            return
        frozen = copy.deepcopy(self.live).eval()
        for p in frozen.parameters():
            p.requires_grad_(False)
        self.members = (self.members + [frozen])[-self.size:]

    def pick(self) -> PolicyNet:
        if not self.members or self.rng.random() < self.live_share:
            return self.live
        return self.rng.choice(self.members)


class PolicyOpponent:
    """A :data:`ggp.env.games.Opponent` that plays a league member from the seat's own
    observation; the member is chosen anew for each game (:meth:`new_game`)."""

    def __init__(self, league: League, encoding: Any, seed: int = 0) -> None:
        self.league, self.encoding = league, encoding
        self.rng = np.random.default_rng(seed)
        self.net = league.pick()

    def new_game(self) -> None:
        self.net = self.league.pick()

    @torch.no_grad()
    def __call__(self, model: WorldModel, state: dict, player: int,
                 rng: random.Random) -> str:
        legal = model.legal_actions(state)
        index = self.encoding.index
        obs = torch.as_tensor(self.encoding.encode(model.observation(state, player)))
        logits, _, _ = self.net(obs.view(1, 1, -1), torch.ones(1, 1),
                                self.net.initial_hidden(1))
        mask = torch.as_tensor(index.mask(legal, player).astype(bool))
        logits = logits[0, 0].masked_fill(~mask, NEG)
        probs = torch.softmax(logits, -1).numpy().astype(np.float64)
        i = int(self.rng.choice(len(probs), p=probs / probs.sum()))
        return index.action(i, legal, player) or rng.choice(legal)


def train_self_play(model: WorldModel, encoding: Any, config: PPOConfig, total_steps: int,
                    checkpoint: str | Path, *, league_size: int = 5,
                    snapshot_every: int = 10, live_share: float = 0.5,
                    seconds: float | None = None, clock: Any = None,
                    progress: Any = None) -> Trainer:
    """PPO self-play on ``model`` with one network for every seat; see the module doc.
    Returns the trainer (its ``net`` is the shared policy; the checkpoint records
    ``self_play`` and the seats). ``seconds``: a time budget as well, measured by
    ``clock`` (wall time by default; :meth:`Trainer.train`)."""
    from ggp.env.envs import VectorSeatEnv

    if config.network != "mlp":
        raise GGPError("self-play needs network=mlp (see ggp.learn.selfplay)")
    encoding.check(model)
    seats = [i % model.num_players for i in range(config.num_envs)]
    trainer = Trainer(None, encoding, config, checkpoint=checkpoint,
                      meta={"game": model.name, "seat": 0, "seats": sorted(set(seats)),
                            "self_play": True},
                      win_above=(float(model.metadata.min_utility)
                                 + float(model.metadata.max_utility)) / 2.0)
    league = League(trainer.net, league_size, live_share, seed=config.seed)
    opponents = [PolicyOpponent(league, encoding, seed=config.seed * 1000 + i)
                 for i in range(config.num_envs)]
    trainer.env = VectorSeatEnv(model, encoding, config.num_envs, seats, seed=config.seed,
                                opponents=opponents)
    updates = [0]

    def on_update(row: dict[str, Any]) -> None:
        updates[0] += 1
        if updates[0] % snapshot_every == 0:
            league.snapshot()
        if progress is not None:
            progress(row)

    timing = {"seconds": seconds, **({"clock": clock} if clock is not None else {})}
    trainer.train(total_steps, progress=on_update, **timing)
    return trainer


__all__ = ["League", "PolicyOpponent", "train_self_play"]
