"""MCTS (UCT or PUCT) with an MCTS-solver, for perfect-information games with chance and
any number of players.

Each node holds a complete state. Decision nodes choose children from the point of view of
the player to move (max^n: every node keeps a vector of returns, one entry per player, so
n-player and general-sum games work). Chance nodes draw an outcome with the model's
probabilities on every visit. One node is added per simulation and valued by an
:class:`~ggp.search.evaluators.Evaluator` (10 random rollouts by default, as in seed 000).
The move played is the most visited child of the root (see :meth:`MCTS.choose` for what
the solver changes).

Selection:

* **UCT** (no prior): every untried action is expanded once (in random order), then the
  child maximizing ``mean + uct_c * R * sqrt(ln N / n)``, where ``R`` is the game's utility
  range from its metadata, so one ``uct_c`` suits games scored in {-1, 1} and 0..100 alike.
* **PUCT** (with a policy prior, :mod:`ggp.search.priors`): the action maximizing
  ``Q + uct_c * R * P(a) * sqrt(N) / (1 + n)`` over *all* legal actions, AlphaZero's rule;
  an action not yet tried has ``Q`` = the node's mean value for the mover (first-play
  urgency) and is expanded when chosen, so a prior that points at a good move makes the
  search look at it first.

**Solver** (``solver=True``, the default): values that are certain propagate up the tree
(Winands et al.'s MCTS-solver, generalized to max^n vectors and chance):

* a terminal node is proven, its value its reward;
* a decision node is proven when a proven child gives its mover the best return the
  game's metadata allows (``max_utility``, less what the mover has already received), or
  when every legal action is expanded and proven (then its value is the child best for the
  mover; ties go to the first such child, max^n's usual convention);
* a chance node is proven when every outcome is expanded and proven (the expectation).

Each proven node also keeps the length of its proof (``Node.depth``, plies to the end of
the game along the proof found: the quickest win for a mover who wins, the longest
resistance for one who does not). In a position proven lost the mover plays a move whose
loss is furthest away: the distance a chess engine keeps in "mated in N".

A simulation that reaches a proven node backs its exact value up without a rollout.
Selection skips a proven child when a sibling is known to be at least as good (a proven
sibling with a higher value, or any unproven sibling when the child is a proven loss, the
worst return the metadata allows); a proven root ends the search. A value outside the
metadata's bounds switches the bound-based rules off for that search object (the metadata
was wrong, so only the all-children rule stays sound). Bounds count the whole game's
return: a caller that knows the rewards received before the root passes them to
:meth:`MCTS.search` (``rewards_before``; zeros otherwise, right for games that pay only at
the end).

**Tree reuse** (``reuse=True``, the default): a search starts from the node of the previous
search's tree whose state equals the new root (protocol equality: ``==`` for trusted
models, canonical JSON otherwise, looked up within a few plies of the old root: the
player's move, the other players' replies, chance), keeping its statistics. The budget
``simulations`` counts the *root's visits*, inherited ones included, so a reused tree runs
``simulations - inherited`` new simulations. Because the subtree below any node evolves as
a Markov chain driven by independent random draws, a tree grown to N visits partly in an
earlier search is distributed exactly like a fresh search of N simulations from that
state: reuse saves the inherited simulations' time and changes nothing else (tested). When
more visits are inherited than the budget allows, the search starts afresh instead (a
tree stopped at a random, result-dependent visit count is *not* distributed like a fresh
one). With a time budget the inherited visits come on top of what the time buys.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from ggp.core.model import WorldModel
from ggp.core.ops import ops_for
from ggp.core.protocol import CHANCE, TERMINAL, Action, State, canonical_json
from ggp.search.evaluators import Evaluator, as_evaluator
from ggp.search.priors import GuardedPrior, Prior, as_guarded
from ggp.search.tactics import OutOfBudget, ShallowProver

#: How many plies below the previous root a reused root is looked for, and how many
#: nodes at most are compared (a deeper or wider search costs more than it can save).
REUSE_DEPTH = 8
REUSE_NODES = 200_000


class Node:
    """A search node: a state, the reward received on entering it (None when all zero),
    return statistics and the solver's and the prior's data."""

    __slots__ = ("children", "depth", "outcomes", "path", "player", "priors", "proven",
                 "reward", "solved", "state", "total", "untried", "urgent", "visits")

    def __init__(self, state: State, player: int, reward: list[float] | None, n: int,
                 path: list[float] | None = None) -> None:
        self.state = state
        self.player = player
        self.reward = reward
        self.path = path  # rewards received from the tree's first root on (None: zeros)
        self.visits = 0
        self.total = [0.0] * n  # sum over visits of (entry reward + returns after it)
        self.children: dict[Action, Node] = {}
        self.untried: list[Action] | None = None  # actions not expanded yet (None: unseen)
        self.priors: dict[Action, float] | None = None  # P(a) over the legal actions (PUCT)
        self.proven: list[float] | None = None  # exact (entry reward + returns after it)
        self.depth = 0  # once proven: plies from this node to the game's end along the proof
        self.solved = 0  # how many children are proven
        self.outcomes: list[tuple[Action, float]] | None = None  # a chance node's odds
        self.urgent = 0  # the last `urgent` untried actions end the game: expand them first

    def mean(self, player: int) -> float:
        return self.total[player] / self.visits if self.visits else 0.0

    def after(self) -> list[float] | None:
        """The proven returns after entering this node (its entry reward left out)."""
        if self.proven is None or self.reward is None:
            return self.proven
        return [v - r for v, r in zip(self.proven, self.reward)]


def exploration_scale(model: WorldModel) -> float:
    """The utility range used to scale ``uct_c`` (1 when the metadata gives none)."""
    span = model.metadata.utility_range
    return span if span > 0 else 1.0


def _plus(a: list[float] | None, b: list[float]) -> list[float]:
    return list(b) if a is None else [x + y for x, y in zip(a, b)]


class MCTS:
    """UCT/PUCT search with an MCTS-solver over a :class:`WorldModel`.

    Args:
        model: the world model (perfect information: states are what players see).
        evaluator: an :class:`Evaluator`, a callable ``state -> list[float]``, or None for
            10 random rollouts.
        simulations: the root's visits per search, inherited ones included (None: only
            ``time_limit`` counts).
        time_limit: seconds per search (None: only ``simulations`` counts).
        uct_c: exploration constant, in units of the game's utility range.
        rng: the random generator (seeded by the caller for reproducible play).
        solver: propagate proven values (module docstring).
        prior: a policy prior ``(state, player) -> {action: weight}`` (or a
            :class:`~ggp.search.priors.GuardedPrior`); with one, selection is PUCT.
        reuse: start from the previous search's subtree when it holds the new root.
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
        solver: bool = True,
        prior: Prior | GuardedPrior | None = None,
        reuse: bool = True,
    ) -> None:
        if simulations is None and time_limit is None:
            raise ValueError("give simulations, time_limit or both")
        self.model = model
        self.ops = ops_for(model)
        self.evaluator = as_evaluator(model, evaluator)
        self.simulations = simulations
        self.time_limit = time_limit
        self.c = uct_c * exploration_scale(model)
        self.uct_c = uct_c  # the setting (self.c is it scaled to the utility range)
        self.rng = rng or random.Random()
        self.solver = solver
        self.prior = as_guarded(prior, model.trusted)
        self.reuse = reuse
        meta = model.metadata
        self.max_utility, self.min_utility = float(meta.max_utility), float(meta.min_utility)
        self.eps = 1e-9 * max(1.0, abs(self.max_utility), abs(self.min_utility))
        self.bounds_ok = meta.max_utility >= meta.min_utility  # off once a value breaks them
        #: simulations run by the last :meth:`search` (0 after a forced move)
        self.last_simulations = 0
        #: root visits the last search inherited from the one before (tree reuse)
        self.last_inherited = 0
        #: whether the last search proved its root (and so stopped before its budget)
        self.last_proven = False
        self._tree: Node | None = None  # the last search's root, for reuse
        self._offset: list[float] = [0.0] * self.ops.num_players
        #: the blunder check of :meth:`_safe_choice`: plies of the shallow proof (0: off),
        #: how many candidate moves it may pass over; only where an opponent's best
        #: return is the mover's worst (two-player zero-sum games)
        self.check_plies = 3 if meta.num_players == 2 and meta.zero_sum else 0
        self.check_moves = 8
        self._prover = ShallowProver(self.ops, self.max_utility)

    # ------------------------------------------------------------------ public
    def search(self, state: State, rewards_before: Sequence[float] | None = None) -> Node:
        """Run the budgeted simulations from ``state``; returns the root node.

        ``rewards_before``: each player's rewards received before ``state`` (only the
        solver's bounds use them; zeros when not given)."""
        ops = self.ops
        n = ops.num_players
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        root = self._reused_root(state) if self.reuse else None
        budget = self.simulations
        if root is not None and budget is not None and root.visits >= budget:
            root = None  # more inherited than asked for: a fresh search keeps the semantics
        if root is None:
            root = Node(state, ops.current_player(state), None, n)
        self.last_inherited = root.visits
        before = [0.0] * n if rewards_before is None else [float(x) for x in rewards_before]
        # received(node) = offset + node.path: the rewards a player has when entering node
        self._offset = (before if root.path is None
                        else [b - p for b, p in zip(before, root.path)])
        done = 0
        while done == 0 or budget is None or root.visits < budget:
            if done > 0 and (root.proven is not None or (
                    deadline is not None and time.perf_counter() >= deadline)):
                break
            self._simulate(root)
            done += 1
        self.last_simulations = done
        self.last_proven = root.proven is not None
        self._tree = root if self.reuse else None
        return root

    def best_action(self, state: State, rewards_before: Sequence[float] | None = None) -> Action:
        """The move to play (:meth:`choose`); a forced move is returned without searching
        (and the tree is kept for the next search)."""
        legal = self.ops.legal_actions(state)
        if len(legal) == 1:
            self.last_simulations = 0
            return legal[0]
        started = time.perf_counter()
        root = self.search(state, rewards_before)
        if self._proven_lost(root):
            return self._swindle(root, rewards_before, started)
        return self.choose(root)

    def _proven_lost(self, root: Node) -> bool:
        """Whether the solver proved that the root's mover gets its worst return."""
        if not self.solver or root.proven is None:
            return False
        bounds = self._bounds(root)
        return bounds is not None and root.after()[root.player] <= bounds[0] + self.eps

    def _swindle(self, root: Node, rewards_before: Sequence[float] | None,
                 started: float) -> Action:
        """The move to play when ``root`` is proven lost: among the moves whose loss is
        furthest away (:attr:`Node.depth`), the one a search without the solver ranks first.

        A proven loss says an opponent who plays perfectly wins whatever the mover does;
        it says nothing about which move makes the win hardest to find, and the solver's
        search stops at the proof. The longest proof makes the opponent find the most
        moves; a search without the solver values each move by how its own (fallible)
        simulated opponent fares, which ranks the moves that block, threaten and delay
        above those that lose at once: the practical choice against an opponent who may
        err. It gets what is left of the move's budget; the solver's tree is kept for the
        next move."""
        left = None if self.time_limit is None else max(
            0.0, self.time_limit - (time.perf_counter() - started))
        practical = MCTS(self.model, self.evaluator, simulations=self.simulations,
                         time_limit=left, uct_c=self.uct_c, rng=self.rng, solver=False,
                         prior=self.prior, reuse=False)
        ranked = practical.search(root.state, rewards_before).children
        self.last_simulations += practical.last_simulations
        longest = max(c.depth for c in root.children.values())
        furthest = [a for a, c in root.children.items() if c.depth == longest]
        return max(furthest, key=lambda a: (ranked[a].visits, ranked[a].mean(root.player))
                   if a in ranked else (-1, 0.0))

    def choose(self, root: Node) -> Action:
        """The most visited root action (ties: higher mean for the mover), except that a
        proven root plays a child that proves it (a won root: the quickest win), proven
        children that a sibling is known to beat are never chosen (:meth:`_dominated`),
        and with the solver an unproven move is checked for a short forced loss first
        (:meth:`_safe_choice`)."""
        if not root.children:
            raise ValueError("the root has no children: search a non-terminal decision state")
        player = root.player
        if self.solver and root.proven is not None:
            value = root.after()[player]
            items = [(a, c) for a, c in root.children.items()
                     if c.proven is not None and c.proven[player] >= value - self.eps]
            bounds = self._bounds(root)
            if items and bounds is not None and value >= bounds[1] - self.eps:
                return min(items, key=lambda item: (item[1].depth, -item[1].visits))[0]
        elif self.solver:
            items = [(a, c) for a, c in root.children.items()
                     if c.proven is None or not self._dominated(root, c)]
        else:
            items = list(root.children.items())
        if not items:  # every expanded move is a proven loss: try one not expanded yet
            return root.untried[-1]
        ranked = sorted(items, key=lambda item: (item[1].visits, item[1].mean(player)),
                        reverse=True)
        if self.solver and root.proven is None:
            return self._safe_choice(root, ranked)
        return ranked[0][0]

    def _safe_choice(self, root: Node, ranked: list[tuple[Action, Node]]) -> Action:
        """The first of ``ranked`` (the root's moves, best first) that is not a short
        forced loss: an unproven move after which an opponent forces the worst return
        within :attr:`check_plies` plies (:class:`~ggp.search.tactics.ShallowProver`)
        is passed over, for at most :attr:`check_moves` moves.

        When every move checked is such a loss, a proven loss that kept a higher mean
        is played instead, if there is one: a move the search preferred until late,
        whose refutation is deep, is a better practical chance against an opponent who
        may not find it than a loss in three plies (a proven loss stops being visited,
        so its statistics stay those it had before the proof)."""
        bounds = self._bounds(root)
        if bounds is None or self.check_plies <= 0:
            return ranked[0][0]
        player, n = root.player, self.ops.num_players
        received = [o + (root.path[i] if root.path else 0.0) for i, o in enumerate(self._offset)]
        checked = 0
        for action, child in ranked:
            if child.proven is not None or checked >= self.check_moves:
                return action
            checked += 1
            after = ([r + g for r, g in zip(received, child.reward)] if child.reward
                     else received)
            if not self._opponent_forces(child.state, player, n, after):
                return action
        deep = [(a, c) for a, c in root.children.items()
                if c.proven is not None and c.visits and c.proven[player] <= bounds[0] + self.eps]
        if deep:
            return max(deep, key=lambda item: (item[1].mean(player), item[1].visits))[0]
        return ranked[0][0]

    def _opponent_forces(self, state: State, player: int, n: int,
                         received: list[float]) -> bool:
        """Whether some opponent of ``player`` forces its best return from ``state``
        within :attr:`check_plies` plies (False when unknown: out of budget)."""
        for other in range(n):
            if other == player:
                continue
            try:
                if self._prover.forces(state, other, self.check_plies, received):
                    return True
            except OutOfBudget:
                return False
        return False

    @property
    def prior_errors(self) -> int:
        """How many prior calls failed and fell back to uniform."""
        return self.prior.errors if self.prior is not None else 0

    # ------------------------------------------------------------------ reuse
    def _reused_root(self, state: State) -> Node | None:
        """The node of the last tree whose state equals ``state`` (breadth first, a few
        plies deep), or None."""
        old, self._tree = self._tree, None
        if old is None:
            return None
        trusted = self.ops.model.trusted
        key = None
        if not trusted:
            try:
                key = canonical_json(state)
            except (TypeError, ValueError):
                return None
        frontier, seen = [old], 0
        for _ in range(REUSE_DEPTH + 1):
            following = []
            for node in frontier:
                if node.state == state if trusted else canonical_json(node.state) == key:
                    return _as_root(node)
                following.extend(node.children.values())
            seen += len(frontier)
            if not following or seen + len(following) > REUSE_NODES:
                return None
            frontier = following
        return None

    # ------------------------------------------------------------------ internals
    def _simulate(self, root: Node) -> None:
        ops, rng, solver, prior = self.ops, self.rng, self.solver, self.prior
        node, path = root, [root]
        while True:
            if node.proven is not None and solver:  # exact: no need to look further
                value = node.after()
                break
            player = node.player
            if player == TERMINAL:
                value = [0.0] * ops.num_players
                break
            if player == CHANCE:
                action = ops.sample_chance(node.state, rng)
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = self._new_node(node, action)
                    path.append(child)
                    value = self._evaluate(child, path)
                    break
                node = child
                path.append(node)
                continue
            if node.untried is None:
                legal = list(ops.legal_actions(node.state))
                if prior is not None:
                    node.priors = prior(node.state, player, legal)
                rng.shuffle(legal)
                if solver:  # decisive moves first: a move that ends the game is proven at once
                    legal = self._ending_last(node, legal)
                node.untried = legal
            if node.urgent:  # an untried move that ends the game: expand it now
                node.urgent -= 1
                action = node.untried.pop()
                child = node.children[action] = self._new_node(node, action)
                path.append(child)
                value = self._evaluate(child, path)
                break
            if prior is None:
                if node.untried:
                    action = node.untried.pop()
                    child = node.children[action] = self._new_node(node, action)
                    path.append(child)
                    value = self._evaluate(child, path)
                    break
                node = self._select(node)
            else:
                action = self._select_puct(node)
                child = node.children.get(action)
                if child is None:
                    node.untried.remove(action)
                    child = node.children[action] = self._new_node(node, action)
                    path.append(child)
                    value = self._evaluate(child, path)
                    break
                node = child
            path.append(node)
        # Back up: each node accumulates its entry reward plus the returns after it.
        n = len(value)
        for step in reversed(path):
            reward = step.reward
            if reward is not None:
                value = [reward[i] + value[i] for i in range(n)]
            step.visits += 1
            total = step.total
            for i in range(n):
                total[i] += value[i]
        if solver:
            self._prove(path)

    def _new_node(self, parent: Node, action: Action) -> Node:
        ops = self.ops
        nxt = ops.apply(parent.state, action)
        reward = ops.rewards(nxt)
        # None for the common all-zero reward saves work in every backup through the node
        reward = list(reward) if any(reward) else None
        path = parent.path if reward is None else _plus(parent.path, reward)
        child = Node(nxt, ops.current_player(nxt), reward, ops.num_players, path)
        if self.solver and child.player == TERMINAL:
            child.proven = reward or [0.0] * ops.num_players
            parent.solved += 1
            self._check_bounds(child)
        return child

    def _ending_last(self, node: Node, legal: list[Action]) -> list[Action]:
        """``legal`` with the actions that end the game moved to its end (expansion pops
        from there) and counted in ``node.urgent``. Expanding them first proves a node
        whose mover can win at once on its second visit, and a win in three plies after
        one visit to each reply, instead of after expanding the moves in random order;
        the price is one model step per legal action, once per node."""
        ops, state = self.ops, node.state
        ending = [ops.current_player(ops.apply(state, a)) == TERMINAL for a in legal]
        if not any(ending):
            return legal
        node.urgent = sum(ending)
        return ([a for a, end in zip(legal, ending) if not end]
                + [a for a, end in zip(legal, ending) if end])

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
        if node.solved:
            return self._select_solved(node)
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

    def _select_solved(self, node: Node) -> Node:
        """UCT where some children are proven: their mean is their exact value, and a
        child that a sibling is known to beat is skipped."""
        player, sqrt = node.player, math.sqrt
        bonus = self.c * sqrt(math.log(node.visits))
        best, best_score = None, -math.inf
        for child in node.children.values():
            if child.proven is not None:
                if self._dominated(node, child):
                    continue
                mean = child.proven[player]
            else:
                mean = child.total[player] / child.visits
            score = mean + bonus / sqrt(child.visits)
            if score > best_score or (score == best_score and self.rng.random() < 0.5):
                best, best_score = child, score
        return best

    def _select_puct(self, node: Node) -> Action:
        """PUCT over all legal actions (module docstring); returns the chosen action."""
        player, priors, children = node.player, node.priors, node.children
        scale = self.c * math.sqrt(max(node.visits, 1))
        if node.visits:  # first-play urgency: the node's own mean, its entry reward left out
            fpu = (node.total[player] - (node.reward[player] * node.visits
                                         if node.reward is not None else 0.0)) / node.visits
        else:
            fpu = 0.0
        best, best_score = None, -math.inf
        for action, p in priors.items():
            child = children.get(action)
            if child is None:
                score = fpu + scale * p
            else:
                if child.proven is not None and self.solver:
                    if self._dominated(node, child):
                        continue
                    mean = child.proven[player]
                else:
                    mean = child.total[player] / child.visits
                score = mean + scale * p / (1 + child.visits)
            if score > best_score or (score == best_score and self.rng.random() < 0.5):
                best, best_score = action, score
        return best

    # ------------------------------------------------------------------ solver
    def _bounds(self, node: Node) -> tuple[float, float] | None:
        """(worst, best) value a child of ``node`` can have for its mover (returns to come
        after entering ``node``), or None when the metadata's bounds are not trusted."""
        if not self.bounds_ok:
            return None
        player = node.player
        received = self._offset[player] + (node.path[player] if node.path else 0.0)
        return self.min_utility - received, self.max_utility - received

    def _dominated(self, node: Node, child: Node) -> bool:
        """Whether a sibling of the proven ``child`` is known to be at least as good for
        the mover: a proven sibling with a higher value, or, when ``child`` is a proven
        loss (the worst value the bounds allow), any sibling not proven yet."""
        player = node.player
        value = child.proven[player]
        unproven = bool(node.untried) or node.solved < len(node.children)
        if unproven:
            bounds = self._bounds(node)
            if bounds is not None and value <= bounds[0] + self.eps:
                return True
        for other in node.children.values():
            if other.proven is not None and other.proven[player] > value + self.eps:
                return True
        return False

    def _prove(self, path: list[Node]) -> None:
        """Prove what the last simulation made provable, bottom-up along its path."""
        for i in range(len(path) - 1, -1, -1):
            node = path[i]
            if node.proven is None:
                value = self._proven_value(node)
                if value is None:
                    return
                node.proven = _plus(node.reward, value)
                node.depth = self._proof_depth(node)
                self._check_bounds(node)
                if i > 0:
                    path[i - 1].solved += 1

    def _proven_value(self, node: Node) -> list[float] | None:
        """The exact returns after entering ``node`` if its children prove them."""
        if node.player == CHANCE:
            if node.solved < len(node.children):
                return None
            if node.outcomes is None:
                node.outcomes = list(self.ops.chance_outcomes(node.state))
            if len(node.children) < len(node.outcomes):
                return None
            value = [0.0] * self.ops.num_players
            for action, p in node.outcomes:
                proven = node.children[action].proven
                for i, v in enumerate(proven):
                    value[i] += p * v
            return value
        if not node.solved:
            return None
        player, best = node.player, None
        for child in node.children.values():
            if child.proven is not None and (best is None or child.proven[player] >
                                             best.proven[player] + self.eps):
                best = child
        complete = not node.untried and node.untried is not None and node.solved == len(
            node.children)
        if not complete:
            bounds = self._bounds(node)
            if bounds is None or best.proven[player] < bounds[1] - self.eps:
                return None
        return list(best.proven)

    def _proof_depth(self, node: Node) -> int:
        """The plies to the game's end along ``node``'s proof (its value is set): through
        the quickest of the children that give the mover its proven value when that value
        is the best the bounds allow (a win is taken at once), else through the slowest
        (a mover who cannot win resists longest); through the slowest outcome at chance."""
        proven = [c for c in node.children.values() if c.proven is not None]
        if node.player == CHANCE:
            return 1 + max(c.depth for c in proven)
        player = node.player
        value = node.proven[player] - (node.reward[player] if node.reward else 0.0)
        proving = [c.depth for c in proven if c.proven[player] >= value - self.eps]
        bounds = self._bounds(node)
        wins = bounds is not None and value >= bounds[1] - self.eps
        return 1 + (min(proving) if wins else max(proving))

    def _check_bounds(self, node: Node) -> None:
        """Turn the bound-based rules off if a proven value breaks the metadata's bounds
        (a model whose metadata is wrong must not make the solver unsound)."""
        if not self.bounds_ok:
            return
        received = [o + (node.path[i] if node.path else 0.0) - (
            node.reward[i] if node.reward else 0.0) for i, o in enumerate(self._offset)]
        for i, v in enumerate(node.proven):
            total = received[i] + v
            if total > self.max_utility + self.eps or total < self.min_utility - self.eps:
                self.bounds_ok = False
                return


def _as_root(node: Node) -> Node:
    """``node`` with the statistics a fresh root of its subtree would have: a node below
    a root was valued once as a leaf before it had children, a root never is, so its visits
    (the N of UCT and PUCT) and totals become the sums over its children."""
    n = len(node.total)
    if node.player < 0:  # chance or terminal: never a root to search
        return node
    node.visits = sum(c.visits for c in node.children.values())
    node.total = [sum(c.total[i] for c in node.children.values()) for i in range(n)]
    if node.reward is not None:
        node.total = [t + r * node.visits for t, r in zip(node.total, node.reward)]
    return node


def best_child_action(root: Node) -> Action:
    """The root's most visited action, ties broken by the mover's mean return (no
    solver; :meth:`MCTS.choose` is the solver-aware choice)."""
    if not root.children:
        raise ValueError("the root has no children: search a non-terminal decision state")
    player = root.player
    return max(root.children.items(),
               key=lambda item: (item[1].visits, item[1].mean(player)))[0]
