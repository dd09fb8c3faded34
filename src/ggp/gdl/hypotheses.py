"""What a GDL-II player believes: complete states consistent with its moves and percepts.

A player learns, after every step, the move the game master executed for it and its
percepts (seed 003 §17.5). A *hypothesis* is a complete state reachable from the initial
state by joint moves in which the player made exactly those moves and the ``sees`` rules
gave it exactly those percepts, together with what every other role made and saw on the
way (so the world-model adapter can continue from it).

:class:`HypothesisTracker` keeps a small set of hypotheses and advances them one step at a
time: when the distinct hypotheses have only a few joint moves in all, every one is stepped
and weighted exactly; else by importance sampling: each hypothesis in turn, a joint move of
the other roles (and nature) drawn from a proposal that favours moves echoing the percepts
(:class:`_Proposal`), kept when it reproduces the player's percepts and weighted by how
much likelier the opponent model makes it than the proposal did. Either way the next set
is drawn from the kept ones in proportion to their weights; a terminal hypothesis has no
successor (the record going on shows that the match had not ended). When every hypothesis
dies it searches again from the last step at which it had consistent hypotheses, then from
the step whose choice the fatal percepts echo, then earlier ones, by fresh forward passes
of the filter and by depth-first search with backtracking (seed 003 §17.7) in turn; until
that succeeds it carries on with approximate ones (see :class:`HypothesisTracker`).
Other roles are assumed to choose uniformly at random, as GDL-II's ``random`` role does;
under that model the weighted draw follows Bayes' rule (self-normalized importance
sampling: its distribution tends to the posterior as the number of draws grows), but the
set stays a small sample (duplicates allowed), not the exact belief (docs/ggp_protocol.md).
"""

from __future__ import annotations

import functools
import itertools
import random
import time
from dataclasses import dataclass

from ggp.core.errors import BeliefError
from ggp.gdl.match import MatchGame, MatchState

Record = tuple[tuple[str, tuple[str, ...]], ...]  # ((move, sorted percepts), ...) per step
_JOINT_TRIES = 256  # joint moves tried per hypothesis and step before giving up on it
_REJECTION_TRIES = 8  # random joint moves per wanted hypothesis in rejection sampling
_FIRST_HIT_TRIES = 64  # rejection sampling gives up when this many draws all missed
_UNIFORM_SHARE = 0.5  # of the proposals drawn uniformly, the rest from the percepts' echoes
_TOP_SHARE = 0.75  # of an echo proposal's move of a role drawn among its best-echoing moves
_MAX_RANKINGS = 256  # echo rankings remembered at once (see _remembered_ranking)
_INEXACT_SECONDS = 0.2  # per step for matching percepts once the hypotheses are relaxed
_FIRST_SLICE = 0.25  # seconds of each of backtracking's two searches, doubling after
_REFILTER_PASSES = 3  # rounds of fresh forward passes in a backtracking without deadline


@dataclass(frozen=True)
class Hypothesis:
    """A complete state and every role's record of (move, percepts) leading to it."""

    state: MatchState
    records: dict[str, Record]


class HypothesisTracker:
    """Hypotheses of ``role`` about the true state (see the module docstring).

    ``exact`` tells whether every hypothesis is consistent with the whole record. When
    all of them die on a step and no consistent one is found in time, the tracker keeps
    going with *relaxed* successors (this role's move applied, the step's percepts not
    matched) so the player still has a close guess at its legal moves; :meth:`ensure`
    tries to restore consistency by backtracking from the last step at which it had
    consistent hypotheses.
    """

    def __init__(self, game: MatchGame, role: str, size: int = 48,
                 rng: random.Random | None = None) -> None:
        self.game = game
        self.role = role
        self.size = size
        self.rng = rng or random.Random()
        self.record: list[tuple[str, tuple[str, ...]]] = []  # this role's own steps
        self.hypotheses = [Hypothesis(game.initial(), {r: () for r in game.roles})]
        self.exact = True
        self.levels: list[list[Hypothesis]] = [self.hypotheses]  # consistent sets per step
        self._steps: dict = {}  # (state, joint move) -> the engine's step (see _child)
        # (a role's legal moves, percept arguments) -> their echo ranking (_ranking):
        # parents often share a role's legal moves (thousands of deals or scans), and
        # the search scores the same moves again for every parent and step otherwise
        self._rankings: dict = {}

    def observe(self, move: str, percepts: list[str] | tuple[str, ...],
                deadline: float | None = None) -> None:
        """Add one step: the move executed for this role and what it perceived."""
        seen = tuple(sorted(percepts))
        self.record.append((move, seen))
        if not self.exact:
            # relaxed hypotheses rarely explain new percepts, and searching all their
            # joint moves for one that does costs seconds per step on large games;
            # consistency comes back through ensure's backtracking instead
            short = time.monotonic() + _INEXACT_SECONDS
            deadline = short if deadline is None else min(deadline, short)
        survivors = self._advance(self.hypotheses, move, seen, deadline)
        if survivors:
            self.hypotheses = survivors
        else:
            self.exact = False
            self.hypotheses = self._advance(self.hypotheses, move, None, None)
        self.levels.append(self.hypotheses if self.exact else [])

    def ensure(self, deadline: float | None = None,
               going_on: bool = False) -> list[Hypothesis]:
        """The current hypotheses, made consistent again by backtracking if they are not
        and that succeeds before ``deadline``. With ``going_on`` (the match has not
        ended: the player is asked for a move) a consistent set whose states are all
        terminal counts as lost too, and backtracking keeps only non-terminal states.
        Raises :class:`BeliefError` if there are none at all."""
        if going_on and self.exact and all(self.game.is_terminal(h.state)
                                           for h in self.hypotheses):
            self.exact = False
        if not self.exact:
            found = self._backtrack(deadline, going_on)
            if found:
                self.hypotheses, self.exact = found, True
                self.levels[-1] = found
        if not self.hypotheses:
            raise BeliefError(f"no state is consistent with what {self.role} has seen "
                              f"in {len(self.record)} steps")
        return self.hypotheses

    # ------------------------------------------------------------------ internals
    def _advance(self, hypotheses: list[Hypothesis], move: str,
                 seen: tuple[str, ...] | None, deadline: float | None) -> list[Hypothesis]:
        """Up to ``size`` successors of ``hypotheses`` for one step.

        First by importance sampling (:class:`_Proposal`): parents in turn, one joint
        move each drawn from a proposal ``q`` that favours the moves echoing the
        percepts, kept if it reproduces them, weighted by ``p/q`` (``p``: uniform over
        each other role's legal moves), then ``size`` children drawn in proportion to
        their weights (systematic resampling). For uniformly random opponents this
        weights the hypotheses as Bayes' rule does, whatever ``q`` is (q > 0 wherever
        p > 0): in Monty Hall, the door the host had to leave closed survives twice as
        often as the one he chose at random. If fewer than a quarter of ``size`` are
        found, by searching each distinct hypothesis for any consistent joint move.
        Percepts are not checked when ``seen`` is None (relaxed successors)."""
        self._steps.clear()
        self._rankings.clear()
        if seen is not None:
            exact = self._enumerate(hypotheses, move, seen)
            if exact is not None:
                return _resample(exact, self.size, self.rng) if exact else []
        accepted: list[tuple[Hypothesis, float]] = []
        now = time.monotonic()
        # sampling gets at most 60% of the time: the search below must run when the
        # percepts are too specific for random draws to hit them
        sampling_end = None if deadline is None else now + 0.6 * max(0.0, deadline - now)
        # parents in turn rather than drawn with replacement: a step every parent
        # survives keeps them all (a draw with replacement loses a third of 48 distinct
        # ones at each step); survivors are still in proportion to the percepts' likelihood
        parents = self.rng.sample(hypotheses, len(hypotheses))
        proposals: dict = {}  # per distinct parent state: duplicates share legal moves
        wanted = _arguments(seen or ())
        for tries in range(self.size * _REJECTION_TRIES):
            if len(accepted) >= self.size or (sampling_end is not None
                                              and time.monotonic() > sampling_end):
                break
            if tries == _FIRST_HIT_TRIES and not accepted:
                break  # the percepts are too specific for random draws: search instead
            hyp = parents[tries % len(parents)]
            proposal = proposals.get(hyp.state)
            if proposal is None:
                proposal = proposals[hyp.state] = _Proposal(
                    self._legal_unless_terminal(hyp.state), self.role, move, wanted,
                    self._rankings, self.rng)
            if not proposal.possible:
                continue
            joint, weight = proposal.draw(self.rng)
            child = self._child(hyp, joint, seen)
            if child is not None:
                accepted.append((child, weight))
        if len(accepted) >= self.size // 4:
            return _resample(accepted, self.size, self.rng)
        # too few draws hit the percepts (a deal seen in part, a scan's coordinates): the
        # sample would collapse onto a handful of states, so it is topped up with distinct
        # consistent successors of every distinct hypothesis, found by search
        out = [child for child, _ in accepted]
        parents = self._by_echo(_distinct(hypotheses), seen)
        per = max(1, (self.size - len(out)) // len(parents))
        known = {h.state for h in out}
        for hyp in parents:
            if deadline is not None and time.monotonic() > deadline:
                break
            out.extend(c for c in self._successors(hyp, move, seen, per, deadline)
                       if c.state not in known)
            if len(out) >= self.size:
                break
        return out[: self.size]

    def _legal_unless_terminal(self, state: MatchState) -> dict[str, list[str]]:
        """Each role's legal moves, none in a terminal state: a hypothesis in which the
        match had ended cannot explain a further step (the legal rules of some games,
        e.g. kriegTTT, still hold after a line is made)."""
        if self.game.is_terminal(state):
            return {r: [] for r in self.game.roles}
        return self.game.legal(state)

    def _enumerate(self, hypotheses: list[Hypothesis], move: str,
                   seen: tuple[str, ...]) -> list | None:
        """Every consistent successor of every distinct one of ``hypotheses``, weighted by
        its exact probability (the parent's share of them times ``p`` of the joint move),
        when that takes at most ``size // 4`` engine steps; else None. Exact Bayes for the
        step, without the sampling noise (Monty Hall: each host move once). Kept that
        small because sampling steps each (state, joint move) it draws only once: when
        the percepts name the move (a dice roll of 21), one step instead of all."""
        counts: dict = {}
        for hyp in hypotheses:
            found = counts.get(hyp.state)
            counts[hyp.state] = (hyp, 1) if found is None else (found[0], found[1] + 1)
        plans, total = [], 0
        for hyp, count in counts.values():
            legal = self._legal_unless_terminal(hyp.state)
            if move not in legal[self.role]:
                continue
            choices = [legal[r] if r != self.role else [move] for r in self.game.roles]
            n = 1
            for c in choices:
                n *= len(c)
            total += n
            if total > self.size // 4:
                return None
            plans.append((hyp, count / n, choices))
        out = []
        for hyp, weight, choices in plans:
            for combo in itertools.product(*choices):
                child = self._child(hyp, dict(zip(self.game.roles, combo)), seen)
                if child is not None:
                    out.append((child, weight))
        return out

    def _child(self, hyp: Hypothesis, joint: dict[str, str],
               seen: tuple[str, ...] | None) -> Hypothesis | None:
        """The successor of ``hyp`` for ``joint``, or None if it contradicts ``seen``.
        The engine's step is remembered per (state, joint move) until the next step
        or search (duplicate hypotheses, and parents drawing the same echoing move)."""
        key = (hyp.state, tuple(joint[r] for r in self.game.roles))
        found = self._steps.get(key)
        if found is None:
            if len(self._steps) > 50_000:
                self._steps.clear()
            nxt, percepts = self.game.step(hyp.state, joint)
            found = self._steps[key] = (nxt, {r: tuple(p) for r, p in percepts.items()})
        nxt, percepts = found
        if seen is not None and percepts[self.role] != seen:
            return None
        records = {r: hyp.records[r] + ((joint[r], percepts[r]),) for r in self.game.roles}
        return Hypothesis(nxt, records)

    def _successors(self, hyp: Hypothesis, move: str, seen: tuple[str, ...] | None,
                    limit: int, deadline: float | None,
                    hints: tuple[str, ...] = ()) -> list[Hypothesis]:
        """Up to ``limit`` distinct consistent successors of ``hyp`` for one step, those
        of joint moves that echo ``seen`` and ``hints`` (percepts of a later step) best
        first."""
        legal = self.game.legal(hyp.state)
        if seen is not None and self.game.is_terminal(hyp.state):
            return []  # the match went on, so it had not ended
        if move not in legal[self.role]:
            if seen is not None:
                return []
            move = self.rng.choice(legal[self.role])  # relaxed: any move of this role
        out, states = [], set()
        for joint in self._joint_moves(legal, move, (seen or ()) + hints):
            if deadline is not None and time.monotonic() > deadline:
                break
            child = self._child(hyp, joint, seen)
            if child is None or child.state in states:
                continue
            states.add(child.state)
            out.append(child)
            if len(out) >= limit:
                break
        return out

    def _by_echo(self, hypotheses: list[Hypothesis],
                 seen: tuple[str, ...] | None) -> list[Hypothesis]:
        """``hypotheses`` in random order, those whose fluents echo the percepts ``seen``
        most first (a percept often shows a part of the state, e.g. where a hidden ship
        lies): the score of :func:`_echo_score` over the state's fluents. Only an order in
        which to search; nothing is dropped."""
        wanted = _arguments(seen or ())
        order = self.rng.sample(hypotheses, len(hypotheses))
        if not wanted or len(order) < 2:
            return order
        text = self.game.text
        scores = {id(h): sum(max((_echo(w, text(f)) for f in self.game.fluents(h.state)),
                                 default=0)
                             for w in wanted) for h in order}
        return sorted(order, key=lambda h: -scores[id(h)])

    def _joint_moves(self, legal: dict[str, list[str]], move: str,
                     seen: tuple[str, ...] | None = None):
        """Joint moves with this role's move fixed: all of them in random order when there
        are at most ``_JOINT_TRIES``, else ``_JOINT_TRIES`` of them: the moves that echo
        the percepts ``seen`` first (:func:`_echo_order`), or random draws when the
        percepts have no arguments."""
        others = [r for r in self.game.roles if r != self.role]
        choices = [legal[r] for r in others]
        total = 1
        for c in choices:
            total *= len(c)
        if total <= _JOINT_TRIES:
            combos = list(itertools.product(*choices))
            self.rng.shuffle(combos)
            wanted = _arguments(seen or ())
            if wanted:  # the best echoes first (a stable sort keeps ties shuffled)
                combos.sort(key=lambda c: -sum(_echo(w, m) for m in c for w in wanted))
        else:  # echoes of the percepts first (random order when none), random draws when
            # the percepts have no arguments to echo; each joint move once
            combos = itertools.islice(_unique(itertools.chain(
                _echo_order(choices, seen or (), self._rankings, self.rng),
                (tuple(self.rng.choice(c) for c in choices) for _ in range(4 * _JOINT_TRIES)))),
                _JOINT_TRIES)
        for combo in combos:
            joint = dict(zip(others, combo))
            joint[self.role] = move
            yield joint

    def _backtrack(self, deadline: float | None, going_on: bool = False) -> list[Hypothesis]:
        """Consistent hypotheses for the whole record, searched from the consistent
        hypotheses of earlier steps; [] if none is found before ``deadline``. With
        ``going_on``, terminal states do not count.

        Start steps, in turn: the latest step that had consistent hypotheses; then the
        earliest step at which another role had a legal move echoing the fatal percepts
        better than the move the hypotheses made there (a card dealt face down and shown
        many steps later: the search from there tries the shown card first); then the
        other steps, latest first, back to the initial state.

        Two searches take turns, in time slices that double (a quarter second first),
        each going through the start steps in turn: fresh forward passes of the filter
        (:meth:`_refilter`), and a randomized depth-first search (seed 003 §17.7) whose
        children are ordered by how their joint moves echo the step's percepts and
        those of the step on which every hypothesis died. The passes are cheap and find
        a hidden state that the forward pass lost by chance (48 hypotheses of a
        25-cell board in kriegTTT_5x5: a few passes); the search finds what random
        passes almost never draw (a card dealt face down and shown later) but can spend
        its time in one exhaustive subtree. Sharing the time makes the passes at most
        about twice as slow as alone; the search starts over in each slice, so it is
        at most about four times as slow. Without a deadline: ``_REFILTER_PASSES``
        rounds of passes, then the search to the end."""
        starts = sorted((k for k, level in enumerate(self.levels) if level), reverse=True)
        if not starts:
            return []
        fatal = self.record[starts[0]][1] if starts[0] < len(self.record) else ()
        jump = self._echoed_choice(starts[0], fatal)
        if jump is not None and jump in starts[1:]:
            starts.remove(jump)
            starts.insert(1, jump)

        def passes(end: float | None) -> list[Hypothesis]:
            for _ in range(_REFILTER_PASSES) if end is None else itertools.count():
                if end is not None and time.monotonic() > end:
                    break
                for depth0 in starts:
                    found = self._refilter(depth0, end, going_on)
                    if found:
                        return found
            return []

        def search(end: float | None) -> list[Hypothesis]:
            self._rankings.clear()  # new tie orders: each search explores anew
            for depth0 in starts:
                found = self._depth_first(depth0, starts[0], fatal, end, going_on)
                if found or (end is not None and time.monotonic() > end):
                    return found
            return []

        if deadline is None:
            return passes(None) or search(None)
        slice_ = _FIRST_SLICE
        while time.monotonic() < deadline:
            for phase in (passes, search):
                found = phase(min(deadline, time.monotonic() + slice_))
                if found:
                    return found
            slice_ *= 2
        return []

    def _refilter(self, depth0: int, deadline: float | None,
                  going_on: bool) -> list[Hypothesis]:
        """A fresh forward pass of the filter (:meth:`_advance`) from the consistent
        hypotheses of step ``depth0`` to the end of the record: its hypotheses (not
        terminal ones when ``going_on``), or [] if every one died on the way or the
        deadline passed. A pass that gets through fills in ``levels``."""
        hypotheses, levels = self.levels[depth0], []
        for move, seen in self.record[depth0:]:
            if deadline is not None and time.monotonic() > deadline:
                return []
            hypotheses = self._advance(hypotheses, move, seen, deadline)
            if not hypotheses:
                return []
            levels.append(hypotheses)
        if going_on:
            hypotheses = [h for h in hypotheses if not self.game.is_terminal(h.state)]
            if not hypotheses:
                return []
        self.levels[depth0 + 1:] = levels
        self.levels[-1] = hypotheses
        return hypotheses

    def _depth_first(self, depth0: int, last: int, fatal: tuple[str, ...],
                     deadline: float | None, going_on: bool) -> list[Hypothesis]:
        """Up to ``size`` consistent hypotheses for the whole record by a randomized
        depth-first search from the consistent hypotheses of step ``depth0`` (see
        :meth:`_backtrack`; ``last`` is the latest step that had consistent ones)."""
        found: list[Hypothesis] = []
        seen = self.record[depth0][1] if depth0 < len(self.record) else None
        level = self._by_echo(_distinct(self.levels[depth0]), seen)
        stack = [(h, depth0) for h in reversed(level)]  # popped best first
        while stack and len(found) < self.size:
            if deadline is not None and time.monotonic() > deadline:
                break
            hyp, depth = stack.pop()
            if depth == len(self.record):
                if not (going_on and self.game.is_terminal(hyp.state)):
                    found.append(hyp)
                continue
            move, seen = self.record[depth]
            children = self._successors(hyp, move, seen, _JOINT_TRIES, deadline,
                                        fatal if depth < last else ())
            stack.extend((child, depth + 1) for child in reversed(children))
        return found

    def _echoed_choice(self, last: int, fatal: tuple[str, ...]) -> int | None:
        """The earliest step before ``last`` at which a role other than this one had a
        legal move that echoes the ``fatal`` percepts more than the move it made in the
        hypotheses of step ``last`` (the first of them that had consistent hypotheses),
        or None. Only an order for :meth:`_backtrack`."""
        wanted = _arguments(fatal)
        if not wanted or not self.levels[last]:
            return None
        made = self.levels[last][0].records

        def score(m: str) -> int:
            return sum(_echo(w, m) for w in wanted)

        for k in range(last):
            if not self.levels[k]:
                continue
            legal = self.game.legal(self.levels[k][0].state)
            for r, moves in legal.items():
                if r == self.role or len(moves) < 2 or k >= len(made[r]):
                    continue
                if max(map(score, moves)) > score(made[r][k][0]):
                    return k
        return None


class _Proposal:
    """How one parent state's joint moves are proposed in :meth:`HypothesisTracker._advance`,
    and the importance weight of each.

    This role's move is fixed and so is every role's only legal move; each other role
    ``r`` with ``n_r`` legal moves has the target distribution of the opponent model,
    ``p(m) = 1/n_r`` (GDL-II's ``random``; other players assumed alike). A joint move is
    drawn from the mixture ``q = s * p + (1 - s) * e`` (``s`` = ``_UNIFORM_SHARE``) where
    ``e`` draws each role's move independently: with probability ``t`` (``_TOP_SHARE``)
    uniformly among the moves with the role's best echo score of the percepts
    (:func:`_echo_order`'s score), else at rank ``floor(n_r * u**3)`` of the moves sorted
    by that score (ties in a random order fixed per step), so ``e_r(rank k) = t [k < top]
    / top + (1 - t) (((k+1)/n_r)**(1/3) - (k/n_r)**(1/3))``. A role none of whose moves
    echo, or a step whose percepts have no arguments, has ``e_r = p_r``. The weight of a joint move is
    ``p/q = 1 / (s + (1 - s) * prod_r e_r(m_r) * n_r)``; it is 1 for every draw when no
    move echoes (plain rejection sampling). When the percepts name the other roles'
    moves (``(did ?role ?move)``), the joint move they name is drawn about a third of
    the time or more, instead of once in the product of the roles' move counts."""

    def __init__(self, legal: dict[str, list[str]], role: str, move: str,
                 wanted: list[tuple[str, ...]], rankings: dict, rng: random.Random) -> None:
        """``rankings``: remembered per (tuple of moves, ``wanted``)
        (parents often share a role's legal moves, e.g. thousands of deals)."""
        self.possible = move in legal[role]
        self.joint = {r: moves[0] for r, moves in legal.items() if len(moves) == 1}
        self.joint[role] = move
        self.choosers = [(r, moves) for r, moves in legal.items()
                         if r != role and len(moves) > 1]
        # per chooser: None (uniform) or (moves best echo first, how many share the best
        # score, {move: rank})
        self.ranked: list = [None] * len(self.choosers)
        self.echoes = False
        if not (self.possible and wanted):
            return
        for i, (_, moves) in enumerate(self.choosers):
            self.ranked[i] = _remembered_ranking(rankings, moves, wanted, rng)
        self.echoes = any(r is not None for r in self.ranked)

    def draw(self, rng: random.Random) -> tuple[dict[str, str], float]:
        """A joint move drawn from ``q`` and its weight ``p/q``."""
        joint = dict(self.joint)
        if not self.echoes:
            for r, moves in self.choosers:
                joint[r] = rng.choice(moves)
            return joint, 1.0
        uniform = rng.random() < _UNIFORM_SHARE
        ratio = 1.0  # e(joint) / p(joint)
        for (r, moves), ranked in zip(self.choosers, self.ranked):
            if ranked is None:
                joint[r] = rng.choice(moves)
                continue
            order, top, rank_of = ranked
            n = len(order)
            if uniform:
                m = joint[r] = rng.choice(moves)
                k = rank_of[m]
            else:
                k = (rng.randrange(top) if rng.random() < _TOP_SHARE
                     else int(n * rng.random() ** 3))
                joint[r] = order[k]
            e = (_TOP_SHARE / top if k < top else 0.0) + (1.0 - _TOP_SHARE) * (
                ((k + 1) / n) ** (1 / 3) - (k / n) ** (1 / 3))
            ratio *= e * n
        return joint, 1.0 / (_UNIFORM_SHARE + (1.0 - _UNIFORM_SHARE) * ratio)


def _ranking(moves: list[str], wanted: list[tuple[str, ...]], rng: random.Random):
    """None when no move echoes ``wanted``, else (the moves best echo first, ties in
    random order; how many share the best score; {move: rank})."""
    score = [sum(_echo(w, m) for w in wanted) for m in moves]
    best = max(score)
    if best == 0:
        return None
    order = sorted(range(len(moves)), key=lambda j: (-score[j], rng.random()))
    ranked = [moves[j] for j in order]
    return ranked, score.count(best), {m: k for k, m in enumerate(ranked)}


def _remembered_ranking(rankings: dict, moves: list[str], wanted: list[tuple[str, ...]],
                        rng: random.Random):
    """:func:`_ranking` of ``moves`` for ``wanted``, remembered in ``rankings`` (at most
    ``_MAX_RANKINGS``: a ranking of thousands of moves holds a list and a dict of them)."""
    key = (tuple(moves), tuple(wanted))
    found = rankings.get(key, False)
    if found is False:
        if len(rankings) >= _MAX_RANKINGS:
            rankings.clear()
        found = rankings[key] = _ranking(moves, wanted, rng)
    return found


def _resample(weighted: list[tuple[Hypothesis, float]], size: int,
              rng: random.Random) -> list[Hypothesis]:
    """``size`` of the hypotheses drawn in proportion to their weights, by systematic
    resampling (one uniform offset, evenly spaced: each is kept ``floor`` or ``ceil`` of
    its expected count; with equal weights and ``size`` of them, each exactly once)."""
    total = sum(w for _, w in weighted)
    stride = total / size
    point = rng.random() * stride
    out: list[Hypothesis] = []
    acc = 0.0
    for hyp, w in weighted:
        acc += w
        while point < acc and len(out) < size:
            out.append(hyp)
            point += stride
    while len(out) < size:  # rounding at the end of the sum
        out.append(weighted[-1][0])
    return out


def _unique(items):
    """``items`` without repetitions (the first of each)."""
    seen: set = set()
    for item in items:
        if item not in seen:
            seen.add(item)
            yield item


def _distinct(hypotheses: list[Hypothesis]) -> list[Hypothesis]:
    """One hypothesis per distinct state (a sample drawn with replacement repeats them)."""
    return list({h.state: h for h in hypotheses}.values())


def _tokens(text: str) -> list[str]:
    return text.replace("(", " ").replace(")", " ").split()


def _arguments(percepts) -> list[tuple[str, ...]]:
    """The argument tokens of each percept that has arguments."""
    return [tuple(t[1:]) for t in map(_tokens, percepts) if len(t) > 1]


def _echo_order(choices: list[list[str]], seen: tuple[str, ...], rankings: dict,
                rng: random.Random):
    """Joint moves (one move per entry of ``choices``) that *echo* the percepts first.

    Percepts often repeat the arguments of the move that caused them (a scan's
    coordinates, a card dealt, a cell tried), and when the other roles have thousands of
    joint moves, random draws rarely reproduce a percept. A move's score is, summed over
    the percepts, the length of the longest run of the percept's arguments that occurs
    contiguously among the move's tokens (a percept may add the role's name, as
    ``(position admiral 2 4 1 4)`` for ``(setup 2 4 1 4 ...)``); each role's moves are
    ranked by score (:func:`_ranking`, remembered in ``rankings``; ties in a random order
    fixed while it is remembered; a role none of whose moves echo in random order); the
    joint moves are the best-ranked moves together, then draws biased towards the best
    ranks. Only a proposal order: every joint move is still checked by stepping the game;
    endless when there are percepts with arguments, else empty."""
    wanted = _arguments(seen)
    if not wanted:
        return
    ranked = []
    for moves in choices:
        found = _remembered_ranking(rankings, moves, wanted, rng)
        ranked.append(found[0] if found is not None else rng.sample(moves, len(moves)))
    # the best ranks together first (a role's best echoes in turn when it is the only
    # one with a choice), by increasing sum of ranks
    yield from itertools.islice(itertools.chain.from_iterable(
        _rank_sums(ranked, total, 0, ()) for total in range(sum(len(r) for r in ranked))),
        _JOINT_TRIES // 4)
    # then each role's move drawn with a bias to its best ranks: rank = n * u**3 puts a
    # fifth of the draws in the top 1% of a role's list, yet reaches every move (a role
    # whose best-echoing moves are wrong, e.g. moving a ship named in the percept when
    # only firing makes it visible, still gets its other moves tried)
    while True:
        yield tuple(r[int(len(r) * rng.random() ** 3)] for r in ranked)


@functools.lru_cache(maxsize=200_000)
def _echo(argument: tuple[str, ...], text: str) -> int:
    """How much of a percept's ``argument`` tokens the KIF ``text`` (a move or a fluent)
    repeats: their longest common contiguous run, the text's head left out. Remembered:
    every hypothesis of a step scores the same moves and fluents against the same
    percepts."""
    return _longest_common_run(argument, _tokens(text)[1:])


def _longest_common_run(a: tuple, b: list) -> int:
    """Length of the longest contiguous token run that ``a`` and ``b`` share."""
    best, prev = 0, [0] * (len(b) + 1)
    for x in a:
        cur = [0] * (len(b) + 1)
        for j, y in enumerate(b):
            if x == y:
                cur[j + 1] = prev[j] + 1
                if cur[j + 1] > best:
                    best = cur[j + 1]
        prev = cur
    return best


def _rank_sums(ranked: list[list[str]], total: int, i: int, prefix: tuple):
    """Every combination of one move per role from ``ranked[i:]`` whose ranks sum to ``total``."""
    if i == len(ranked) - 1:
        if total < len(ranked[i]):
            yield prefix + (ranked[i][total],)
        return
    for rank in range(min(total, len(ranked[i]) - 1) + 1):
        yield from _rank_sums(ranked, total - rank, i + 1, prefix + (ranked[i][rank],))
