"""V-trace estimators over batches of trajectories (time-major tensors ``[T, B, ...]``).

* :func:`rnad_vtrace`: the two-player V-trace of R-NaD for one player. It walks a
  trajectory backwards; at the player's own steps it produces a value target and a NeuRD
  action-value estimate for every action; the opponent's steps only accumulate rewards
  (including the opponent's regularisation term) and importance weights.
* :func:`critic_vtrace`: the off-policy V-trace of seed 004 Eq. 1 for the history critic.
  Every step counts (whoever acts); ``ratio`` is ``pi'(a)/mu(a)`` of the profile whose value
  is estimated.

Both use gamma = lambda = 1 (episodic zero-sum games).
"""

from __future__ import annotations

import torch


def critic_vtrace(
    values: torch.Tensor,
    rewards: torch.Tensor,
    ratios: torch.Tensor,
    valid: torch.Tensor,
    rho_bar: float = float("inf"),
    c_bar: float = 1.0,
) -> torch.Tensor:
    """V-trace targets ``[T, B, K]`` for ``K`` value heads.

    ``values``/``ratios``: ``[T, B, K]``; ``rewards``: ``[T, B]`` or ``[T, B, K]`` (the
    reward that follows step t); ``valid``: ``[T, B]`` bool. Beyond the last valid step the
    value is 0, so the recursion is
    ``target_t = v_t + rho_t (r_t + v_{t+1} - v_t) + c_t (target_{t+1} - v_{t+1})``
    with ``rho_t = min(rho_bar, ratio_t)`` and ``c_t = min(c_bar, ratio_t)``.
    """
    if rewards.dim() == 2:
        rewards = rewards.unsqueeze(-1).expand_as(values)
    mask = valid.unsqueeze(-1).to(values.dtype)
    rho = torch.clamp(ratios, max=rho_bar)
    c = torch.clamp(ratios, max=c_bar)
    targets = torch.zeros_like(values)
    next_v = torch.zeros_like(values[0])
    next_target = torch.zeros_like(values[0])
    for t in reversed(range(values.shape[0])):
        v = values[t]
        target = v + rho[t] * (rewards[t] + next_v - v) + c[t] * (next_target - next_v)
        target = target * mask[t]
        targets[t] = target
        next_v = v * mask[t]
        next_target = target
    return targets


def rnad_vtrace(
    v: torch.Tensor,
    valid: torch.Tensor,
    player_id: torch.Tensor,
    mu_taken: torch.Tensor,
    pi: torch.Tensor,
    log_pi_reg: torch.Tensor,
    actions_oh: torch.Tensor,
    reward: torch.Tensor,
    player: int,
    eta: float,
    rho_bar: float = float("inf"),
    c_bar: float = 1.0,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """R-NaD V-trace for ``player``: ``(v_target [T,B], own_step [T,B], q [T,B,A])``.

    Inputs (all detached): ``v`` [T,B] value of the acting player (from the target net);
    ``valid`` [T,B] bool; ``player_id`` [T,B] acting player; ``mu_taken`` [T,B] probability
    of the taken action under the sampling policy; ``pi`` [T,B,A] current policy;
    ``log_pi_reg`` [T,B,A] ``log(pi / pi_reg)``; ``actions_oh`` [T,B,A]; ``reward`` [T,B]
    reward to ``player`` following step t. The regularised reward subtracts
    ``eta * log(pi/pi_reg)`` for ``player``'s own actions and adds it for the opponent's.

    ``q`` is the NeuRD action-value estimate at the player's own steps (zero elsewhere):
    ``v - eta*log(pi/pi_reg)(a) + [a = a_t]/mu(a_t) * (r + IS * next_target - v)``.
    """
    T = v.shape[0]
    own = valid & (player_id == player)
    sign = torch.where(own, 1.0, -1.0)
    entropy_reward = -eta * (pi * log_pi_reg).sum(-1) * sign  # [T,B]
    ratio = (pi * actions_oh).sum(-1) / mu_taken
    zeros = torch.zeros_like(v[0])
    reward_acc, reward_unc, next_v, next_target = zeros, zeros, zeros, zeros
    importance = torch.ones_like(v[0])
    targets = torch.zeros_like(v)
    q = torch.zeros_like(pi)
    for t in reversed(range(T)):
        r_unc = reward[t] + reward_unc + entropy_reward[t]
        r_disc = reward[t] + reward_acc
        weight = ratio[t] * importance
        target = (v[t] + torch.clamp(weight, max=rho_bar) * (r_unc + next_v - v[t])
                  + torch.clamp(weight, max=c_bar) * (next_target - next_v))
        learn = (v[t].unsqueeze(-1) - eta * log_pi_reg[t]
                 + actions_oh[t] / mu_taken[t].unsqueeze(-1)
                 * (r_disc + importance * next_target - v[t]).unsqueeze(-1))
        is_own, is_valid = own[t], valid[t]
        targets[t] = torch.where(is_own, target, 0.0)
        q[t] = torch.where(is_own.unsqueeze(-1), learn, 0.0)
        # Carry: reset past the end, restart at own steps, accumulate at opponent steps.
        opp = is_valid & ~is_own
        reward_acc = torch.where(opp, entropy_reward[t] + ratio[t] * r_disc, zeros)
        reward_unc = torch.where(opp, r_unc, zeros)
        next_v = torch.where(is_own, v[t], torch.where(opp, next_v, zeros))
        next_target = torch.where(is_own, target, torch.where(opp, next_target, zeros))
        importance = torch.where(opp, ratio[t] * importance, torch.ones_like(importance))
    return targets, own, q
