"""Policy priors for PUCT: ``prior(state, player) -> {action: weight}``.

A prior says which moves look promising before any search (a synthesized
``policy_prior`` written by a language model, a learned policy, a hand-written
heuristic). Searchers do not trust it: :class:`GuardedPrior` turns whatever the function
returns into a distribution over the legal actions, and an error, a non-mapping, or a
weight that is not a finite non-negative number falls back to the uniform distribution
and is counted (``errors``, ``last_error``), so a broken prior costs strength, never a
move.

Normalization: the weights of the legal actions (missing ones count 0; actions that are
not legal are ignored) are divided by their sum and mixed with the uniform distribution,
``P(a) = (1 - floor) * w(a) / sum(w) + floor / |legal|``, so every legal action keeps a
small probability and PUCT can still find a move the prior missed.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping, Sequence

from ggp.core.model import WorldModel
from ggp.core.protocol import Action, State

#: The protocol of a prior: weights (not necessarily normalized) for some actions.
Prior = Callable[[State, int], Mapping[Action, float]]


class GuardedPrior:
    """Calls an untrusted prior and returns ``{legal action: probability}``.

    Args:
        fn: the prior.
        floor: the share of probability spread uniformly over all legal actions (0.02).
        copy_state: hand the prior a deep copy of the state (for untrusted priors, which
            might change the state a search node holds).
    """

    def __init__(self, fn: Prior, *, floor: float = 0.02, copy_state: bool = True) -> None:
        if not 0.0 <= floor <= 1.0:
            raise ValueError("the prior floor must lie in [0, 1]")
        self.fn, self.floor, self.copy_state = fn, floor, copy_state
        self.calls = 0
        self.errors = 0
        self.last_error = ""

    def __call__(self, state: State, player: int, legal: Sequence[Action], *,
                 copy_state: bool | None = None) -> dict[Action, float]:
        """``{legal action: probability}``; ``copy_state`` overrides the constructor's
        setting for this call (a playout hands over states no search node holds)."""
        self.calls += 1
        uniform = 1.0 / len(legal)
        copying = self.copy_state if copy_state is None else copy_state
        try:
            weights = self.fn(copy.deepcopy(state) if copying else state, player)
            if not isinstance(weights, Mapping):
                raise TypeError(f"the prior returned {type(weights).__name__}, not a dict")
            raw = []
            for action in legal:
                w = weights.get(action, 0.0)
                if isinstance(w, bool) or not isinstance(w, (int, float)) or not (
                        math.isfinite(w) and w >= 0):
                    raise ValueError(f"weight {w!r} for {action!r} is not a finite number >= 0")
                raw.append(float(w))
        except Exception as exc:  # noqa: BLE001 - untrusted code: fall back to uniform
            self.errors += 1
            self.last_error = f"{type(exc).__name__}: {str(exc)[:200]}"
            return {a: uniform for a in legal}
        total = sum(raw)
        if total <= 0.0:  # no weight on any legal action: nothing to prefer
            return {a: uniform for a in legal}
        keep, spread = (1.0 - self.floor) / total, self.floor * uniform
        return {a: keep * w + spread for a, w in zip(legal, raw)}


def sample_from(probs: Mapping[Action, float], u: float) -> Action:
    """The action at cumulative probability ``u`` in ``[0, 1)`` (the last one when rounding
    leaves ``u`` past the total)."""
    last = None
    for last, p in probs.items():
        u -= p
        if u < 0.0:
            return last
    return last


def model_prior(model: WorldModel) -> Prior | None:
    """The model's own ``policy_prior(state, player)`` (None when it has none)."""
    fn = getattr(model.namespace, "policy_prior", None)
    return fn if callable(fn) else None


def as_guarded(prior: Prior | GuardedPrior | None, trusted: bool = False) -> GuardedPrior | None:
    """``prior`` wrapped in a :class:`GuardedPrior` (states copied unless ``trusted``)."""
    if prior is None or isinstance(prior, GuardedPrior):
        return prior
    if not callable(prior):
        raise TypeError(f"not a prior: {prior!r}")
    return GuardedPrior(prior, copy_state=not trusted)
