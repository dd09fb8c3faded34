"""Sandboxed worker entry that walks the game tree of a code world model (for
:mod:`ggp.cwm.solve`, through :class:`ggp.sandbox.Worker`).

Everything here runs in the sandboxed child, next to the untrusted model, and its answers
are only data for the parent to check (:func:`ggp.search.tabular.game_tree`): the limits
this side keeps (node count, depth) only spare work, the parent enforces them again.

* ``probe(count, max_depth, seed)``: ``count`` random paths from the root, each a list of
  branching factors (children per node), for a size estimate before anything is built;
* ``enumerate(max_nodes, max_depth)``: the whole tree as plain data (the format of
  :mod:`ggp.search.tabular`), every decision node labelled with its player's information
  state key — the canonical JSON of that player's obs-action history, built exactly as
  the arena builds the history it hands an agent (the player's observation at each of its
  decision points and the actions it took). Or, when a limit is reached first,
  ``{"complete": False, ...}`` with what stopped it.

No numpy here: a restricted child has the standard library and ggp only.
"""

from __future__ import annotations

import random
import sys
from typing import Any

from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, information_state_key
from ggp.sandbox.hosted import load_guarded


class _Stop(Exception):
    """A limit was reached during enumeration (``reason``, ``nodes``)."""

    def __init__(self, reason: str, nodes: int) -> None:
        super().__init__(reason)
        self.reason, self.nodes = reason, nodes


class TreeHandler:
    """The model (guarded: the walk holds states while the model runs) and the walks."""

    def __init__(self, init: dict[str, Any]) -> None:
        self.model: WorldModel = load_guarded(init["source"], init["filename"],
                                              init.get("metadata"))

    def _children(self, state) -> tuple[int, list, list]:
        """(player, actions, numbers) at ``state``: outcomes and probabilities at a chance
        node, legal actions at a decision node, nothing at a terminal."""
        model = self.model
        player = model.current_player(state)
        if player == TERMINAL:
            return player, [], []
        if player == CHANCE:
            outcomes = model.chance_outcomes(state)
            return player, [a for a, _ in outcomes], [p for _, p in outcomes]
        return player, list(model.legal_actions(state)), []

    def probe(self, count: int, max_depth: int, seed: int = 0) -> list[list[int]]:
        """Branching factors along ``count`` uniformly random paths (Knuth's estimator
        of the tree size takes these)."""
        rng = random.Random(seed)
        paths = []
        for _ in range(count):
            state, path = self.model.initial_state(), []
            while len(path) <= max_depth:
                player, actions, _ = self._children(state)
                path.append(len(actions))
                if not actions:
                    break
                state = self.model.apply(state, rng.choice(actions))
            paths.append(path)
        return paths

    def enumerate(self, max_nodes: int, max_depth: int) -> dict[str, Any]:
        """The whole tree as plain data, or why it was not finished."""
        # the walk recurses once per move (and the model a few frames more)
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 8 * max_depth + 1000))
        model = self.model
        n = model.num_players
        nodes: list[list] = []
        infosets: list[list] = []
        index: dict[tuple[int, str], int] = {}

        def visit(state, views: tuple, returns: list[float], depth: int) -> int:
            if len(nodes) >= max_nodes:
                raise _Stop("nodes", len(nodes))
            if depth > max_depth:
                raise _Stop("depth", len(nodes))
            player, actions, numbers = self._children(state)
            here = len(nodes)
            if player == TERMINAL:
                nodes.append([player, -1, [], [], list(returns)])
                return here
            info = -1
            if player != CHANCE:
                obs = model.observation(state, player)
                key = (player, information_state_key(list(views[player]) + [(obs, None)]))
                info = index.get(key, -1)
                if info < 0:
                    info = index[key] = len(infosets)
                    infosets.append(list(key))
            node = [player, info, actions, [], numbers]
            nodes.append(node)
            for action in actions:
                nxt = model.apply(state, action)
                rewards = model.rewards(nxt)
                seen = views
                if player != CHANCE:
                    seen = views[:player] + (views[player] + ((obs, action),),) + \
                        views[player + 1:]
                node[3].append(visit(nxt, seen, [r + x for r, x in zip(returns, rewards)],
                                     depth + 1))
            return here

        try:
            visit(model.initial_state(), tuple(() for _ in range(n)), [0.0] * n, 0)
        except _Stop as stop:
            return {"complete": False, "reason": stop.reason, "nodes": stop.nodes}
        return {"complete": True, "tree": {"players": n, "infosets": infosets,
                                           "nodes": nodes}}


def make_handler(init: dict[str, Any]) -> TreeHandler:
    """Worker entry point."""
    return TreeHandler(init)
