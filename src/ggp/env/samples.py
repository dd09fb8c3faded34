"""Example observations and actions to fit an encoder and an action index on.

Seed 000 learns its observation encoding from the recorded trajectories; here the same
examples come from a :class:`~ggp.synth.trajectories.TrajectorySet` (recorded games, open
or closed deck) and/or from random play in any world model (a reference game, a GDL game,
a CWM hosted in the sandbox). Every player's observation at every state is kept, terminal
states included, so an environment never shows a policy an observation it was not fitted on
unless the game reaches a place random play never did.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ggp.core.model import WorldModel, random_walk
from ggp.core.protocol import CHANCE, TERMINAL


@dataclass
class Samples:
    """Observations, legal-action lists and taken actions (chance moves excluded);
    ``seat_actions`` keeps the actions by the seat that could take them (empty when the
    source does not say), for an action index shared across seats. ``open_actions``: new
    actions still appeared in the second half of the games (or there were too few games
    to tell), so the game likely has actions these examples never showed."""

    observations: list[Any] = field(default_factory=list)
    actions: set[str] = field(default_factory=set)
    seat_actions: dict[int, set[str]] = field(default_factory=dict)
    open_actions: bool = False

    def extend(self, other: "Samples") -> "Samples":
        self.observations.extend(other.observations)
        self.actions |= other.actions
        self.open_actions = self.open_actions or other.open_actions
        for seat, acts in other.seat_actions.items():
            self.seat_actions.setdefault(int(seat), set()).update(acts)
        return self


def random_play_samples(model: WorldModel, games: int = 200, seed: int = 0,
                        max_steps: int = 1000) -> Samples:
    """Play ``games`` uniformly random games (chance by its outcome distribution)."""
    rng = random.Random(seed)
    samples = Samples()
    half = len(samples.actions)
    for game in range(games):
        if game == games // 2:
            half = len(samples.actions)
        for state, player, legal in random_walk(model, rng, max_steps):
            samples.observations.extend(model.observations(state))
            samples.actions.update(legal)
            if player >= 0:
                samples.seat_actions.setdefault(player, set()).update(legal)
    samples.open_actions = games < 2 or len(samples.actions) > half
    return samples


def trajectory_samples(trajectories: Any) -> Samples:
    """The examples in a :class:`~ggp.synth.trajectories.TrajectorySet`."""
    samples = Samples()
    runs = trajectories.trajectories
    half = 0
    for number, trajectory in enumerate(runs):
        if number == len(runs) // 2:
            half = len(samples.actions)
        for step in trajectory.steps:
            samples.observations.extend(step.observations)
            if step.current_player not in (CHANCE, TERMINAL):
                samples.actions.update(step.legal_actions)
                seat = samples.seat_actions.setdefault(step.current_player, set())
                seat.update(step.legal_actions)
                if step.action is not None:
                    samples.actions.add(step.action)
                    seat.add(step.action)
        for entry in trajectory.view:
            if entry.get("observation") is not None:
                samples.observations.append(entry["observation"])
            samples.actions.update(entry.get("legal_actions") or [])
            if entry.get("action") is not None:
                samples.actions.add(entry["action"])
    samples.open_actions = len(runs) < 2 or len(samples.actions) > half
    return samples


__all__ = ["Samples", "random_play_samples", "trajectory_samples"]
