"""A Stable-Baselines3 ``VecEnv`` over the batched seat environment.

:class:`GameVecEnv` exposes :class:`~ggp.env.envs.VectorSeatEnv` — ``n`` games of one
seat stepped together, in process or inside a sandboxed CWM's worker with one round trip
per batch step — to Stable-Baselines3 and sb3-contrib, so their algorithms train on any
ggp game without one Python environment object per game (``DummyVecEnv``) or one process
per game (``SubprocVecEnv``)::

    from sb3_contrib import MaskablePPO
    from ggp.env.envs import Encoding
    from ggp.env.sb3 import GameVecEnv

    with HostedModel("examples/recorded/leduc_poker", meta, entry=ENV_ENTRY) as cwm:
        venv = GameVecEnv(cwm, Encoding.for_model(cwm), n=16, seat=0)
        MaskablePPO("MlpPolicy", venv, n_steps=64).learn(5_000)

It follows SB3's conventions: finished games reset themselves, a finished game's info
holds ``terminal_observation`` (its last observation, encoded), ``TimeLimit.truncated``
(cut at ``max_steps`` moves) and ``episode`` (``{"r": return, "l": the seat's moves}``,
what SB3's ``Monitor`` reports, so the training logs show returns); the legal-action
masks answer ``env_method("action_masks")``, which is how sb3-contrib's ``MaskablePPO``
asks. ``seed(s)`` takes effect at the next :meth:`GameVecEnv.reset`, as in SB3.

Needs the ``sb3`` extra (``pip install 'ggp[sb3]'``).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from ggp.core.errors import GGPError
from ggp.core.model import WorldModel

try:
    from gymnasium import spaces
    from stable_baselines3.common.vec_env import VecEnv
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise GGPError("ggp.env.sb3 needs the sb3 extra: pip install 'ggp[sb3]'") from exc


class GameVecEnv(VecEnv):
    """``n`` games of ``seat`` (one seat, or one per game in process) against random
    opponents (or ``opponents``, one per game, in process) as an SB3 ``VecEnv``; see the
    module doc. ``model`` may be a ``HostedModel`` started with ``entry=ENV_ENTRY``."""

    def __init__(self, model: WorldModel, encoding: Any, n: int,
                 seat: "int | list[int]" = 0, *, seed: int = 0,
                 opponents: list[Any] | None = None, max_steps: int = 10_000) -> None:
        encoding.check(model)
        self.model, self.encoding = model, encoding
        # not _options: VecEnv keeps its reset options there
        self._games = {"seat": seat, "opponents": opponents, "max_steps": max_steps}
        self._seed = seed
        self._vec: Any = None
        self._masks = np.zeros((n, len(encoding.index)), dtype=bool)
        self._actions = np.zeros(n, dtype=np.int64)
        self._lengths = np.zeros(n, dtype=np.int64)
        self.render_mode = None  # read by VecEnv.__init__ through get_attr
        super().__init__(n, encoding.observation_space(),
                         spaces.Discrete(len(encoding.index)))

    def _open(self) -> None:
        from ggp.env.envs import VectorSeatEnv

        # a seed from seed() is used by the next reset only (SB3's convention)
        seed = self._seeds[0] if self._seeds[0] is not None else self._seed
        self._vec = VectorSeatEnv(self.model, self.encoding, self.num_envs, seed=seed,
                                  **self._games)
        self._reset_seeds()

    def reset(self) -> np.ndarray:
        """Start ``n`` new games (reseeded if :meth:`seed` was called since)."""
        if self._vec is None or self._seeds[0] is not None:
            self._open()
        obs, self._masks = self._vec.reset()
        self._lengths[:] = 0
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs, self._masks, reward, done, finished = self._vec.step(self._actions)
        self._lengths += 1
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for game in finished:
            i = game["env"]
            infos[i] = {"terminal_observation": game["final_obs"],
                        "TimeLimit.truncated": bool(game["truncated"]),
                        "episode": {"r": float(game["episode_return"]),
                                    "l": int(self._lengths[i])},
                        "illegal": bool(game["illegal"])}
            self._lengths[i] = 0
        return obs, reward, done, infos

    def action_masks(self) -> np.ndarray:
        """The legal-action masks of the current decisions, shape (n, actions)."""
        return self._masks.copy()

    # -------------------------------------------------- SB3's per-environment access
    def _indices(self, indices: Any) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        return [indices] if isinstance(indices, int) else list(indices)

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        """An attribute of the games: ``action_masks`` (per game) and this object's own
        attributes, the same for every game (the games are not separate objects)."""
        if attr_name == "action_masks":
            return [lambda i=i: self._masks[i].copy() for i in self._indices(indices)]
        if not hasattr(self, attr_name):
            raise AttributeError(f"GameVecEnv has no attribute {attr_name!r}")
        return [getattr(self, attr_name) for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError("the games of a GameVecEnv have no settable attributes")

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None,
                   **method_kwargs: Any) -> list[Any]:
        """``action_masks`` per game, or one of this object's own methods."""
        methods = self.get_attr(method_name, indices)
        if not all(callable(m) for m in methods):
            raise AttributeError(f"GameVecEnv's {method_name!r} is not a method")
        return [method(*method_args, **method_kwargs) for method in methods]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None for _ in range(self.num_envs)]

    def render(self, mode: str | None = None) -> None:
        return None

    def close(self) -> None:
        """Nothing to release: a hosted model is closed by whoever opened it."""


__all__ = ["GameVecEnv"]
