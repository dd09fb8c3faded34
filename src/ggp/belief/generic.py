"""A belief sampler that needs nothing but the world model.

It is a sequential importance sampler (a particle filter with a guided proposal) over
*histories*, with one stage per decision point of the player:

1. **Guided moves.** Particles move forward from the previous stage's survivors to the
   player's next decision point. At every chance node and every other player's move the
   sampler tries *each* outcome, looks at the player's observation in the successor, and
   scores it against the observation the player will record next (the *target*), both
   flattened into leaf tokens (key path with list positions dropped, leaf value):

   * ``bad``: tokens of the successor's observation that the target does not contain (a
     card dealt into the player's hand that its hand does not hold);
   * ``stolen``: words of the action itself (``"Deal KH"`` -> ``Deal``, ``KH``) that name a
     value the target shows but the player's observation does not yet, when the action
     does not make that value appear for the player (a card it must receive dealt to
     someone else).

   The proposal is ``q(a) ∝ p(a) · beta^(penalty(a) - min penalty)`` with ``p`` the
   chance odds (other players: uniform over their legal actions) and ``beta`` small, so
   observations that random dealing would almost never produce (a 13-card hand) are hit
   at once. Nothing is forbidden: every outcome keeps a positive probability.
2. **Importance weights.** Each move multiplies the particle's weight by ``p(a)/q(a)``;
   at the decision point a particle survives only if the player's observation equals the
   recorded one (a 0/1 likelihood). Survivors are resampled in proportion to their
   weights, take the player's recorded action, and seed the next stage.
3. **Dead stages.** When every particle of a stage dies (in trick games an opponent
   shows a card the forward deal gave to someone else), complete histories are searched
   and rejuvenated against *all* of the player's observations
   (:mod:`ggp.belief.history_search`), briefly; then every continuation of the pool is
   enumerated exactly where a path estimate says it fits (:mod:`ggp.belief.stage_exact`);
   then the search runs longer. Search samples are equally weighted, enumerated ones
   carry their exact weights. While stages keep dying, fewer particles are moved forward
   first.
4. **Backtracking.** When the search finds nothing either, earlier stages are redrawn
   (1, 2, 4, ... stages back on repeated failures, with four times the particles) before
   giving up.

Guarantees and limits:

* **Support:** every state returned is exactly consistent: replaying its history gives
  the player's recorded observation at every one of its decision points and ends at its
  current decision point (checked on every particle, not assumed from the heuristic).
* **Distribution:** the target is the exact posterior of :mod:`ggp.belief.exact`
  (chance by its odds, other players uniform over their legal actions). The weighted
  particles are a self-normalized importance-sampling estimate of it: consistent as
  ``particles`` grows, biased for small pools (a history needing an unlikely early move
  may be missed), and biased towards easy-to-extend histories after backtracking. A pool
  made by the history search is a short MCMC run instead (see that module).
  ``GenericSampler`` (``belief=generic``) enumerates the information set exactly instead
  whenever that fits a node budget, so small games get the exact posterior.
* **Cost:** every outcome of every node between two decisions is applied once per
  particle (52 deals of Hearts: about 1,400 successor states per particle).
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from dataclasses import dataclass

from ggp.belief.history_search import HistorySearch
from ggp.belief.stage_exact import MAX_NODES as STAGE_NODES
from ggp.belief.stage_exact import SHARE as STAGE_SHARE
from ggp.belief.stage_exact import enumerate_stage, worth_enumerating
from ggp.belief.tokens import _delta, _diff, _Target, _tokens, _words
from ggp.core.errors import BeliefError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, ObsActionHistory, State, canonical_json
from ggp.core.ops import ops_for

BETA = 0.02
"""Proposal factor per penalty point: an outcome scoring one point worse than the best
one is 50 times less likely to be proposed (its importance weight grows to match)."""


@dataclass
class Weighted:
    """A particle: a state at one of the player's decision points and its normalized
    importance weight within its pool."""

    state: State
    weight: float
    actions: tuple = ()  # every move from the initial state (chance included)


class _Scorer:
    """Penalties of the moves at one node, relative to the player's observation there."""

    def __init__(self, target: _Target, observation, previous: _Scorer | None = None) -> None:
        self.target = target
        self.observation = observation
        if previous is None:
            self.counts: Counter = Counter()
            _tokens(observation, "", "", self.counts)
            self.shown: Counter = Counter()
            for key, n in self.counts.items():
                if key[0] == "m":
                    self.shown[key[2]] += n
        else:  # the previous node's counts updated by what changed (a long log is not
            # flattened again at every node)
            delta = _delta(previous.observation, observation)
            self.counts = previous.counts.copy()
            self.counts.update(delta)
            self.shown = previous.shown.copy()
            for key, n in delta.items():
                if key[0] == "m":
                    self.shown[key[2]] += n
        self.needed = target.values - self.shown

    def penalty(self, action, observation) -> int:
        """Tokens the move adds that the target lacks, minus those it removes that the
        target lacks, plus one per word of the action naming a value the player must
        still see but does not see after the move."""
        delta: Counter = Counter()
        if observation is not self.observation:
            _diff(self.observation, observation, "", "", delta)
        target, counts = self.target.tokens, self.counts
        penalty = 0
        for key, change in delta.items():
            before = counts[key] - target[key]
            after = before + change
            penalty += max(after, 0) - max(before, 0)
        return penalty + self.stolen(action, delta)

    def names_needed(self, action) -> bool:
        return any(self.needed[word] for word in _words(str(action)))

    def stolen(self, action, delta: Counter | None = None) -> int:
        if not self.needed:
            return 0
        count = 0
        for word in _words(str(action)):
            if self.needed[word] and not _shows(delta, word):
                count += 1
        return count


def _shows(delta: Counter | None, word: str) -> bool:
    """Whether ``delta`` adds ``word`` as a leaf somewhere in the player's view."""
    if not delta:
        return False
    return any(n > 0 and key[0] == "m" and key[2] == word for key, n in delta.items())



def _choose(rng: random.Random, scores: list[float], total: float) -> int:
    x = rng.random() * total
    for i, s in enumerate(scores):
        x -= s
        if x < 0:
            return i
    return len(scores) - 1


def _extend(ops, state: State, player: int, rng: random.Random, target: _Target,
            max_steps: int, moves: list, memo: dict | None = None,
            avoid: bool = True) -> tuple[State, float] | None:
    """Move ``state`` to the player's next decision point with the guided proposal,
    appending the moves to ``moves``. Returns the state and the log of its importance
    weight, or None (game over first). ``memo`` (one per stage) keeps the scores of
    nodes with many moves that several particles pass through (a first deal that every
    particle starts from): the proposal there is then the same for all of them."""
    log_weight = 0.0
    scorer: _Scorer | None = None  # reused while the player's observation is unchanged
    for _ in range(max_steps):
        mover = ops.current_player(state)
        if mover == player:
            return state, log_weight
        if mover == TERMINAL:
            return None
        if mover == CHANCE:
            branches = [(a, p) for a, p in ops.chance_outcomes(state) if p > 0]
        else:
            legal = ops.legal_actions(state)
            branches = [(a, 1.0 / len(legal)) for a in legal]
        if len(branches) == 1:
            moves.append(branches[0][0])
            state = ops.apply(state, branches[0][0])
            continue
        key = canonical_json(state) if memo is not None and len(branches) > 16 else None
        if key is not None and key in memo:
            penalties, successors = memo[key]
        else:
            seen = ops.observations(state)[player]
            if scorer is None or seen != scorer.observation:
                scorer = _Scorer(target, seen, scorer)
            # Probe the first and the last move: if the player sees no difference between
            # them, treat the node as hidden from it (an opponent's card being dealt) and
            # score every move by its words alone. Otherwise apply the moves whose words name
            # a value the player must still see (the candidate cards of its own deal) and
            # give every other move the penalty of a probed one, or apply all when most moves
            # are candidates. Either way q is a fixed, positive distribution given the
            # probes, so the weight p/q below stays exact.
            n = len(branches)
            successors: dict[int, State] = {}
            views: dict[int, object] = {}

            def view(i: int):
                if i not in views:
                    if i not in successors:
                        successors[i] = ops.apply(state, branches[i][0])
                    views[i] = _settled(ops, successors[i], player,
                                        scorer if mover != CHANCE else None)
                return views[i]

            if view(0) == view(n - 1):
                penalties = _hidden_penalties(ops, state, player, branches, successors, scorer,
                                              rng, avoid)
            else:
                named = [i for i, (a, _) in enumerate(branches) if scorer.names_needed(a)]
                # Applying only the moves that name a needed value pays off at chance nodes
                # with many outcomes (a deck to deal from); a player's moves are all scored.
                if mover == CHANCE and n > 8 and 2 * len(named) < n:
                    probed = set(named) | {0, n - 1}
                    if all(i in named for i in (0, n - 1)):
                        probed.add(rng.choice([i for i in range(n) if i not in probed]))
                elif n > MAX_SCORED:
                    # thousands of outcomes (every deal of a bargaining game at once):
                    # score a random sample of them, the others get the worst score seen
                    probed = set(rng.sample(range(n), MAX_SCORED))
                    named = []
                else:
                    probed = set(range(n))
                scored = {i: scorer.penalty(branches[i][0], view(i)) for i in probed}
                # moves that name nothing the player must still see get the worst penalty
                # of the probed ones among them: a probe that happens to match by accident
                # must not lift thirty wrong cards to the level of the right one
                rest = max((pen for i, pen in scored.items() if i not in named), default=0)
                penalties = [scored.get(i, rest) for i in range(n)]
            if key is not None:
                memo[key] = penalties, successors
        best = min(penalties)
        scores = [p * BETA ** (pen - best) for (_, p), pen in zip(branches, penalties)]
        total = sum(scores)
        index = _choose(rng, scores, total)
        # p / q = p / (p f / total) = total / f, with f = beta^(penalty - best)
        log_weight += math.log(total * branches[index][1] / scores[index])
        moves.append(branches[index][0])
        state = successors[index] if index in successors else \
            ops.apply(state, branches[index][0])
    return None


QUICK_SEARCH = 0.03
"""Share of the belief's time limit (0.3 s of 10 s) for the history search tried before a
dead stage is enumerated (the search often repairs a history in a few hundredths of a
second; enumeration costs more)."""

LONG_SEARCH = 0.25
"""Share of the time limit (2.5 s of 10 s) for the history search after a dead stage's
enumeration found nothing; a search that has not succeeded by then rarely does, and
backtracking (with a wider pool) gets the rest of the time."""

WIDEN = 4
"""After a backtrack, stages move this many times ``particles`` forward."""

MIN_TRIES = 4
"""The fewest particles a forward stage moves (after repeated failures)."""

MAX_SCORED = 256
"""At most this many moves of one node are applied and scored (a random sample)."""

LOOKAHEAD = 4
"""Moves played after a hidden move to see whether its value shows up later."""

SETTLE_OUTCOMES = 12
"""Chance nodes with at most this many outcomes are played through when an opponent's
move is scored (:func:`_settled`)."""


def _settled(ops, state: State, player: int, scorer: _Scorer | None = None):
    """The player's observation after ``state`` and, when another player moves next, its
    first legal move: what a chance move shows is often only settled once the player it
    concerns has moved (a drawn card shown in passing, then logged under that turn).

    With ``scorer`` (an opponent's move is being scored) and chance next, the chance moves
    that follow (at most ``LOOKAHEAD``, each with at most ``SETTLE_OUTCOMES`` outcomes)
    are played first, each time the outcome the scorer likes best: an opponent's move
    that triggers chance (a re-roll, a draw after a failed question) otherwise shows the
    player a half-finished turn, which looks worse than a move that finishes the turn at
    once (keeping the dice) though only the former can match the target. A fixed
    function of the state, so the proposal it shapes keeps its exact weights."""
    mover = ops.current_player(state)
    if scorer is not None and mover == CHANCE:
        for _ in range(LOOKAHEAD):
            outcomes = [a for a, p in ops.chance_outcomes(state) if p > 0]
            if not outcomes or len(outcomes) > SETTLE_OUTCOMES:
                break
            tried = [(ops.apply(state, a), a) for a in outcomes]
            state = min(tried, key=lambda t: scorer.penalty(
                t[1], ops.observations(t[0])[player]))[0]
            mover = ops.current_player(state)
            if mover != CHANCE:
                break
    if mover not in (player, CHANCE, TERMINAL):
        legal = ops.legal_actions(state)
        if legal:  # a model without moves here fails where the move is really drawn
            state = ops.apply(state, legal[0])
    return ops.observations(state)[player]


def _look(ops, state: State, player: int, seen) -> object:
    """The player's observation once it first changes from ``seen`` (at most
    ``LOOKAHEAD`` moves on, each the first legal move: a fixed rule, so that the
    proposal it shapes stays a fixed distribution)."""
    for _ in range(LOOKAHEAD):
        mover = ops.current_player(state)
        legal = ops.legal_actions(state)
        if mover == TERMINAL or mover == player or not legal:
            break
        state = ops.apply(state, legal[0])
        now = ops.observations(state)[player]
        if now != seen:
            return now
    return ops.observations(state)[player]


def _hidden_penalties(ops, state: State, player: int, branches, successors, scorer,
                      rng: random.Random, avoid: bool) -> list[int]:
    """Penalties at a node whose moves look alike to the player right now.

    A move naming a value the player must still see either shows it a little later (a
    card an opponent draws appears in the public log once it plays) or hides it for good
    (a card dealt to an opponent). One named move is followed for a few moves to tell
    which: if its value shows up, every named move is followed and scored on what the
    player sees then; if not, named moves are penalized as taking a value away when
    ``avoid`` is set (right for a hand dealt face down to others, wrong for a pile the
    player draws from later, so stages alternate both settings)."""
    named = [i for i, (a, _) in enumerate(branches) if scorer.names_needed(a)]
    if not named:
        return [0] * len(branches)
    probe = rng.choice(named)
    if probe not in successors:
        successors[probe] = ops.apply(state, branches[probe][0])
    later = _look(ops, successors[probe], player, scorer.observation)
    if scorer.stolen(branches[probe][0], _delta(scorer.observation, later)) == 0:
        scored = {probe: scorer.penalty(branches[probe][0], later)}
        for i in named:
            if i not in scored:
                if i not in successors:
                    successors[i] = ops.apply(state, branches[i][0])
                scored[i] = scorer.penalty(
                    branches[i][0], _look(ops, successors[i], player, scorer.observation))
        other = next((i for i in (0, len(branches) - 1) if i not in scored), None)
        rest = 0 if other is None else scorer.penalty(
            branches[other][0], _look(ops, successors[other], player, scorer.observation))
        return [scored.get(i, rest) for i in range(len(branches))]
    if not avoid:
        return [0] * len(branches)
    return [scorer.stolen(a) for a, _ in branches]


def _stage(ops, pool: list[Weighted], target: _Target, player: int, rng: random.Random,
           particles: int, retries: int, max_steps: int, deadline: float,
           misses: list | None = None) -> list[Weighted]:
    """Draw members of ``pool`` by weight, advance each to the player's next decision and
    keep those whose observation there is the target; weights normalized. Histories that
    reached the decision with another observation are appended to ``misses`` (the seeds
    of the history search when nothing survives)."""
    survivors: list[tuple[State, float, tuple]] = []
    weights = [w.weight for w in pool]
    memos: dict[bool, dict] = {True: {}, False: {}}
    for round_ in range(retries):
        # Rounds alternate whether hidden moves avoid values the player must still see:
        # each particle's weight uses its own proposal, so mixing them stays exact.
        avoid = round_ % 2 == 0
        for _ in range(particles):
            start = rng.choices(pool, weights=weights)[0] if len(pool) > 1 else pool[0]
            moves = list(start.actions)
            moved = _extend(ops, start.state, player, rng, target, max_steps, moves,
                            memos[avoid], avoid)
            if moved is not None and target.matches(ops.observations(moved[0])[player]):
                survivors.append((*moved, tuple(moves)))
            elif moved is not None and misses is not None:
                misses.append(moves)
            if time.monotonic() > deadline:
                break
        if survivors or time.monotonic() > deadline:
            break
    if not survivors:
        return []
    top = max(lw for _, lw, _ in survivors)
    raw = [math.exp(lw - top) for _, lw, _ in survivors]
    total = sum(raw)
    return [Weighted(s, r / total, moves) for (s, _, moves), r in zip(survivors, raw)]


class ParticleFilter:
    """The stage-by-stage filter with its pools kept, so that the next decision of the
    same player in the same game continues from this one's particles (incremental reuse:
    only the moves since the last decision are sampled)."""

    def __init__(self, model: WorldModel, player: int, *, particles: int = 64,
                 retries: int = 2, max_backtracks: int = 200, max_steps: int = 10_000,
                 search_share: float = 0.8, stage_nodes: int = STAGE_NODES) -> None:
        self.model = model
        self.ops = ops_for(model)
        self.player = player
        self.particles = particles
        self.retries = retries
        self.max_backtracks = max_backtracks
        self.max_steps = max_steps
        self.search_share = search_share
        self.stage_nodes = stage_nodes
        self.tries = particles  # particles moved forward per stage (fewer after failures)
        self.keys: list[tuple[str, object]] = []  # (observation json, action) per stage
        self.pools: list[list[Weighted]] = []  # survivors at each of the player's decisions
        # the keys and pools of the last belief that succeeded; kept when a later one
        # fails, for the fallback's relaxed particles (ggp.belief.fallback)
        self.good: tuple[list[tuple[str, object]], list[list[Weighted]]] = ([], [])
        # a stage whose pool is an exact information set (seed()): never redrawn, and the
        # stages before it are placeholders
        self.floor = -1

    def seed(self, history: ObsActionHistory, pool: list[Weighted]) -> None:
        """Continue from ``pool``, the exact information set at the last decision of
        ``history`` (every consistent history there, with its posterior weight): the next
        :meth:`run` on a continuation of ``history`` samples only the moves since, and
        never redraws that stage or earlier ones (an exact set already holds every
        consistent history there, so redrawing cannot add one). ``GenericSampler`` hands
        over its last enumeration this way when a later one runs out of budget."""
        self.keys = [(canonical_json(obs), action) for obs, action in history]
        self.floor = len(history) - 1
        self.pools = [[] for _ in range(self.floor)] + [pool]
        # the fallback's consistent prefix, should the next run fail
        self.good = (list(self.keys), list(self.pools))

    def run(self, history: ObsActionHistory, rng: random.Random,
            time_limit: float = 10.0) -> list[Weighted]:
        """Weighted states consistent with ``history``; raises :class:`BeliefError` when
        no consistent history is found within ``time_limit`` seconds."""
        if not history:
            raise BeliefError("the player's history is empty: it has no decision point yet")
        started = time.monotonic()
        deadline = started + time_limit
        targets = [_Target(obs) for obs, _ in history]
        keys = [(t.json, a) for t, (_, a) in zip(targets, history)]
        # Reuse the stages whose observations (and the actions before them) are unchanged.
        reuse = 0
        while (reuse < min(len(keys), len(self.keys)) and self.keys[reuse][0] == keys[reuse][0]
               and (reuse == 0 or self.keys[reuse - 1][1] == keys[reuse - 1][1])):
            reuse += 1
        if reuse <= self.floor:  # another history: the seeded stage does not apply
            reuse, self.floor = 0, -1
        self.keys, self.pools = keys, self.pools[:reuse]
        stage_seconds = STAGE_SHARE * time_limit
        last = len(history) - 1
        failures = [0] * len(history)
        backtracks = 0
        step = len(self.pools)
        while step <= last:
            if step == 0:
                pool = [Weighted(self.model.initial_state(), 1.0)]
            else:
                action = history[step - 1][1]
                previous = self.pools[step - 1]
                pool = [Weighted(self.ops.apply(w.state, action), w.weight,
                                 w.actions + (action,))
                        for w in previous if action in self.ops.legal_actions(w.state)]
                if not pool:
                    raise BeliefError(
                        f"the player's action {action!r} at its decision point {step - 1} is "
                        "illegal in every state consistent with its observations")
            misses: list = []
            survivors = _stage(self.ops, pool, targets[step], self.player, rng,
                               self.tries, self.retries, self.max_steps, deadline, misses)
            # While forward stages keep dying (opponents show cards the deal did not give
            # them), each costs as much as the search that follows it: try fewer particles
            # forward until a stage survives again.
            self.tries = min(self.particles, 2 * self.tries) if survivors else \
                max(MIN_TRIES, self.tries // 2)
            if not survivors and misses:  # a short search first: often enough
                survivors = self._search(misses, history, targets, step, rng, deadline,
                                         QUICK_SEARCH * time_limit)
            if not survivors and step > 0 and \
                    worth_enumerating(self.ops, pool, self.player, rng, self.stage_nodes):
                # some particle may still continue consistently where no sample did:
                # enumerate every continuation of the pool, exactly (ggp.belief.stage_exact)
                found, complete = enumerate_stage(self.ops, pool, targets[step], self.player,
                                                  deadline, self.stage_nodes, stage_seconds)
                total = sum(w for _, w, _ in found)
                if complete:
                    survivors = [Weighted(st, w / total, a) for st, w, a in found
                                 if total > 0]
                elif found:
                    # cut off: what it found is consistent but a biased subset of the
                    # stage, so it seeds the search (which rejuvenates it) in place of the
                    # failed samples
                    misses = [list(a) for _, _, a in found]
            if not survivors and misses:
                survivors = self._search(misses, history, targets, step, rng, deadline,
                                         LONG_SEARCH * time_limit)
            if survivors:
                self.pools.append(survivors)
                step += 1
                continue
            # No particle survived: the pool may have collapsed onto histories that this
            # observation rules out (a hidden choice constrained only later, e.g. a ship
            # placement revealed by later hits). Redraw earlier stages, further back after
            # each repeated failure here.
            failures[step] += 1
            backtracks += 1
            lowest = self.floor + 1  # the first stage that may be redrawn
            if step == lowest and time.monotonic() < deadline:
                continue  # nothing to backtrack to: draw this stage again
            if backtracks > self.max_backtracks or time.monotonic() > deadline:
                self.pools = self.pools[:lowest]
                raise BeliefError(
                    f"{self.model.name}: the generic belief sampler found no history "
                    f"matching player {self.player}'s observations up to its decision point "
                    f"{step} (of {last}) in {time.monotonic() - started:.1f} s "
                    f"({backtracks} backtracks). Use the model's own inference function "
                    "(belief=model) or exact enumeration for small games (belief=exact), or "
                    "allow more time (GenericSampler(time_limit=...)); search agents fall "
                    "back to a move from states matching the current observation, or to an "
                    "offered one with --legal-actions (ggp.belief.fallback).")
            step = max(lowest, step - 2 ** (failures[step] - 1))
            self.pools = self.pools[:step]
            # the redrawn stages move more particles forward: a wider pool is more likely
            # to hold a particle that the dead stage's enumeration can continue
            self.tries = WIDEN * self.particles
        self.good = (keys, list(self.pools))
        return self.pools[last]

    def consistent_prefix(self, history: ObsActionHistory
                          ) -> tuple[int, list[tuple[State, tuple]]] | None:
        """``(stage, [(state, actions)])``: the latest decision point of ``history`` that
        the last successful belief explained, with its consistent states and the histories
        that reach them (None if none)."""
        keys, pools = self.good
        n = 0
        while n < min(len(keys), len(pools), len(history)) and \
                keys[n][0] == canonical_json(history[n][0]) and \
                (n == 0 or keys[n - 1][1] == history[n - 1][1]):
            n += 1
        if n == 0 or not pools[n - 1]:  # none, or a placeholder below a seeded stage
            return None
        return n - 1, [(w.state, tuple(w.actions)) for w in pools[n - 1]]


    def _search(self, misses: list, history: ObsActionHistory, targets: list[_Target],
                step: int, rng: random.Random, deadline: float,
                cap: float = math.inf) -> list[Weighted]:
        """Histories consistent up to decision ``step`` found by local search from the
        stage's failed ones, then rejuvenated (:mod:`ggp.belief.history_search`); equal
        weights, as MCMC samples. At most ``search_share`` of the time left is spent, so
        that backtracking still gets its turn, and at most ``cap`` seconds."""
        search = HistorySearch(self.ops, self.player, targets[:step + 1],
                               [a for _, a in history[:step]])
        budget = min(deadline, time.monotonic() + min(cap, self.search_share *
                                                      max(0.0, deadline - time.monotonic())))
        found = search.run(misses, rng, budget, max(1, self.particles // 4))
        return [Weighted(h.states[-1], 1.0 / len(found), tuple(h.actions)) for h in found]


def particle_filter(
    model: WorldModel,
    history: ObsActionHistory,
    player: int,
    rng: random.Random,
    *,
    particles: int = 64,
    retries: int = 4,
    max_backtracks: int = 200,
    max_steps: int = 10_000,
    time_limit: float = 10.0,
) -> list[State]:
    """``particles`` states consistent with ``history`` (the player deciding now), drawn
    from the filter's weighted survivors in proportion to their weights (see module doc).
    Raises :class:`BeliefError` when none is found."""
    pf = ParticleFilter(model, player, particles=particles, retries=retries,
                        max_backtracks=max_backtracks, max_steps=max_steps)
    pool = pf.run(history, rng, time_limit=time_limit)
    return [w.state for w in rng.choices(pool, weights=[w.weight for w in pool], k=particles)]


def sample_generic(
    model: WorldModel,
    history: ObsActionHistory,
    player: int,
    rng: random.Random,
    *,
    particles: int = 32,
) -> State:
    """One state consistent with ``history``, from the particle filter (see module doc)."""
    return particle_filter(model, history, player, rng, particles=particles)[0]
