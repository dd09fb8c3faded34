"""Perfect-information Monte Carlo (PIMC): determinized MCTS (seed 001's "honest" player,
seed 003 §17.7).

Draw ``determinizations`` complete states from the player's belief, search each one as if
it were a perfect-information game with :class:`~ggp.search.mcts.MCTS`, and play the action
with the most root visits summed over all searches (each search gets an equal share of
the simulation budget). Inside each search every player sees the whole determinized
state, so PIMC never values gathering information and never fears giving it away
(strategy fusion and opponent clairvoyance; shared/research/cards_ismcts.md §2.4, see
docs/references.md).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from ggp.belief.sampler import BeliefSampler
from ggp.core.model import WorldModel
from ggp.core.protocol import Action, ObsActionHistory
from ggp.search.evaluators import Evaluator
from ggp.search.mcts import MCTS


class PIMC:
    """Determinized MCTS.

    Args:
        model, sampler: the world model and the belief sampler of the searching player.
        evaluator: leaf evaluator for the inner searches (default 10 random rollouts).
        determinizations: number of sampled states searched.
        simulations: total simulations, split evenly over the determinizations.
        time_limit: total seconds per move (optional), belief building and sampling
            included: each search gets an equal share of the time still left.
        uct_c, rng: as for :class:`MCTS`.
    """

    def __init__(
        self,
        model: WorldModel,
        sampler: BeliefSampler,
        evaluator: Evaluator | Callable | None = None,
        *,
        determinizations: int = 10,
        simulations: int | None = 1000,
        time_limit: float | None = None,
        uct_c: float = 1.0,
        rng: random.Random | None = None,
    ) -> None:
        if determinizations < 1:
            raise ValueError("determinizations must be at least 1")
        self.sampler = sampler
        self.determinizations = determinizations
        self.time_limit = time_limit
        self.rng = rng or random.Random()
        #: simulations run by the last search, summed over its determinizations
        self.last_simulations = 0
        self.last_inherited = 0  # PIMC's searches start afresh
        self.mcts = MCTS(
            model,
            evaluator,
            simulations=None if simulations is None else max(1, simulations // determinizations),
            time_limit=None if time_limit is None else time_limit / determinizations,
            uct_c=uct_c,
            rng=self.rng,
            # each determinization is searched once, so there is no tree to reuse; the
            # solver stays off to keep PIMC as described above
            solver=False,
            reuse=False,
        )

    def action_values(self, history: ObsActionHistory, player: int) -> dict[Action, list[float]]:
        """``action -> [visits, summed return]`` over all determinized searches."""
        started = time.perf_counter()
        belief = self.sampler.belief(history, player, self.rng)
        totals: dict[Action, list[float]] = {}
        self.last_simulations = 0
        for k in range(self.determinizations):
            if self.time_limit is not None:  # an equal share of what is left
                left = self.time_limit - (time.perf_counter() - started)
                self.mcts.time_limit = max(left, 0.0) / (self.determinizations - k)
            root = self.mcts.search(belief.sample(self.rng))
            self.last_simulations += self.mcts.last_simulations
            for action, child in root.children.items():
                t = totals.setdefault(action, [0, 0.0])
                t[0] += child.visits
                t[1] += child.total[player]
        return totals

    def best_action(self, history: ObsActionHistory, player: int) -> Action:
        totals = self.action_values(history, player)
        return max(totals.items(), key=lambda kv: (kv[1][0], kv[1][1] / max(kv[1][0], 1)))[0]
