"""Leaf evaluators: estimates of the returns still to come from a state.

An :class:`Evaluator` maps a (complete) state to a vector with one entry per player. By
default that is the expected sum of the rewards each player will still receive from that
state on (``returns_to_come = True``). An evaluator that estimates the *whole game's*
return instead (the protocol's ``value_function``) sets ``returns_to_come = False``, and
the searchers subtract the rewards received between the search root and the leaf (the
rewards before the root shift every action's value equally and do not matter). Searchers
back these vectors up, so n-player and general-sum games need nothing special.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from enum import Enum
from collections.abc import Callable

from ggp.core.errors import ModelError
from ggp.core.model import WorldModel
from ggp.core.protocol import TERMINAL, State
from ggp.core.ops import ops_for
from ggp.search.priors import GuardedPrior, sample_from

ValueVector = list[float]


class Playout(str, Enum):
    """How the players move in a rollout: uniformly at random, or by the policy prior
    (an *informed* playout, see :class:`RandomRolloutEvaluator`)."""

    RANDOM = "random"
    PRIOR = "prior"

    @classmethod
    def parse(cls, text: str) -> Playout:
        """The choice named ``text``; a one-line error naming the choices otherwise."""
        try:
            return cls(str(text).lower())
        except ValueError:
            raise ValueError(f"playout must be one of {', '.join(c.value for c in cls)}, "
                             f"not {text!r}") from None


class Evaluator(ABC):
    """Estimates the returns to come from a non-terminal state (see the module doc)."""

    returns_to_come = True

    @abstractmethod
    def evaluate(self, state: State, rng: random.Random) -> ValueVector:
        """One value per player; ``rng`` is the searcher's generator (for reproducibility)."""


class RandomRolloutEvaluator(Evaluator):
    """Average return of ``n_rollouts`` playouts (chance by its odds); the players move
    uniformly at random, or, with ``policy``, by a policy prior's probabilities.

    ``max_steps`` bounds a playout: a model that never terminates raises
    :class:`~ggp.core.errors.ModelError` instead of hanging the planner.

    ``policy`` (a :class:`~ggp.search.priors.GuardedPrior`) makes the playouts *informed*:
    where random play is a poor model of the players (a random bargainer accepts nothing
    worth having, so the searcher agrees to anything), a prior that knows what a sensible
    player does gives leaf values that mean something. It costs one prior call per move
    of a playout. An untrusted prior gets a copy of the playout's first state (which a
    search node may hold) and the later states as they are: they belong to the playout.
    """

    def __init__(self, model: WorldModel, n_rollouts: int = 10, max_steps: int = 10_000,
                 policy: GuardedPrior | None = None) -> None:
        if n_rollouts < 1:
            raise ValueError("n_rollouts must be at least 1")
        self.ops = ops_for(model)
        self.n_rollouts = n_rollouts
        self.max_steps = max_steps
        self.policy = policy
        self._copy_first = policy is not None and policy.copy_state

    def evaluate(self, state: State, rng: random.Random) -> ValueVector:
        total = self._playouts(state, rng, self.n_rollouts)
        return [t / self.n_rollouts for t in total]

    def rollout(self, state: State, rng: random.Random) -> ValueVector:
        """The return of one random playout from ``state``."""
        return self._playouts(state, rng, 1)

    def _playouts(self, state: State, rng: random.Random, count: int) -> ValueVector:
        """Summed returns of ``count`` playouts (one function: the lookups below are done
        once per leaf, not once per playout, which matters in games with short playouts)."""
        ops = self.ops
        current_player, legal_actions, apply = ops.current_player, ops.legal_actions, ops.apply
        rewards, random, sample_chance = ops.rewards, rng.random, ops.sample_chance
        n, max_steps, policy = ops.num_players, self.max_steps, self.policy
        total = [0.0] * n
        zero = [0.0] * n  # `r != zero` is `any(r)` without a call
        start = state
        for _ in range(count):
            state = copy.deepcopy(start) if self._copy_first else start
            for _ in range(max_steps):
                player = current_player(state)
                if player >= 0:  # the usual case first: one comparison
                    legal = legal_actions(state)
                    if policy is None:
                        action = legal[int(random() * len(legal))]  # faster than rng.choice
                    else:
                        action = sample_from(policy(state, player, legal, copy_state=False),
                                             random())
                elif player == TERMINAL:
                    break
                else:
                    action = sample_chance(state, rng)
                state = apply(state, action)
                r = rewards(state)
                if r != zero:
                    for i in range(n):
                        total[i] += r[i]
            else:
                raise ModelError(f"a random playout did not end within {max_steps} steps",
                                 function="get_current_player", state=state)
        return total


class ValueFunctionEvaluator(Evaluator):
    """The model's own ``value_function(state, player)`` for every player (an estimate of
    the player's return over the whole game, as the protocol defines it)."""

    returns_to_come = False

    def __init__(self, model: WorldModel) -> None:
        if not model.has("value_function"):
            raise ValueError(f"{model.name} has no value_function")
        self.model = model

    def evaluate(self, state: State, rng: random.Random) -> ValueVector:
        return [self.model.value(state, p) for p in range(self.model.num_players)]


class CallableEvaluator(Evaluator):
    """Any function ``fn(state) -> list[float]`` (e.g. a learned network)."""

    def __init__(self, fn: Callable[[State], ValueVector]) -> None:
        self.fn = fn

    def evaluate(self, state: State, rng: random.Random) -> ValueVector:
        return [float(v) for v in self.fn(state)]


def as_evaluator(model: WorldModel, evaluator: Evaluator | Callable | None) -> Evaluator:
    """``None`` -> 10 random rollouts (seed 000's setting); a callable -> wrapped."""
    if evaluator is None:
        return RandomRolloutEvaluator(model)
    if isinstance(evaluator, Evaluator):
        return evaluator
    if callable(evaluator):
        return CallableEvaluator(evaluator)
    raise TypeError(f"not an evaluator: {evaluator!r}")
