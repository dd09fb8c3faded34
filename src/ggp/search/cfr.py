"""CFR+ over a world model, for tiny games (Kuhn poker, Exploding Bomb).

A solver of our own, independent of OpenSpiel. The full game tree is built once from the
model (every chance outcome, every legal action), with each decision node labelled by the
acting player's information state: its observation at each of its decision points and
the actions it took, as canonical JSON. CFR+ (regret matching+, alternating updates,
linearly weighted average strategy) then runs on that tree, through the vectorized
solver of :mod:`ggp.search.tabular` (which also solves untrusted code world models from
the tree data their sandboxed walk returns, :mod:`ggp.cwm.solve`). The average strategy
converges to a Nash equilibrium in two-player zero-sum (and constant-sum) games; in other
games it is only a heuristic.

The tree walks here (:func:`expected_returns`, :func:`best_response_value`,
:func:`nash_conv`) are plain recursive Python over :class:`TreeNode` objects: a reference
independent of the tabular arrays, used by the tests. Only for small games: the tree is
held in memory (``max_nodes`` bounds it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, Action, ObsActionHistory, canonical_json
from ggp.search.tabular import GameTree, TabularCFRPlus, TreeLimits

InfoKey = tuple  # (player, (obs_json, action), ..., obs_json)


@dataclass
class TreeNode:
    """A history: chance (``probs`` set), decision (``infoset`` set) or terminal."""

    player: int
    actions: list[Action] = field(default_factory=list)
    children: list[TreeNode] = field(default_factory=list)
    probs: list[float] = field(default_factory=list)
    infoset: InfoKey | None = None
    returns: list[float] | None = None  # at terminal nodes: returns summed from the start


def info_key(player: int, history: ObsActionHistory) -> InfoKey:
    """The information-state key of ``player`` at its decision point ``history[-1]``."""
    past = tuple((canonical_json(obs), action) for obs, action in history[:-1])
    return (player,) + past + (canonical_json(history[-1][0]),)


def build_tree(model: WorldModel, max_nodes: int = 200_000) -> TreeNode:
    """The whole game tree of ``model`` (raises :class:`GGPError` if it is too large)."""
    n = model.num_players
    count = 0

    def build(state, views: tuple, returns: list[float]) -> TreeNode:
        nonlocal count
        count += 1
        if count > max_nodes:
            raise GGPError(f"{model.name} has more than {max_nodes} histories: too large "
                           "for the tree-walking CFR solver")
        player = model.current_player(state)
        if player == TERMINAL:
            return TreeNode(TERMINAL, returns=returns)
        if player == CHANCE:
            outcomes = model.chance_outcomes(state)
            node = TreeNode(CHANCE, [a for a, _ in outcomes], probs=[p for _, p in outcomes])
            node.children = [_child(state, a, views, returns, None) for a in node.actions]
            return node
        obs = canonical_json(model.observation(state, player))
        node = TreeNode(player, model.legal_actions(state),
                        infoset=(player,) + views[player] + (obs,))
        node.children = [_child(state, a, views, returns, (player, obs)) for a in node.actions]
        return node

    def _child(state, action, views, returns, decided) -> TreeNode:
        nxt = model.apply(state, action)
        rewards = model.rewards(nxt)
        if decided is not None:
            player, obs = decided
            views = views[:player] + (views[player] + ((obs, action),),) + views[player + 1:]
        return build(nxt, views, [r + x for r, x in zip(returns, rewards)])

    return build(model.initial_state(), tuple(() for _ in range(n)), [0.0] * n)


class CFRPlusSolver:
    """CFR+ on the explicit tree of a small game: the tree is built from the model
    (:func:`build_tree`), turned into plain data (:func:`tree_data`) and solved by the
    vectorized :class:`ggp.search.tabular.TabularCFRPlus` (one CFR+ for every caller)."""

    def __init__(self, model: WorldModel, max_nodes: int = 200_000) -> None:
        self.model = model
        self.root = build_tree(model, max_nodes)
        self.num_players = model.num_players
        data, self._keys = tree_data(self.root, self.num_players)
        self.tree = GameTree(data, TreeLimits(max_nodes=max_nodes, max_depth=10**6,
                                              max_bytes=1 << 40))
        self.solver = TabularCFRPlus(self.tree)

    @property
    def iteration(self) -> int:
        return self.solver.iteration

    def run(self, iterations: int) -> None:
        """Run ``iterations`` more CFR+ iterations (one update per player each)."""
        self.solver.run(iterations)

    def average_policy(self) -> dict[InfoKey, dict[Action, float]]:
        """Information-state key -> action -> probability."""
        average = self.solver.average()
        return {key: dict(zip(actions, average[start:start + len(actions)].tolist()))
                for key, actions, start in zip(self._keys, self.tree.actions,
                                               self.tree.slot_start)}


def tree_data(root: TreeNode, num_players: int) -> tuple[dict, list[InfoKey]]:
    """The tree of :func:`build_tree` in the plain-data format of
    :mod:`ggp.search.tabular`, with the information-state keys in the data's order."""
    nodes: list[list] = []
    keys: list[InfoKey] = []
    index: dict[InfoKey, int] = {}
    stack: list[tuple[TreeNode, list | None]] = [(root, None)]
    while stack:
        node, siblings = stack.pop()
        if siblings is not None:
            siblings.append(len(nodes))
        if node.player == TERMINAL:
            nodes.append([TERMINAL, -1, [], [], list(node.returns)])
            continue
        info = -1
        if node.infoset is not None:
            info = index.setdefault(node.infoset, len(keys))
            if info == len(keys):
                keys.append(node.infoset)
        children: list[int] = []
        nodes.append([node.player, info, list(node.actions), children, list(node.probs)])
        # children are numbered in action order: push them reversed
        stack.extend((child, children) for child in reversed(node.children))
    infosets = [[key[0], canonical_json(list(key[1:]))] for key in keys]
    return {"players": num_players, "infosets": infosets, "nodes": nodes}, keys


def _decision_nodes(root: TreeNode):
    stack = [root]
    while stack:
        node = stack.pop()
        if node.infoset is not None:
            yield node
        stack.extend(node.children)


def expected_returns(root: TreeNode, policy: dict[InfoKey, dict[Action, float]]) -> list[float]:
    """Expected returns of every player when all follow ``policy``."""
    if root.player == TERMINAL:
        return list(root.returns)
    if root.player == CHANCE:
        weights = root.probs
    else:
        weights = [policy[root.infoset][a] for a in root.actions]
    total = [0.0] * len(_any_returns(root))
    for w, child in zip(weights, root.children):
        if w > 0:
            for i, v in enumerate(expected_returns(child, policy)):
                total[i] += w * v
    return total


def _any_returns(node: TreeNode) -> list[float]:
    while node.returns is None:
        node = node.children[0]
    return node.returns


def best_response_value(root: TreeNode, policy: dict, player: int) -> float:
    """The best return ``player`` can get against everybody else playing ``policy``."""
    # Gather, for each of the player's information sets, its histories with the
    # probability that chance and the others reach them.
    members: dict[InfoKey, list[tuple[TreeNode, float]]] = {}
    depth: dict[InfoKey, int] = {}

    def collect(node: TreeNode, reach: float, d: int) -> None:
        if node.player == TERMINAL:
            return
        if node.player == player:
            members.setdefault(node.infoset, []).append((node, reach))
            depth[node.infoset] = max(depth.get(node.infoset, 0), d)
            for c in node.children:
                collect(c, reach, d + 1)
            return
        weights = node.probs if node.player == CHANCE else [policy[node.infoset][a]
                                                            for a in node.actions]
        for w, c in zip(weights, node.children):
            if w > 0:
                collect(c, reach * w, d + 1)

    collect(root, 1.0, 0)
    choice: dict[InfoKey, int] = {}

    def value(node: TreeNode) -> float:
        if node.player == TERMINAL:
            return node.returns[player]
        if node.player == player:
            return value(node.children[choice[node.infoset]])
        weights = node.probs if node.player == CHANCE else [policy[node.infoset][a]
                                                            for a in node.actions]
        return sum(w * value(c) for w, c in zip(weights, node.children) if w > 0)

    # Deeper information sets first: with perfect recall a set's subtrees only reach
    # sets that are deeper, whose choices are then already made.
    for key in sorted(members, key=lambda k: -depth[k]):
        nodes = members[key]
        scores = [sum(r * value(node.children[i]) for node, r in nodes)
                  for i in range(len(nodes[0][0].actions))]
        choice[key] = max(range(len(scores)), key=scores.__getitem__)
    return value(root)


def nash_conv(root: TreeNode, policy: dict) -> float:
    """Sum over players of what a best response gains against ``policy`` (0 at a Nash
    equilibrium); exploitability in a two-player zero-sum game is half of it."""
    values = expected_returns(root, policy)
    return sum(best_response_value(root, policy, p) - values[p] for p in range(len(values)))
