"""PettingZoo and Gymnasium environments for any world model.

* :class:`GameAECEnv` — a PettingZoo AEC environment: every player is an agent named
  ``player_<id>`` (its role name is in ``role_names``), chance is resolved inside the environment
  by the model's outcome distribution, an observation is
  ``{"observation": float32 vector, "action_mask": int8 vector}`` over a fixed
  :class:`~ggp.env.encoding.ActionIndex`, and ``infos[agent]["json"]`` holds the model's
  own JSON observation.
* :class:`SeatEnv` — a Gymnasium single-agent environment: one seat against fixed
  opponents (uniformly random by default). Observations are the float vector; the mask
  is in ``info["action_mask"]`` and from :meth:`SeatEnv.action_masks` (the convention of
  sb3-contrib's ``MaskablePPO``).
* :class:`GameParallelEnv` — a PettingZoo parallel environment for simultaneous-move
  games: every player that chooses in the current joint step acts at once.
* :class:`VectorSeatEnv` — ``n`` copies of one seat stepped together with auto-reset,
  in-process or in one sandboxed worker (one round trip per batch step).

Illegal actions (outside the mask) are a forfeit, scored as in the arena
(:func:`ggp.arena.match.forfeit_returns`: the mover's return becomes ``min_utility``, the
others get a win in win/loss/draw games, the negation in two-player zero-sum games, 0
otherwise), so forfeits keep zero-sum games zero-sum. A game longer than ``max_steps``
moves (player moves, chance not counted) is truncated.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, canonical_json, json_copy
from ggp.env.encoding import ActionIndex, EncodingError, SchemaEncoder, seat_tokens
from ggp.env.games import BatchCore, SeatGame
from ggp.env.samples import Samples, random_play_samples

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise GGPError("ggp.env needs the env extra: pip install 'ggp[env]' "
                   "(gymnasium and pettingzoo)") from exc


#: what the library fits when nothing is said: never fail at run time on unseen values
DEFAULT_UNKNOWN = "overflow"


def game_identity(model: WorldModel) -> dict[str, Any]:
    """What an encoding records about its game, to refuse another game later."""
    from pathlib import Path

    name = str(model.name)
    if name.endswith((".py", ".kif", ".gdl", ".kif.txt")) or "/" in name:
        name = Path(name).name.split(".")[0]
    return {"name": name, "players": model.num_players}


class Encoding:
    """An observation encoder and an action index, fitted together for one game.

    ``game`` (see :func:`game_identity`) names the game the encoding was fitted on;
    :meth:`check` refuses another one with a one-line :class:`EncodingError`.
    """

    def __init__(self, encoder: Any, index: ActionIndex,
                 game: dict[str, Any] | None = None) -> None:
        self.encoder, self.index, self.game = encoder, index, game

    @classmethod
    def fit(cls, samples: Samples, *, unknown: str = DEFAULT_UNKNOWN,
            model: WorldModel | None = None, native: bool = True,
            shared_actions: bool = True) -> "Encoding":
        """Fit on ``samples``. With ``model`` the source's own encoder is used where it
        has one (OpenSpiel tensors, GDL facts; ``native=False`` forces the schema), the
        game is recorded, and seats share one action index where the moves show the
        mover's identity (:func:`ggp.env.encoding.seat_tokens`; ``shared_actions``)."""
        from ggp.env.tensors import native_encoder

        encoder = None
        if model is not None and native:
            encoder = native_encoder(model, samples.observations, samples.actions)
        if encoder is None:
            encoder = SchemaEncoder.fit(samples.observations, unknown=unknown)
        tokens = {}
        if shared_actions and samples.seat_actions:
            names = ([model.player_name(p) for p in range(model.num_players)]
                     if model is not None else None)
            tokens = seat_tokens(samples.seat_actions, names)
        # the index's other slot only where the examples show an open action set, so a
        # closed game's action space is exactly its actions
        index_unknown = ("error" if unknown == "error" else
                         "overflow" if unknown == "overflow" and samples.open_actions
                         else "ignore")
        index = ActionIndex(samples.actions, unknown=index_unknown, tokens=tokens)
        return cls(encoder, index, game_identity(model) if model is not None else None)

    @classmethod
    def for_model(cls, model: WorldModel, games: int = 200, seed: int = 0,
                  extra: Samples | None = None, unknown: str = DEFAULT_UNKNOWN,
                  native: bool = True, shared_actions: bool = True) -> "Encoding":
        """Fitted on ``games`` random games of ``model`` (plus ``extra`` examples)."""
        samples = random_play_samples(model, games, seed)
        if extra is not None:
            samples.extend(extra)
        return cls.fit(samples, unknown=unknown, model=model, native=native,
                       shared_actions=shared_actions)

    def check(self, model: WorldModel) -> None:
        """Raise a one-line :class:`EncodingError` if ``model`` is not the game this
        encoding was fitted on (encodings without a recorded game are not checked)."""
        if self.game is None:
            return
        found = game_identity(model)
        if found != self.game:
            raise EncodingError(
                f"this policy was trained on {self.game['name']} "
                f"({self.game['players']} players), not on {found['name']} "
                f"({found['players']} players)")

    def observation_space(self) -> "spaces.Box":
        low = float(getattr(self.encoder, "low", -1e6))
        high = float(getattr(self.encoder, "high", 1e6))
        return spaces.Box(low, high, (self.encoder.size,), np.float32)

    def encode(self, observation: Any) -> np.ndarray:
        """The observation's vector, clipped into :meth:`observation_space`."""
        vector = self.encoder.encode(observation)
        low, high = getattr(self.encoder, "low", None), getattr(self.encoder, "high", None)
        return vector if low is None else np.clip(vector, low, high)

    def to_dict(self) -> dict[str, Any]:
        data = {"encoder": self.encoder.to_dict(), "index": self.index.to_dict()}
        if self.game is not None:
            data["game"] = self.game
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Encoding":
        return cls(_encoder_from_dict(data["encoder"]), ActionIndex.from_dict(data["index"]),
                   data.get("game"))


def _encoder_from_dict(data: dict[str, Any]) -> Any:
    """The encoder a checkpoint stored (``kind`` schema, llm, openspiel or facts). It lives
    here, above every encoder module, so that :mod:`ggp.env.encoding` imports none of them."""
    kind = data.get("kind")
    if kind == "llm":
        from ggp.env.llm_encoder import LLMEncoder

        return LLMEncoder.from_dict(data)
    if kind in ("openspiel", "facts"):
        from ggp.env.tensors import FactEncoder, OpenSpielEncoder

        return (OpenSpielEncoder if kind == "openspiel" else FactEncoder).from_dict(data)
    return SchemaEncoder.from_dict(data)


def _agent_names(model: WorldModel) -> list[str]:
    return [f"player_{p}" for p in range(model.num_players)]


def _forfeit(model: WorldModel, loser: int, so_far: list[float]) -> list[float]:
    """Rewards that bring every return to the arena's forfeit returns."""
    from ggp.arena.match import forfeit_returns

    final = forfeit_returns(model.metadata, loser)
    return [f - s for f, s in zip(final, so_far)]


class GameAECEnv(AECEnv):
    """A PettingZoo AEC environment over a world model; see the module doc."""

    metadata = {"render_modes": ["ansi"], "name": "ggp_game_v0", "is_parallelizable": False}

    def __init__(self, model: WorldModel, encoding: Encoding | None = None, *,
                 render_mode: str | None = None, max_steps: int = 10_000) -> None:
        super().__init__()
        self.model = model
        self.encoding = encoding or Encoding.for_model(model)
        self.encoding.check(model)
        self.render_mode, self.max_steps = render_mode, max_steps
        # simultaneous-move games have a parallel form (GameParallelEnv)
        self.metadata = {**type(self).metadata,
                         "is_parallelizable": bool(model.metadata.simultaneous)}
        self.possible_agents = _agent_names(model)
        self.role_names = {a: model.player_name(p) for p, a in enumerate(self.possible_agents)}
        self._ids = {name: p for p, name in enumerate(self.possible_agents)}
        n_actions = len(self.encoding.index)
        obs_space = spaces.Dict({
            "observation": self.encoding.observation_space(),
            "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self.rng: random.Random | None = None  # made by the first reset
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

    def _legal(self) -> list[str]:
        return self.model.legal_actions(self.state_json)

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
        # Gymnasium's convention: a seed restarts the chance generator, no seed continues
        # it (so a run seeded once stays reproducible over its later resets)
        if seed is not None or self.rng is None:
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
        self._returns = [r for r in rewards]
        self.agent_selection = self.agents[0]
        self._select()
        self._infos()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self._ids[agent]
        observation = self.model.observations(self.state_json)[player]
        mask = np.zeros(len(self.encoding.index), dtype=np.int8)
        if self.model.current_player(self.state_json) == player:
            mask = self.encoding.index.mask(self._legal(), player)
        return {"observation": self.encoding.encode(observation), "action_mask": mask}

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
        legal = self._legal()
        name = self.encoding.index.action(int(action), legal, player)
        self.num_moves += 1
        if name not in legal:
            rewards = _forfeit(self.model, player, self._returns)
            done, forfeit = True, True
        else:
            self.state_json = self.model.apply(self.state_json, name)
            for p, r in enumerate(self.model.rewards(self.state_json)):
                rewards[p] += float(r)
            self._resolve_chance(rewards)
            done, forfeit = self.model.current_player(self.state_json) == TERMINAL, False
        self._returns = [a + b for a, b in zip(self._returns, rewards)]
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
                 *, render_mode: str | None = None, max_steps: int = 10_000,
                 opponent: Any = None) -> None:
        self.model, self.seat, self.render_mode = model, seat, render_mode
        self.encoding = encoding or Encoding.for_model(model)
        self.encoding.check(model)
        self.observation_space = self.encoding.observation_space()
        self.action_space = spaces.Discrete(len(self.encoding.index))
        kwargs = {"opponent": opponent} if opponent is not None else {}
        self.game = SeatGame(model, seat, random.Random(), max_steps=max_steps, **kwargs)
        self._mask = np.zeros(len(self.encoding.index), dtype=np.int8)
        self._legal: list[str] = []

    def _out(self, obs: Any, legal: list[str]) -> tuple[np.ndarray, dict]:
        self._legal = legal
        self._mask = (self.encoding.index.mask(legal, self.seat) if legal
                      else np.zeros(len(self.encoding.index), dtype=np.int8))
        return self.encoding.encode(obs), {"action_mask": self._mask.copy(),
                                           "json": json_copy(obs)}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self.game.rng = random.Random(seed)
        obs, legal = self.game.reset()
        return self._out(obs, legal)

    def step(self, action: Any):
        name = self.encoding.index.action(int(action), self._legal, self.seat) or ""
        obs, legal, reward, done, info = self.game.step(name)
        vector, out_info = self._out(obs, legal)
        out_info["illegal"] = info["illegal"]
        truncated = bool(info.get("truncated"))
        return vector, reward, done and not truncated, truncated, out_info

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
    its sandboxed worker, :class:`ggp.env.worker.EnvHost`, one round trip per
    :meth:`step`). Returns numpy arrays: ``obs`` (n, size) float32, ``mask`` (n, actions)
    bool, ``reward`` (n,), ``done`` (n,) and a list of finished games'
    ``{"env", "episode_return", "illegal", "truncated", "final_obs"}`` (``final_obs``: the
    finished game's last observation, encoded). A finished game is reset at once; a game
    reaching ``max_steps`` moves (chance not counted) is cut (``truncated``).
    """

    def __init__(self, model: WorldModel, encoding: Encoding, n: int, seat: "int | list[int]",
                 seed: int = 0, opponents: list[Any] | None = None,
                 max_steps: int = 10_000) -> None:
        from ggp.env.worker import batch_host

        self.encoding, self.n = encoding, n
        #: each game's seat (a list: self-play trains several seats with one network)
        self.seats = list(seat) if isinstance(seat, (list, tuple)) else [seat] * n
        self.seat = self.seats[0]
        self._legal: list[list[str]] = [[] for _ in range(n)]
        self._finals = np.zeros((0, encoding.encoder.size), dtype=np.float32)
        host = batch_host(model)
        if host is not None and (opponents is not None or len(set(self.seats)) > 1):
            raise GGPError("policy opponents and mixed seats run in process only, not "
                           "inside a sandboxed CWM's worker")
        if host is not None:
            host.call("batch_open", n=n, seat=seat, seed=seed, max_steps=max_steps)
            self._call = lambda method, **kw: host.call("batch_" + method, **kw)
        else:
            core = BatchCore(model, n, self.seats, seed, opponents, max_steps=max_steps)
            self._call = lambda method, **kw: getattr(core, method)(**kw)

    def _encode(self, observations: list[Any]) -> np.ndarray:
        encoder = self.encoding.encoder
        if hasattr(encoder, "encode_batch"):  # one sandbox round trip (LLM-written code)
            return encoder.encode_batch(observations)
        return np.stack([self.encoding.encode(o) for o in observations])

    def _arrays(self, rows: list[dict]) -> tuple[np.ndarray, np.ndarray]:
        # the finished games' last observations ride in the same batch as the current ones
        finals = [r["final_obs"] for r in rows if r.get("done")]
        encoded = self._encode([r["obs"] for r in rows] + finals)
        obs, self._finals = encoded[:len(rows)], encoded[len(rows):]
        self._legal = [r["legal"] for r in rows]
        mask = np.stack([self.encoding.index.mask(r["legal"], seat)
                         for r, seat in zip(rows, self.seats)]).astype(bool)
        return obs, mask

    def reset(self) -> tuple[np.ndarray, np.ndarray]:
        return self._arrays(self._call("reset"))

    def step(self, actions: np.ndarray):
        names = [self.encoding.index.action(int(a), legal, seat) or ""
                 for a, legal, seat in zip(actions, self._legal, self.seats)]
        rows = self._call("step", actions=names)
        obs, mask = self._arrays(rows)
        reward = np.array([r["reward"] for r in rows], dtype=np.float32)
        done = np.array([r["done"] for r in rows], dtype=bool)
        ended = [i for i, r in enumerate(rows) if r["done"]]  # the order of self._finals
        finished = [{"env": i, "episode_return": rows[i]["episode_return"],
                     "illegal": rows[i]["illegal"], "truncated": rows[i]["truncated"],
                     "final_obs": final} for i, final in zip(ended, self._finals)]
        return obs, mask, reward, done, finished


class GameParallelEnv(ParallelEnv):
    """A PettingZoo parallel environment for a simultaneous-move game.

    ggp models take simultaneous moves one player after the other (a later player does
    not see an earlier pending choice). A *joint step* here is the longest run of players
    asked in increasing seat order from the current state: every one of them gets a mask
    at once (their legal moves do not depend on the hidden pending choices), and
    :meth:`step` applies their actions in that order. The others get an all-zero mask and
    their actions are ignored. Only games whose metadata says ``simultaneous`` are
    accepted (in a turn-taking game a later mover's legal moves depend on the earlier move).
    """

    metadata = {"render_modes": ["ansi"], "name": "ggp_parallel_v0", "is_parallelizable": True}

    def __init__(self, model: WorldModel, encoding: Encoding | None = None, *,
                 render_mode: str | None = None, max_steps: int = 10_000) -> None:
        if not model.metadata.simultaneous:
            raise GGPError(f"{model.name} is not a simultaneous-move game; use the AEC "
                           "environment (env() or raw_env())")
        self.model = model
        self.encoding = encoding or Encoding.for_model(model)
        self.encoding.check(model)
        self.render_mode, self.max_steps = render_mode, max_steps
        self.possible_agents = _agent_names(model)
        n_actions = len(self.encoding.index)
        obs_space = spaces.Dict({
            "observation": self.encoding.observation_space(),
            "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self.rng: random.Random | None = None  # made by the first reset
        self.state_json: dict = {}

    def observation_space(self, agent: str) -> "spaces.Space":
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> "spaces.Space":
        return self.action_spaces[agent]

    def _chance(self, rewards: list[float]) -> None:
        while self.model.current_player(self.state_json) == CHANCE:
            action = self.model.sample_chance(self.state_json, self.rng)
            self.state_json = self.model.apply(self.state_json, action)
            for p, r in enumerate(self.model.rewards(self.state_json)):
                rewards[p] += float(r)

    def _joint(self) -> dict[int, list[str]]:
        """The players of the current joint step and their legal moves (see the class
        doc), found on a scratch copy with arbitrary moves for the earlier players."""
        found: dict[int, list[str]] = {}
        state, last = self.state_json, -1
        while True:
            player = self.model.current_player(state)
            if player < 0 or player <= last:
                return found
            legal = self.model.legal_actions(state)
            found[player] = legal
            state, last = self.model.apply(state, legal[0]), player

    def _outputs(self) -> dict[str, dict[str, np.ndarray]]:
        self._movers = self._joint()
        observations = self.model.observations(self.state_json)
        out = {}
        for agent in self.agents:
            p = int(agent.split("_")[1])
            mask = np.zeros(len(self.encoding.index), dtype=np.int8)
            if p in self._movers:
                mask = self.encoding.index.mask(self._movers[p], p)
            out[agent] = {"observation": self.encoding.encode(observations[p]),
                          "action_mask": mask}
        return out

    def reset(self, seed: int | None = None, options: dict | None = None):
        if seed is not None or self.rng is None:  # as GameAECEnv.reset
            self.rng = random.Random(seed)
        self.agents = list(self.possible_agents)
        self.state_json = self.model.initial_state()
        self.num_moves = 0
        rewards = [0.0] * self.model.num_players
        self._chance(rewards)
        self._returns = rewards
        observations = self._outputs()
        return observations, {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]):
        n = self.model.num_players
        rewards, forfeit = [0.0] * n, None
        for p in sorted(self._movers):
            agent = self.possible_agents[p]
            legal = self.model.legal_actions(self.state_json)
            name = (self.encoding.index.action(int(actions[agent]), legal, p)
                    if agent in actions else None)
            if name not in legal:
                forfeit = p
                break
            self.state_json = self.model.apply(self.state_json, name)
            self.num_moves += 1
            for q, r in enumerate(self.model.rewards(self.state_json)):
                rewards[q] += float(r)
        if forfeit is not None:
            so_far = [a + b for a, b in zip(self._returns, rewards)]
            rewards = [a + b for a, b in zip(rewards, _forfeit(self.model, forfeit, so_far))]
        else:
            self._chance(rewards)
        self._returns = [a + b for a, b in zip(self._returns, rewards)]
        done = forfeit is not None or self.model.current_player(self.state_json) == TERMINAL
        truncated = not done and self.num_moves >= self.max_steps
        agents = list(self.agents)
        observations = self._outputs() if not (done or truncated) else {
            a: {"observation": self.encoding.encode(
                self.model.observations(self.state_json)[int(a.split("_")[1])]),
                "action_mask": np.zeros(len(self.encoding.index), dtype=np.int8)}
            for a in agents}
        reward = {a: rewards[int(a.split("_")[1])] for a in agents}
        infos = {a: {} for a in agents}
        if forfeit is not None:
            infos[self.possible_agents[forfeit]]["illegal"] = True
        if done or truncated:
            self.agents = []
        return (observations, reward, {a: done for a in agents},
                {a: truncated for a in agents}, infos)

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return canonical_json(self.state_json)
        return None

    def close(self) -> None:
        pass


__all__ = ["DEFAULT_UNKNOWN", "Encoding", "GameAECEnv", "GameParallelEnv", "SeatEnv",
           "VectorSeatEnv", "game_identity"]
