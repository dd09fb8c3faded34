"""Sandboxed worker entry of :class:`ggp.ggpnet.compiled.CompiledChooser`: the GGP
player's search, run on a compiled model (a synthesized Python program of the game) in a
restricted, offline box (:class:`ggp.sandbox.Worker`).

The parent sends the roots as the program's own action sequences from its initial state
(the match's moves in GDL, histories drawn by the program's ``resample_history`` in
GDL-II), so the program's states never leave this box and may have any layout. Each
sequence is replayed once; each simulation starts from a copy of one of them, with the
moves of the players choosing before this one in the current step (a simultaneous GDL
step is taken one role at a time) drawn at random. The search is the player's own
:class:`ggp.ggpnet.choosers.SearchChooser`, on the compiled model instead of the
reasoner. Everything here runs in the sandboxed child.
"""

from __future__ import annotations

import copy
import random
import threading
import time
from typing import Any

# imported before the sandbox's guard is installed (the search pulls in modules whose
# imports a restricted child may not make later)
from ggp.core.protocol import CHANCE, TERMINAL
from ggp.ggpnet.choosers import Decision, SearchChooser
from ggp.sandbox.hosted import load_guarded
from ggp.search.evaluators import RandomRolloutEvaluator
from ggp.search.mcts import MCTS

#: Moves of other players (and chance) drawn at most before this player is to move.
_MAX_BEFORE = 64


class CompiledSearch:
    """The compiled model, loaded once, and searches on it (runs in the child)."""

    def __init__(self, init: dict[str, Any]) -> None:
        # the guarded wrapper copies every state it is given: the search holds the roots
        self.model = load_guarded(init["source"], init["filename"], init.get("metadata"))

    def search(self, roots: list[list[Any]], player: int, exact: bool, seconds: float,
               seed: int) -> dict[str, Any]:
        """The search's move from the states ``roots`` lead to, within ``seconds`` (the
        parent's deadline less the trip back), as ``{"action": move}``, or
        ``{"error": why}`` when the model or the search failed (the worker stays usable)."""
        deadline = time.monotonic() + max(0.0, seconds)
        model = self.model
        try:
            states = []
            for actions in roots:
                state = model.initial_state()
                for action in actions:
                    state = model.apply(state, action)
                states.append(state)

            def sample_root(rng: random.Random) -> Any:
                state = copy.deepcopy(states[0] if len(states) == 1 else rng.choice(states))
                for _ in range(_MAX_BEFORE):
                    current = model.current_player(state)
                    if current in (player, TERMINAL):
                        return state
                    if current == CHANCE:
                        outcomes = model.chance_outcomes(state)
                        action = rng.choices([o for o, _ in outcomes],
                                             weights=[p for _, p in outcomes])[0]
                    else:
                        action = rng.choice(list(model.legal_actions(state)))
                    state = model.apply(state, action)
                raise ValueError(f"player {player} is not to move within {_MAX_BEFORE} "
                                 "moves of the root")

            legal = list(model.legal_actions(sample_root(random.Random(seed))))
            decision = Decision(model, player, legal, sample_root, exact)
            move = SearchChooser(seed).choose(decision, deadline, threading.Event())
        except Exception as exc:  # noqa: BLE001 - the parent falls back and says why
            return {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
        return {"action": move}


    def plan(self, actions: list[Any], sims: int, seed: int) -> dict[str, Any]:
        """The move of an MCTS of ``sims`` simulations (one random rollout per leaf) from
        the state the match's moves ``actions`` lead to, as ``{"action": move}`` or
        ``{"error": why}``: a fixed-budget search, for timing a match on the compiled
        model against the same match on the reasoner (``bench/compiled_match.py``)."""
        model = self.model
        try:
            state = model.initial_state()
            for action in actions:
                state = model.apply(state, action)
            search = MCTS(model, RandomRolloutEvaluator(model, 1), simulations=sims,
                          rng=random.Random(seed))
            return {"action": search.best_action(state)}
        except Exception as exc:  # noqa: BLE001 - reported to the parent
            return {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}


def make_handler(init: dict[str, Any]) -> CompiledSearch:
    """Worker entry point."""
    return CompiledSearch(init)
