"""Pluggable belief samplers for search: where determinizations come from.

A :class:`BeliefSampler` turns a player's action-observation history into a
:class:`Belief`, from which a searcher draws one complete state per simulation. Building
the belief once per decision lets expensive samplers (exact enumeration, the particle
filter) do their work once rather than for every simulation.

=============  ======================================================================
``perfect``    the last observation is the state (perfect-information games only)
``model``      the model's ``resample_history`` / ``resample_state``, each sample
               validated by replay, up to 10 tries (:mod:`ggp.belief.replay`)
``exact``      the whole information set with exact posterior weights
               (:mod:`ggp.belief.exact`; small games only)
``generic``    a particle filter needing only the world model (:mod:`ggp.belief.generic`)
``auto``       perfect if the game has perfect information, else model if the model
               has an inference function, else generic
=============  ======================================================================
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable

from ggp.belief.exact import OpponentModel, information_set, uniform_opponent
from ggp.belief.generic import particle_filter
from ggp.belief.replay import model_resampler
from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import ObsActionHistory, State


class Belief:
    """A prepared belief for one decision: ``sample(rng)`` draws a complete state.

    ``pooled`` promises that draws come from a fixed set of state objects: the same
    determinization is returned as the same object every time it is drawn (and never
    mutated), so a searcher may remember what it derived from it (ISMCTS keeps a history
    trie per drawn object). Samplers that build a fresh state per draw leave it False."""

    def __init__(self, draw: Callable[[random.Random], State], pooled: bool = False) -> None:
        # ``sample`` is ``draw`` itself, not a method calling it: searchers call it once per
        # simulation, and a frame less is measurable in small games.
        self.sample: Callable[[random.Random], State] = draw
        self.pooled = pooled


class BeliefSampler(ABC):
    """Builds the :class:`Belief` of a player at its current decision point."""

    name = "sampler"

    def __init__(self, model: WorldModel) -> None:
        self.model = model

    @abstractmethod
    def belief(self, history: ObsActionHistory, player: int, rng: random.Random) -> Belief:
        """Raises :class:`~ggp.core.errors.BeliefError` when no consistent state exists."""


class PerfectInformationSampler(BeliefSampler):
    """Perfect information: the last observation is the complete state."""

    name = "perfect"

    def belief(self, history: ObsActionHistory, player: int, rng: random.Random) -> Belief:
        state = history[-1][0]
        return Belief(lambda _rng: state, pooled=True)


class ModelSampler(BeliefSampler):
    """The model's own inference function; every sample is validated by replay and
    retried up to ``retries`` times (then :class:`BeliefError`). Its distribution is
    whatever the model's function draws from; its support is checked.

    Inference functions take no generator (they use the global :mod:`random`), so the
    global generator is seeded from the searcher's ``rng`` when a belief is built: this
    keeps seeded agents reproducible."""

    name = "model"

    def __init__(self, model: WorldModel, retries: int = 10) -> None:
        super().__init__(model)
        self.retries = retries

    def belief(self, history: ObsActionHistory, player: int, rng: random.Random) -> Belief:
        # remembers the replayed state of every sampled action sequence
        draw = model_resampler(self.model, history, player, retries=self.retries)
        random.seed(rng.getrandbits(32))
        draw(rng)  # fail early, with a typed error, before any search starts
        # replays are cached per action sequence; resample_state builds fresh states
        return Belief(draw, pooled=self.model.has("resample_history"))


class ExactSampler(BeliefSampler):
    """Exact posterior over the information set under ``opponent_model`` (uniform over
    legal actions unless given; see :mod:`ggp.belief.exact`)."""

    name = "exact"

    def __init__(self, model: WorldModel, opponent_model: OpponentModel = uniform_opponent):
        super().__init__(model)
        self.opponent_model = opponent_model

    def belief(self, history: ObsActionHistory, player: int, rng: random.Random) -> Belief:
        weighted = information_set(self.model, history, player,
                                   opponent_model=self.opponent_model)
        states = [w.state for w in weighted]
        weights = [w.probability for w in weighted]
        return Belief(lambda r: r.choices(states, weights=weights)[0], pooled=True)


class GenericSampler(BeliefSampler):
    """A pool of ``particles`` states from the generic particle filter; each simulation
    draws one of them uniformly."""

    name = "generic"

    def __init__(self, model: WorldModel, particles: int = 256) -> None:
        super().__init__(model)
        self.particles = particles

    def belief(self, history: ObsActionHistory, player: int, rng: random.Random) -> Belief:
        pool = particle_filter(self.model, history, player, rng, particles=self.particles)
        return Belief(lambda r: r.choice(pool), pooled=True)


SAMPLERS = {
    "perfect": PerfectInformationSampler,
    "model": ModelSampler,
    "exact": ExactSampler,
    "generic": GenericSampler,
}


class PooledSampler(BeliefSampler):
    """At most ``size`` determinizations per decision: the first ``size`` draws come from
    ``sampler``, every later draw is one of them, uniformly. Each draw is still a sample
    of the inner belief (from the empirical distribution of ``size`` of its samples), but
    a searcher pays for at most ``size`` inner draws per move (for ``model``: a
    ``resample_history`` plus a validating replay each, most of an ISMCTS simulation's
    cost in the card games, docs/cards_table.md), and the belief is ``pooled``, so ISMCTS
    reuses what it derived from a state. The price: fewer distinct worlds per search."""

    name = "pooled"

    def __init__(self, sampler: BeliefSampler, size: int) -> None:
        if size < 1:
            raise GGPError(f"a belief pool needs at least one state, not {size}")
        super().__init__(sampler.model)
        self.sampler, self.size = sampler, size

    def belief(self, history: ObsActionHistory, player: int, rng: random.Random) -> Belief:
        inner = self.sampler.belief(history, player, rng).sample
        pool: list[State] = []
        size = self.size

        def draw(r: random.Random) -> State:
            if len(pool) < size:
                pool.append(inner(r))
                return pool[-1]
            return pool[r.randrange(size)]

        return Belief(draw, pooled=True)


def make_sampler(model: WorldModel, kind: str = "auto") -> BeliefSampler:
    """The sampler called ``kind`` (see the module table) for ``model``."""
    if kind == "auto":
        if model.metadata.perfect_information:
            kind = "perfect"
        elif model.has("resample_history") or model.has("resample_state"):
            kind = "model"
        else:
            kind = "generic"
    if kind not in SAMPLERS:
        raise GGPError(f"Unknown belief sampler {kind!r}; choose one of auto, "
                       f"{', '.join(SAMPLERS)}.")
    if kind == "model" and not (model.has("resample_history") or model.has("resample_state")):
        raise GGPError(f"{model.name} has no resample_history or resample_state; use "
                       "belief=generic or belief=exact.")
    return SAMPLERS[kind](model)
