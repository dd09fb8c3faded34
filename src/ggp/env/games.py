"""One seat of a world model against fixed opponents, as plain JSON (no tensors).

:class:`SeatGame` is the piece shared by the Gymnasium wrapper, the in-process vector
environment and the sandboxed vector worker: it plays chance moves (by their outcome
distribution) and the other seats (uniformly random legal actions by default) until the
learning seat must act or the game ends. It only speaks the world-model protocol, so it
runs unchanged inside a sandboxed child next to an untrusted CWM.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, Action, Observation

#: ``opponent(model, state, player, rng) -> action``; it sees the complete state, so only
#: use it for baselines that do not cheat (random) or that are allowed to (tests).
Opponent = Callable[[WorldModel, dict, int, random.Random], Action]


def random_opponent(model: WorldModel, state: dict, player: int, rng: random.Random) -> Action:
    """A uniformly random legal action."""
    return rng.choice(model.legal_actions(state))


class SeatGame:
    """One game from one seat's point of view; see the module doc.

    ``step`` returns ``(observation, legal, reward, done, info)``. ``reward`` is the seat's
    reward summed over every transition since its last decision (its own move, chance,
    the opponents'). An action that is not legal ends the game as a forfeit: the seat gets
    ``min_utility`` minus what it has already received (so the return equals
    ``min_utility``), ``info["illegal"]`` is True. A game that reaches ``max_steps`` moves
    (chance not counted) is cut off: ``done`` with ``info["truncated"]`` True.
    """

    def __init__(self, model: WorldModel, seat: int, rng: random.Random, *,
                 opponent: Opponent = random_opponent, max_steps: int = 10_000) -> None:
        if not 0 <= seat < model.num_players:
            raise GGPError(f"seat {seat} does not exist in a {model.num_players}-player game")
        self.model, self.seat, self.rng = model, seat, rng
        self.opponent, self.max_steps = opponent, max_steps
        self.state: dict = {}
        self.episode_return = 0.0
        self.steps = 0
        self.truncated = False

    def _advance(self) -> float:
        """Play chance and opponents until the seat moves or the game ends."""
        reward = 0.0
        while True:
            player = self.model.current_player(self.state)
            if player == TERMINAL:
                return reward
            if player != CHANCE and self.steps >= self.max_steps:
                self.truncated = True
                return reward
            if player == self.seat:
                return reward
            if player == CHANCE:
                action = self.model.sample_chance(self.state, self.rng)
            else:
                action = self.opponent(self.model, self.state, player, self.rng)
                self.steps += 1
            self.state = self.model.apply(self.state, action)
            reward += float(self.model.rewards(self.state)[self.seat])

    def done(self) -> bool:
        return self.truncated or self.model.current_player(self.state) == TERMINAL

    def observation(self) -> Observation:
        return self.model.observations(self.state)[self.seat]

    def legal(self) -> list[Action]:
        return [] if self.done() else self.model.legal_actions(self.state)

    def reset(self, tries: int = 100) -> tuple[Observation, list[Action]]:
        """A new game, advanced to the seat's first decision."""
        for _ in range(tries):
            self.state, self.steps, self.truncated = self.model.initial_state(), 0, False
            new_game = getattr(self.opponent, "new_game", None)
            if new_game is not None:  # an agent opponent forgets the last game
                new_game()
            self.episode_return = self._advance()
            if not self.done():
                return self.observation(), self.legal()
        raise GGPError(f"seat {self.seat} never got to move in {tries} new games")

    def step(self, action: Action) -> tuple[Observation, list[Action], float, bool, dict]:
        legal = self.model.legal_actions(self.state)
        if action not in legal:
            reward = float(self.model.metadata.min_utility) - self.episode_return
            self.episode_return += reward
            return self.observation(), [], reward, True, {"illegal": True, "truncated": False}
        self.state = self.model.apply(self.state, action)
        self.steps += 1
        reward = float(self.model.rewards(self.state)[self.seat]) + self._advance()
        self.episode_return += reward
        done = self.done()
        return (self.observation(), self.legal(), reward, done,
                {"illegal": False, "truncated": self.truncated})


class BatchCore:
    """``n`` :class:`SeatGame` s stepped together, with automatic reset.

    ``step(actions)`` returns one dict per game: ``obs``, ``legal``, ``reward``, ``done``
    and, when done, ``episode_return`` (the finished game's return), ``illegal``,
    ``truncated`` (cut at ``max_steps`` moves) and ``final_obs`` (the seat's observation
    of the finished game: Stable-Baselines3 bootstraps a cut game's value from it); the
    ``obs``/``legal`` of a finished game are already those of its next game.

    ``seat`` is one seat for every game or a list with each game's seat (self-play trains
    both seats of one network at once); ``opponents``, one per game, replace the random
    opponents (in-process only: a policy opponent holds a network).
    """

    def __init__(self, model: WorldModel, n: int, seat: "int | list[int]", seed: int = 0,
                 opponents: "list[Opponent] | None" = None, max_steps: int = 10_000) -> None:
        if n < 1:
            raise GGPError("a vector environment needs at least one game")
        seats = list(seat) if isinstance(seat, (list, tuple)) else [seat] * n
        if len(seats) != n or (opponents is not None and len(opponents) != n):
            raise GGPError(f"{n} games need {n} seats and opponents")
        self.games = [SeatGame(model, seats[i], random.Random(seed * 100_003 + i),
                               max_steps=max_steps,
                               **({"opponent": opponents[i]} if opponents else {}))
                      for i in range(n)]

    def reset(self) -> list[dict[str, Any]]:
        out = []
        for game in self.games:
            obs, legal = game.reset()
            out.append({"obs": obs, "legal": legal})
        return out

    def step(self, actions: list[Action]) -> list[dict[str, Any]]:
        if len(actions) != len(self.games):
            raise GGPError(f"{len(actions)} actions for {len(self.games)} games")
        out = []
        for game, action in zip(self.games, actions):
            obs, legal, reward, done, info = game.step(action)
            row: dict[str, Any] = {"reward": reward, "done": done}
            if done:
                row["episode_return"], row["illegal"] = game.episode_return, info["illegal"]
                row["truncated"], row["final_obs"] = info["truncated"], obs
                obs, legal = game.reset()
            row["obs"], row["legal"] = obs, legal
            out.append(row)
        return out


__all__ = ["BatchCore", "Opponent", "SeatGame", "random_opponent"]
