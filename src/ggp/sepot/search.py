"""SePoT at play time: the trained networks as a search blueprint, and the search policy.

* :class:`NetworkBlueprint` wraps an :class:`~ggp.sepot.rnad.RNaDLearner` (policy from the
  target network, values from the critic).
* :class:`SePoTPolicy` gives action probabilities at any decision node: it resolves the
  node's public state when the public state and the subgame fit the size limits, and
  plays the network otherwise (``last_searched`` says which happened).
* :func:`search_tabular_policy` resolves every decision public state of a small game to
  obtain the whole-game SePoT policy, for exact exploitability.

The opponent counterfactual values of each search come from the critic or from the
previous search (continual resolving); see :class:`SePoTPolicy`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ggp.core.errors import GGPError
from ggp.sepot.exact import decision_states
from ggp.sepot.games import SepotGame
from ggp.sepot.resolve import (Blueprint, SubgameTooLarge, build_subgame, cfr_plus,
                               history_values, previous_search_cfvs, public_path,
                               public_state)


class SepotSearchError(GGPError):
    """An invalid search option."""


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


CFV_SOURCES = ("critic", "previous")
RANGE_SOURCES = ("network", "played")


class _PlayedRanges:
    """The blueprint with the policies of earlier searches laid over it (by info state)."""

    def __init__(self, base: Blueprint, played: dict[str, np.ndarray]) -> None:
        self.base, self.played = base, played

    def policy(self, states: list[Any]) -> np.ndarray:
        rows = self.base.policy(states)
        for row, state in zip(rows, states):
            searched = self.played.get(state.information_state_string())
            if searched is not None:
                row[:] = searched
        return rows

    def values(self, states: list[Any]) -> np.ndarray:
        return self.base.values(states)


@dataclass
class SearchRecord:
    """What one search of a public state leaves behind: the resolving player's policy at
    its root infosets, and (for ``cfv_source="previous"``) player 0's value of every
    history in the subgame under the solution."""

    policy: dict[str, dict[int, float]]
    values: dict[tuple[int, ...], float] | None


@dataclass
class SePoTPolicy:
    """Search policy: resolve when small enough, otherwise follow the blueprint.

    Two options choose where a search gets its inputs (seed 004 §4.2 and Fig. 4):

    * ``cfv_source``: the opponent counterfactual values of the gadget come from the critic
      (``"critic"``, the default: every search stands alone) or from the resolving player's
      previous search on the way to this public state (``"previous"``, continual
      resolving). Before its first own search, a player's "previous search" is the search
      of the game's first decision public state. When there is no usable earlier search
      (it was over the size limits, or the new public state lies beyond its depth-limit
      leaves) the critic is used and ``stats["cfv_fallback"]`` counts it.
    * ``ranges``: the resolving player's reach comes from the network (``"network"``, as
      in the paper) or from the policies it actually played, i.e. the results of its
      earlier searches where there were any (``"played"``, as in the paper's code).

    Searches are memoised per public state (a search depends only on the public state
    and, with the non-default options, on the public states before it), so one instance
    gives one consistent policy; use a fresh one for another checkpoint. The memo grows
    with the number of public states searched (with ``"previous"`` it keeps each
    subgame's history values), which suits the small games this is used on.
    """

    spec: SepotGame
    blueprint: Blueprint
    depth_limit: int = 2
    iterations: int = 1500
    max_histories: int = 25_000
    max_nodes: int = 200_000
    cfv_source: str = "critic"
    ranges: str = "network"
    last_searched: bool = field(default=False, init=False)
    stats: dict[str, int] = field(default_factory=lambda: {"searched": 0, "network": 0,
                                                            "cfv_fallback": 0}, init=False)
    _records: dict[Any, SearchRecord | None] = field(default_factory=dict, init=False)
    _played: dict[str, np.ndarray] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        if self.cfv_source not in CFV_SOURCES:
            raise SepotSearchError(f"cfv_source must be one of {CFV_SOURCES}, "
                                   f"not {self.cfv_source!r}.")
        if self.ranges not in RANGE_SOURCES:
            raise SepotSearchError(f"ranges must be one of {RANGE_SOURCES}, not {self.ranges!r}.")

    def action_probabilities(self, state: Any) -> dict[int, float]:
        """``{action id: probability}`` for the acting player at ``state``."""
        record = self.search(state)
        self.last_searched = record is not None
        if record is None:
            pi = self.blueprint.policy([state])[0]
            return {a: float(pi[a]) for a in state.legal_actions()}
        return record.policy[state.information_state_string()]

    def search(self, state: Any) -> SearchRecord | None:
        """Resolve ``state``'s public state (memoised); None when it is over the limits."""
        key = self.spec.public_key(state)
        if key in self._records:
            return self._records[key]
        player = state.current_player()
        path = public_path(self.spec, state)[:-1]
        own = [s for s in path if s.current_player() == player]
        if self.ranges == "played":
            for earlier in own:  # the policies this player played on the way here
                self.search(earlier)
        previous = None
        if self.cfv_source == "previous" and path:
            previous = self.search(own[-1] if own else path[0])
        record = self._solve(state, previous)
        self._records[key] = record
        self.stats["searched" if record else "network"] += 1
        return record

    def _solve(self, state: Any, previous: SearchRecord | None) -> SearchRecord | None:
        player, spec = state.current_player(), self.spec
        ranges = _PlayedRanges(self.blueprint, self._played) if self.ranges == "played" \
            else self.blueprint
        try:
            roots = public_state(spec, state, ranges, self.max_histories)
            cfvs = None
            if self.cfv_source == "previous" and any(r.opponent_acted for r in roots):
                if previous is not None and previous.values is not None:
                    cfvs = previous_search_cfvs(previous.values, roots, 1 - player)
                self.stats["cfv_fallback"] += cfvs is None
            sub = build_subgame(spec, roots, self.blueprint, self.depth_limit,
                                opponent_cfvs=cfvs, max_nodes=self.max_nodes)
        except SubgameTooLarge:
            return None
        sol = cfr_plus(sub, self.iterations)
        policy = {}
        for inf in sub.root_infosets:
            actor, info = sub.infoset_keys[inf]
            if actor == player:
                policy[info] = sol.policy[(actor, info)]
                row = np.zeros(spec.num_actions)
                row[list(policy[info])] = list(policy[info].values())
                self._played[info] = row
        values = history_values(sub, sol) if self.cfv_source == "previous" else None
        return SearchRecord(policy, values)


def decision_public_states(spec: SepotGame) -> dict[Any, Any]:
    """One representative state per decision public state (whole-tree walk)."""
    reps: dict[Any, Any] = {}
    for state in decision_states(spec):
        reps.setdefault(spec.public_key(state), state)
    return reps


def search_tabular_policy(spec: SepotGame, table: Any,
                          search: SePoTPolicy) -> tuple[Any, dict[str, int]]:
    """Overwrite ``table`` (a TabularPolicy holding the blueprint) with the search policy
    at every public state where search runs; return it and ``search.stats`` (searched and
    skipped public states, CFV fallbacks)."""
    for state in decision_public_states(spec).values():
        record = search.search(state)
        if record is None:
            continue
        for info, probs in record.policy.items():
            row = table.action_probability_array[table.state_lookup[info]]
            row[:] = 0.0
            for a, p in probs.items():
                row[a] = p
    return table, dict(search.stats)
