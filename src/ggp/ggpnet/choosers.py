"""Move choosers: how the GGP player picks a move once it knows where it stands.

A :class:`Chooser` receives a :class:`Decision` (the world model of the game, the
player's legal moves and a way to draw a complete state it cannot rule out) and a
deadline; it must return by the deadline or as soon as ``stop`` is set. Choosers are
pluggable (``ggp serve --chooser``):

* ``random``: a uniformly random legal move;
* ``search`` (default): anytime tree search from :mod:`ggp.search`: MCTS from the exact
  state when the player knows it (GDL, nobody else choosing in the same step), otherwise
  ISMCTS over states drawn from the player's hypotheses (GDL-II, or other roles'
  simultaneous choices). Leaves are valued by one random playout that is cut short when
  the deadline passes, so a search overruns its deadline by at most one model step and
  one tree descent.
"""

from __future__ import annotations

import random
import threading
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Callable

from ggp.belief.sampler import Belief, BeliefSampler
from ggp.core.errors import GGPError, ModelError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, State
from ggp.search.evaluators import Evaluator
from ggp.search.ismcts import ISMCTS
from ggp.search.mcts import MCTS
from ggp.core.ops import ops_for


@dataclass
class Decision:
    """Where the player stands: ``model`` is the game as a world model (the GDL adapter),
    ``player`` its player index there, ``legal`` its legal moves (KIF texts, more than
    one), ``sample_root(rng)`` a complete model state with this player to move that is
    consistent with everything it has seen, and ``exact`` whether that state is always
    the same (then it is the true state).

    The match so far, in the world model's protocol, for choosers that keep a model of
    their own (:mod:`ggp.ggpnet.compiled`): ``actions`` (GDL) are the moves made from the
    initial state, each step's moves of the roles that had a choice in role order (a
    simultaneous step taken one role at a time); ``view`` (GDL-II) is this player's
    observation at each of its decision points with the move it made there, the last
    one (now) with None: the argument of a model's ``resample_history``."""

    model: WorldModel
    player: int
    legal: list[str]
    sample_root: Callable[[random.Random], State]
    exact: bool
    actions: list[str] | None = None
    view: list[tuple[dict, str | None]] | None = None


class Stopped(Exception):
    """Raised inside a search when its deadline has passed or it was told to stop."""


class Chooser(ABC):
    """Picks a move for a :class:`Decision` before ``deadline`` (``time.monotonic()``)."""

    name = "chooser"

    @abstractmethod
    def choose(self, decision: Decision, deadline: float, stop: threading.Event) -> str:
        """A move from ``decision.legal``; may raise :class:`Stopped`."""

    def prepare(self, model: WorldModel) -> None:
        """Called during a match's start clock with the game's world model (choosers
        that need to start something do it here)."""

    def close(self) -> None:
        """Release what the chooser holds (the player is shutting down)."""


class RandomChooser(Chooser):
    """A uniformly random legal move."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, decision: Decision, deadline: float, stop: threading.Event) -> str:
        return self.rng.choice(decision.legal)


class SearchChooser(Chooser):
    """MCTS or ISMCTS from :mod:`ggp.search` with a wall-clock budget (module docstring)."""

    name = "search"

    def __init__(self, seed: int | None = None, uct_c: float = 1.0) -> None:
        self.rng = random.Random(seed)
        self.uct_c = uct_c

    def choose(self, decision: Decision, deadline: float, stop: threading.Event) -> str:
        budget = deadline - time.monotonic()
        if budget <= 0:
            raise Stopped
        evaluator = DeadlineRollout(decision.model, deadline, stop)
        if decision.exact:
            root = decision.sample_root(self.rng)
            search = MCTS(decision.model, evaluator, simulations=None, time_limit=budget,
                          uct_c=self.uct_c, rng=self.rng)
            move = search.best_action(root)
        else:
            search = ISMCTS(decision.model, _RootSampler(decision), evaluator,
                            simulations=None, time_limit=budget, uct_c=self.uct_c,
                            rng=self.rng)
            move = search.best_action([], decision.player)
        if move not in decision.legal:  # the model's spelling differs: never send it blind
            raise ModelError(f"search chose {move!r}, not among {decision.legal}",
                             function="choose")
        return move


def make_chooser(name: str, seed: int | None = None, compiled: str | None = None) -> Chooser:
    """A chooser by name: ``random``, ``search`` or ``compiled`` (search on the compiled
    model ``compiled``, a synthesis run folder or a ``.py`` file, checked against the
    reasoner: :mod:`ggp.ggpnet.compiled`)."""
    if name == "compiled":
        if not compiled:
            raise GGPError("The compiled chooser needs --compiled RUN_DIR|MODEL.py (a "
                           "synthesized model of the game, e.g. from ggp synth game.kif).")
        from ggp.ggpnet.compiled import CompiledChooser

        return CompiledChooser(compiled, seed)
    choosers = {"random": RandomChooser, "search": SearchChooser}
    if name not in choosers:
        raise GGPError(f"Unknown chooser {name!r}; choose one of "
                       f"{', '.join([*choosers, 'compiled'])}.")
    return choosers[name](seed)


# ---------------------------------------------------------------------------- search parts
class DeadlineRollout(Evaluator):
    """One uniformly random playout per leaf.

    A playout still running at ``deadline`` is cut short and valued at the middle of the
    utility range (a neutral guess), so the simulation in progress ends at once and the
    search keeps its tree; if ``stop`` is set the search is abandoned (:class:`Stopped`).
    """

    def __init__(self, model: WorldModel, deadline: float, stop: threading.Event,
                 max_steps: int = 10_000) -> None:
        self.ops = ops_for(model)
        self.deadline = deadline
        self.stop = stop
        self.max_steps = max_steps
        meta = model.metadata
        self.neutral = (meta.min_utility + meta.max_utility) / 2.0

    def evaluate(self, state: State, rng: random.Random) -> list[float]:
        ops, clock, deadline = self.ops, time.monotonic, self.deadline
        ret = [0.0] * ops.num_players
        for _ in range(self.max_steps):
            if self.stop.is_set():
                raise Stopped
            if clock() > deadline:
                return [r + self.neutral for r in ret]
            player = ops.current_player(state)
            if player == TERMINAL:
                return ret
            if player == CHANCE:
                action = ops.sample_chance(state, rng)
            else:
                legal = ops.legal_actions(state)
                action = legal[int(rng.random() * len(legal))]
            state = ops.apply(state, action)
            for i, r in enumerate(ops.rewards(state)):
                ret[i] += r
        raise ModelError(f"a random playout did not end within {self.max_steps} steps",
                         function="get_current_player", state=state)


class _RootSampler(BeliefSampler):
    """A belief sampler that draws the decision's root states (the history is unused:
    the player's hypotheses already encode it)."""

    name = "ggp-hypotheses"

    def __init__(self, decision: Decision) -> None:
        super().__init__(decision.model)
        self.decision = decision

    def belief(self, history, player, rng) -> Belief:
        return Belief(self.decision.sample_root)
