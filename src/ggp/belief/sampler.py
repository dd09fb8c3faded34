"""Pluggable belief samplers for search: where determinizations come from.

A :class:`BeliefSampler` turns a player's action-observation history into a
:class:`Belief`, from which a searcher draws one complete state per simulation. Building
the belief once per decision lets expensive samplers (exact enumeration, the particle
filter) do their work once rather than for every simulation.

=============  ======================================================================
``perfect``    the last observation is the state (perfect-information games only)
``tracking``   perfect information, for a program whose observation is not its state
               (a compiled GDL game): the state is followed from the player's history
``model``      the model's ``resample_history`` / ``resample_state``, each sample
               validated by replay, up to 10 tries (:mod:`ggp.belief.replay`)
``exact``      the whole information set with exact posterior weights
               (:mod:`ggp.belief.exact`; small games only)
``generic``    exact enumeration when it fits a node budget, else a guided particle
               filter needing only the world model (:mod:`ggp.belief.generic`)
``auto``       perfect (tracking when the initial observation is not the initial
               state) if the game has perfect information, else model if the model
               has an inference function, else generic
=============  ======================================================================
"""

from __future__ import annotations

import heapq
import itertools
import random
import time
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable

from ggp.belief.exact import (
    BeliefTooLarge,
    OpponentModel,
    estimated_histories,
    information_set,
    uniform_opponent,
)
from ggp.belief.generic import ParticleFilter, Weighted
from ggp.belief.replay import model_resampler
from ggp.belief.tokens import _Target, _tokens
from ggp.core.errors import BeliefError, GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, ObsActionHistory, State, canonical_json


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
    """The generic belief: the exact information set when enumerating it fits
    ``exact_nodes`` expanded states and ``exact_share`` of ``time_limit`` (0.5 s of the
    default 10 s), else the weighted particles of the guided particle filter
    (:mod:`ggp.belief.generic`), which gets the rest of the time; each simulation draws one
    state by weight.

    One filter is kept per player, so a player's next decision continues from this
    decision's particles (only the moves in between are sampled). Once enumeration
    overflows its budget for a player it is not tried again for that player (information
    sets only grow within a match); the filter then starts from the player's last
    enumerated information set, not from the initial state."""

    name = "generic"

    def __init__(self, model: WorldModel, particles: int = 32, exact_nodes: int = 20_000,
                 time_limit: float = 10.0, exact_share: float = 0.05) -> None:
        super().__init__(model)
        self.particles = particles
        self.exact_nodes = exact_nodes
        self.exact_share = exact_share
        self._exact_budget: int | None = None
        self.time_limit = time_limit
        self._filters: dict[int, ParticleFilter] = {}
        # per player: the last exact information set and the (observation, action) keys
        # of the history it was enumerated for
        self._exact: dict[int, tuple[list[tuple[str, object]], list]] = {}
        self._too_big: set[int] = set()
        self._estimated: set[int] = set()  # players whose first information set was sized
        self._last: list[tuple[State, float]] = []
        self._last_actions: list[tuple | None] = []

    def belief(self, history: ObsActionHistory, player: int, rng: random.Random) -> Belief:
        started = time.monotonic()
        weighted: list[tuple[State, float]] | None = None
        handover: tuple[ObsActionHistory, list] | None = None
        if player not in self._estimated and self.exact_nodes > 0:
            # once per player (a fixed function of the model): a first deal of 52 cards
            # would overflow enumeration, so the attempt is skipped. Its own generator, so
            # the searcher's draws stay what they were without it.
            self._estimated.add(player)
            if estimated_histories(self.model, player, random.Random(player)) > \
                    self._node_budget():
                self._too_big.add(player)
        if player not in self._too_big and self.exact_nodes > 0:
            keys = [(canonical_json(obs), action) for obs, action in history]
            start = None
            if player in self._exact:  # continue from this player's last decision
                old_keys, old_found = self._exact[player]
                n = len(old_keys)
                # the same history up to that decision (its action was still None then)
                if n < len(keys) and keys[:n - 1] == old_keys[:n - 1] and \
                        keys[n - 1][0] == old_keys[n - 1][0]:
                    start = old_found
            try:
                found = information_set(
                    self.model, history, player, max_nodes=self._node_budget(), start=start,
                    deadline=started + self.exact_share * self.time_limit)
                self._exact[player] = (keys, found)
                weighted = [(w.state, w.probability) for w in found]
                self._last_actions = [w.actions for w in found]
            except BeliefTooLarge:
                self._too_big.add(player)
                if start is not None:  # the filter goes on from the last information set
                    handover = (history[:len(self._exact[player][0])], start)
                self._exact.pop(player, None)
        if weighted is None:
            pf = self._filters.get(player)
            if pf is None:
                pf = self._filters[player] = ParticleFilter(self.model, player,
                                                            particles=self.particles)
            if handover is not None:
                pf.seed(handover[0], [Weighted(w.state, w.probability, w.actions)
                                      for w in handover[1]])
            pool = pf.run(history, rng,
                          max(0.0, self.time_limit - (time.monotonic() - started)))
            weighted = [(w.state, w.weight) for w in pool]
            self._last_actions = [w.actions for w in pool]
        self._last = weighted
        states = [s for s, _ in weighted]
        cumulative = list(itertools.accumulate(w for _, w in weighted))
        return Belief(lambda r: r.choices(states, cum_weights=cumulative)[0], pooled=True)

    def _node_budget(self) -> int:
        """``exact_nodes``, or fewer for a model whose moves are slow to apply: as many as
        the enumeration's time (``exact_share`` of ``time_limit``) allows at the cost of
        the first moves, so that the Knuth estimate skips enumerations that could not
        finish in time (bargaining applies a move in milliseconds: 20,000 of them would
        take a minute)."""
        if self._exact_budget is None:
            state = self.model.initial_state()
            moves = self.model.legal_actions(state)[:20]
            started = time.perf_counter()
            for action in moves:
                self.model.apply(state, action)
            per_move = (time.perf_counter() - started) / max(1, len(moves))
            self._exact_budget = int(min(self.exact_nodes, self.exact_share *
                                         self.time_limit / max(per_move, 1e-7)))
        return self._exact_budget

    def consistent_prefix(self, history: ObsActionHistory,
                          player: int) -> tuple[int, list[tuple[State, tuple]]] | None:
        """The latest decision point of ``history`` this sampler explained for ``player``,
        with consistent ``(state, actions)`` there (the fallback starts from them; None if
        none)."""
        options = []
        pf = self._filters.get(player)
        if pf is not None:
            options.append(pf.consistent_prefix(history))
        if player in self._exact:
            keys, found = self._exact[player]
            n = len(keys)
            now = [(canonical_json(obs), action) for obs, action in history[:n]]
            if found and n <= len(history) and now[:n - 1] == keys[:n - 1] and \
                    now[n - 1][0] == keys[n - 1][0]:
                options.append((n - 1, [(w.state, tuple(w.actions)) for w in found]))
        options = [o for o in options if o is not None]
        return max(options, key=lambda o: o[0]) if options else None

    def last_particles(self) -> list[tuple[State, tuple]]:
        """The last belief's states with the action histories they were reached by."""
        return [(s, a) for (s, _), a in zip(self._last, self._last_actions)]

    def last_distribution(self) -> dict[str, float]:
        """The last belief as canonical JSON of state -> probability (for benchmarks)."""
        dist: dict[str, float] = {}
        for state, weight in self._last:
            key = canonical_json(state)
            dist[key] = dist.get(key, 0.0) + weight
        return dist


TRACKING_NODES = 200_000
"""States :class:`TrackingSampler` may expand between two decisions before it gives up."""


def observation_is_state(model: WorldModel) -> bool:
    """Whether every player's observation of the initial state is that state (ggp's
    protocol for perfect information; a program with a layout of its own says no)."""
    state = model.initial_state()
    key = canonical_json(state)
    return all(canonical_json(model.observation(state, p)) == key
               for p in range(model.num_players))


class TrackingSampler(BeliefSampler):
    """Perfect information, for a program whose observation is not its state.

    ggp's protocol makes a perfect-information game's observation its state, and
    ``perfect`` searches from the last observation. A program compiled from a GDL
    description (``ggp synth run game.kif``) is judged only on what the players see and
    keeps a state layout of its own (integers, bitboards); its observation is the
    description's facts, not a state it can go on from. This sampler drives the program
    to the real state from the player's own history instead: it keeps the program's
    state at each of the player's decision points, and for a new one applies the
    player's last move and searches, best first (closest to what the player sees next),
    over the other players' moves and the chance outcomes between, for a state where the
    player is to move and sees exactly what it saw (canonical JSON).
    In perfect information that observation tells positions apart, so the state found
    is the real one as far as the player can know.

    The search expands at most ``max_nodes`` states per decision (an alternating
    two-player game needs one ply of the opponent's moves); a history no state matches
    raises :class:`~ggp.core.errors.BeliefError`. One instance follows one player
    through a match; a history that does not extend the last one (a new match) starts
    again from the initial state. ``auto`` picks this sampler for a perfect-information
    model when :func:`observation_is_state` says no."""

    name = "tracking"

    def __init__(self, model: WorldModel, max_nodes: int = TRACKING_NODES) -> None:
        super().__init__(model)
        self.max_nodes = max_nodes
        self._keys: list[str] = []  # canonical observation at each decision followed
        self._states: list[State] = []  # the program's state there

    def belief(self, history: ObsActionHistory, player: int, rng: random.Random) -> Belief:
        keys = [canonical_json(obs) for obs, _ in history]
        known = len(self._keys)
        if known > len(keys) or keys[:known] != self._keys:
            self._keys, self._states, known = [], [], 0
        for index in range(known, len(keys)):
            start = (self.model.initial_state() if index == 0 else
                     self.model.apply(self._states[index - 1], history[index - 1][1]))
            self._states.append(self._find(start, player, _Target(history[index][0]), index))
            self._keys.append(keys[index])
        state = self._states[-1]
        return Belief(lambda _rng: state, pooled=True)

    def _find(self, start: State, player: int, target: _Target, index: int) -> State:
        """A state reachable from ``start`` by other players' moves and chance outcomes
        where ``player`` is to move and observes ``target``: best first, by how many leaf
        tokens (:mod:`ggp.belief.tokens`) of the player's observation differ from the
        target's, so the moves that make the position what the player sees are tried
        first (backgammon's opponent: a roll and up to four checker moves)."""
        model, tie = self.model, itertools.count()

        def distance(state: State) -> int:
            seen: Counter = Counter()
            _tokens(model.observation(state, player), "", "", seen)
            seen.subtract(target.tokens)
            return sum(map(abs, seen.values()))

        # (distance, -depth, order, state): among equally close states the deepest first,
        # so a plateau of the distance is crossed rather than swept
        frontier, expanded, seen_states = [(0, 0, next(tie), start)], 0, set()
        while frontier:
            _, minus_depth, _, state = heapq.heappop(frontier)
            mover = model.current_player(state)
            if mover == player:  # the player would have been asked here: match or prune
                if canonical_json(model.observation(state, player)) == target.json:
                    return state
                continue
            if mover == TERMINAL:
                continue
            expanded += 1
            if expanded > self.max_nodes:
                raise BeliefError(f"decision {index + 1}: no state of the model matches "
                                  f"the observation within {self.max_nodes} states")
            moves = ([a for a, p in model.chance_outcomes(state) if p > 0]
                     if mover == CHANCE else model.legal_actions(state))
            for action in moves:
                child = model.apply(state, action)
                try:  # moves in another order often reach the same state: keep one
                    known = canonical_json(child)
                except (TypeError, ValueError):  # a state that is not JSON: no merging
                    known = None
                if known is not None:
                    if known in seen_states:
                        continue
                    seen_states.add(known)
                heapq.heappush(frontier, (distance(child), minus_depth - 1, next(tie), child))
        raise BeliefError(f"decision {index + 1}: no state of the model reachable since "
                          f"the last decision shows the player's observation")


SAMPLERS = {
    "perfect": PerfectInformationSampler,
    "tracking": TrackingSampler,
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
            kind = "perfect" if observation_is_state(model) else "tracking"
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
