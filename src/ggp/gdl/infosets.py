"""Information sets and state sampling for GDL / GDL-II players (seed 003, §17.6-17.7).

A player's view is its ``obs_action_history`` (DESIGN.md §2): its observation at each of
its decision points and the move it made there, the last one deciding now. The states it
cannot tell apart are those reached from the initial state by some choices of the other
roles and of chance that produce exactly the same observations at the same points.

* :func:`information_set` enumerates them exactly, with probabilities (chance is uniform
  as in GDL-II; the other players are assumed to choose uniformly among their legal
  moves, since their strategies are unknown). For small games only: it walks the game tree
  and raises :class:`BeliefError` past ``max_nodes``.
* :func:`sample_state` returns one consistent complete state by randomized depth-first
  search with backtracking (§17.7: "a hypothesis inconsistent with a percept is discarded
  and replaced"). It is consistent by construction but not exactly distributed as the
  belief. :func:`belief_sampler` packages it for the search subsystem.

For GDL games a state's recorded history (GDL-II) or the visible board (GDL) prunes the
search early; any other world model is searched with observation checks only.
"""

from __future__ import annotations

import random
from typing import Callable, Iterator

from ggp.core.errors import BeliefError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, ObsActionHistory, State
from ggp.gdl.adapter import GDLGame


def information_set(model: WorldModel, player: int, history: ObsActionHistory,
                    max_nodes: int = 200_000) -> list[tuple[State, float]]:
    """All states consistent with ``player``'s view, with normalized probabilities."""
    found: dict[str, list] = {}
    for state, weight in _walk(model, player, history, None, max_nodes):
        key = _key(state)
        if key in found:
            found[key][1] += weight
        else:
            found[key] = [state, weight]
    total = sum(w for _, w in found.values())
    if not found or total <= 0:
        raise BeliefError("no state is consistent with this observation history")
    return [(s, w / total) for s, w in found.values()]


def sample_state(model: WorldModel, player: int, history: ObsActionHistory,
                 rng: random.Random | None = None, max_nodes: int = 200_000) -> State:
    """One complete state consistent with ``player``'s view (randomized backtracking)."""
    rng = rng or random.Random()
    for state, _ in _walk(model, player, history, rng, max_nodes):
        return state
    raise BeliefError("no state is consistent with this observation history")


def belief_sampler(model: WorldModel, max_nodes: int = 200_000) -> Callable:
    """``sampler(history, player, rng=None) -> state`` for planners (e.g. ISMCTS)."""
    def sampler(history: ObsActionHistory, player: int, rng: random.Random | None = None) -> State:
        return sample_state(model, player, history, rng, max_nodes)
    return sampler


def _key(state: State) -> str:
    from ggp.core.protocol import canonical_json
    return canonical_json(state)


def _walk(model: WorldModel, player: int, history: ObsActionHistory,
          rng: random.Random | None, max_nodes: int) -> Iterator[tuple[State, float]]:
    """Depth-first search over the states consistent with ``history``; yields
    ``(state, probability weight)`` for each match. Randomized when ``rng`` is given."""
    if not history:
        raise BeliefError("an observation history needs at least one entry")
    game = model.namespace if isinstance(model.namespace, GDLGame) else None
    last = len(history) - 1
    target = history[last][0]
    role = model.player_name(player)
    if game is not None and not game.gdl_ii:
        # perfect information: only the pending moves of this step are unknown
        start = {"step": target["step"], "true": target["true"], "pending": {}}
        stack = [(start, 1.0, last)]
    else:
        stack = [(model.initial_state(), 1.0, 0)]
    nodes = 0
    while stack:
        state, weight, k = stack.pop()
        nodes += 1
        if nodes > max_nodes:
            raise BeliefError(f"more than {max_nodes} states searched: the information set is "
                              "too large for exact enumeration")
        if game is not None and not _compatible(game, state, role, target):
            continue
        current = model.current_player(state)
        if current == TERMINAL:
            continue
        children: list = []
        if current == player:
            obs = model.observation(state, player)
            if not model.same(obs, history[k][0]):
                continue
            if k == last:
                yield state, weight
                continue
            children = [(history[k][1], 1.0)]
            k += 1
        elif current == CHANCE:
            children = model.chance_outcomes(state)
        else:
            actions = model.legal_actions(state)
            children = [(a, 1.0 / len(actions)) for a in actions]
        if rng is not None:
            order = list(children)
            rng.shuffle(order)
            # weighted shuffle for chance: likelier outcomes are tried first on average
            order.sort(key=lambda c: rng.random() ** (1.0 / max(c[1], 1e-12)))
            children = order
        else:
            children = list(reversed(children))
        for action, p in children:
            stack.append((model.apply(state, action), weight * p, k))


def _compatible(game: GDLGame, state: State, role: str, target: dict) -> bool:
    """Cheap necessary conditions from the GDL state layout (prunes the search)."""
    if state["step"] > target["step"]:
        return False
    if game.gdl_ii:
        mine = state["history"][role]
        if mine != target["history"][: len(mine)]:
            return False
    if state["step"] == target["step"] and role in state["pending"]:
        return state["pending"][role] == target["pending"].get(role)
    return True
