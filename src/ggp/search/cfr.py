"""CFR+ over a world model, for tiny games (Kuhn poker, Exploding Bomb).

This is a tree-walking solver of our own, independent of OpenSpiel (whose bridge to world
models was not available when it was written). The full game tree is built once from the
model (every chance outcome, every legal action), with each decision node labelled by the
acting player's information state: its observation at each of its decision points and
the actions it took, as canonical JSON. CFR+ (regret matching+, alternating updates,
linearly weighted average strategy) then runs on that tree. The average strategy
converges to a Nash equilibrium in two-player zero-sum (and constant-sum) games; in other
games it is only a heuristic.

Only for small games: the tree is held in memory (``max_nodes`` bounds it) and each
iteration walks all of it in Python.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, Action, ObsActionHistory, canonical_json

InfoKey = tuple  # (player, (obs_json, action), ..., obs_json)


@dataclass
class TreeNode:
    """A history: chance (``probs`` set), decision (``infoset`` set) or terminal."""

    player: int
    actions: list[Action] = field(default_factory=list)
    children: list["TreeNode"] = field(default_factory=list)
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
    """CFR+ on the explicit tree of a small game."""

    def __init__(self, model: WorldModel, max_nodes: int = 200_000) -> None:
        self.model = model
        self.root = build_tree(model, max_nodes)
        self.num_players = model.num_players
        self.regrets: dict[InfoKey, list[float]] = {}
        self.cumulative: dict[InfoKey, list[float]] = {}
        self.iteration = 0

    def run(self, iterations: int) -> None:
        """Run ``iterations`` more CFR+ iterations (one update per player each)."""
        for _ in range(iterations):
            self.iteration += 1
            for player in range(self.num_players):
                deltas: dict[InfoKey, list[float]] = {}
                self._traverse(self.root, player, 1.0, 1.0, deltas)
                for key, delta in deltas.items():
                    regret = self.regrets[key]
                    for i, d in enumerate(delta):
                        regret[i] = max(regret[i] + d, 0.0)

    def _strategy(self, node: TreeNode) -> list[float]:
        regret = self.regrets.get(node.infoset)
        if regret is None:
            regret = self.regrets[node.infoset] = [0.0] * len(node.actions)
            self.cumulative[node.infoset] = [0.0] * len(node.actions)
        total = sum(regret)
        if total <= 0:
            return [1.0 / len(regret)] * len(regret)
        return [r / total for r in regret]

    def _traverse(self, node: TreeNode, player: int, reach: float, others: float,
                  deltas: dict) -> float:
        if node.player == TERMINAL:
            return node.returns[player]
        if node.player == CHANCE:
            return sum(p * self._traverse(c, player, reach, others * p, deltas)
                       for p, c in zip(node.probs, node.children))
        strategy = self._strategy(node)
        if node.player != player:
            # No pruning of zero-probability branches: the player's strategy off the
            # path (e.g. after a move the opponent stopped making) keeps improving.
            return sum(s * self._traverse(c, player, reach, others * s, deltas)
                       for s, c in zip(strategy, node.children))
        values = [self._traverse(c, player, reach * s, others, deltas)
                  for s, c in zip(strategy, node.children)]
        value = sum(s * v for s, v in zip(strategy, values))
        delta = deltas.setdefault(node.infoset, [0.0] * len(values))
        for i, v in enumerate(values):
            delta[i] += others * (v - value)
        cumulative = self.cumulative[node.infoset]
        for i, s in enumerate(strategy):
            cumulative[i] += self.iteration * reach * s  # CFR+'s linear averaging
        return value

    def average_policy(self) -> dict[InfoKey, dict[Action, float]]:
        """Information-state key -> action -> probability."""
        policy: dict[InfoKey, dict[Action, float]] = {}
        for node in _decision_nodes(self.root):
            if node.infoset in policy:
                continue
            weights = self.cumulative.get(node.infoset) or [0.0] * len(node.actions)
            total = sum(weights)
            probs = ([w / total for w in weights] if total > 0
                     else [1.0 / len(node.actions)] * len(node.actions))
            policy[node.infoset] = dict(zip(node.actions, probs))
        return policy


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
