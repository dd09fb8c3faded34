"""R-NaD (Regularized Nash Dynamics) in PyTorch, with SePoT's history critic trained alongside.

One learner step (:meth:`RNaDLearner.step`):

1. sample ``batch_size`` self-play trajectories with the online policy network (the actor);
2. R-NaD update of the online network: V-trace value targets and NeuRD policy update on the
   regularised reward ``r - eta log(pi/pi_reg)`` (own actions) ``+ eta log(pi/pi_reg)``
   (opponent's), illegal actions masked out;
3. Polyak update of the target network; at the end of each regularisation phase
   (:class:`EntropySchedule`) the regularisation policies move: ``prev_ <- prev <- target``;
4. SePoT critic update on the same trajectories: off-policy V-trace (``rho_bar = inf``,
   ``c_bar = 1``) towards the values of "one player transformed, the other follows the
   target network", one output per transformation (:class:`ggp.sepot.games.SepotGame`).

The policy that is evaluated and played is the *target* network's (as in R-NaD). State is
saved with :meth:`save` and restored with :meth:`load` (networks, optimisers, random
generators, the training log), so a run resumes where it stopped.
"""

from __future__ import annotations

import copy
import os
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import torch
from torch import nn

from ggp.core.files import replace_output
from ggp.core.errors import GGPError
from ggp.sepot.games import SepotGame, load_sepot_game
from ggp.sepot.vtrace import critic_vtrace, rnad_vtrace


@dataclass
class RNaDConfig:
    """Hyperparameters (defaults: seed 004 Table 2, smaller networks for our CPUs)."""

    game: str = "goofspiel4"
    seed: int = 0
    batch_size: int = 128
    hidden: tuple[int, ...] = (256, 256)
    critic_hidden: tuple[int, ...] = (256, 256)
    learning_rate: float = 3e-4
    critic_learning_rate: float = 3e-4
    eta: float = 0.2
    schedule_sizes: tuple[int, ...] = (500, 10_000)
    schedule_repeats: tuple[int, ...] = (200, 1)
    neurd_beta: float = 2.0
    neurd_clip: float = 10_000.0
    grad_clip: float = 10_000.0
    target_gamma: float = 0.001
    c_bar: float = 1.0
    rho_bar: float = float("inf")
    critic: bool = True
    critic_c_bar: float = 1.0
    critic_rho_bar: float = float("inf")
    threads: int = 1


class EntropySchedule:
    """Regularisation phases: ``sizes[i]`` steps long, repeated ``repeats[i]`` times; the
    last size repeats forever. ``(alpha, update)`` for a learner step: ``alpha`` blends the
    two previous regularisation policies; ``update`` is true on a phase's last step."""

    def __init__(self, sizes: tuple[int, ...], repeats: tuple[int, ...]) -> None:
        self.sizes, self.repeats = sizes, repeats

    def __call__(self, step: int) -> tuple[float, bool]:
        start = 0
        for i, (size, repeat) in enumerate(zip(self.sizes, self.repeats)):
            last = i == len(self.sizes) - 1
            span = size * repeat
            if last or step < start + span:
                start += size * ((step - start) // size)
                break
            start += span
        alpha = min(2.0 * (step - start) / size, 1.0)
        return alpha, step == start + size - 1


def mlp(sizes: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers[:-1])


class PolicyValueNet(nn.Module):
    """Information-state tensor -> (legal-masked logits, value of the acting player)."""

    def __init__(self, inputs: int, actions: int, hidden: tuple[int, ...]) -> None:
        super().__init__()
        self.torso = nn.Sequential(mlp([inputs, *hidden]), nn.ReLU())
        self.policy = nn.Linear(hidden[-1], actions)
        self.value = nn.Linear(hidden[-1], 1)

    def forward(self, obs: torch.Tensor, legal: torch.Tensor) -> tuple[torch.Tensor, ...]:
        """``(logits, pi, log_pi, v)``; illegal actions get probability 0."""
        h = self.torso(obs)
        logits = self.policy(h)
        masked = torch.where(legal, logits, torch.finfo(logits.dtype).min)
        log_pi = torch.log_softmax(masked, dim=-1)
        pi = torch.where(legal, log_pi.exp(), 0.0)
        log_pi = torch.where(legal, log_pi, 0.0)
        return logits, pi, log_pi, self.value(h).squeeze(-1)


@dataclass
class Batch:
    """Time-major trajectories. ``T`` = the game's maximum number of decisions."""

    obs: torch.Tensor       # [T,B,D] acting player's information-state tensor
    hist: torch.Tensor      # [T,B,2D] both players' tensors (critic input), or empty
    legal: torch.Tensor     # [T,B,A] bool
    player: torch.Tensor    # [T,B] long
    action: torch.Tensor    # [T,B] long
    mu: torch.Tensor        # [T,B] probability of the taken action when sampled
    valid: torch.Tensor     # [T,B] bool
    rewards: torch.Tensor   # [T,B,2] rewards following the step (through chance nodes)


def _advance_chance(state: Any, rng: np.random.Generator) -> None:
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(actions[rng.choice(len(actions), p=np.asarray(probs))])


class RNaDLearner:
    """R-NaD learner plus the SePoT critic for one :class:`SepotGame`."""

    def __init__(self, config: RNaDConfig) -> None:
        self.config = config
        torch.set_num_threads(config.threads)
        torch.manual_seed(config.seed)
        self.rng = np.random.default_rng(config.seed)
        self.spec: SepotGame = load_sepot_game(config.game)
        g = self.spec
        self.max_len = g.game.max_game_length()
        self.net = PolicyValueNet(g.info_size, g.num_actions, config.hidden)
        self.target = copy.deepcopy(self.net)
        self.prev = copy.deepcopy(self.net)
        self.prev_ = copy.deepcopy(self.net)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=config.learning_rate,
                                          betas=(0.0, 0.999), eps=1e-8)
        self.schedule = EntropySchedule(config.schedule_sizes, config.schedule_repeats)
        self.critic = mlp([g.history_size, *config.critic_hidden, g.num_outputs])
        self.critic_target = copy.deepcopy(self.critic)
        self.critic_optimizer = torch.optim.Adam(
            self.critic.parameters(), lr=config.critic_learning_rate, betas=(0.0, 0.999),
            eps=1e-8)
        self.step_count = 0
        self.log: list[dict[str, float]] = []

    # ------------------------------------------------------------------ sampling
    @torch.no_grad()
    def sample(self, batch_size: int | None = None) -> Batch:
        """Self-play trajectories with the online network; chance is sampled in place."""
        g, B, T = self.spec, batch_size or self.config.batch_size, self.max_len
        D, A = g.info_size, g.num_actions
        obs = np.zeros((T, B, D), np.float32)
        hist = np.zeros((T, B, 2 * D if self.config.critic else 0), np.float32)
        legal = np.zeros((T, B, A), bool)
        player = np.zeros((T, B), np.int64)
        action = np.zeros((T, B), np.int64)
        mu = np.ones((T, B), np.float32)
        valid = np.zeros((T, B), bool)
        rewards = np.zeros((T, B, 2), np.float32)
        states = [g.game.new_initial_state() for _ in range(B)]
        for s in states:
            _advance_chance(s, self.rng)
        for t in range(T):
            alive = [b for b, s in enumerate(states) if not s.is_terminal()]
            if not alive:
                break
            for b in alive:
                s = states[b]
                p = s.current_player()
                player[t, b] = p
                obs[t, b] = s.information_state_tensor(p)
                if self.config.critic:
                    hist[t, b] = g.history_tensor(s)
                legal[t, b, s.legal_actions()] = True
                valid[t, b] = True
            _, pi, _, _ = self.net(torch.from_numpy(obs[t, alive]),
                                   torch.from_numpy(legal[t, alive]))
            pi = pi.double().numpy()
            for row, b in enumerate(alive):
                p_row = pi[row] / pi[row].sum()
                a = int(self.rng.choice(A, p=p_row))
                s = states[b]
                before = np.asarray(s.returns())
                s.apply_action(a)
                _advance_chance(s, self.rng)
                action[t, b], mu[t, b] = a, p_row[a]
                rewards[t, b] = np.asarray(s.returns()) - before
        return Batch(*(torch.from_numpy(x) for x in
                       (obs, hist, legal, player, action, mu, valid, rewards)))

    # ------------------------------------------------------------------ learning
    def rnad_loss(self, batch: Batch, alpha: float) -> tuple[torch.Tensor, dict[str, float]]:
        """R-NaD loss: value L2 to V-trace targets + NeuRD policy loss, for both players."""
        cfg = self.config
        logits, pi, log_pi, v = self.net(batch.obs, batch.legal)
        with torch.no_grad():
            _, _, _, v_target = self.target(batch.obs, batch.legal)
            _, _, log_prev, _ = self.prev(batch.obs, batch.legal)
            _, _, log_prev_, _ = self.prev_(batch.obs, batch.legal)
            log_pi_reg = log_pi.detach() - (alpha * log_prev + (1 - alpha) * log_prev_)
        actions_oh = nn.functional.one_hot(batch.action, pi.shape[-1]).to(pi.dtype)
        value_loss = policy_loss = torch.zeros(())
        legal = batch.legal.to(pi.dtype)
        centred = logits - ((logits * legal).sum(-1, keepdim=True)
                            / legal.sum(-1, keepdim=True).clamp(min=1))
        for p in (0, 1):
            targets, own, q = rnad_vtrace(
                v_target, batch.valid, batch.player, batch.mu, pi.detach(), log_pi_reg,
                actions_oh, batch.rewards[..., p], p, cfg.eta, cfg.rho_bar, cfg.c_bar)
            count = own.sum().clamp(min=1)
            value_loss = value_loss + (((v - targets) ** 2) * own).sum() / count
            adv = q - (pi.detach() * q).sum(-1, keepdim=True)
            adv = adv.clamp(-cfg.neurd_clip, cfg.neurd_clip)
            force = ((centred.detach() > -cfg.neurd_beta) * adv.clamp(max=0)
                     + (centred.detach() < cfg.neurd_beta) * adv.clamp(min=0))
            per_step = -(centred * force * legal).sum(-1)
            policy_loss = policy_loss + (per_step * own).sum() / count
        loss = value_loss + policy_loss
        return loss, {"value_loss": value_loss.item(), "policy_loss": policy_loss.item()}

    def critic_targets(self, batch: Batch) -> torch.Tensor:
        """V-trace targets ``[T,B,K]`` for every critic output (player 0's view)."""
        g = self.spec
        with torch.no_grad():
            _, pi, _, _ = self.target(batch.obs, batch.legal)
            values = self.critic_target(batch.hist)
        pi_np, legal_np = pi.double().numpy(), batch.legal.numpy()
        T, B, A = pi_np.shape
        flat_pi, flat_legal = pi_np.reshape(-1, A), legal_np.reshape(-1, A)
        act = batch.action.numpy().reshape(-1)
        rows = np.arange(T * B)
        mu = batch.mu.double().numpy().reshape(-1)
        base = flat_pi[rows, act] / mu
        player = batch.player.numpy().reshape(-1)
        ratios = np.repeat(base[:, None], g.num_outputs, axis=1)
        k = len(g.transformations) - 1
        for j, f in enumerate(g.transformations[1:]):
            taken = f(flat_pi, flat_legal)[rows, act] / mu
            for p in (0, 1):
                col = 1 + p * k + j
                ratios[:, col] = np.where(player == p, taken, base)
        ratios_t = torch.from_numpy(ratios.reshape(T, B, -1)).float()
        return critic_vtrace(values, batch.rewards[..., 0], ratios_t, batch.valid,
                             self.config.critic_rho_bar, self.config.critic_c_bar)

    def critic_update(self, batch: Batch) -> float:
        targets = self.critic_targets(batch)
        pred = self.critic(batch.hist)
        mask = batch.valid.unsqueeze(-1).float()
        loss = (((pred - targets) ** 2) * mask).sum() / (mask.sum() * pred.shape[-1])
        self.critic_optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.critic.parameters(), self.config.grad_clip)
        self.critic_optimizer.step()
        _polyak(self.critic_target, self.critic, self.config.target_gamma)
        return loss.item()

    def step(self) -> dict[str, float]:
        """One learner step (sample, R-NaD update, regularisation schedule, critic update)."""
        batch = self.sample()
        alpha, update_reg = self.schedule(self.step_count)
        loss, info = self.rnad_loss(batch, alpha)
        self.optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(self.net.parameters(), self.config.grad_clip)
        self.optimizer.step()
        _polyak(self.target, self.net, self.config.target_gamma)
        if update_reg:
            self.prev_.load_state_dict(self.prev.state_dict())
            self.prev.load_state_dict(self.target.state_dict())
        if self.config.critic:
            info["critic_loss"] = self.critic_update(batch)
        self.step_count += 1
        info["step"] = self.step_count
        return info

    # ------------------------------------------------------------------ policy access
    @torch.no_grad()
    def policy(self, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
        """Target-network policy for a batch of information-state tensors."""
        _, pi, _, _ = self.target(torch.as_tensor(obs, dtype=torch.float32),
                                  torch.as_tensor(legal, dtype=torch.bool))
        return pi.double().numpy()

    @torch.no_grad()
    def values(self, hist: np.ndarray) -> np.ndarray:
        """Critic (target network) outputs ``[N, num_outputs]``, player 0's view."""
        return self.critic_target(torch.as_tensor(hist, dtype=torch.float32)).double().numpy()

    # ------------------------------------------------------------------ checkpoints
    def save(self, path: str) -> None:
        """Write a checkpoint atomically (a crash never leaves a half-written file)."""
        data = {
            "config": asdict(self.config),
            "step": self.step_count,
            "log": self.log,
            "nets": {n: getattr(self, n).state_dict() for n in _NETS},
            "rng": self.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(),
        }
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        replace_output(path, lambda fh: torch.save(data, fh))  # never through a link

    @classmethod
    def load(cls, path: str) -> "RNaDLearner":
        try:
            # weights_only: a checkpoint is data; a pickle that would run code is refused
            data = torch.load(path, weights_only=True)
        except Exception as exc:  # noqa: BLE001 - any unreadable or hostile file
            raise GGPError(f"{path} is not an R-NaD checkpoint ({type(exc).__name__}: "
                           f"{str(exc).splitlines()[0] if str(exc) else ''})") from exc
        config = RNaDConfig(**{k: tuple(v) if isinstance(v, list) else v
                               for k, v in data["config"].items()})
        learner = cls(config)
        for name in _NETS:
            getattr(learner, name).load_state_dict(data["nets"][name])
        learner.step_count = data["step"]
        learner.log = data["log"]
        learner.rng.bit_generator.state = data["rng"]
        torch.set_rng_state(data["torch_rng"])
        return learner


_NETS = ("net", "target", "prev", "prev_", "optimizer", "critic", "critic_target",
         "critic_optimizer")


def _polyak(target: nn.Module, source: nn.Module, gamma: float) -> None:
    with torch.no_grad():
        for t, s in zip(target.parameters(), source.parameters()):
            t.lerp_(s, gamma)
