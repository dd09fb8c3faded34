"""PPO with masked actions, feed-forward and recurrent (seed 000 App. D, Table 17).

One seat of a world model is trained against random opponents in a
:class:`~ggp.env.envs.VectorSeatEnv` (in-process, or inside the sandboxed CWM). Two
networks:

* ``mlp`` (perfect information): a shared trunk of two 256-unit tanh layers, then an actor
  head (one logit per action of the index, illegal ones masked to -1e9) and a value head;
* ``gru`` (imperfect information): a 256-unit input layer, a GRU, the GRU output
  concatenated with the input observation, a 256-unit layer, then the same two heads. The
  hidden state is carried over the seat's own decisions within a game and reset at the
  start of each game.

Why our own loop: sb3-contrib's ``MaskablePPO`` masks but has no recurrent policy, its
``RecurrentPPO`` is recurrent but cannot mask; TorchRL has the pieces (``ClipPPOLoss``,
GAE, masked categoricals, GRU modules) but wiring them for masked recurrent minibatches
of whole sequences is as long as this file and adds a large dependency pinned to torch
versions. See docs/ppo.md.

Checkpoints (``torch.save`` of a plain dict) hold the network, the optimizer, the step,
the config, the encoding (schema and action index as JSON) and the game; training resumes
from them.
"""

from __future__ import annotations

import json
import math
import random
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import torch
from torch import nn

from ggp.core.files import replace_output
from ggp.core.errors import GGPError
from ggp.core.protocol import TERMINAL

NEG = -1e9


@dataclass
class PPOConfig:
    """Seed 000 Table 17 defaults."""

    network: str = "mlp"           # "mlp" or "gru"
    num_envs: int = 50
    horizon: int = 100
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_start: float = 0.1
    entropy_end: float = 0.01
    lr: float = 3e-4
    max_grad_norm: float = 0.5
    minibatches: int = 10
    epochs: int = 4
    hidden: int = 256
    seed: int = 0
    adv_std_floor: float = 0.1     # see docs/ppo.md: keeps noise from being amplified
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.network not in ("mlp", "gru"):
            raise GGPError(f"network must be mlp or gru, not {self.network!r}")
        if self.num_envs < self.minibatches and self.network == "gru":
            raise GGPError("the recurrent network needs at least one game per minibatch "
                           f"(num_envs {self.num_envs} < minibatches {self.minibatches})")


class PolicyNet(nn.Module):
    """Actor-critic over encoded observations; see the module doc for both variants."""

    def __init__(self, obs_size: int, num_actions: int, network: str = "mlp",
                 hidden: int = 256) -> None:
        super().__init__()
        self.network, self.hidden_size = network, hidden
        if network == "mlp":
            self.trunk = nn.Sequential(nn.Linear(obs_size, hidden), nn.Tanh(),
                                       nn.Linear(hidden, hidden), nn.Tanh())
        else:
            self.input = nn.Sequential(nn.Linear(obs_size, hidden), nn.Tanh())
            self.gru = nn.GRU(hidden, hidden)
            self.post = nn.Sequential(nn.Linear(hidden + obs_size, hidden), nn.Tanh())
        self.actor = nn.Linear(hidden, num_actions)
        self.critic = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.actor.weight, 0.01)
        nn.init.zeros_(self.actor.bias)

    @property
    def recurrent(self) -> bool:
        return self.network == "gru"

    def initial_hidden(self, batch: int) -> torch.Tensor:
        return torch.zeros(1, batch, self.hidden_size)

    def forward(self, obs: torch.Tensor, starts: torch.Tensor, hidden: torch.Tensor):
        """``obs`` (T, B, D), ``starts`` (T, B) 1 where a game begins, ``hidden``
        (1, B, H) before the first step -> logits (T, B, A), values (T, B), hidden."""
        if not self.recurrent:
            features = self.trunk(obs)
        else:
            x = self.input(obs)
            if not bool(starts[1:].any()):  # one call when no game starts inside
                out, hidden = self.gru(x, hidden * (1.0 - starts[0]).view(1, -1, 1))
            else:
                outs = []
                for t in range(obs.shape[0]):
                    hidden = hidden * (1.0 - starts[t]).view(1, -1, 1)
                    out, hidden = self.gru(x[t:t + 1], hidden)
                    outs.append(out)
                out = torch.cat(outs)
            features = self.post(torch.cat([out, obs], dim=-1))
        return self.actor(features), self.critic(features).squeeze(-1), hidden


def masked(logits: torch.Tensor, mask: torch.Tensor) -> torch.distributions.Categorical:
    return torch.distributions.Categorical(logits=logits.masked_fill(~mask, NEG))


# ---------------------------------------------------------------------- checkpoints
def save_checkpoint(path: str | Path, data: dict[str, Any]) -> None:
    """Write atomically (a killed run never leaves a half-written checkpoint)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_output(path, lambda fh: torch.save(data, fh))  # never through a planted link


def load_checkpoint(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    if not path.is_file():
        raise GGPError(f"No PPO checkpoint at {path}.")
    try:
        # weights_only: a checkpoint is data; a pickle that would run code is refused
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001 - any unreadable or hostile file
        first = str(exc).splitlines()[0] if str(exc) else ""
        raise GGPError(f"{path} is not a PPO checkpoint ({type(exc).__name__}: {first})") from exc
    if not isinstance(data, dict) or data.get("format") != "ggp-ppo":
        raise GGPError(f"{path} is not a PPO checkpoint written by ggp ppo train.")
    return data


class Policy:
    """A trained policy: network + encoding, for evaluation and the arena agent."""

    def __init__(self, net: PolicyNet, encoding: Any) -> None:
        self.net, self.encoding = net, encoding

    @classmethod
    def from_checkpoint(cls, data: dict[str, Any]) -> "Policy":
        from ggp.env.envs import Encoding

        encoding = Encoding.from_dict(data["encoding"])
        config = PPOConfig(**data["config"])
        net = PolicyNet(encoding.encoder.size, len(encoding.index), config.network,
                        config.hidden)
        net.load_state_dict(data["net"])
        net.eval()
        return cls(net, encoding)

    def check(self, model: Any) -> None:
        """A one-line error if ``model`` is not the game this policy was trained for."""
        self.encoding.check(model)

    @torch.no_grad()
    def act(self, observations: list[Any], legal: list[str] | None, rng: random.Random,
            greedy: bool = False, seat: int | None = None) -> str:
        """An action for the last of ``observations`` (the seat's observations at each of
        its decisions in this game, oldest first); ``legal`` masks when given. ``seat``
        translates a shared action index (one for every seat) to the seat's own moves."""
        seq = observations if self.net.recurrent else observations[-1:]
        encoder = self.encoding.encoder
        obs = torch.as_tensor(encoder.encode_batch(seq) if hasattr(encoder, "encode_batch")
                              else np.stack([self.encoding.encode(o) for o in seq]))
        starts = torch.zeros(len(seq), 1)
        starts[0] = 1.0
        logits, _, _ = self.net(obs.unsqueeze(1), starts, self.net.initial_hidden(1))
        logits = logits[-1, 0]
        index = self.encoding.index
        if legal:
            mask = torch.as_tensor(index.mask(legal, seat).astype(bool))
            logits = logits.masked_fill(~mask, NEG)
        if greedy:
            i = int(logits.argmax())
        else:
            probs = torch.softmax(logits, -1).numpy().astype(np.float64)
            i = _draw(probs / probs.sum(), rng)
        # without legal actions a shared index cannot name the seat's move: its canonical
        # name is returned (the arena counts it as a forfeit, as any unmasked pick; so is
        # the other slot, which names no action without legal ones)
        return index.action(i, legal, seat) or (index.actions[i] if i < len(index.actions)
                                                 else "")


def _draw(probs: np.ndarray, rng: random.Random) -> int:
    u, total = rng.random(), 0.0
    for i, p in enumerate(probs):
        total += p
        if u < total:
            return i
    return int(np.flatnonzero(probs)[-1])


def midpoint(model: Any) -> float:
    """The return between a loss and a win: the middle of the utility range (0 for
    zero-sum games scored -1/0/1, 50 for GDL's 0..100)."""
    meta = model.metadata
    return (float(meta.min_utility) + float(meta.max_utility)) / 2.0


def evaluate(policy: Policy, model: Any, seat: int, games: int = 200, seed: int = 0,
             greedy: bool = False) -> dict[str, float]:
    """Play ``games`` games of ``model`` in ``seat`` against uniformly random opponents.

    The policy sees only its own observations and the legal actions of its decision.
    Returns the win, draw and loss rates (return above, at or below :func:`midpoint`) and
    the mean return."""
    from ggp.env.games import SeatGame

    policy.check(model)
    rng = random.Random(seed)
    game = SeatGame(model, seat, random.Random(seed + 1))
    returns = []
    for _ in range(games):
        obs, legal = game.reset()
        seen = [obs]
        done = False
        while not done:
            action = policy.act(seen, legal, rng, greedy, seat)
            obs, legal, _, done, _ = game.step(action)
            seen.append(obs)
        returns.append(game.episode_return)
        assert model.current_player(game.state) == TERMINAL
    r = np.array(returns)
    mid = midpoint(model)
    return {"games": games, "win": float((r > mid).mean()), "draw": float((r == mid).mean()),
            "loss": float((r < mid).mean()), "mean_return": float(r.mean()),
            "ci95": float(1.96 * r.std(ddof=1) / math.sqrt(len(r))) if len(r) > 1 else 0.0}


# ------------------------------------------------------------------------ training
class Trainer:
    """PPO on a vector environment; :meth:`train` runs to ``total_steps`` learner steps,
    saving a checkpoint every ``checkpoint_every`` updates, and resumes from one."""

    def __init__(self, env: Any, encoding: Any, config: PPOConfig, *,
                 checkpoint: str | Path, meta: dict[str, Any] | None = None,
                 win_above: float = 0.0) -> None:
        self.env, self.encoding, self.config = env, encoding, config
        self.checkpoint, self.meta = Path(checkpoint), dict(meta or {})
        self.win_above = win_above  # training win rate: returns above this
        torch.manual_seed(config.seed)
        self.net = PolicyNet(encoding.encoder.size, len(encoding.index), config.network,
                             config.hidden)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=config.lr, eps=1e-5)
        self.step = 0
        self.history: list[dict[str, Any]] = []
        if self.checkpoint.is_file():
            data = load_checkpoint(self.checkpoint)
            if data["config"]["network"] != config.network:
                raise GGPError(f"{self.checkpoint} holds a {data['config']['network']} "
                               f"network, not {config.network}; use another --out")
            self.net.load_state_dict(data["net"])
            self.opt.load_state_dict(data["optimizer"])
            self.step, self.history = int(data["step"]), list(data.get("history", []))

    def state(self) -> dict[str, Any]:
        return {"format": "ggp-ppo", "config": asdict(self.config),
                "encoding": self.encoding.to_dict(), "net": self.net.state_dict(),
                "optimizer": self.opt.state_dict(), "step": self.step,
                "history": self.history, **self.meta}

    def save(self) -> None:
        save_checkpoint(self.checkpoint, self.state())

    def train(self, total_steps: int, *, seconds: float | None = None,
              clock: Callable[[], float] = time.perf_counter, checkpoint_every: int = 5,
              progress: Callable[[dict[str, Any]], None] | None = None) -> None:
        """Train to ``total_steps`` learner steps. ``seconds`` is a time budget as well,
        measured by ``clock`` (wall time; ``time.process_time`` counts this process's CPU
        seconds, which another job on a shared machine does not change): training stops
        after the update that uses it up, and the entropy coefficient anneals by whichever
        budget is further along (so a run cut by time still ends at ``entropy_end``)."""
        c = self.config
        budget_start = clock()
        n, horizon = c.num_envs, c.horizon
        obs, mask = self.env.reset()
        starts = np.ones(n, dtype=np.float32)
        hidden = self.net.initial_hidden(n)
        recent: list[float] = []
        updates = 0
        t0, s0 = time.time(), self.step
        out_of_time = False
        while self.step < total_steps and not out_of_time:
            h0 = hidden.clone()
            buf = {k: [] for k in ("obs", "mask", "starts", "act", "logp", "val", "rew", "done")}
            for _ in range(horizon):
                with torch.no_grad():
                    o = torch.as_tensor(obs)
                    m = torch.as_tensor(mask)
                    logits, value, hidden = self.net(o.unsqueeze(0),
                                                     torch.as_tensor(starts).unsqueeze(0),
                                                     hidden)
                    dist = masked(logits[0], m)
                    action = dist.sample()
                buf["obs"].append(o), buf["mask"].append(m)
                buf["starts"].append(torch.as_tensor(starts)), buf["act"].append(action)
                buf["logp"].append(dist.log_prob(action)), buf["val"].append(value[0])
                obs, mask, reward, done, finished = self.env.step(action.numpy())
                buf["rew"].append(torch.as_tensor(reward))
                buf["done"].append(torch.as_tensor(done, dtype=torch.float32))
                starts = done.astype(np.float32)
                recent.extend(f["episode_return"] for f in finished)
            self.step += n * horizon
            with torch.no_grad():
                _, last_value, _ = self.net(torch.as_tensor(obs).unsqueeze(0),
                                            torch.as_tensor(starts).unsqueeze(0), hidden)
            batch = {k: torch.stack(v) for k, v in buf.items()}
            adv, ret = _gae(batch["rew"], batch["val"], batch["done"], last_value[0],
                            c.gamma, c.gae_lambda)
            frac = min(1.0, self.step / max(total_steps, 1))
            if seconds is not None:
                frac = max(frac, min(1.0, (clock() - budget_start) / max(seconds, 1e-9)))
            ent_coef = c.entropy_start + (c.entropy_end - c.entropy_start) * frac
            losses = self._update(batch, adv, ret, h0, ent_coef)
            updates += 1
            out_of_time = seconds is not None and clock() - budget_start >= seconds
            recent = recent[-2000:]
            r = np.array(recent) if recent else np.zeros(1)
            row = {"step": self.step, "episodes": len(recent),
                   "win_rate": float((r > self.win_above).mean()), "mean_return": float(r.mean()),
                   "entropy_coef": ent_coef,
                   "steps_per_s": (self.step - s0) / max(time.time() - t0, 1e-9), **losses}
            recent = []
            self.history.append(row)
            if progress:
                progress(row)
            if updates % checkpoint_every == 0 or self.step >= total_steps or out_of_time:
                self.save()

    def _update(self, b: dict[str, torch.Tensor], adv: torch.Tensor, ret: torch.Tensor,
                h0: torch.Tensor, ent_coef: float) -> dict[str, float]:
        c = self.config
        T, n = b["act"].shape
        stats = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0}
        count = 0
        segments = _segments(b["starts"], h0) if self.net.recurrent else None
        for _ in range(c.epochs):
            if self.net.recurrent:
                groups = torch.randperm(segments[0].shape[1]).chunk(c.minibatches)
            else:
                groups = torch.randperm(T * n).chunk(c.minibatches)
            for idx in groups:
                if self.net.recurrent:
                    # whole game segments, padded to the longest: one GRU call each
                    t_idx, e_idx, valid, h_start = (x[..., idx] if x.dim() == 2
                                                    else x[:, idx] for x in segments)
                    logits, values, _ = self.net(b["obs"][t_idx, e_idx],
                                                 torch.zeros(t_idx.shape), h_start)
                    flat_t, flat_e = t_idx[valid], e_idx[valid]
                    sel = lambda x: x[flat_t, flat_e]  # noqa: E731
                    logits, values = logits[valid], values[valid]
                    mask = b["mask"][flat_t, flat_e]
                else:
                    flat = lambda x: x.reshape(T * n, *x.shape[2:])[idx]  # noqa: E731
                    logits, values, _ = self.net(flat(b["obs"]).unsqueeze(0),
                                                 flat(b["starts"]).unsqueeze(0), None)
                    logits, values = logits[0], values[0]
                    mask = flat(b["mask"])
                    sel = lambda x: x.reshape(-1)[idx]  # noqa: E731
                dist = masked(logits, mask)
                logp = dist.log_prob(sel(b["act"]))
                a = sel(adv)
                a = (a - a.mean()) / a.std().nan_to_num(0.0).clamp_min(c.adv_std_floor)
                ratio = torch.exp(logp - sel(b["logp"]))
                policy_loss = -torch.min(ratio * a,
                                         ratio.clamp(1 - c.clip, 1 + c.clip) * a).mean()
                value_loss = 0.5 * (values - sel(ret)).pow(2).mean()
                entropy = dist.entropy().mean()
                loss = policy_loss + c.value_coef * value_loss - ent_coef * entropy
                self.opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(self.net.parameters(), c.max_grad_norm)
                self.opt.step()
                stats["policy_loss"] += policy_loss.item()
                stats["value_loss"] += value_loss.item()
                stats["entropy"] += entropy.item()
                count += 1
        return {k: v / count for k, v in stats.items()}


def _segments(starts: torch.Tensor, h0: torch.Tensor):
    """Cut a rollout (T, n) into game segments: each starts at t=0 (with the env's hidden
    state ``h0``, or zeros when a game starts there) or where a game starts (zeros).
    Returns padded index tensors (L, S) of times and envs, a validity mask (L, S) and the
    initial hidden states (1, S, H)."""
    T, n = starts.shape
    spans = []
    for e in range(n):
        begin = 0
        for t in range(1, T + 1):
            if t == T or starts[t, e] > 0:
                spans.append((e, begin, t))
                begin = t
    length = max(t1 - t0 for _, t0, t1 in spans)
    t_idx = torch.zeros(length, len(spans), dtype=torch.long)
    e_idx = torch.zeros(length, len(spans), dtype=torch.long)
    valid = torch.zeros(length, len(spans), dtype=torch.bool)
    h_start = torch.zeros(1, len(spans), h0.shape[-1])
    for s, (e, t0, t1) in enumerate(spans):
        t_idx[: t1 - t0, s] = torch.arange(t0, t1)
        t_idx[t1 - t0:, s] = t1 - 1
        e_idx[:, s] = e
        valid[: t1 - t0, s] = True
        if t0 == 0 and starts[0, e] == 0:
            h_start[0, s] = h0[0, e]
    return t_idx, e_idx, valid, h_start


def _gae(rew: torch.Tensor, val: torch.Tensor, done: torch.Tensor, last: torch.Tensor,
         gamma: float, lam: float) -> tuple[torch.Tensor, torch.Tensor]:
    """Generalized advantage estimates; ``done[t]`` ends the game after step t."""
    adv = torch.zeros_like(rew)
    running = torch.zeros_like(last)
    for t in reversed(range(rew.shape[0])):
        nxt = last if t == rew.shape[0] - 1 else val[t + 1]
        live = 1.0 - done[t]
        delta = rew[t] + gamma * nxt * live - val[t]
        running = delta + gamma * lam * live * running
        adv[t] = running
    return adv, adv + val


def history_json(history: list[dict[str, Any]]) -> str:
    return json.dumps(history, indent=1)


__all__ = ["PPOConfig", "Policy", "PolicyNet", "Trainer", "evaluate", "load_checkpoint",
           "save_checkpoint"]
