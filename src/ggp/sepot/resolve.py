"""Safe depth-limited resolving: public states, the resolving gadget, CFR+ with
multi-valued leaves (seed 004 §3.1, §4.2, §4.3).

:func:`public_state` rebuilds every history that shares the public information of a
decision node, with the resolving player's reach (from the blueprint policy) and the chance
reach. :func:`build_subgame` turns them into a flat, depth-layered tree:

* a virtual root whose "chance" weights are ``reach_i(h) * reach_chance(h)``;
* if the opponent has already acted, a *resolving gadget* (Burch et al. 2014): for each
  root history an opponent node, grouped into infosets as the opponent sees them, with
  actions ``T`` (stop and receive the opponent's counterfactual value of that infoset
  under the blueprint) and ``F`` (play the subgame);
* the game below the root until each player has made ``depth_limit`` moves (chance nodes
  are expanded; a depth limit of 0 means the whole rest of the game);
* at a depth-limit leaf the opponent picks, per opponent infoset, the policy
  transformation that is worst for the resolving player, using the critic's values and
  the current reaches (Eq. 3 taken per opponent infoset: a best response, recomputed every
  iteration).

:func:`cfr_plus` solves it (regret matching+, linear averaging, alternating updates) and
returns the resolving player's average policy at its infosets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from ggp.core.errors import GGPError
from ggp.sepot.games import SepotGame

DECISION, CHANCE, TERMINAL, LEAF = 0, 1, 2, 3


class SubgameTooLarge(GGPError):
    """The public state or the depth-limited subgame exceeds its size limit."""


class Blueprint(Protocol):
    """What search needs from the trained networks (or an exact oracle in tests)."""

    def policy(self, states: list[Any]) -> np.ndarray:
        """``[N, A]``: the blueprint policy of the acting player at each state."""

    def values(self, states: list[Any]) -> np.ndarray:
        """``[N, num_outputs]``: critic values (player 0's view) at each history."""


@dataclass
class RootHistory:
    """One history of a public state with its reaches."""

    state: Any
    reach_player: float   # the resolving player's own contribution
    reach_chance: float
    opponent_acted: bool


def public_path(spec: SepotGame, state: Any) -> list[Any]:
    """The decision nodes on the way to ``state`` (inclusive), one pyspiel state each."""
    node, path = spec.game.new_initial_state(), []
    for action in state.history():
        if not node.is_chance_node():
            path.append(node.clone())
        node.apply_action(action)
    path.append(node)
    return path


def public_state(spec: SepotGame, state: Any, blueprint: Blueprint,
                 limit: int = 100_000) -> list[RootHistory]:
    """All histories sharing ``state``'s public information, with reaches for the acting
    player ``i``. Histories where ``i``'s blueprint reach is 0 are kept (they still matter to
    the opponent only through the gadget, with weight 0). Raises :class:`SubgameTooLarge`
    past ``limit`` histories."""
    keys = [spec.public_key(node) for node in public_path(spec, state)]
    player = state.current_player()
    cache: dict[str, np.ndarray] = {}
    found: list[RootHistory] = []
    stack = [(spec.game.new_initial_state(), 0, 1.0, 1.0, False)]
    while stack:
        node, k, r_i, r_c, opp = stack.pop()
        if node.is_terminal():
            continue
        if node.is_chance_node():
            stack.extend((node.child(a), k, r_i, r_c * p, opp) for a, p in node.chance_outcomes())
            continue
        if spec.public_key(node) != keys[k]:
            continue
        if k == len(keys) - 1:
            found.append(RootHistory(node, r_i, r_c, opp))
            if len(found) > limit:
                raise SubgameTooLarge(f"public state has more than {limit} histories")
            continue
        mover = node.current_player()
        if mover == player:
            info = node.information_state_string()
            if info not in cache:
                cache[info] = blueprint.policy([node])[0]
            pi = cache[info]
        for a in node.legal_actions():
            reach = r_i * pi[a] if mover == player else r_i
            stack.append((node.child(a), k + 1, reach, r_c, opp or mover != player))
    return found


@dataclass
class Subgame:
    """A flat subgame tree in breadth-first order (parents before children; each node's
    children contiguous). Node arrays have one entry per node; slot arrays one entry per
    (infoset, action)."""

    player: int                       # the resolving player i
    kind: np.ndarray                  # DECISION / CHANCE / TERMINAL / LEAF
    parent: np.ndarray                # -1 for the root
    actor: np.ndarray                 # acting player (2 for chance, -1 otherwise)
    in_slot: np.ndarray               # slot of the edge from the parent (-1: chance edge)
    in_prob: np.ndarray               # chance probability of that edge (1 otherwise)
    depth: np.ndarray
    utility: np.ndarray               # terminal value for player 0
    leaf_nodes: np.ndarray
    leaf_values: np.ndarray           # [leaves, options] player 0's view
    leaf_infoset: np.ndarray          # opponent infoset id of each leaf
    num_leaf_infosets: int
    infoset_keys: list[tuple[int, str]]
    infoset_player: np.ndarray
    infoset_offset: np.ndarray
    infoset_actions: list[list[int]]
    infoset_node: np.ndarray          # a representative node per infoset
    slot_infoset: np.ndarray
    history_node: dict[tuple[int, ...], int]   # pyspiel history -> node (below the gadget)
    root_infosets: list[int] = field(default_factory=list)  # player i's infosets at the root

    @property
    def num_nodes(self) -> int:
        return len(self.kind)


def build_subgame(
    spec: SepotGame,
    roots: list[RootHistory],
    blueprint: Blueprint,
    depth_limit: int,
    *,
    gadget: bool | None = None,
    opponent_cfvs: dict[str, float] | None = None,
    max_nodes: int = 200_000,
) -> Subgame:
    """The depth-limited (gadget) subgame over ``roots`` (see the module docstring).

    ``gadget=None`` adds the gadget exactly when the opponent has acted before.
    ``opponent_cfvs`` maps opponent information-state strings to their counterfactual
    values; by default they come from the critic's identity output.
    """
    player = roots[0].state.current_player()
    opp = 1 - player
    if gadget is None:
        gadget = any(r.opponent_acted for r in roots)
    b = _Builder(spec, player, max_nodes)
    root = b.add(CHANCE, -1, 2, -1, 1.0, 0)
    weights = np.array([r.reach_player * r.reach_chance for r in roots])
    if gadget:
        if opponent_cfvs is None:
            opponent_cfvs = critic_cfvs(roots, blueprint, opp, weights)
        for r, w in zip(roots, weights):
            info = r.state.information_state_string(opp)
            g = b.add(DECISION, root, opp, -1, w, 1)
            slots = b.infoset(opp, "gadget|" + info, [0, 1], g)
            value0 = opponent_cfvs[info] * (1 if opp == 0 else -1)
            b.add(TERMINAL, g, -1, slots[0], 1.0, 2, utility=value0)
            b.pending.append((b.add_state(r.state, g, slots[1], 1.0, 2), r.state, 0))
    else:
        for r, w in zip(roots, weights):
            b.pending.append((b.add_state(r.state, root, -1, w, 1), r.state, 0))
    b.expand(depth_limit)
    sub = b.finish(blueprint, opp)
    sub.root_infosets = sorted({b.infoset_of[n] for n in b.root_nodes})
    return sub


def critic_cfvs(roots: list[RootHistory], blueprint: Blueprint, opp: int,
                 weights: np.ndarray) -> dict[str, float]:
    """Opponent CFVs from the critic's identity output, normalised per opponent infoset."""
    v0 = blueprint.values([r.state for r in roots])[:, 0]
    u = v0 if opp == 0 else -v0
    num: dict[str, float] = {}
    den: dict[str, float] = {}
    for r, w, value in zip(roots, weights, u):
        info = r.state.information_state_string(opp)
        num[info] = num.get(info, 0.0) + w * value
        den[info] = den.get(info, 0.0) + w
    return {k: num[k] / den[k] if den[k] > 0 else float(np.mean(u)) for k in num}


class _Builder:
    """Accumulates nodes breadth first (see :class:`Subgame`)."""

    def __init__(self, spec: SepotGame, player: int, max_nodes: int) -> None:
        self.spec, self.player, self.max_nodes = spec, player, max_nodes
        self.cols: dict[str, list] = {k: [] for k in
                                      ("kind", "parent", "actor", "in_slot", "in_prob", "depth",
                                       "utility")}
        self.infosets: dict[tuple[int, str], int] = {}
        self.infoset_actions: list[list[int]] = []
        self.infoset_player: list[int] = []
        self.infoset_node: list[int] = []
        self.infoset_of: dict[int, int] = {}
        self.num_slots = 0
        self.offsets: list[int] = []
        self.pending: list[tuple[int, Any, int]] = []
        self.leaves: list[tuple[int, Any]] = []
        self.root_nodes: list[int] = []
        self.history_node: dict[tuple[int, ...], int] = {}

    def add(self, kind: int, parent: int, actor: int, slot: int, prob: float, depth: int,
            utility: float = 0.0) -> int:
        cols = self.cols
        if len(cols["kind"]) >= self.max_nodes:
            raise SubgameTooLarge(f"subgame has more than {self.max_nodes} nodes")
        for key, value in (("kind", kind), ("parent", parent), ("actor", actor),
                           ("in_slot", slot), ("in_prob", prob), ("depth", depth),
                           ("utility", utility)):
            cols[key].append(value)
        return len(cols["kind"]) - 1

    def infoset(self, actor: int, key: str, actions: list[int], node: int) -> list[int]:
        """Slots of ``actor``'s infoset ``key`` (created on first sight); ``node`` acts there."""
        ident = (actor, key)
        if ident not in self.infosets:
            self.infosets[ident] = len(self.infoset_actions)
            self.infoset_actions.append(actions)
            self.infoset_player.append(actor)
            self.infoset_node.append(node)
            self.offsets.append(self.num_slots)
            self.num_slots += len(actions)
        ident_id = self.infosets[ident]
        self.infoset_of[node] = ident_id
        off = self.offsets[ident_id]
        return list(range(off, off + len(actions)))

    def add_state(self, state: Any, parent: int, slot: int, prob: float, depth: int) -> int:
        if state.is_terminal():
            node = self.add(TERMINAL, parent, -1, slot, prob, depth, state.returns()[0])
        else:
            kind = CHANCE if state.is_chance_node() else DECISION
            actor = 2 if kind == CHANCE else state.current_player()
            node = self.add(kind, parent, actor, slot, prob, depth)
        self.history_node[tuple(state.history())] = node
        return node

    def expand(self, depth_limit: int) -> None:
        """Expand breadth first; ``moves`` counts player moves since the subgame root."""
        queue, self.pending = self.pending, []
        self.root_nodes = [n for n, _, _ in queue]
        while queue:
            nxt = []
            for node, state, moves in queue:
                kind = self.cols["kind"][node]
                depth = self.cols["depth"][node] + 1
                if kind == TERMINAL:
                    continue
                if kind == CHANCE:
                    for a, p in state.chance_outcomes():
                        child = state.child(a)
                        nxt.append((self.add_state(child, node, -1, p, depth), child, moves))
                    continue
                if depth_limit > 0 and moves >= 2 * depth_limit:
                    self.cols["kind"][node] = LEAF
                    self.leaves.append((node, state))
                    continue
                actor = state.current_player()
                actions = state.legal_actions()
                slots = self.infoset(actor, state.information_state_string(), actions, node)
                for a, slot in zip(actions, slots):
                    child = state.child(a)
                    nxt.append((self.add_state(child, node, slot, 1.0, depth), child, moves + 1))
            queue = nxt

    def finish(self, blueprint: Blueprint, opp: int) -> Subgame:
        spec = self.spec
        leaf_nodes = np.array([n for n, _ in self.leaves], dtype=np.int64)
        leaf_keys: dict[str, int] = {}
        leaf_infoset = np.array(
            [leaf_keys.setdefault(s.information_state_string(opp), len(leaf_keys))
             for _, s in self.leaves], dtype=np.int64)
        if self.leaves:
            values = blueprint.values([s for _, s in self.leaves])
            leaf_values = values[:, spec.output_columns(opp)]
        else:
            leaf_values = np.zeros((0, len(spec.transformations)))
        offsets = np.array(self.offsets, dtype=np.int64)
        slot_infoset = np.repeat(np.arange(len(offsets)),
                                 [len(a) for a in self.infoset_actions]).astype(np.int64)
        c = self.cols
        return Subgame(
            player=self.player,
            kind=np.array(c["kind"], np.int64), parent=np.array(c["parent"], np.int64),
            actor=np.array(c["actor"], np.int64), in_slot=np.array(c["in_slot"], np.int64),
            in_prob=np.array(c["in_prob"], float), depth=np.array(c["depth"], np.int64),
            utility=np.array(c["utility"], float),
            leaf_nodes=leaf_nodes, leaf_values=leaf_values, leaf_infoset=leaf_infoset,
            num_leaf_infosets=len(leaf_keys),
            infoset_keys=list(self.infosets), infoset_player=np.array(self.infoset_player),
            infoset_offset=offsets, infoset_actions=self.infoset_actions,
            infoset_node=np.array(self.infoset_node, np.int64), slot_infoset=slot_infoset,
            history_node=self.history_node,
        )


@dataclass
class Solution:
    """CFR+ result.

    * ``policy``: the average policy per ``(player, infoset)``;
    * ``root_value``: player 0's value of the root under the last iterate;
    * ``node_values``: player 0's value of every node, averaged over the iterations with
      the weights of the average policy (t). These are what a later search reuses as
      opponent counterfactual values (:func:`previous_search_cfvs`). They are averaged
      iterate values rather than values of the average policy because the opponent's
      average policy is meaningless where the gadget makes it stop (its own reach is ~0
      there, yet its current strategies are still trained), as in DeepStack.
    """

    policy: dict[tuple[int, str], dict[int, float]]
    root_value: float
    node_values: np.ndarray


def _evaluate(sub: Subgame, sigma: np.ndarray, layers: list) -> tuple[np.ndarray, np.ndarray]:
    """Reaches ``[nodes, 3]`` (player 0, player 1, chance) and player 0's node values when
    every infoset plays ``sigma`` (one probability per slot)."""
    reach = np.ones((sub.num_nodes, 3))
    for children, parents, comp, slot, prob in layers:
        reach[children] = reach[parents]
        w = np.where(slot >= 0, sigma[np.maximum(slot, 0)], prob)
        reach[children, comp] *= w
    values = np.where(sub.kind == TERMINAL, sub.utility, 0.0)
    if len(sub.leaf_nodes):
        # The opponent picks, per opponent infoset, the transformation worst for player i.
        i = sub.player
        n_opts = sub.leaf_values.shape[1]
        w = reach[sub.leaf_nodes, i] * reach[sub.leaf_nodes, 2]
        scores = np.bincount(
            (sub.leaf_infoset[:, None] * n_opts + np.arange(n_opts)).ravel(),
            (w[:, None] * sub.leaf_values * (1.0 if i == 0 else -1.0)).ravel(),
            minlength=sub.num_leaf_infosets * n_opts).reshape(-1, n_opts)
        best = scores.argmin(axis=1)[sub.leaf_infoset]
        values[sub.leaf_nodes] = sub.leaf_values[np.arange(len(best)), best]
    for children, parents, comp, slot, prob in reversed(layers):
        w = np.where(slot >= 0, sigma[np.maximum(slot, 0)], prob)
        starts = np.flatnonzero(np.r_[True, parents[1:] != parents[:-1]])
        values[parents[starts]] = np.add.reduceat(w * values[children], starts)
    return reach, values


def _normalise(weights: np.ndarray, sub: Subgame) -> np.ndarray:
    """Per-infoset normalisation of slot weights (uniform where an infoset's total is 0)."""
    n_inf = len(sub.infoset_actions)
    total = np.bincount(sub.slot_infoset, weights, minlength=n_inf)[sub.slot_infoset]
    count = np.bincount(sub.slot_infoset, minlength=n_inf)[sub.slot_infoset]
    return np.where(total > 0, weights / np.where(total > 0, total, 1.0), 1.0 / count)


def cfr_plus(sub: Subgame, iterations: int = 1500) -> Solution:
    """Solve ``sub`` with CFR+ (alternating updates, linear averaging)."""
    n_inf = len(sub.infoset_actions)
    n_slots = len(sub.slot_infoset)
    layers = _layers(sub)
    dec_child = np.nonzero(sub.in_slot >= 0)[0]
    dec_parent = sub.parent[dec_child]
    dec_slot = sub.in_slot[dec_child]
    dec_actor = sub.actor[dec_parent]
    sign_actor = np.where(dec_actor == 0, 1.0, -1.0)
    slot_player = sub.infoset_player[sub.slot_infoset]
    slot_rep = sub.infoset_node[sub.slot_infoset]
    regrets = np.zeros(n_slots)
    average = np.zeros(n_slots)
    values = np.zeros(sub.num_nodes)
    value_sum = np.zeros(sub.num_nodes)
    # Alternating updates: player 0's regrets, then player 1's against the new strategy
    # (the gadget's opponent infosets belong to the opponent like any other).
    for t in range(1, iterations + 1):
        for updating in (0, 1):
            sigma = _normalise(np.maximum(regrets, 0.0), sub)  # regret matching+
            reach, values = _evaluate(sub, sigma, layers)
            cf = reach[dec_parent, 1 - np.minimum(dec_actor, 1)] * reach[dec_parent, 2]
            q = np.bincount(dec_slot, cf * sign_actor * values[dec_child], minlength=n_slots)
            # One infoset may hold several nodes: q already sums over them.
            v_inf = np.bincount(sub.slot_infoset, sigma * q, minlength=n_inf)
            mine = slot_player == updating
            regrets = np.where(mine, np.maximum(regrets + q - v_inf[sub.slot_infoset], 0.0),
                               regrets)
            average += np.where(mine, t * reach[slot_rep, slot_player] * sigma, 0.0)
        value_sum += t * values
    average_sigma = _normalise(average, sub)
    policy: dict[tuple[int, str], dict[int, float]] = {}
    for ident, inf in zip(sub.infoset_keys, range(n_inf)):
        off = sub.infoset_offset[inf]
        acts = sub.infoset_actions[inf]
        policy[ident] = dict(zip(acts, average_sigma[off:off + len(acts)].tolist()))
    node_values = value_sum / (iterations * (iterations + 1) / 2) if iterations else values
    return Solution(policy, float(values[0]), node_values)


def history_values(sub: Subgame, solution: Solution) -> dict[tuple[int, ...], float]:
    """Player 0's value of every history in ``sub`` under ``solution``'s average profile."""
    return {h: float(solution.node_values[n]) for h, n in sub.history_node.items()}


def previous_search_cfvs(values: dict[tuple[int, ...], float], roots: list[RootHistory],
                         opponent: int) -> dict[str, float] | None:
    """Opponent counterfactual values for a new gadget, read from an earlier search.

    This is continual resolving (DeepStack; the paper's "CFVs from previous resolves",
    Fig. 4). ``values`` are an earlier search's :func:`history_values`. Every history of
    the new public state lies inside the earlier subgame (as an inner node or a depth-limit
    leaf), where the earlier solution gives its value. Per opponent infoset the values are
    averaged with the weights ``reach_i * reach_chance`` of ``roots``, exactly as the
    critic's values are in the default source. Returns None when some history is missing.
    """
    num: dict[str, float] = {}
    den: dict[str, float] = {}
    sign = 1.0 if opponent == 0 else -1.0
    for r in roots:
        value = values.get(tuple(r.state.history()))
        if value is None:
            return None
        info = r.state.information_state_string(opponent)
        w = r.reach_player * r.reach_chance
        num[info] = num.get(info, 0.0) + w * sign * value
        den[info] = den.get(info, 0.0) + w
    mean = float(np.mean([num[k] / den[k] for k in num if den[k] > 0] or [0.0]))
    return {k: num[k] / den[k] if den[k] > 0 else mean for k in num}


def _layers(sub: Subgame) -> list[tuple[np.ndarray, ...]]:
    """Per depth: (children, parents, reach component, in_slot, in_prob) in BFS order."""
    layers = []
    for d in range(1, int(sub.depth.max()) + 1):
        children = np.nonzero(sub.depth == d)[0]
        parents = sub.parent[children]
        comp = np.where(sub.in_slot[children] >= 0, sub.actor[parents], 2)
        layers.append((children, parents, comp, sub.in_slot[children], sub.in_prob[children]))
    return layers


def resolve(
    spec: SepotGame,
    state: Any,
    blueprint: Blueprint,
    *,
    depth_limit: int = 2,
    iterations: int = 1500,
    max_histories: int = 25_000,
    max_nodes: int = 200_000,
    opponent_cfvs: dict[str, float] | None = None,
) -> tuple[Subgame, Solution]:
    """Rebuild the public state of ``state``, build the gadget subgame and solve it.

    Raises :class:`SubgameTooLarge` when the public state or the subgame is over its limit.
    """
    roots = public_state(spec, state, blueprint, max_histories)
    sub = build_subgame(spec, roots, blueprint, depth_limit, opponent_cfvs=opponent_cfvs,
                        max_nodes=max_nodes)
    return sub, cfr_plus(sub, iterations)
