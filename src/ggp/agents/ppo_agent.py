"""``ppo:checkpoint=FILE``: play a policy trained by ``ggp ppo train``.

The agent sees only its own observations (the arena does not tell agents the legal
actions). It encodes them with the checkpoint's schema, runs the network over its
observations of this game (the recurrent variant needs all of them, the feed-forward one
the last), and masks the logits with the legal actions of a state consistent with its
history, sampled from the world model the arena gives it (:func:`ggp.belief.sample_state`:
the observation itself in perfect-information games). If no consistent state can be found
it plays the best action of the whole index, which the arena counts as a forfeit when it
is illegal.

``checkpoint`` is one checkpoint (played in whatever seat), or the ``--out`` folder of
``ggp ppo train``: each seat then plays its own ``seat<S>/best.pt``.

Settings: ``checkpoint`` (required), ``greedy`` (false: sample from the policy; true: its
most likely action).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ggp.agents import register_agent
from ggp.agents.base import Agent, MatchInfo
from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import Action, ObsActionHistory


class PPOAgent(Agent):
    """Plays a PPO policy checkpoint (one file for any seat, or a training run's folder
    with one ``seatN/best.pt`` per seat)."""

    name = "ppo"

    def __init__(self, model: WorldModel, checkpoint: str, greedy: bool = False) -> None:
        try:
            from ggp.learn.ppo import Policy, load_checkpoint
        except ImportError as exc:  # pragma: no cover - depends on the installed extras
            raise GGPError("The ppo agent needs torch and the env extra: "
                           "pip install 'ggp[torch,env]'.") from exc
        self._load, self._policy_cls = load_checkpoint, Policy
        self.model, self.greedy = model, bool(greedy)
        self.policies: dict[str, Any] = {}
        path = Path(checkpoint)
        if path.is_dir():
            found = sorted(path.glob("seat*/best.pt"))
            if not found:
                raise GGPError(f"{checkpoint} holds no seat*/best.pt: give a checkpoint or "
                               "the --out folder of ggp ppo train")
            self.files = {int(f.parent.name[4:]): f for f in found}
        else:
            self.files = {-1: path}
            self._policy(-1)  # fail now on a bad file
        self.unmasked = 0

    def _policy(self, seat: int) -> Any:
        key = seat if seat in self.files else -1
        if key not in self.files:
            raise GGPError(f"no PPO checkpoint for seat {seat} among "
                           f"{', '.join(str(f) for f in self.files.values())}")
        if key not in self.policies:
            policy = self._policy_cls.from_checkpoint(self._load(self.files[key]))
            policy.check(self.model)  # a checkpoint of another game is refused here
            self.policies[key] = policy
        return self.policies[key]

    def start(self, info: MatchInfo) -> None:
        super().start(info)
        self.policy = self._policy(info.seat)

    def act(self, history: ObsActionHistory) -> Action:
        from ggp.belief import sample_state

        legal = None
        try:
            state = sample_state(self.model, history, self.info.seat, self.rng)
            legal = self.model.legal_actions(state)
        except GGPError:
            self.unmasked += 1
        observations = [obs for obs, _ in history]
        return self.policy.act(observations, legal, self.rng, self.greedy, self.info.seat)

    def close(self) -> None:
        """Stop the sandboxed workers of LLM-written encoders, if any."""
        for policy in self.policies.values():
            close = getattr(policy.encoding.encoder, "close", None)
            if close is not None:
                close()


@register_agent("ppo")
def _make_ppo(model: WorldModel, checkpoint: str = "", greedy: bool = False) -> Agent:
    if not checkpoint:
        raise GGPError("The ppo agent needs a checkpoint: ppo:checkpoint=FILE.")
    return PPOAgent(model, str(checkpoint), greedy)
