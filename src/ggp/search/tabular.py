"""CFR+ and best responses on a game tree given as plain data (lists and numbers).

:mod:`ggp.search.cfr` walks a tree of Python objects built from a trusted model. This
module is for trees that come from elsewhere — above all from an untrusted code world
model enumerated inside the sandbox (:mod:`ggp.cwm.solve`) — so its first job is to
*validate* the data (:func:`game_tree`): shapes, indices, a proper tree, probabilities
that sum to one, finite returns, one action list per information state, and the size
limits. Anything else is a :class:`MalformedTree`, a one-line error.

The data (``TreeData``, JSON-compatible)::

    {"players": n,
     "infosets": [[player, key], ...],      # key: ggp.core.protocol.information_state_key
     "nodes": [[player, infoset, actions, children, numbers], ...]}

Node 0 is the root. ``player`` is a seat (0..n-1), ``CHANCE`` (-1) or ``TERMINAL`` (-4);
``infoset`` indexes ``infosets`` at decision nodes (-1 otherwise); ``children`` are node
indices, one per action; ``numbers`` are the outcome probabilities at chance nodes, the
returns (rewards summed from the start) at terminal nodes and ``[]`` at decision nodes.

The solver (:class:`TabularCFRPlus`) is CFR+ (regret matching+, alternating updates,
linearly weighted average) vectorized with numpy over the tree's levels: each iteration
is a few array operations per depth, so Leduc poker's tens of thousands of histories take
milliseconds per iteration. :func:`exploitability` is exact (best responses on the same
tree), NashConv divided by the number of players, as OpenSpiel reports it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ggp.core.errors import GGPError
from ggp.core.protocol import CHANCE, TERMINAL, Action, canonical_json

TreeData = dict[str, Any]
#: An information state: (player, information_state_key of its history).
Infoset = tuple[int, str]


class MalformedTree(GGPError):
    """Tree data that breaks the format or the limits (a failure of whoever made it)."""


@dataclass(frozen=True)
class TreeLimits:
    """What a tree may hold: histories (nodes), depth (moves from the root) and the
    size of the data in bytes (as canonical JSON)."""

    max_nodes: int = 200_000
    max_depth: int = 200
    max_bytes: int = 48 * 1024 * 1024


_PROB_TOLERANCE = 1e-6


class GameTree:
    """A validated game tree as numpy arrays, nodes in breadth-first order.

    Attributes: ``num_players``; ``infosets`` (list of :data:`Infoset`) and their
    ``actions``; per node ``player``, ``infoset`` (-1 off decision nodes), ``returns``
    (``(nodes, players)``, zero off terminal nodes); per edge (parent to child, sorted by
    parent) ``parent``, ``child``, ``chance_prob`` (NaN off chance nodes) and ``slot``
    (the infoset-action index of a decision edge, -1 otherwise). Slots of an infoset are
    contiguous, from ``slot_start[i]``, in the order of ``actions[i]``.
    """

    def __init__(self, data: TreeData, limits: TreeLimits = TreeLimits()) -> None:
        _validate(self, data, limits)

    # --------------------------------------------------------------- strategies
    def uniform(self) -> np.ndarray:
        """The uniform strategy, one probability per slot."""
        return 1.0 / self.slot_width

    def normalize(self, weights: np.ndarray) -> np.ndarray:
        """Per-infoset normalization of nonnegative slot weights (uniform where an
        infoset's weights sum to zero)."""
        totals = np.bincount(self.slot_infoset, weights=weights, minlength=len(self.infosets))
        total = totals[self.slot_infoset]
        safe = np.where(total > 0, total, 1.0)
        return np.where(total > 0, weights / safe, 1.0 / self.slot_width)

    def policy_table(self, strategy: np.ndarray) -> dict[Infoset, dict[Action, float]]:
        """``{(player, key): {action: probability}}`` of a slot strategy."""
        return {info: dict(zip(actions, strategy[start:start + len(actions)].tolist()))
                for info, actions, start in zip(self.infosets, self.actions, self.slot_start)}

    def strategy_of(self, table: dict[Infoset, dict[Action, float]]) -> np.ndarray:
        """The slot strategy of a policy table (uniform where it has no entry)."""
        strategy = self.uniform().copy()
        for i, (info, actions) in enumerate(zip(self.infosets, self.actions)):
            probs = table.get(info)
            if probs:
                start = self.slot_start[i]
                strategy[start:start + len(actions)] = [probs.get(a, 0.0) for a in actions]
        return self.normalize(strategy)

    # --------------------------------------------------------------- passes
    def edge_weights(self, strategy: np.ndarray) -> np.ndarray:
        """Each edge's probability: chance probability or the strategy's."""
        slot = np.where(self.slot >= 0, self.slot, 0)
        return np.where(self.slot >= 0, strategy[slot], self.chance_prob)

    def reaches(self, weights: np.ndarray, player: int) -> tuple[np.ndarray, np.ndarray]:
        """Per node: the product of ``player``'s own edge weights on the path, and of
        everybody else's (chance included)."""
        own_edge = self.edge_player == player
        own = np.ones(self.num_nodes)
        others = np.ones(self.num_nodes)
        for lo, hi in self.levels:
            parent, child, w = self.parent[lo:hi], self.child[lo:hi], weights[lo:hi]
            mine = own_edge[lo:hi]
            own[child] = own[parent] * np.where(mine, w, 1.0)
            others[child] = others[parent] * np.where(mine, 1.0, w)
        return own, others

    def values(self, weights: np.ndarray, leaf: np.ndarray) -> np.ndarray:
        """Expected ``leaf`` values (terminal rows of a ``(nodes, k)`` array) from every
        node when each edge is taken with ``weights``."""
        value = np.where(self.terminal[:, None], leaf, 0.0)
        for (lo, hi), starts, parents in zip(reversed(self.levels), reversed(self.starts),
                                             reversed(self.level_parents)):
            contrib = weights[lo:hi, None] * value[self.child[lo:hi]]
            value[parents] = np.add.reduceat(contrib, starts, axis=0)
        return value


def game_tree(data: Any, limits: TreeLimits = TreeLimits()) -> GameTree:
    """Validate tree data (see the module docstring) and index it; raises
    :class:`MalformedTree` with a one-line reason."""
    return GameTree(data, limits)


def _validate(tree: GameTree, data: Any, limits: TreeLimits) -> None:
    def bad(reason: str) -> MalformedTree:
        return MalformedTree(f"malformed game tree: {reason}")

    if not isinstance(data, dict):
        raise bad("not an object")
    n, infosets, nodes = data.get("players"), data.get("infosets"), data.get("nodes")
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 64:
        raise bad("'players' must be an integer from 1 to 64")
    if not isinstance(infosets, list) or not isinstance(nodes, list) or not nodes:
        raise bad("'infosets' and 'nodes' must be lists, with at least one node")
    if len(nodes) > limits.max_nodes:  # before anything costs time in proportion
        raise bad(f"{len(nodes):,} nodes, more than the limit of {limits.max_nodes:,}")
    try:
        size = len(canonical_json(data))
    except (TypeError, ValueError) as exc:
        raise bad(f"not plain JSON data ({exc})") from None
    if size > limits.max_bytes:
        raise bad(f"{size:,} bytes, more than the limit of {limits.max_bytes:,}")
    keys: list[Infoset] = []
    for entry in infosets:
        if (not isinstance(entry, list) or len(entry) != 2 or not _is_int(entry[0])
                or not 0 <= entry[0] < n or not isinstance(entry[1], str)):
            raise bad(f"an information state must be [player, key], not {str(entry)[:80]}")
        keys.append((entry[0], entry[1]))
    if len(set(keys)) != len(keys):
        raise bad("an information state is listed twice")
    parent_of = [-1] * len(nodes)
    info_actions: list[list[str] | None] = [None] * len(keys)
    for index, node in enumerate(nodes):
        if not isinstance(node, list) or len(node) != 5:
            raise bad(f"node {index} is not [player, infoset, actions, children, numbers]")
        player, info, actions, children, numbers = node
        if not _is_int(player) or not (0 <= player < n or player in (CHANCE, TERMINAL)):
            raise bad(f"node {index} has player {str(player)[:40]}")
        if not (isinstance(actions, list) and isinstance(children, list)
                and isinstance(numbers, list) and _is_int(info)):
            raise bad(f"node {index} has fields of the wrong types")
        if player == TERMINAL:
            if actions or children or info != -1:
                raise bad(f"terminal node {index} has actions, children or an infoset")
            if len(numbers) != n or not all(_is_finite(x) for x in numbers):
                raise bad(f"terminal node {index} needs {n} finite returns, not "
                          f"{str(numbers)[:80]}")
            continue
        if not actions or len(actions) != len(children):
            raise bad(f"node {index} needs one child per action and at least one action")
        if not all(isinstance(a, str) for a in actions) or len(set(actions)) != len(actions):
            raise bad(f"node {index}'s actions must be distinct strings")
        for child in children:
            if not _is_int(child) or not index < child < len(nodes):
                raise bad(f"node {index} has child {str(child)[:40]}: children must come "
                          "after their parent")
            if parent_of[child] != -1:
                raise bad(f"node {child} has two parents")
            parent_of[child] = index
        if player == CHANCE:
            if info != -1 or len(numbers) != len(actions):
                raise bad(f"chance node {index} needs one probability per outcome")
            if not all(_is_finite(p) and p >= 0 for p in numbers):
                raise bad(f"chance node {index} has a probability that is not a finite "
                          f"number >= 0: {str(numbers)[:80]}")
            if abs(math.fsum(numbers) - 1.0) > _PROB_TOLERANCE:
                raise bad(f"chance node {index}'s probabilities sum to "
                          f"{math.fsum(numbers):.6g}, not 1")
            continue
        if numbers or not 0 <= info < len(keys) or keys[info][0] != player:
            raise bad(f"decision node {index} needs the index of one of player "
                      f"{player}'s information states and no numbers")
        known = info_actions[info]
        if known is None:
            info_actions[info] = list(actions)
        elif known != actions:
            raise bad(f"information state {info} of player {player} has two different "
                      f"action lists ({known[:5]} and {actions[:5]})")
    if any(p == -1 for p in parent_of[1:]):
        raise bad("a node other than the root has no parent")
    if any(a is None for a in info_actions):
        raise bad("an information state has no decision node")
    _index(tree, n, keys, info_actions, nodes, parent_of, limits)


def _index(tree: GameTree, n: int, keys: list[Infoset], info_actions: list,
           nodes: list, parent_of: list[int], limits: TreeLimits) -> None:
    """Number the nodes breadth first and build the arrays of :class:`GameTree`."""
    depth = [0] * len(nodes)
    for index in range(1, len(nodes)):  # parents come first
        depth[index] = depth[parent_of[index]] + 1
    deepest = max(depth)
    if deepest > limits.max_depth:
        raise MalformedTree(f"malformed game tree: depth {deepest}, more than the limit "
                            f"of {limits.max_depth}")
    order = sorted(range(len(nodes)), key=lambda i: (depth[i], i))
    new = [0] * len(nodes)
    for position, old in enumerate(order):
        new[old] = position
    tree.num_players, tree.num_nodes, tree.depth = n, len(nodes), deepest
    tree.infosets, tree.actions = keys, info_actions
    widths = [len(a) for a in info_actions]
    tree.slot_start = np.concatenate([[0], np.cumsum(widths)[:-1]]).astype(np.int64)
    tree.slot_infoset = np.repeat(np.arange(len(keys)), widths).astype(np.int64)
    tree.slot_width = np.repeat(np.array(widths, dtype=float), widths)
    tree.num_slots = int(sum(widths))
    tree.player = np.empty(len(nodes), dtype=np.int64)
    tree.node_infoset = np.full(len(nodes), -1, dtype=np.int64)
    tree.returns = np.zeros((len(nodes), n))
    parent, child, prob, slot, edge_player = [], [], [], [], []
    for old in order:
        player, info, _actions, children, numbers = nodes[old]
        here = new[old]
        tree.player[here] = player
        if player == TERMINAL:
            tree.returns[here] = numbers
            continue
        tree.node_infoset[here] = info
        for k, c in enumerate(children):
            parent.append(here)
            child.append(new[c])
            edge_player.append(player)
            if player == CHANCE:
                prob.append(float(numbers[k]))
                slot.append(-1)
            else:
                prob.append(math.nan)
                slot.append(int(tree.slot_start[info]) + k)
    tree.parent = np.array(parent, dtype=np.int64)
    tree.child = np.array(child, dtype=np.int64)
    tree.chance_prob = np.array(prob, dtype=float)
    tree.slot = np.array(slot, dtype=np.int64)
    tree.edge_player = np.array(edge_player, dtype=np.int64)
    tree.terminal = tree.player == TERMINAL
    # one level per parent depth: edges are sorted by parent, parents by depth
    node_depth = np.array(sorted(depth), dtype=np.int64)
    edge_depth = node_depth[tree.parent] if len(parent) else np.zeros(0, dtype=np.int64)
    tree.levels, tree.starts, tree.level_parents = [], [], []
    for d in range(deepest):
        lo, hi = np.searchsorted(edge_depth, [d, d + 1])
        if lo == hi:
            continue
        parents = tree.parent[lo:hi]
        first = np.flatnonzero(np.r_[True, parents[1:] != parents[:-1]])
        tree.levels.append((int(lo), int(hi)))
        tree.starts.append(first)
        tree.level_parents.append(parents[first])
    # a representative node per infoset (perfect recall: every member has the same own
    # reach), and each infoset's position in its player's sequence of decisions
    tree.representative = np.zeros(len(keys), dtype=np.int64)
    decision = np.flatnonzero(tree.node_infoset >= 0)
    tree.representative[tree.node_infoset[decision]] = decision


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_finite(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value))


# ------------------------------------------------------------------------------ CFR+
class TabularCFRPlus:
    """CFR+ on a :class:`GameTree`: regret matching+ with alternating updates and the
    average strategy weighted by the iteration number. ``regrets``, ``cumulative`` and
    ``iteration`` are its whole state (saved and restored to resume)."""

    def __init__(self, tree: GameTree) -> None:
        self.tree = tree
        self.regrets = np.zeros(tree.num_slots)
        self.cumulative = np.zeros(tree.num_slots)
        self.iteration = 0
        self._mine = [tree.edge_player == p for p in range(tree.num_players)]
        self._slot_player = np.array([p for p, _ in tree.infosets],
                                     dtype=np.int64)[tree.slot_infoset]

    def current(self) -> np.ndarray:
        """The current strategy (regret matching on the positive regrets)."""
        return self.tree.normalize(np.maximum(self.regrets, 0.0))

    def run(self, iterations: int) -> None:
        """``iterations`` more iterations, one update per player each."""
        tree = self.tree
        for _ in range(iterations):
            self.iteration += 1
            for player in range(tree.num_players):
                strategy = self.current()
                weights = tree.edge_weights(strategy)
                own, others = tree.reaches(weights, player)
                value = tree.values(weights, tree.returns[:, player:player + 1])[:, 0]
                edges = self._mine[player]
                parents, children = tree.parent[edges], tree.child[edges]
                gain = others[parents] * (value[children] - value[parents])
                delta = np.bincount(tree.slot[edges], weights=gain, minlength=tree.num_slots)
                self.regrets = np.maximum(self.regrets + delta, 0.0)
                reach = own[tree.representative][tree.slot_infoset]
                self.cumulative += np.where(self._slot_player == player,
                                            self.iteration * reach * strategy, 0.0)

    def average(self) -> np.ndarray:
        """The average strategy (what converges to an equilibrium)."""
        return self.tree.normalize(self.cumulative)


# ------------------------------------------------------------------- best responses
def expected_returns(tree: GameTree, strategy: np.ndarray) -> np.ndarray:
    """Every player's expected return when all play ``strategy``."""
    return tree.values(tree.edge_weights(strategy), tree.returns)[0]


def best_response_value(tree: GameTree, strategy: np.ndarray, player: int) -> float:
    """The best return ``player`` can get against the others playing ``strategy``.

    The player's information states are decided latest first (by how many of its own
    decisions precede them; with perfect recall an infoset's subtrees hold only later
    ones): each takes the action with the highest value summed over its histories,
    weighted by the probability that chance and the others reach them.
    """
    weights = tree.edge_weights(strategy)
    _, others = tree.reaches(weights, player)
    mine = tree.edge_player == player
    slots = tree.slot[mine]
    info_player = np.array([p for p, _ in tree.infosets], dtype=np.int64)
    # rank of each infoset: how many of its player's decisions come before it
    rank = _own_decisions(tree, player)[tree.representative]
    response = np.zeros(tree.num_slots)
    leaf = tree.returns[:, player:player + 1]
    positions = np.arange(tree.num_slots)
    ranks = sorted(set(rank[info_player == player].tolist()), reverse=True)
    for k in ranks:
        weights[mine] = response[slots]
        value = tree.values(weights, leaf)[:, 0]
        score = np.bincount(slots, weights=others[tree.parent[mine]] * value[tree.child[mine]],
                            minlength=tree.num_slots)
        best = np.maximum.reduceat(score, tree.slot_start)[tree.slot_infoset]
        first = np.minimum.reduceat(np.where(score >= best, positions, tree.num_slots),
                                    tree.slot_start)[tree.slot_infoset]
        now = ((info_player == player) & (rank == k))[tree.slot_infoset]
        response[now] = (positions == first)[now]
    weights[mine] = response[slots]
    return float(tree.values(weights, leaf)[0, 0])


def _own_decisions(tree: GameTree, player: int) -> np.ndarray:
    """Per node: how many decisions of ``player`` lie on the path from the root."""
    count = np.zeros(tree.num_nodes, dtype=np.int64)
    step = (tree.edge_player == player).astype(np.int64)
    for lo, hi in tree.levels:
        count[tree.child[lo:hi]] = count[tree.parent[lo:hi]] + step[lo:hi]
    return count


def nash_conv(tree: GameTree, strategy: np.ndarray) -> float:
    """Sum over players of what a best response gains against ``strategy``."""
    values = expected_returns(tree, strategy)
    return float(sum(best_response_value(tree, strategy, p) - values[p]
                     for p in range(tree.num_players)))


def exploitability(tree: GameTree, strategy: np.ndarray) -> float:
    """NashConv divided by the number of players (OpenSpiel's ``exploitability``)."""
    return nash_conv(tree, strategy) / tree.num_players
