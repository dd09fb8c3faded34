"""Sandboxed worker entry of :class:`ggp.ggpnet.compiled.CompiledChooser`: the GGP
player's search, run on a compiled model (a synthesized Python program of the game) in a
restricted, offline box (:class:`ggp.sandbox.Worker`).

The parent sends the root states it drew from the reasoner (the true state in GDL,
states consistent with the player's percepts in GDL-II); the search here is the
player's own :class:`ggp.ggpnet.choosers.SearchChooser`, on the compiled model instead of
the reasoner. Everything here runs in the sandboxed child.
"""

from __future__ import annotations

import copy
import random
import threading
import time
from typing import Any

# imported before the sandbox's guard is installed (the search pulls in modules whose
# imports a restricted child may not make later)
from ggp.ggpnet.choosers import Decision, SearchChooser
from ggp.sandbox.hosted import load_guarded


class CompiledSearch:
    """The compiled model, loaded once, and searches on it (runs in the child)."""

    def __init__(self, init: dict[str, Any]) -> None:
        # the guarded wrapper copies every state it is given: the search holds the roots
        self.model = load_guarded(init["source"], init["filename"], init.get("metadata"))

    def search(self, roots: list[Any], player: int, exact: bool, seconds: float,
               seed: int) -> dict[str, Any]:
        """The search's move from ``roots`` within ``seconds`` (the parent's deadline less
        the trip back), as ``{"action": move}``, or ``{"error": why}`` when the model or
        the search failed (the worker stays usable)."""
        deadline = time.monotonic() + max(0.0, seconds)

        def sample_root(rng: random.Random) -> Any:
            return copy.deepcopy(roots[0] if len(roots) == 1 else rng.choice(roots))

        try:
            legal = list(self.model.legal_actions(roots[0]))
            decision = Decision(self.model, player, legal, sample_root, exact)
            move = SearchChooser(seed).choose(decision, deadline, threading.Event())
        except Exception as exc:  # noqa: BLE001 - the parent falls back and says why
            return {"error": f"{type(exc).__name__}: {str(exc)[:300]}"}
        return {"action": move}


def make_handler(init: dict[str, Any]) -> CompiledSearch:
    """Worker entry point."""
    return CompiledSearch(init)
