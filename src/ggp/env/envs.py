"""PettingZoo and Gymnasium environments for any world model.

* :class:`GameAECEnv` — a PettingZoo AEC environment: every player is an agent named by
  ``get_player_name`` (made unique when needed), chance is resolved inside the environment
  by the model's outcome distribution, an observation is
  ``{"observation": float32 vector, "action_mask": int8 vector}`` over a fixed
  :class:`~ggp.env.encoding.ActionIndex`, and ``infos[agent]["json"]`` holds the model's
  own JSON observation.
* :class:`SeatEnv` — a Gymnasium single-agent environment: one seat against fixed
  opponents (uniformly random by default). Observations are the float vector; the mask
  is in ``info["action_mask"]`` and from :meth:`SeatEnv.action_masks` (the convention of
  sb3-contrib's ``MaskablePPO``).
* :class:`VectorSeatEnv` — ``n`` copies of one seat stepped together with auto-reset,
  in-process or in one sandboxed worker (one round trip per batch step).

Illegal actions (outside the mask) are a forfeit, as in the arena: the game ends and the
mover's return becomes ``min_utility`` (the AEC environment gives the others 0 for that
step).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, canonical_json, json_copy
from ggp.env.encoding import ActionIndex, SchemaEncoder
from ggp.env.games import BatchCore, SeatGame
from ggp.env.samples import Samples, random_play_samples

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise GGPError("ggp.env needs the env extra: pip install 'ggp[env]' "
                   "(gymnasium and pettingzoo)") from exc


class Encoding:
    """An observation encoder and an action index, fitted together."""

    def __init__(self, encoder: Any, index: ActionIndex) -> None:
        self.encoder, self.index = encoder, index

    @classmethod
    def fit(cls, samples: Samples, *, unknown: str = "error") -> "Encoding":
        return cls(SchemaEncoder.fit(samples.observations, unknown=unknown),
                   ActionIndex(samples.actions, unknown=unknown))

    @classmethod
    def for_model(cls, model: WorldModel, games: int = 200, seed: int = 0,
                  extra: Samples | None = None, unknown: str = "error") -> "Encoding":
        """Fitted on ``games`` random games of ``model`` (plus ``extra`` examples)."""
        samples = random_play_samples(model, games, seed)
        if extra is not None:
            samples.extend(extra)
        return cls.fit(samples, unknown=unknown)

    def observation_space(self) -> "spaces.Box":
        return spaces.Box(-np.inf, np.inf, (self.encoder.size,), np.float32)

    def to_dict(self) -> dict[str, Any]:
        return {"encoder": self.encoder.to_dict(), "index": self.index.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Encoding":
        from ggp.env.encoding import encoder_from_dict

        return cls(encoder_from_dict(data["encoder"]), ActionIndex.from_dict(data["index"]))


def _agent_names(model: WorldModel) -> list[str]:
    names = [model.player_name(p) for p in range(model.num_players)]
    if len(set(names)) < len(names) or any(not n for n in names):
        names = [f"{n or 'player'}_{p}" for p, n in enumerate(names)]
    return names


class GameAECEnv(AECEnv):
    """A PettingZoo AEC environment over a world model; see the module doc."""

    metadata = {"render_modes": ["ansi"], "name": "ggp_game_v0", "is_parallelizable": False}

    def __init__(self, model: WorldModel, encoding: Encoding | None = None, *,
                 render_mode: str | None = None, max_steps: int = 10_000) -> None:
        super().__init__()
        self.model = model
        self.encoding = encoding or Encoding.for_model(model)
        self.render_mode, self.max_steps = render_mode, max_steps
        self.possible_agents = _agent_names(model)
        self._ids = {name: p for p, name in enumerate(self.possible_agents)}
        n_actions = len(self.encoding.index)
        obs_space = spaces.Dict({
            "observation": self.encoding.observation_space(),
            "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self.rng = random.Random()
        self.state_json: dict = {}

    def observation_space(self, agent: str) -> "spaces.Space":
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> "spaces.Space":
        return self.action_spaces[agent]

    # ---------------------------------------------------------------- helpers
    def _resolve_chance(self, rewards: list[float]) -> None:
        while self.model.current_player(self.state_json) == CHANCE:
            action = self.model.sample_chance(self.state_json, self.rng)
            self.state_json = self.model.apply(self.state_json, action)
            for p, r in enumerate(self.model.rewards(self.state_json)):
                rewards[p] += float(r)

    def _select(self) -> None:
        player = self.model.current_player(self.state_json)
        if player >= 0:
            self.agent_selection = self.possible_agents[player]

    def _infos(self) -> None:
        observations = self.model.observations(self.state_json)
        for name in self.agents:
            self.infos[name] = {"json": json_copy(observations[self._ids[name]])}

    # -------------------------------------------------------------------- API
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.rng = random.Random(seed)
        self.agents = list(self.possible_agents)
        self.state_json = self.model.initial_state()
        rewards = [0.0] * self.model.num_players
        self._resolve_chance(rewards)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        done = self.model.current_player(self.state_json) == TERMINAL
        self.terminations = {a: done for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.num_moves = 0
        self.agent_selection = self.agents[0]
        self._select()
        self._infos()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self._ids[agent]
        observation = self.model.observations(self.state_json)[player]
        mask = np.zeros(len(self.encoding.index), dtype=np.int8)
        if self.model.current_player(self.state_json) == player:
            mask = self.encoding.index.mask(self.model.legal_actions(self.state_json))
        return {"observation": self.encoding.encoder.encode(observation), "action_mask": mask}

    def observe_json(self, agent: str) -> Any:
        """The model's own JSON observation of ``agent``."""
        return self.model.observations(self.state_json)[self._ids[agent]]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        player = self._ids[agent]
        self._cumulative_rewards[agent] = 0.0
        rewards = [0.0] * self.model.num_players
        legal = self.model.legal_actions(self.state_json)
        name = self.encoding.index.actions[int(action)] \
            if 0 <= int(action) < len(self.encoding.index) else None
        self.num_moves += 1
        if name not in legal:
            rewards[player] = float(self.model.metadata.min_utility)
            done, forfeit = True, True
        else:
            self.state_json = self.model.apply(self.state_json, name)
            for p, r in enumerate(self.model.rewards(self.state_json)):
                rewards[p] += float(r)
            self._resolve_chance(rewards)
            done, forfeit = self.model.current_player(self.state_json) == TERMINAL, False
        self.rewards = {a: rewards[self._ids[a]] for a in self.agents}
        if done:
            self.terminations = {a: True for a in self.agents}
        elif self.num_moves >= self.max_steps:
            self.truncations = {a: True for a in self.agents}
        else:
            self._select()
        self._infos()
        if forfeit:
            self.infos[agent]["illegal"] = True
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return canonical_json(self.state_json)
        return None

    def close(self) -> None:
        pass


class SeatEnv(gymnasium.Env):
    """One seat of a world model against random opponents, as a Gymnasium environment."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, model: WorldModel, seat: int = 0, encoding: Encoding | None = None,
                 *, render_mode: str | None = None) -> None:
        self.model, self.seat, self.render_mode = model, seat, render_mode
        self.encoding = encoding or Encoding.for_model(model)
        self.observation_space = self.encoding.observation_space()
        self.action_space = spaces.Discrete(len(self.encoding.index))
        self.game = SeatGame(model, seat, random.Random())
        self._mask = np.zeros(len(self.encoding.index), dtype=np.int8)

    def _out(self, obs: Any, legal: list[str]) -> tuple[np.ndarray, dict]:
        self._mask = (self.encoding.index.mask(legal) if legal
                      else np.zeros(len(self.encoding.index), dtype=np.int8))
        return self.encoding.encoder.encode(obs), {"action_mask": self._mask.copy(),
                                                   "json": json_copy(obs)}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self.game.rng = random.Random(seed)
        obs, legal = self.game.reset()
        return self._out(obs, legal)

    def step(self, action: Any):
        i = int(action)
        name = self.encoding.index.actions[i] if 0 <= i < len(self.encoding.index) else ""
        obs, legal, reward, done, info = self.game.step(name)
        vector, out_info = self._out(obs, legal)
        out_info["illegal"] = info["illegal"]
        return vector, reward, done, False, out_info

    def action_masks(self) -> np.ndarray:
        """The legal-action mask of the current decision (sb3-contrib convention)."""
        return self._mask.astype(bool)

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return canonical_json(self.game.state)
        return None


class VectorSeatEnv:
    """``n`` games of one seat against random opponents, stepped together.

    ``model`` is a :class:`WorldModel` (games run in this process) or a
    :class:`~ggp.sandbox.hosted.HostedModel` started with ``entry=ENV_ENTRY`` (games run in
    its sandboxed worker, :class:`ggp.env.worker.EnvHost`, one round trip per :meth:`step`). Returns numpy arrays: ``obs`` (n, size) float32,
    ``mask`` (n, actions) bool, ``reward`` (n,), ``done`` (n,) and a list of finished
    games' ``{"env", "episode_return", "illegal"}``. A finished game is reset at once.
    """

    def __init__(self, model: WorldModel, encoding: Encoding, n: int, seat: int,
                 seed: int = 0) -> None:
        from ggp.env.worker import batch_host

        self.encoding, self.n, self.seat = encoding, n, seat
        host = batch_host(model)
        if host is not None:
            host.call("batch_open", n=n, seat=seat, seed=seed)
            self._call = lambda method, **kw: host.call("batch_" + method, **kw)
        else:
            core = BatchCore(model, n, seat, seed)
            self._call = lambda method, **kw: getattr(core, method)(**kw)

    def _arrays(self, rows: list[dict]) -> tuple[np.ndarray, np.ndarray]:
        encoder = self.encoding.encoder
        if hasattr(encoder, "encode_batch"):  # one sandbox round trip (LLM-written code)
            obs = encoder.encode_batch([r["obs"] for r in rows])
        else:
            obs = np.stack([encoder.encode(r["obs"]) for r in rows])
        mask = np.stack([self.encoding.index.mask(r["legal"]) for r in rows]).astype(bool)
        return obs, mask

    def reset(self) -> tuple[np.ndarray, np.ndarray]:
        return self._arrays(self._call("reset"))

    def step(self, actions: np.ndarray):
        names = [self.encoding.index.actions[int(a)] for a in actions]
        rows = self._call("step", actions=names)
        obs, mask = self._arrays(rows)
        reward = np.array([r["reward"] for r in rows], dtype=np.float32)
        done = np.array([r["done"] for r in rows], dtype=bool)
        finished = [{"env": i, "episode_return": r["episode_return"], "illegal": r["illegal"]}
                    for i, r in enumerate(rows) if r["done"]]
        return obs, mask, reward, done, finished


__all__ = ["Encoding", "GameAECEnv", "SeatEnv", "VectorSeatEnv"]
