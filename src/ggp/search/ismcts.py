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
knowing what the searcher knows about the world (they tell in Exploding Bomb "tell";
shared/research/cards_ismcts.md §2.4, see docs/references.md).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable

from ggp.belief.sampler import BeliefSampler
from ggp.core.model import WorldModel
from ggp.core.protocol import TERMINAL, Action, ObsActionHistory, State
from ggp.search.evaluators import Evaluator, as_evaluator
from ggp.search.mcts import exploration_scale
from ggp.core.ops import ops_for
from ggp.search.priors import GuardedPrior, Prior, as_guarded

# canonical_json with one encoder built once (it is on the hot path of every simulation)
_obs_key = json.JSONEncoder(sort_keys=True, separators=(",", ":"), allow_nan=False).encode

# Per-action statistics of a node: [visits, total return of the acting player, availability]
VISITS, TOTAL, AVAIL = 0, 1, 2


class InfoNode:
    """A node of an information-set tree: per-action statistics and child nodes."""

    __slots__ = ("children", "priors", "stats")

    def __init__(self) -> None:
        self.stats: dict[Action, list[float]] = {}
        self.children: dict[object, InfoNode] = {}
        # P(a) from the policy prior (PUCT), computed from the first determinization that
        # reaches the node: the prior should depend only on what the mover knows
        self.priors: dict[Action, float] | None = None

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
        prior: Prior | GuardedPrior | None = None,
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
        self.prior = as_guarded(prior, model.trusted)
        #: simulations run by the last :meth:`search`
        self.last_simulations = 0
        #: root visits inherited from an earlier search (always 0: ISMCTS does not reuse)
        self.last_inherited = 0

    def search(self, history: ObsActionHistory, player: int) -> InfoNode:
        """Search from ``player``'s decision point ``history[-1]``; returns the root node."""
        # the time limit covers the whole move, building the belief included
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        belief = self.sampler.belief(history, player, self.rng)
        # The root's observation as the model itself builds it (the history may have
        # passed through JSON, turning tuples into lists, which trusted lookups by == see).
        root_obs = self.ops.observations(belief.sample(self.rng))[player]
        trees = [InfoNode() for _ in range(self.ops.num_players)]
        if self.observer == "single":
            # trees[p]: a node whose children are p's first observations in a simulation
            root = trees[player].child(None, root_obs, self.ops.model.trusted)
        else:
            root = trees[player]
        self.last_simulations = self._run(belief.sample, belief.pooled, trees, deadline)
        return root

    def best_action(self, history: ObsActionHistory, player: int) -> Action:
        """The root's most visited action."""
        return most_visited(self.search(history, player))

    def _run(self, draw: Callable[[random.Random], State], pooled: bool,
             trees: list[InfoNode], deadline: float | None) -> int:
        """All simulations of a search, in one loop (see the module doc for the keys);
        returns how many were run.

        Single observer: the node where player *p* acts is the child of *p*'s previous
        node (``trees[p]`` before its first move) along the action *p* took there, then
        *p*'s observation. Multiple observer: ``current[q]`` is player *q*'s node in its
        own tree (``trees[q]`` at the start); after every move it follows the edge
        labelled by *q*'s own action (if *q* moved, else None) and *q*'s new observation.

        Which node a simulation is at is a function of the history it has played from its
        determinization (models are deterministic), so when the belief is ``pooled`` (its
        draws come from a fixed set of state objects: cached replays, enumerated
        information sets, particles) a :class:`_History` trie per drawn state remembers
        it: observations are built and compared once per distinct history rather than on
        every visit (Leduc: about 1 in 12). Otherwise every simulation starts a fresh trie,
        which remembers nothing.

        This is the hot loop of every imperfect-information agent: a Python call costs
        about as much as a small game's model function, so the node lookup and the UCB
        choice are written inline rather than as methods, and everything used repeatedly
        is bound to a local once per search.
        """
        ops, rng, c = self.ops, self.rng, self.c
        current_player, legal_actions, apply = ops.current_player, ops.legal_actions, ops.apply
        rewards_of, observations, sample_chance = ops.rewards, ops.observations, ops.sample_chance
        evaluate, to_come = self.evaluator.evaluate, self.evaluator.returns_to_come
        trusted, n, budget, clock = ops.model.trusted, ops.num_players, self.simulations, time.perf_counter
        single, prior = self.observer == "single", self.prior
        zero, players, log, sqrt, inf = [0.0] * n, range(n), math.log, math.sqrt, math.inf
        # log(availability) for the UCB bonus, computed once per count (<= simulations + 1)
        logs = [0.0] + [log(i) for i in range(1, (budget or 0) + 2)]
        n_logs = len(logs)
        roots: dict[int, tuple[State, _History]] = {}  # id(drawn state) -> (state, trie)
        done = 0
        while budget is None or done < budget:
            if deadline is not None and done > 0 and clock() >= deadline:
                break
            done += 1
            state = draw(rng)
            if pooled:
                known = roots.get(id(state))
                if known is None:  # the state is kept alive with its trie: ids stay unique
                    known = roots[id(state)] = (state, _History(None if single else list(trees)))
                history = known[1]
            else:
                history = _History(None if single else list(trees))
            if single:  # each player's previous node (its tree's top before it moves)
                last_node, last_action = list(trees), [None] * n  # and its action there
            else:  # each player's node in its own tree
                current = history.nodes
            acc = [0.0] * n  # rewards received since the search root
            path = []  # (edge statistics, mover, mover's acc before the move)
            leaf = None
            while True:
                mover = current_player(state)
                if mover < 0:  # TERMINAL or CHANCE
                    if mover == TERMINAL:
                        break
                    action, untried = sample_chance(state, rng), None
                else:
                    # ---- the mover's node
                    if single:
                        node = history.nodes
                        if node is None:
                            obs = observations(state)[mover]
                            node = history.nodes = last_node[mover].child(
                                last_action[mover], obs, trusted)
                    else:
                        node = current[mover]
                    if prior is not None:  # ---- PUCT (its own method: UCT is unchanged)
                        action, stats, untried = self._puct(node, state, mover, prior)
                        path.append((stats, mover, acc[mover]))
                    else:
                        # ---- UCB over the legal actions with availability counts; an
                        # untried legal action is expanded first. stats: [visits, total,
                        # availability]
                        get = node.stats.get
                        untried = None
                        action, stats, best_score = None, None, -inf
                        for a in legal_actions(state):
                            s = get(a)
                            if s is None:
                                if untried is None:
                                    untried = [a]
                                else:
                                    untried.append(a)
                                continue
                            avail = s[2] + 1
                            s[2] = avail
                            if untried is None:
                                visits = s[0]
                                score = s[1] / visits + c * sqrt(
                                    (logs[avail] if avail < n_logs else log(avail)) / visits)
                                if score > best_score or (score == best_score
                                                          and rng.random() < 0.5):
                                    action, stats, best_score = a, s, score
                        if untried is not None:
                            action = untried[0] if len(untried) == 1 else rng.choice(untried)
                            stats = node.stats[action] = [0, 0.0, 1]
                        path.append((stats, mover, acc[mover]))
                # ---- the move (a chance move's mover is negative: no player's own action)
                state = apply(state, action)
                rewards = rewards_of(state)
                if rewards != zero:
                    for i in players:
                        acc[i] += rewards[i]
                if untried is not None:  # expanded: value the new edge and stop
                    if current_player(state) != TERMINAL:
                        leaf = evaluate(state, rng)
                        if not to_come:  # whole-game estimate
                            leaf = [leaf[i] - acc[i] for i in players]
                    break
                after = history.next.get(action)
                if after is None:
                    if single:
                        after = history.next[action] = _History(None)
                    else:
                        seen = observations(state)
                        after = history.next[action] = _History(
                            [current[q].child(action if q == mover else None, seen[q], trusted)
                             for q in players])
                history = after
                if not single:
                    current = history.nodes
                elif mover >= 0:
                    last_node[mover] = node
                    last_action[mover] = action
            if leaf is None:  # the usual case in small games: a terminal state was reached
                for stats, mover, before in path:
                    stats[0] += 1
                    stats[1] += acc[mover] - before
            else:
                for stats, mover, before in path:
                    stats[0] += 1
                    stats[1] += acc[mover] - before + leaf[mover]
        return done


    def _puct(self, node: InfoNode, state: State, mover: int,
              prior: GuardedPrior) -> tuple[Action, list[float], list[Action] | None]:
        """PUCT at ``node`` for this determinization: ``(action, its statistics, [action]
        when the action is new here, else None)``.

        ``score = Q + c * P(a) * sqrt(avail) / (1 + n)``, with availability counts as the
        parent visits of UCT-ISMCTS; an action never tried here has ``Q`` = the mean
        return of the node's tried actions for the mover (first-play urgency) and the
        node's visits as its ``avail``. ``P`` comes from the prior at the node's first
        determinization; a legal action it did not cover gets the floor share."""
        legal = self.ops.legal_actions(state)
        priors = node.priors
        if priors is None:
            priors = node.priors = prior(state, mover, legal)
        missing = prior.floor / len(legal)
        get, c, sqrt, rng = node.stats.get, self.c, math.sqrt, self.rng
        best, best_stats, best_score = None, None, -math.inf
        visited = returns = 0.0
        fresh = []
        for a in legal:
            s = get(a)
            if s is None:
                fresh.append(a)
                continue
            avail = s[2] + 1
            s[2] = avail
            visits = s[0]
            visited += visits
            returns += s[1]
            score = s[1] / visits + c * priors.get(a, missing) * sqrt(avail) / (1 + visits)
            if score > best_score or (score == best_score and rng.random() < 0.5):
                best, best_stats, best_score = a, s, score
        if fresh:
            fpu = returns / visited if visited else 0.0
            scale = c * sqrt(max(visited, 1.0))
            new = None
            for a in fresh:
                score = fpu + scale * priors.get(a, missing)
                if score > best_score or (score == best_score and rng.random() < 0.5):
                    new, best_score = a, score
            if new is not None:
                stats = node.stats[new] = [0, 0.0, 1]
                return new, stats, [new]
        return best, best_stats, None

    @property
    def prior_errors(self) -> int:
        """How many prior calls failed and fell back to uniform."""
        return self.prior.errors if self.prior is not None else 0


class _History:
    """A node of the per-determinization history trie used by :meth:`ISMCTS._run`:
    ``next`` maps an action to the following history; ``nodes`` is the information-set
    node of the player to move there (single observer; None until first needed) or every
    player's node (multiple observer)."""

    __slots__ = ("next", "nodes")

    def __init__(self, nodes: InfoNode | list[InfoNode] | None) -> None:
        self.next: dict[Action, _History] = {}
        self.nodes = nodes


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
