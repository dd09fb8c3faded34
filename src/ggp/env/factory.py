"""Standard entry points: Gymnasium ids and PettingZoo's ``env()`` / ``raw_env()`` /
``parallel_env()``.

``import ggp.env`` registers ``ggp/<game>-v0`` for every reference game and the generic
``ggp/Game-v0`` (any game spec: ``gymnasium.make("ggp/Game-v0", game="openspiel:
leduc_poker")``, a ``.kif`` file, a trusted ``.py``)::

    import gymnasium, ggp.env
    env = gymnasium.make("ggp/tic_tac_toe-v0", seat=1, max_steps=200)

    from ggp.env.factory import env, parallel_env
    aec = env("connect_four")                  # wrapped: PettingZoo's order checks
    par = parallel_env("goofspiel")            # simultaneous-move games only

Every factory takes ``game`` (a name or spec for :func:`ggp.load.load_model`), an optional
``encoding`` (:class:`~ggp.env.envs.Encoding`; fitted on ``fit_games`` random games
otherwise), ``max_steps`` (the truncation horizon in player moves) and ``render_mode``.
The Gymnasium form also takes ``seat`` and ``opponent`` (a ggp agent spec such as
``"gt_mcts:sims=50"``; random by default).
"""

from __future__ import annotations

import random
from typing import Any

from ggp.core.model import WorldModel


def _model(game: str | WorldModel) -> WorldModel:
    if isinstance(game, WorldModel):
        return game
    from ggp.load import load_model

    return load_model(game)


def _encoding(model: WorldModel, encoding: Any, fit_games: int) -> Any:
    from ggp.env.envs import Encoding

    return encoding if encoding is not None else Encoding.for_model(model, games=fit_games)


class AgentOpponent:
    """An :data:`ggp.env.games.Opponent` playing the ggp agent ``spec`` from what the
    arena would show it: its observations at each of its decisions and its own moves (one
    agent per opponent seat; :class:`~ggp.env.games.SeatGame` calls :meth:`new_game` when
    a game begins)."""

    def __init__(self, model: WorldModel, spec: str, seed: int = 0) -> None:
        from ggp.agents import make_agent

        make_agent(spec, model)  # a bad spec fails now, in one line
        self.model, self.spec, self.rng = model, spec, random.Random(seed)
        self.agents: dict[int, Any] = {}
        self.histories: dict[int, list] = {}

    def new_game(self) -> None:
        self.histories = {}

    def __call__(self, model: WorldModel, state: dict, player: int,
                 rng: random.Random) -> str:
        from ggp.agents import make_agent
        from ggp.agents.base import MatchInfo

        if player not in self.agents:
            self.agents[player] = make_agent(self.spec, self.model)
        agent = self.agents[player]
        if player not in self.histories:
            agent.start(MatchInfo(game=self.model.name, seat=player,
                                  num_players=self.model.num_players,
                                  seed=self.rng.randrange(2**31), rules=self.model.rules))
            self.histories[player] = []
        history = self.histories[player]
        history.append((model.observation(state, player), None))
        action = agent.act(list(history))
        history[-1] = (history[-1][0], action)
        return action


def gym_env(game: str | WorldModel, seat: int = 0, *, encoding: Any = None,
            max_steps: int = 10_000, opponent: str | None = None, fit_games: int = 200,
            render_mode: str | None = None) -> Any:
    """A Gymnasium environment: one seat against ``opponent`` (random by default)."""
    from ggp.env.envs import SeatEnv

    model = _model(game)
    encoding = _encoding(model, encoding, fit_games)
    play = AgentOpponent(model, opponent) if opponent else None
    return SeatEnv(model, seat, encoding, render_mode=render_mode, max_steps=max_steps,
                   opponent=play)


def raw_env(game: str | WorldModel, *, encoding: Any = None, max_steps: int = 10_000,
            fit_games: int = 200, render_mode: str | None = None) -> Any:
    """The PettingZoo AEC environment, unwrapped (:class:`ggp.env.envs.GameAECEnv`)."""
    from ggp.env.envs import GameAECEnv

    model = _model(game)
    return GameAECEnv(model, _encoding(model, encoding, fit_games), render_mode=render_mode,
                      max_steps=max_steps)


def env(game: str | WorldModel, **kwargs: Any) -> Any:
    """The AEC environment in PettingZoo's usual wrappers (order enforcement, and
    illegal moves reported by PettingZoo before they reach the game)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(
        raw_env(game, **kwargs)))


def parallel_env(game: str | WorldModel, *, encoding: Any = None, max_steps: int = 10_000,
                 fit_games: int = 200, render_mode: str | None = None) -> Any:
    """The PettingZoo parallel environment of a simultaneous-move game
    (:class:`ggp.env.envs.GameParallelEnv`); a turn-taking game is refused."""
    from ggp.env.envs import GameParallelEnv

    model = _model(game)
    return GameParallelEnv(model, _encoding(model, encoding, fit_games),
                           render_mode=render_mode, max_steps=max_steps)


def register_gymnasium_ids() -> list[str]:
    """Register ``ggp/<game>-v0`` for every reference game and ``ggp/Game-v0``; returns
    the ids (already registered ones are kept)."""
    import pkgutil

    import ggp.games
    from gymnasium.envs.registration import register, registry

    names = [i.name for i in pkgutil.iter_modules(ggp.games.__path__)
             if not i.name.startswith("_")]
    ids = []
    for name in [*names, None]:
        env_id = f"ggp/{name}-v0" if name else "ggp/Game-v0"
        if env_id not in registry:
            register(id=env_id, entry_point="ggp.env.factory:gym_env",
                     kwargs={"game": name} if name else {}, disable_env_checker=False)
        ids.append(env_id)
    return ids


__all__ = ["AgentOpponent", "env", "gym_env", "parallel_env", "raw_env",
           "register_gymnasium_ids"]
