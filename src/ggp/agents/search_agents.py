"""Search agents: ``mcts``, ``ismcts``, ``moismcts``, ``pimc``, ``clairvoyant``, ``cfr``.

Common settings (``ggp play --players ismcts:sims=1000:rollouts=10,random``):

* ``sims`` simulations per move (1000; for ``mcts`` the root's visits, those inherited
  from the previous move's tree included), ``time`` seconds per move (off by default;
  with both, whichever ends first), ``rollouts`` random rollouts per leaf (10, seed 000),
  ``value=true`` to value leaves with the model's ``value_function`` instead,
  ``uct_c`` exploration in units of the game's utility range (1.0); ``sims=0:time=2``
  searches by time only;
* ``prior=true`` (mcts, clairvoyant, ismcts, moismcts): PUCT with the model's
  ``policy_prior(state, player)`` (:mod:`ggp.search.priors`); with it, ``playout=prior``
  also samples the rollouts' moves from the prior (informed playouts; ``random``, the
  default, plays them uniformly);
* ``solver`` (mcts, clairvoyant; true): the MCTS-solver; ``reuse`` (mcts, clairvoyant;
  true): keep the subtree of the state reached since the last move
  (:mod:`ggp.search.mcts`);
* ``belief`` (ismcts, moismcts, pimc): ``auto``, ``model``, ``exact`` or ``generic``
  (see :mod:`ggp.belief.sampler`); ``determinizations`` (pimc, 10); ``pool`` (ismcts,
  moismcts; 0 = off): draw at most this many determinizations per move and reuse them
  (:class:`ggp.belief.sampler.PooledSampler`);
* ``iterations`` (cfr, 1000), ``solver`` (cfr: ``auto``, ``openspiel`` or ``own``).

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
from ggp.belief.fallback import RelaxedMemory, fallback_action
from ggp.belief.sampler import PooledSampler, make_sampler
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
               playout: str = "random", prior: GuardedPrior | None = None) -> Evaluator:
    """Leaf values: the model's value function, or rollouts whose moves are random or
    drawn from ``prior`` (``playout=prior``)."""
    try:
        informed = Playout.parse(playout) is Playout.PRIOR
    except ValueError as exc:
        raise GGPError(str(exc)) from None
    if value:
        if not model.has("value_function"):
            raise GGPError(f"{model.name} has no value_function; drop value=true.")
        return ValueFunctionEvaluator(model)
    if informed and prior is None:
        raise GGPError("playout=prior needs prior=true (a model with a policy_prior).")
    return RandomRolloutEvaluator(model, rollouts, policy=prior if informed else None)


def _budget(sims: int | None, time: float | None) -> dict:
    """The search budget of ``sims=``/``time=``: both given, whichever ends first;
    ``sims=0`` with a time searches by time only; neither, 1000 simulations."""
    return {"simulations": sims or (None if time else 1000), "time_limit": time or None}


class SearchAgent(Agent):
    """An agent whose every move is one search (``self.search``, which records
    ``last_simulations``). After (and during) a match :attr:`report` holds
    ``{"stats": {"moves": ..., "simulations": ..., "inherited": ...}}``: the moves asked
    for, the simulations run for them (the arena's sims/move) and the root visits taken
    over from the previous move's tree (MCTS reuse); the same shape as
    :attr:`ggp.agents.cwm_agents.CWMAgent.report`."""

    search: Any
    report: dict[str, Any] = {}

    def start(self, info: MatchInfo) -> None:
        super().start(info)
        self.report = {"stats": {"moves": 0, "simulations": 0, "inherited": 0}}
        # states the last belief fallback found: the next one continues from them
        self.fallback_memory = RelaxedMemory()

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

    def __init__(self, model: WorldModel, evaluator: Evaluator, budget: dict, uct_c: float,
                 **options: Any) -> None:
        self.model, self.evaluator, self.budget, self.uct_c = model, evaluator, budget, uct_c
        self.options = options  # solver, reuse, prior: see MCTS

    def start(self, info: MatchInfo) -> None:
        super().start(info)
        # a new search object per match: no tree is reused across matches
        self.search = MCTS(self.model, self.evaluator, uct_c=self.uct_c, rng=self.rng,
                           **self.budget, **self.options)

    def choose(self, history: ObsActionHistory) -> Action:
        seat, rng = self.info.seat, self.rng
        state = make_sampler(self.model).belief(history, seat, rng).sample(rng)
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


class ISMCTSAgent(SearchAgent):
    """Single- or multiple-observer ISMCTS with a pluggable belief sampler."""

    def __init__(self, model: WorldModel, evaluator: Evaluator, budget: dict, uct_c: float,
                 belief: str, observer: str, pool: int = 0, **options: Any) -> None:
        self.model, self.evaluator, self.budget, self.uct_c = model, evaluator, budget, uct_c
        self.options = options  # prior: see ISMCTS
        self.sampler = make_sampler(model, belief)
        if pool:
            self.sampler = PooledSampler(self.sampler, pool)
        self.observer = observer
        self.name = "ismcts" if observer == "single" else "moismcts"

    def start(self, info: MatchInfo) -> None:
        super().start(info)
        self.search = ISMCTS(self.model, self.sampler, self.evaluator, observer=self.observer,
                             uct_c=self.uct_c, rng=self.rng, **self.budget, **self.options)

    def choose(self, history: ObsActionHistory) -> Action:
        return _search_or_fall_back(self, history)


class PIMCAgent(SearchAgent):
    """Determinized MCTS (seed 001's honest player)."""

    name = "pimc"

    def __init__(self, model: WorldModel, evaluator: Evaluator, budget: dict, uct_c: float,
                 belief: str, determinizations: int) -> None:
        self.model, self.evaluator, self.budget, self.uct_c = model, evaluator, budget, uct_c
        self.sampler = make_sampler(model, belief)
        self.determinizations = determinizations

    def start(self, info: MatchInfo) -> None:
        super().start(info)
        self.search = PIMC(self.model, self.sampler, self.evaluator, uct_c=self.uct_c,
                           determinizations=self.determinizations, rng=self.rng, **self.budget)

    def choose(self, history: ObsActionHistory) -> Action:
        return _search_or_fall_back(self, history)


def _search_or_fall_back(agent, history: ObsActionHistory) -> Action:
    """The search's action; when no belief can be formed (:class:`BeliefError`) the agent
    degrades instead of forfeiting (:func:`ggp.belief.fallback.fallback_action`: a random
    offered legal action under ``--legal-actions``, else one legal in states matching its
    current observation) and counts it in ``belief_fallbacks`` (the arena reports it)."""
    offered, agent.offered_actions = agent.offered_actions, None
    try:
        return agent.search.best_action(history, agent.info.seat)
    except BeliefError:
        agent.belief_fallbacks = getattr(agent, "belief_fallbacks", 0) + 1
        return fallback_action(agent.model, history, agent.info.seat, agent.rng,
                               sampler=agent.sampler, offered=offered,
                               memory=getattr(agent, "fallback_memory", None))


_SOLVED: dict[tuple, Callable[[ObsActionHistory, int], dict[Action, float]]] = {}


def _solve(model: WorldModel, iterations: int, solver: str):
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

    def __init__(self, model: WorldModel, iterations: int, solver: str) -> None:
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


def _prior(model: WorldModel, prior: bool) -> GuardedPrior | None:
    """The model's ``policy_prior`` for ``prior=true`` (PUCT), guarded; None for
    ``prior=false``."""
    if not prior:
        return None
    found = model_prior(model)
    if found is None:
        raise GGPError(f"{model.name} has no policy_prior; drop prior=true.")
    return as_guarded(found, model.trusted)


@register_agent("mcts")
def make_mcts(model: WorldModel, sims: int = 1000, time: float = 0.0, rollouts: int = 10,
              value: bool = False, uct_c: float = 1.0, solver: bool = True,
              reuse: bool = True, prior: bool = False, playout: str = "random") -> MCTSAgent:
    guided = _prior(model, prior)
    return MCTSAgent(model, _evaluator(model, rollouts, value, playout, guided),
                     _budget(sims, time), uct_c, solver=solver, reuse=reuse, prior=guided)


@register_agent("clairvoyant")
def make_clairvoyant(model: WorldModel, sims: int = 1000, time: float = 0.0,
                     rollouts: int = 10, value: bool = False, uct_c: float = 1.0,
                     solver: bool = True, reuse: bool = True,
                     prior: bool = False, playout: str = "random") -> ClairvoyantAgent:
    guided = _prior(model, prior)
    return ClairvoyantAgent(model, _evaluator(model, rollouts, value, playout, guided),
                            _budget(sims, time), uct_c, solver=solver, reuse=reuse,
                            prior=guided)


@register_agent("ismcts")
def make_ismcts(model: WorldModel, sims: int = 1000, time: float = 0.0, rollouts: int = 10,
                value: bool = False, uct_c: float = 1.0, belief: str = "auto",
                pool: int = 0, prior: bool = False, playout: str = "random") -> ISMCTSAgent:
    guided = _prior(model, prior)
    return ISMCTSAgent(model, _evaluator(model, rollouts, value, playout, guided),
                       _budget(sims, time), uct_c, belief, "single", pool, prior=guided)


@register_agent("moismcts")
def make_moismcts(model: WorldModel, sims: int = 1000, time: float = 0.0, rollouts: int = 10,
                  value: bool = False, uct_c: float = 1.0, belief: str = "auto",
                  pool: int = 0, prior: bool = False,
                  playout: str = "random") -> ISMCTSAgent:
    guided = _prior(model, prior)
    return ISMCTSAgent(model, _evaluator(model, rollouts, value, playout, guided),
                       _budget(sims, time), uct_c, belief, "multiple", pool, prior=guided)


@register_agent("pimc")
def make_pimc(model: WorldModel, sims: int = 1000, time: float = 0.0, rollouts: int = 10,
              value: bool = False, uct_c: float = 1.0, belief: str = "auto",
              determinizations: int = 10) -> PIMCAgent:
    return PIMCAgent(model, _evaluator(model, rollouts, value), _budget(sims, time), uct_c,
                     belief, determinizations)


@register_agent("cfr")
def make_cfr(model: WorldModel, iterations: int = 1000, solver: str = "auto") -> CFRAgent:
    return CFRAgent(model, iterations, solver)
