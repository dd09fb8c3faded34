"""Policy transformations: maps from the network policy to another policy at each infoset.

The critic learns, for every history, the value of the game when one player follows a
transformed network policy from there on and the other follows the network (seed 004
§4.1). A transformation here works on a batch: ``f(pi, legal) -> pi'`` where ``pi`` and
``legal`` have shape ``[N, num_actions]`` (probabilities, zero on illegal actions; a boolean
legal mask) and the result is a probability vector over the legal actions of each row.

Choices the paper leaves open (documented in docs/sepot.md):

* #3 (its formula is lost in the text; it "raises the probability of rarely played
  actions"): we use ``pi' ∝ 1 - pi`` over the legal actions.
* A transformation that gives weight 0 to every legal action (e.g. "only odd cards" when
  only even cards are left, or a pure action that is illegal here) falls back to ``pi``.
* ``I^R(a) = max I(a') - I(a) + 1`` takes the maximum over the *legal* actions of the row.
* Exponential weights are applied in log space so ``e^I`` cannot overflow.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

TransformFn = Callable[[np.ndarray, np.ndarray], np.ndarray]
_TINY = 1e-30


@dataclass(frozen=True)
class Transformation:
    """A named policy transformation (see the module docstring for the contract)."""

    name: str
    fn: TransformFn

    def __call__(self, pi: np.ndarray, legal: np.ndarray) -> np.ndarray:
        return self.fn(pi, legal)


def _normalise(weights: np.ndarray, pi: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Renormalise over legal actions; rows whose legal weight is all zero keep ``pi``."""
    weights = np.where(legal, weights, 0.0)
    total = weights.sum(axis=1, keepdims=True)
    ok = total > _TINY
    return np.where(ok, weights / np.where(ok, total, 1.0), pi)


def _from_log(log_w: np.ndarray, pi: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """Normalise ``exp(log_w)`` over legal actions without overflow."""
    log_w = np.where(legal, log_w, -np.inf)
    top = log_w.max(axis=1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    return _normalise(np.exp(log_w - top), pi, legal)


def identity() -> Transformation:
    return Transformation("identity", lambda pi, legal: pi)


def pure_action_set(num_actions: int) -> list[Transformation]:
    """Identity plus 'always play action a' for every action (the paper's Leduc set)."""

    def pure(a: int) -> Transformation:
        def fn(pi: np.ndarray, legal: np.ndarray) -> np.ndarray:
            onehot = np.zeros_like(pi)
            onehot[:, a] = 1.0
            return _normalise(onehot, pi, legal)

        return Transformation(f"pure_{a}", fn)

    return [identity()] + [pure(a) for a in range(num_actions)]


def goofspiel_set(index: np.ndarray) -> list[Transformation]:
    """The 22 transformations of seed 004 App. C for action indices ``index`` (I(a) >= 1).

    Used for Goofspiel (I = card value) and Battleships (I = tile number).
    """
    index = np.asarray(index, dtype=np.float64)

    def reverse(legal: np.ndarray) -> np.ndarray:
        top = np.where(legal, index, -np.inf).max(axis=1, keepdims=True)
        return top - index + 1.0

    def weighted(name: str, g: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Transformation:
        # pi' ∝ exp(log pi + g): g is log of the per-action multiplier.
        def fn(pi: np.ndarray, legal: np.ndarray) -> np.ndarray:
            with np.errstate(divide="ignore"):
                log_pi = np.log(pi)
            return _from_log(log_pi + g(legal, index), pi, legal)

        return Transformation(name, fn)

    def mask(name: str, keep: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> Transformation:
        def fn(pi: np.ndarray, legal: np.ndarray) -> np.ndarray:
            return _normalise(np.where(keep(legal, index), pi, 0.0), pi, legal)

        return Transformation(name, fn)

    def safe_log(x: np.ndarray) -> np.ndarray:
        return np.log(np.maximum(x, _TINY))

    lo = lambda legal: np.minimum(np.broadcast_to(index, legal.shape), reverse(legal))  # noqa: E731
    hi = lambda legal: np.maximum(np.broadcast_to(index, legal.shape), reverse(legal))  # noqa: E731
    return [
        identity(),
        Transformation("uniform", lambda pi, legal: _normalise(np.ones_like(pi), pi, legal)),
        Transformation("inverse", lambda pi, legal: _normalise(1.0 - pi, pi, legal)),
        weighted("I", lambda legal, i: safe_log(np.broadcast_to(i, legal.shape))),
        weighted("I^2", lambda legal, i: 2 * safe_log(np.broadcast_to(i, legal.shape))),
        weighted("exp(I)", lambda legal, i: np.broadcast_to(i, legal.shape)),
        weighted("IR", lambda legal, i: safe_log(reverse(legal))),
        weighted("IR^2", lambda legal, i: 2 * safe_log(reverse(legal))),
        weighted("exp(IR)", lambda legal, i: reverse(legal)),
        weighted("min(I,IR)", lambda legal, i: safe_log(lo(legal))),
        weighted("min(I,IR)^2", lambda legal, i: 2 * safe_log(lo(legal))),
        weighted("exp(min(I,IR))", lambda legal, i: lo(legal)),
        weighted("max(I,IR)", lambda legal, i: safe_log(hi(legal))),
        weighted("max(I,IR)^2", lambda legal, i: 2 * safe_log(hi(legal))),
        weighted("exp(max(I,IR))", lambda legal, i: hi(legal)),
        mask("even", lambda legal, i: np.broadcast_to(i % 2 == 0, legal.shape)),
        mask("odd", lambda legal, i: np.broadcast_to(i % 2 == 1, legal.shape)),
        mask("mod3=0", lambda legal, i: np.broadcast_to(i % 3 == 0, legal.shape)),
        mask("mod3=1", lambda legal, i: np.broadcast_to(i % 3 == 1, legal.shape)),
        mask("mod3=2", lambda legal, i: np.broadcast_to(i % 3 == 2, legal.shape)),
        mask("not lowest", lambda legal, i: np.broadcast_to(i != 1, legal.shape)),
        mask("not highest", lambda legal, i: reverse(legal) != 1),
    ]
