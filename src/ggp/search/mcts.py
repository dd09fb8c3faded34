"""MCTS (UCT) for perfect-information games with chance, any number of players.

Each node holds a complete state. Decision nodes choose children by UCT from the point of
view of the player to move (max^n: every node keeps a vector of returns, one entry per
player, so n-player and general-sum games work). Chance nodes draw an outcome with the
model's probabilities on every visit. One node is added per simulation and valued by an
:class:`~ggp.search.evaluators.Evaluator` (10 random rollouts by default, as in seed 000).
The move played is the most visited child of the root.

Exploration: the UCT bonus is ``uct_c * R * sqrt(ln N / n)`` where ``R`` is the game's
utility range from its metadata, so one ``uct_c`` suits games scored in {-1, 1} and games
scored in 0..100 alike.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, Action, State
from ggp.search.evaluators import Evaluator, as_evaluator
from ggp.search.ops import ops_for


class Node:
    """A search node: a state, the reward received on entering it (None when all zero)
    and return statistics."""

    __slots__ = ("children", "player", "reward", "state", "total", "untried", "visits")

    def __init__(self, state: State, player: int, reward: list[float] | None, n: int) -> None:
        self.state = state
        self.player = player
        self.reward = reward
        self.visits = 0
        self.total = [0.0] * n  # sum over visits of (entry reward + returns after it)
        self.children: dict[Action, Node] = {}
        self.untried: list[Action] | None = None  # filled on the first selection here

    def mean(self, player: int) -> float:
        return self.total[player] / self.visits if self.visits else 0.0


def exploration_scale(model: WorldModel) -> float:
    """The utility range used to scale ``uct_c`` (1 when the metadata gives none)."""
    span = model.metadata.utility_range
    return span if span > 0 else 1.0


class MCTS:
    """UCT search over a :class:`WorldModel`.

    Args:
        model: the world model (perfect information: states are what players see).
        evaluator: an :class:`Evaluator`, a callable ``state -> list[float]``, or None for
            10 random rollouts.
        simulations: simulations per search (None: only ``time_limit`` counts).
        time_limit: seconds per search (None: only ``simulations`` counts).
        uct_c: exploration constant, in units of the game's utility range.
        rng: the random generator (seeded by the caller for reproducible play).
    """

    def __init__(
        self,
        model: WorldModel,
        evaluator: Evaluator | Callable | None = None,
        *,
        simulations: int | None = 1000,
        time_limit: float | None = None,
        uct_c: float = 1.0,
        rng: random.Random | None = None,
    ) -> None:
        if simulations is None and time_limit is None:
            raise ValueError("give simulations, time_limit or both")
        self.model = model
        self.ops = ops_for(model)
        self.evaluator = as_evaluator(model, evaluator)
        self.simulations = simulations
        self.time_limit = time_limit
        self.c = uct_c * exploration_scale(model)
        self.rng = rng or random.Random()
        #: simulations run by the last :meth:`search` (0 after a forced move)
        self.last_simulations = 0

    # ------------------------------------------------------------------ public
    def search(self, state: State) -> Node:
        """Run the budgeted simulations from ``state``; returns the root node."""
        ops = self.ops
        n = ops.num_players
        root = Node(state, ops.current_player(state), None, n)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        done = 0
        while self.simulations is None or done < self.simulations:
            if deadline is not None and time.perf_counter() >= deadline and done > 0:
                break
            self._simulate(root)
            done += 1
        self.last_simulations = done
        return root

    def best_action(self, state: State) -> Action:
        """The most visited root action (ties: higher mean return for the mover); a
        forced move is returned without searching."""
        legal = self.ops.legal_actions(state)
        if len(legal) == 1:
            self.last_simulations = 0
            return legal[0]
        return best_child_action(self.search(state))

    # ------------------------------------------------------------------ internals
    def _simulate(self, root: Node) -> None:
        ops, rng = self.ops, self.rng
        node, path = root, [root]
        while True:
            player = node.player
            if player == TERMINAL:
                value = [0.0] * ops.num_players
                break
            if player == CHANCE:
                action = ops.sample_chance(node.state, rng)
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = self._new_node(node.state, action)
                    path.append(child)
                    value = self._evaluate(child, path)
                    break
                node = child
                path.append(node)
                continue
            if node.untried is None:
                node.untried = list(ops.legal_actions(node.state))
                rng.shuffle(node.untried)
            if node.untried:
                action = node.untried.pop()
                child = node.children[action] = self._new_node(node.state, action)
                path.append(child)
                value = self._evaluate(child, path)
                break
            node = self._select(node)
            path.append(node)
        # Back up: each node accumulates its entry reward plus the returns after it.
        n = len(value)
        for node in reversed(path):
            reward = node.reward
            if reward is not None:
                value = [reward[i] + value[i] for i in range(n)]
            node.visits += 1
            total = node.total
            for i in range(n):
                total[i] += value[i]

    def _new_node(self, state: State, action: Action) -> Node:
        ops = self.ops
        nxt = ops.apply(state, action)
        reward = ops.rewards(nxt)
        # None for the common all-zero reward saves work in every backup through the node
        return Node(nxt, ops.current_player(nxt), list(reward) if any(reward) else None,
                    ops.num_players)

    def _evaluate(self, node: Node, path: list[Node]) -> list[float]:
        n = self.ops.num_players
        if node.player == TERMINAL:
            return [0.0] * n
        value = self.evaluator.evaluate(node.state, self.rng)
        if not self.evaluator.returns_to_come:  # a whole-game estimate: drop path rewards
            for step in path[1:]:
                if step.reward is not None:
                    value = [value[i] - step.reward[i] for i in range(n)]
        return value

    def _select(self, node: Node) -> Node:
        player, sqrt = node.player, math.sqrt
        bonus = self.c * sqrt(math.log(node.visits))  # c * sqrt(ln N / n) = bonus / sqrt(n)
        best, best_score = None, -math.inf
        for child in node.children.values():
            visits = child.visits
            score = child.total[player] / visits + bonus / sqrt(visits)
            # A random tie-break keeps equal children from being chosen by insertion order.
            if score > best_score or (score == best_score and self.rng.random() < 0.5):
                best, best_score = child, score
        return best


def best_child_action(root: Node) -> Action:
    """The root's most visited action, ties broken by the mover's mean return."""
    if not root.children:
        raise ValueError("the root has no children: search a non-terminal decision state")
    player = root.player
    return max(root.children.items(),
               key=lambda item: (item[1].visits, item[1].mean(player)))[0]
