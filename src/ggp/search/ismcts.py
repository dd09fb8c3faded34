"""Information Set MCTS (Cowling, Powley and Whitehouse 2012; seed 000 App. B).

Every simulation draws one determinization (a complete state) from the searching
player's belief, then descends a tree whose nodes stand for *information sets* rather
than states, so statistics are shared by all states a player cannot tell apart. Chance
moves are drawn with their probabilities and never stored. Selection only considers
actions legal in the current determinization and uses availability counts (a child's
"parent visits" are the visits in which it was legal). One new (node, action) edge is
added per simulation and valued by an :class:`~ggp.search.evaluators.Evaluator`. The move
played is the root's most visited action.

Two ways of keying nodes:

* **single observer** (``ISMCTS(..., observer="single")``): one table of nodes; the node
  where player *p* acts is keyed by *p*'s own action-observation history since the search
  root (its observation at each of its decision points and the actions it took). With
  perfect-recall observations this is *p*'s information state, percepts included, so
  information-gathering moves are valued (Exploding Bomb "ask" -> 90).
* **multiple observer** (``observer="multiple"``): one tree per player; after every move
  (any player's or chance's) each player's tree follows an edge labelled by that player's
  own action and its new observation when it moved, and by its new observation
  otherwise. The player to move
  selects in its own tree.

Both determinize from the *searching* player's belief only, so opponents are modelled as
knowing what the searcher knows about the world (research §2.4: they tell in Exploding
Bomb "tell").
"""

from __future__ import annotations

import json
import math
import random
import time
from typing import Callable

from ggp.belief.sampler import Belief, BeliefSampler
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, Action, ObsActionHistory, State
from ggp.search.evaluators import Evaluator, as_evaluator
from ggp.search.mcts import exploration_scale
from ggp.search.ops import ops_for

# canonical_json with one encoder built once (it is on the hot path of every simulation)
_obs_key = json.JSONEncoder(sort_keys=True, separators=(",", ":"), allow_nan=False).encode

# Per-action statistics of a node: [visits, total return of the acting player, availability]
VISITS, TOTAL, AVAIL = 0, 1, 2


class InfoNode:
    """A node of an information-set tree: per-action statistics and child nodes."""

    __slots__ = ("stats", "children")

    def __init__(self) -> None:
        self.stats: dict[Action, list[float]] = {}
        self.children: dict[object, InfoNode] = {}

    def child(self, edge: object, obs: object, trusted: bool) -> InfoNode:
        """The child reached by ``edge`` (an action or None) then observation ``obs``.

        Observations are protocol-equal when their canonical JSON is. Encoding them is the
        costliest step of a simulation, so for trusted (reference) models, whose
        observations are built the same way every time, the children of an edge are
        found by comparing observations with ``==`` instead (a linear scan: few distinct
        observations follow one edge)."""
        if not trusted:
            key = (edge, _obs_key(obs))
            node = self.children.get(key)
            if node is None:
                node = self.children[key] = InfoNode()
            return node
        bucket = self.children.get(edge)
        if bucket is None:
            bucket = self.children[edge] = []
        for seen, node in bucket:
            if seen == obs:
                return node
        node = InfoNode()
        bucket.append((obs, node))
        return node


class _SingleObserver:
    """Nodes keyed by the acting player's own (observation, action) history."""

    def __init__(self, ops, root_player: int, root_obs: object) -> None:
        self.ops = ops
        self.trusted = ops.model.trusted
        self.first = [InfoNode() for _ in range(ops.num_players)]  # children: first obs
        self.root = self.first[root_player].child(None, root_obs, self.trusted)
        self.last: list = []

    def start(self, state: State) -> None:
        self.last = [None] * self.ops.num_players

    def node_for(self, player: int, state: State) -> InfoNode:
        obs = self.ops.observations(state)[player]
        previous = self.last[player]
        if previous is None:
            return self.first[player].child(None, obs, self.trusted)
        node, action = previous
        return node.child(action, obs, self.trusted)

    def moved(self, mover: int, node: InfoNode | None, action: Action, state: State) -> None:
        if mover >= 0:
            self.last[mover] = (node, action)


class _MultipleObserver:
    """One tree per player; an edge is (own action, own observation after it) for the
    mover and the new observation for every other player."""

    def __init__(self, ops, root_player: int, root_obs: object) -> None:
        self.ops = ops
        self.trusted = ops.model.trusted
        self.trees = [InfoNode() for _ in range(ops.num_players)]
        self.root = self.trees[root_player]
        self.current: list[InfoNode] = []

    def start(self, state: State) -> None:
        self.current = list(self.trees)

    def node_for(self, player: int, state: State) -> InfoNode:
        return self.current[player]

    def moved(self, mover: int, node: InfoNode | None, action: Action, state: State) -> None:
        observations = self.ops.observations(state)
        current = self.current
        for q in range(len(current)):
            current[q] = current[q].child(action if q == mover else None, observations[q],
                                          self.trusted)


class ISMCTS:
    """ISMCTS over a :class:`WorldModel`, determinizing with a belief sampler.

    Args:
        model: the world model.
        sampler: where determinizations come from (:mod:`ggp.belief.sampler`).
        evaluator: leaf evaluator (default 10 random rollouts) or a callable.
        observer: ``"single"`` or ``"multiple"`` (see the module docstring).
        simulations, time_limit, uct_c, rng: as for :class:`ggp.search.mcts.MCTS`.
    """

    def __init__(
        self,
        model: WorldModel,
        sampler: BeliefSampler,
        evaluator: Evaluator | Callable | None = None,
        *,
        observer: str = "single",
        simulations: int | None = 1000,
        time_limit: float | None = None,
        uct_c: float = 1.0,
        rng: random.Random | None = None,
    ) -> None:
        if observer not in ("single", "multiple"):
            raise ValueError("observer must be 'single' or 'multiple'")
        if simulations is None and time_limit is None:
            raise ValueError("give simulations, time_limit or both")
        self.model = model
        self.ops = ops_for(model)
        self.sampler = sampler
        self.evaluator = as_evaluator(model, evaluator)
        self.observer = observer
        self.simulations = simulations
        self.time_limit = time_limit
        self.c = uct_c * exploration_scale(model)
        self.rng = rng or random.Random()

    def search(self, history: ObsActionHistory, player: int) -> InfoNode:
        """Search from ``player``'s decision point ``history[-1]``; returns the root node."""
        belief = self.sampler.belief(history, player, self.rng)
        kind = _SingleObserver if self.observer == "single" else _MultipleObserver
        # The root's observation as the model itself builds it (the history may have
        # passed through JSON, turning tuples into lists, which trusted lookups by == see).
        root_obs = self.ops.observations(belief.sample(self.rng))[player]
        tracker = kind(self.ops, player, root_obs)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        done = 0
        while self.simulations is None or done < self.simulations:
            if deadline is not None and time.perf_counter() >= deadline and done > 0:
                break
            self._simulate(belief, tracker)
            done += 1
        return tracker.root

    def best_action(self, history: ObsActionHistory, player: int) -> Action:
        return most_visited(self.search(history, player))

    def _simulate(self, belief: Belief, tracker) -> None:
        ops, rng, n = self.ops, self.rng, self.ops.num_players
        state = belief.sample(rng)
        tracker.start(state)
        acc = [0.0] * n  # rewards received since the search root
        path: list[tuple[list[float], int, float]] = []  # (edge stats, mover, acc before)
        leaf: list[float] | None = None
        while True:
            mover = ops.current_player(state)
            if mover == TERMINAL:
                break
            node = None
            if mover == CHANCE:
                action = ops.sample_chance(state, rng)
                expanded = False
            else:
                node = tracker.node_for(mover, state)
                action, stats, expanded = self._choose(node, ops.legal_actions(state))
                path.append((stats, mover, acc[mover]))
            state = ops.apply(state, action)
            rewards = ops.rewards(state)
            if any(rewards):
                for i in range(n):
                    acc[i] += rewards[i]
            if expanded:
                if ops.current_player(state) != TERMINAL:
                    leaf = self.evaluator.evaluate(state, rng)
                    if not self.evaluator.returns_to_come:  # whole-game estimate
                        leaf = [leaf[i] - acc[i] for i in range(n)]
                break
            tracker.moved(mover, node, action, state)
        for stats, mover, before in path:
            stats[0] += 1
            stats[1] += acc[mover] - before + (leaf[mover] if leaf else 0.0)

    def _choose(self, node: InfoNode, legal: list[Action]) -> tuple[Action, list, bool]:
        """UCB over the legal actions with availability counts; an untried legal action
        is expanded first. Returns ``(action, its statistics, expanded?)``."""
        get, c, log, sqrt = node.stats.get, self.c, math.log, math.sqrt
        untried = None
        best, best_stats, best_score = None, None, -math.inf
        for a in legal:
            s = get(a)
            if s is None:
                if untried is None:
                    untried = [a]
                else:
                    untried.append(a)
                continue
            avail = s[2] + 1  # [visits, total, availability]: literal indices, hot loop
            s[2] = avail
            if untried is None:
                visits = s[0]
                score = s[1] / visits + c * sqrt(log(avail) / visits)
                if score > best_score or (score == best_score and self.rng.random() < 0.5):
                    best, best_stats, best_score = a, s, score
        if untried is not None:
            action = untried[0] if len(untried) == 1 else self.rng.choice(untried)
            s = node.stats[action] = [0, 0.0, 1]
            return action, s, True
        return best, best_stats, False


def most_visited(root: InfoNode) -> Action:
    """The root's most visited action (ties: higher mean return)."""
    if not root.stats:
        raise ValueError("the search made no simulation")
    return max(root.stats.items(),
               key=lambda kv: (kv[1][VISITS], kv[1][TOTAL] / max(kv[1][VISITS], 1)))[0]


def action_values(root: InfoNode) -> dict[Action, tuple[int, float]]:
    """``action -> (visits, mean return)`` at the root (for inspection and tests)."""
    return {a: (int(s[VISITS]), s[TOTAL] / s[VISITS] if s[VISITS] else 0.0)
            for a, s in root.stats.items()}
