"""Search agents: ``mcts``, ``ismcts``, ``moismcts``, ``pimc``, ``clairvoyant``, ``cfr``.

``ggp play --players ismcts:sims=1000:rollouts=10,random``. The search agents' settings
are the typed records of :mod:`ggp.agents.settings` (docs/agents.md has the table):
``sims``, ``time``, ``rollouts``, ``uct_c`` for all; ``value``, ``prior`` and
``playout`` (the model's own value function and policy prior); ``solver`` and ``reuse``
(mcts, clairvoyant); ``belief`` and ``pool`` (ismcts, moismcts); ``belief`` and
``determinizations`` (pimc). ``cfr`` takes ``iterations`` (1000) and ``solver``
(``auto``, ``openspiel`` or ``own``).

Every agent draws its randomness from the seed the match gives it, so matches replay
exactly. Search agents count their moves and simulations in ``report["stats"]`` (the
arena's sims/move).
"""

from __future__ import annotations

import importlib.util
from abc import abstractmethod
from collections.abc import Callable
from typing import Any

from ggp.agents import register_agent
from ggp.agents.base import Agent, MatchInfo
from ggp.agents.settings import (
    CFRSolver,
    ISMCTSSettings,
    MCTSSettings,
    Observer,
    PIMCSettings,
    PlayoutChoice,
)
from ggp.belief.fallback import RelaxedMemory, fallback_action
from ggp.belief.sampler import BeliefSampler, PooledSampler, make_sampler
from ggp.core.errors import BeliefError, GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import Action, ObsActionHistory, State
from ggp.search.cfr import CFRPlusSolver, info_key
from ggp.search.evaluators import (
    Evaluator,
    Playout,
    RandomRolloutEvaluator,
    ValueFunctionEvaluator,
)
from ggp.search.ismcts import ISMCTS
from ggp.search.mcts import MCTS
from ggp.search.pimc import PIMC
from ggp.search.priors import GuardedPrior, as_guarded, model_prior


def _evaluator(model: WorldModel, rollouts: int, value: bool,
               playout: PlayoutChoice = "random",
               prior: GuardedPrior | None = None) -> Evaluator:
    """Leaf values: the model's value function, or rollouts whose moves are random or
    drawn from ``prior`` (``playout=prior``)."""
    if value:
        if not model.has("value_function"):
            raise GGPError(f"{model.name} has no value_function; drop value=true.")
        return ValueFunctionEvaluator(model)
    informed = Playout(playout) is Playout.PRIOR
    if informed and prior is None:
        raise GGPError("playout=prior needs prior=true (a model with a policy_prior).")
    return RandomRolloutEvaluator(model, rollouts, policy=prior if informed else None)


def _prior(model: WorldModel, prior: bool) -> GuardedPrior | None:
    """The model's ``policy_prior`` for ``prior=true`` (PUCT), guarded; None for
    ``prior=false``."""
    if not prior:
        return None
    found = model_prior(model)
    if found is None:
        raise GGPError(f"{model.name} has no policy_prior; drop prior=true.")
    return as_guarded(found, model.trusted)


class SearchAgent(Agent):
    """An agent whose every move is one search (``self.search``, which records
    ``last_simulations``). After (and during) a match :attr:`report` holds
    ``{"stats": {"moves": ..., "simulations": ..., "inherited": ...}}``: the moves asked
    for, the simulations run for them (the arena's sims/move) and the root visits taken
    over from the previous move's tree (MCTS reuse); the same shape as
    :attr:`ggp.agents.cwm_agents.CWMAgent.report`."""

    model: WorldModel
    search: Any
    report: dict[str, Any]

    def start(self, info: MatchInfo) -> None:
        super().start(info)
        self.report = {"stats": {"moves": 0, "simulations": 0, "inherited": 0}}

    def act(self, history: ObsActionHistory) -> Action:
        stats = self.report["stats"]
        stats["moves"] += 1
        search = self.search
        search.last_simulations = 0
        search.last_inherited = 0
        try:
            return self.choose(history)
        finally:
            stats["simulations"] += search.last_simulations
            stats["inherited"] += search.last_inherited

    @abstractmethod
    def choose(self, history: ObsActionHistory) -> Action:
        """The move at ``history[-1]`` (what :meth:`act` counts)."""


class MCTSAgent(SearchAgent):
    """UCT on the state rebuilt from the history (the last observation in a
    perfect-information game; one sampled state otherwise)."""

    name = "mcts"

    def __init__(self, model: WorldModel, settings: MCTSSettings) -> None:
        self.model, self.settings = model, settings
        self.prior = _prior(model, settings.prior)
        self.evaluator = _evaluator(model, settings.rollouts, settings.value,
                                    settings.playout, self.prior)

    def start(self, info: MatchInfo) -> None:
        super().start(info)
        # a new search object per match: no tree is reused across matches
        s = self.settings
        self.search = MCTS(self.model, self.evaluator, uct_c=s.uct_c, rng=self.rng,
                           **s.budget(), solver=s.solver, reuse=s.reuse, prior=self.prior)
        # once per match: choosing the kind looks at the model, and a tracking sampler
        # follows the match from decision to decision
        self.sampler = make_sampler(self.model)

    def choose(self, history: ObsActionHistory) -> Action:
        seat, rng = self.info.seat, self.rng
        state = self.sampler.belief(history, seat, rng).sample(rng)
        return self.search.best_action(state)


class ClairvoyantAgent(MCTSAgent):
    """CHEATING baseline, for comparisons only: MCTS on the *true* state, which the match
    runner hands over through :meth:`observe_true_state` before every move."""

    name = "clairvoyant"

    def start(self, info: MatchInfo) -> None:
        super().start(info)
        self.true_state: State | None = None

    def observe_true_state(self, state: State) -> None:
        self.true_state = state

    def choose(self, history: ObsActionHistory) -> Action:
        if self.true_state is None:
            raise GGPError("the clairvoyant agent needs the true state; this match runner "
                           "does not call observe_true_state")
        return self.search.best_action(self.true_state)


class DeterminizingAgent(SearchAgent):
    """A search over states drawn from a belief (``self.sampler``), which degrades
    instead of forfeiting when no belief can be formed (:class:`BeliefError`): it plays
    :func:`ggp.belief.fallback.fallback_action` (a random offered legal action under
    ``--legal-actions``, else one legal in states matching its current observation) and
    counts the move in :attr:`belief_fallbacks` (the arena reports it)."""

    sampler: BeliefSampler

    def start(self, info: MatchInfo) -> None:
        super().start(info)
        # states the last belief fallback found: the next one continues from them
        self.fallback_memory = RelaxedMemory()

    def choose(self, history: ObsActionHistory) -> Action:
        offered, self.offered_actions = self.offered_actions, None
        try:
            return self.search.best_action(history, self.info.seat)
        except BeliefError:
            self.belief_fallbacks += 1
            return fallback_action(self.model, history, self.info.seat, self.rng,
                                   sampler=self.sampler, offered=offered,
                                   memory=self.fallback_memory)


class ISMCTSAgent(DeterminizingAgent):
    """Single- or multiple-observer ISMCTS with a pluggable belief sampler."""

    def __init__(self, model: WorldModel, settings: ISMCTSSettings,
                 observer: Observer) -> None:
        self.model, self.settings, self.observer = model, settings, observer
        self.prior = _prior(model, settings.prior)
        self.evaluator = _evaluator(model, settings.rollouts, settings.value,
                                    settings.playout, self.prior)
        self.sampler = make_sampler(model, settings.belief)
        if settings.pool:
            self.sampler = PooledSampler(self.sampler, settings.pool)
        self.name = "ismcts" if observer == "single" else "moismcts"

    def start(self, info: MatchInfo) -> None:
        super().start(info)
        s = self.settings
        self.search = ISMCTS(self.model, self.sampler, self.evaluator, observer=self.observer,
                             uct_c=s.uct_c, rng=self.rng, **s.budget(), prior=self.prior)


class PIMCAgent(DeterminizingAgent):
    """Determinized MCTS (seed 001's honest player)."""

    name = "pimc"

    def __init__(self, model: WorldModel, settings: PIMCSettings) -> None:
        self.model, self.settings = model, settings
        self.evaluator = _evaluator(model, settings.rollouts, settings.value)
        self.sampler = make_sampler(model, settings.belief)

    def start(self, info: MatchInfo) -> None:
        super().start(info)
        s = self.settings
        self.search = PIMC(self.model, self.sampler, self.evaluator, uct_c=s.uct_c,
                           determinizations=s.determinizations, rng=self.rng, **s.budget())


_SOLVED: dict[tuple, Callable[[ObsActionHistory, int], dict[Action, float]]] = {}


def _solve(model: WorldModel, iterations: int, solver: CFRSolver):
    """``policy(history, player) -> {action: probability}`` from CFR+ on ``model``."""
    if solver == "auto":
        solver = "openspiel" if importlib.util.find_spec("pyspiel") else "own"
    if solver == "openspiel":  # the bridge: OpenSpiel's C++ CFR+ on the registered game
        from ggp.openspiel.solve import solve_cfr_plus

        return solve_cfr_plus(model, iterations)
    if solver != "own":
        raise GGPError(f"cfr: solver must be auto, openspiel or own, not {solver!r}.")
    own = CFRPlusSolver(model)
    own.run(iterations)
    table = own.average_policy()

    def policy(history: ObsActionHistory, player: int) -> dict[Action, float]:
        probs = table.get(info_key(player, history))
        if probs is None:
            raise GGPError("cfr: this information state is not in the solved game tree "
                           "(does the model's observation match the history?)")
        return probs

    return policy


class CFRAgent(Agent):
    """Plays the average policy of CFR+ run on the whole game tree (small games only):
    OpenSpiel's solver through the bridge (``solver=openspiel``, the default when
    open_spiel is installed) or ggp's own tree-walking CFR+ (``solver=own``)."""

    name = "cfr"

    def __init__(self, model: WorldModel, iterations: int, solver: CFRSolver) -> None:
        self.model, self.iterations, self.solver = model, iterations, solver

    def start(self, info: MatchInfo) -> None:
        super().start(info)
        key = (self.model.name, id(self.model.namespace), self.iterations, self.solver)
        if key not in _SOLVED:  # solve once per game and setting, not once per match
            _SOLVED[key] = _solve(self.model, self.iterations, self.solver)
        self.policy = _SOLVED[key]

    def act(self, history: ObsActionHistory) -> Action:
        probs = self.policy(history, self.info.seat)
        actions = list(probs)
        return self.rng.choices(actions, weights=[probs[a] for a in actions])[0]


@register_agent("mcts")
def make_mcts(model: WorldModel, settings: MCTSSettings) -> MCTSAgent:
    """MCTS-solver on the state rebuilt from the history."""
    return MCTSAgent(model, settings)


@register_agent("clairvoyant")
def make_clairvoyant(model: WorldModel, settings: MCTSSettings) -> ClairvoyantAgent:
    """MCTS on the true state (a cheating baseline)."""
    return ClairvoyantAgent(model, settings)


@register_agent("ismcts")
def make_ismcts(model: WorldModel, settings: ISMCTSSettings) -> ISMCTSAgent:
    """Single-observer ISMCTS."""
    return ISMCTSAgent(model, settings, "single")


@register_agent("moismcts")
def make_moismcts(model: WorldModel, settings: ISMCTSSettings) -> ISMCTSAgent:
    """Multiple-observer ISMCTS."""
    return ISMCTSAgent(model, settings, "multiple")


@register_agent("pimc")
def make_pimc(model: WorldModel, settings: PIMCSettings) -> PIMCAgent:
    """Determinized MCTS."""
    return PIMCAgent(model, settings)


@register_agent("cfr")
def make_cfr(model: WorldModel, iterations: int = 1000, solver: CFRSolver = "auto") -> CFRAgent:
    """The average policy of CFR+ on the whole game tree."""
    return CFRAgent(model, iterations, solver)
