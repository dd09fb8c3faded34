"""SePoT at play time: the trained networks as a search blueprint, and the search policy.

* :class:`NetworkBlueprint` wraps an :class:`~ggp.sepot.rnad.RNaDLearner` (policy from the
  target network, values from the critic).
* :class:`SePoTPolicy` gives action probabilities at any decision node: it resolves the
  node's public state when the public state and the subgame fit the size limits, and
  plays the network otherwise (``last_searched`` says which happened).
* :func:`search_tabular_policy` resolves every decision public state of a small game to
  obtain the whole-game SePoT policy, for exact exploitability.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ggp.sepot.games import SepotGame
from ggp.sepot.resolve import (Blueprint, SubgameTooLarge, build_subgame, cfr_plus,
                               public_state, resolve)


class NetworkBlueprint:
    """Blueprint from a trained learner; policies are cached per information state."""

    def __init__(self, learner: Any) -> None:
        self.learner, self.spec = learner, learner.spec
        self._cache: dict[str, np.ndarray] = {}

    def policy(self, states: list[Any]) -> np.ndarray:
        keys = [s.information_state_string() for s in states]
        missing = [(k, s) for k, s in zip(keys, states) if k not in self._cache]
        if missing:
            obs = np.stack([s.information_state_tensor(s.current_player()) for _, s in missing])
            legal = np.zeros((len(missing), self.spec.num_actions), bool)
            for row, (_, s) in enumerate(missing):
                legal[row, s.legal_actions()] = True
            for (k, _), pi in zip(missing, self.learner.policy(obs, legal)):
                self._cache[k] = pi / pi.sum()
        return np.stack([self._cache[k] for k in keys])

    def values(self, states: list[Any]) -> np.ndarray:
        return self.learner.values(np.stack([self.spec.history_tensor(s) for s in states]))


@dataclass
class SePoTPolicy:
    """Search policy: resolve when small enough, otherwise follow the blueprint."""

    spec: SepotGame
    blueprint: Blueprint
    depth_limit: int = 2
    iterations: int = 1500
    max_histories: int = 25_000
    max_nodes: int = 200_000
    last_searched: bool = field(default=False, init=False)

    def action_probabilities(self, state: Any) -> dict[int, float]:
        """``{action id: probability}`` for the acting player at ``state``."""
        try:
            sub, sol = resolve(self.spec, state, self.blueprint, depth_limit=self.depth_limit,
                               iterations=self.iterations, max_histories=self.max_histories,
                               max_nodes=self.max_nodes)
        except SubgameTooLarge:
            self.last_searched = False
            pi = self.blueprint.policy([state])[0]
            return {a: float(pi[a]) for a in state.legal_actions()}
        self.last_searched = True
        key = (state.current_player(), state.information_state_string())
        return sol.policy[key]


def decision_public_states(spec: SepotGame) -> dict[Any, Any]:
    """One representative state per decision public state (whole-tree walk)."""
    reps: dict[Any, Any] = {}
    stack = [spec.game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
            continue
        reps.setdefault(spec.public_key(state), state)
        stack.extend(state.child(a) for a in state.legal_actions())
    return reps


def search_tabular_policy(spec: SepotGame, blueprint: Blueprint, table: Any,
                          search: SePoTPolicy) -> tuple[Any, dict[str, int]]:
    """Overwrite ``table`` (a TabularPolicy holding the blueprint) with the search policy
    at every public state where search runs; return it and counts of searched/skipped
    public states. Each public state is resolved independently (CFVs from the critic)."""
    counts = {"searched": 0, "network": 0}
    for state in decision_public_states(spec).values():
        try:
            roots = public_state(spec, state, blueprint, search.max_histories)
            sub = build_subgame(spec, roots, blueprint, search.depth_limit,
                                max_nodes=search.max_nodes)
        except SubgameTooLarge:
            counts["network"] += 1
            continue
        sol = cfr_plus(sub, search.iterations)
        counts["searched"] += 1
        player = state.current_player()
        for inf in sub.root_infosets:
            actor, key = sub.infoset_keys[inf]
            if actor != player:
                continue
            row = table.action_probability_array[table.state_lookup[key]]
            row[:] = 0.0
            for a, p in sol.policy[(actor, key)].items():
                row[a] = p
    return table, counts
