"""What a GDL-II player believes: complete states consistent with its moves and percepts.

A player learns, after every step, the move the game master executed for it and its
percepts (seed 003 §17.5). A *hypothesis* is a complete state reachable from the initial
state by joint moves in which the player made exactly those moves and the ``sees`` rules
gave it exactly those percepts, together with what every other role made and saw on the
way (so the world-model adapter can continue from it).

:class:`HypothesisTracker` keeps a small set of hypotheses and advances them one step at a
time by rejection sampling: a random hypothesis and random moves of the other roles (and
nature), kept when they reproduce the player's percepts. When every
hypothesis dies it searches again, depth first with backtracking, from the last step at
which it had consistent hypotheses (seed 003 §17.7); until that succeeds it carries on
with approximate ones (see :class:`HypothesisTracker`). Other roles are assumed
to choose uniformly at random, as GDL-II's ``random`` role does; under that model the
rejection step weighs hypotheses as Bayes' rule does, but the set stays a small sample
(duplicates allowed), not the exact belief (docs/ggp_protocol.md).
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

    def observe(self, move: str, percepts: list[str] | tuple[str, ...],
                deadline: float | None = None) -> None:
        """Add one step: the move executed for this role and what it perceived."""
        seen = tuple(sorted(percepts))
        self.record.append((move, seen))
        survivors = self._advance(move, seen, deadline)
        if survivors:
            self.hypotheses = survivors
        else:
            self.exact = False
            self.hypotheses = self._advance(move, None, None)
        self.levels.append(self.hypotheses if self.exact else [])

    def ensure(self, deadline: float | None = None) -> list[Hypothesis]:
        """The current hypotheses, made consistent again by backtracking if they are not
        and that succeeds before ``deadline``. Raises :class:`BeliefError` if there are
        none at all."""
        if not self.exact:
            found = self._backtrack(deadline)
            if found:
                self.hypotheses, self.exact = found, True
                self.levels[-1] = found
        if not self.hypotheses:
            raise BeliefError(f"no state is consistent with what {self.role} has seen "
                              f"in {len(self.record)} steps")
        return self.hypotheses

    # ------------------------------------------------------------------ internals
    def _advance(self, move: str, seen: tuple[str, ...] | None,
                 deadline: float | None) -> list[Hypothesis]:
        """Up to ``size`` successors of the current hypotheses for the last step.

        First by rejection sampling (a random hypothesis, one random joint move, kept if
        it reproduces the percepts), which weights the hypotheses as Bayes' rule does
        for uniformly random opponents: in Monty Hall, the door the host had to leave
        closed survives twice as often as the one he chose at random. If that finds
        nothing, by searching each hypothesis for any consistent joint move. Percepts
        are not checked when ``seen`` is None (relaxed successors)."""
        out: list[Hypothesis] = []
        now = time.monotonic()
        # rejection sampling gets at most 60% of the time: the search below must run
        # when the percepts are too specific for random draws to hit them
        sampling_end = None if deadline is None else now + 0.6 * max(0.0, deadline - now)
        # parents in turn rather than drawn with replacement: a step every parent
        # survives keeps them all (a draw with replacement loses a third of 48 distinct
        # ones at each step); survivors are still in proportion to the percepts' likelihood
        parents = self.rng.sample(self.hypotheses, len(self.hypotheses))
        for tries in range(self.size * _REJECTION_TRIES):
            if len(out) >= self.size or (sampling_end is not None
                                         and time.monotonic() > sampling_end):
                break
            if tries == _FIRST_HIT_TRIES and not out:
                break  # the percepts are too specific for random draws: search instead

            hyp = parents[tries % len(parents)]
            legal = self.game.legal(hyp.state)
            if move in legal[self.role]:
                joint = {r: self.rng.choice(legal[r]) for r in self.game.roles}
                joint[self.role] = move
                child = self._child(hyp, joint, seen)
                if child is not None:
                    out.append(child)
        if len(out) >= self.size // 4:
            return out
        # too few draws hit the percepts (a deal seen in part, a scan's coordinates): the
        # sample would collapse onto a handful of states, so it is topped up with distinct
        # consistent successors of every distinct hypothesis, found by search
        parents = self._by_echo(_distinct(self.hypotheses), seen)
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

    def _child(self, hyp: Hypothesis, joint: dict[str, str],
               seen: tuple[str, ...] | None) -> Hypothesis | None:
        """The successor of ``hyp`` for ``joint``, or None if it contradicts ``seen``."""
        nxt, percepts = self.game.step(hyp.state, joint)
        if seen is not None and tuple(percepts[self.role]) != seen:
            return None
        records = {r: hyp.records[r] + ((joint[r], tuple(percepts[r])),) for r in self.game.roles}
        return Hypothesis(nxt, records)

    def _successors(self, hyp: Hypothesis, move: str, seen: tuple[str, ...] | None,
                    limit: int, deadline: float | None) -> list[Hypothesis]:
        """Up to ``limit`` distinct consistent successors of ``hyp`` for one step."""
        legal = self.game.legal(hyp.state)
        if move not in legal[self.role]:
            if seen is not None:
                return []
            move = self.rng.choice(legal[self.role])  # relaxed: any move of this role
        out, states = [], set()
        for joint in self._joint_moves(legal, move, seen):
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
        else:  # echoes of the percepts first (random order when none), random draws when
            # the percepts have no arguments to echo; each joint move once
            combos = itertools.islice(_unique(itertools.chain(
                _echo_order(choices, seen or (), self.rng),
                (tuple(self.rng.choice(c) for c in choices) for _ in range(4 * _JOINT_TRIES)))),
                _JOINT_TRIES)
        for combo in combos:
            joint = dict(zip(others, combo))
            joint[self.role] = move
            yield joint

    def _backtrack(self, deadline: float | None) -> list[Hypothesis]:
        """Randomized depth-first search over the record, from the consistent
        hypotheses of the latest step that had any; if none of them can be continued (a
        percept revealed something that all of them had sampled otherwise, e.g. a card
        dealt face down long ago), from those of earlier steps, back to the initial state."""
        for depth0 in sorted((k for k, level in enumerate(self.levels) if level), reverse=True):
            found: list[Hypothesis] = []
            seen = self.record[depth0][1] if depth0 < len(self.record) else None
            level = self._by_echo(_distinct(self.levels[depth0]), seen)
            stack = [(h, depth0) for h in reversed(level)]  # popped best first
            while stack and len(found) < self.size:
                if deadline is not None and time.monotonic() > deadline:
                    return found
                hyp, depth = stack.pop()
                if depth == len(self.record):
                    found.append(hyp)
                    continue
                move, seen = self.record[depth]
                children = self._successors(hyp, move, seen, _JOINT_TRIES, deadline)
                stack.extend((child, depth + 1) for child in children)
            if found:
                return found
        return []


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


def _echo_order(choices: list[list[str]], seen: tuple[str, ...], rng: random.Random):
    """Joint moves (one move per entry of ``choices``) that *echo* the percepts first.

    Percepts often repeat the arguments of the move that caused them (a scan's
    coordinates, a card dealt, a cell tried), and when the other roles have thousands of
    joint moves, random draws rarely reproduce a percept. A move's score is, summed over
    the percepts, the length of the longest run of the percept's arguments that occurs
    contiguously among the move's tokens (a percept may add the role's name, as
    ``(position admiral 2 4 1 4)`` for ``(setup 2 4 1 4 ...)``); each role's moves are
    ranked by score (ties in random order); the joint moves are the best-ranked moves
    together, then draws biased towards the best ranks. Only a proposal order: every joint move is still checked
    by stepping the game; endless when there are percepts with arguments, else empty."""
    wanted = _arguments(seen)
    if not wanted:
        return
    ranked = []
    for moves in choices:
        scored = []
        for m in moves:
            score = sum(_echo(w, m) for w in wanted)
            scored.append((-score, rng.random(), m))
        scored.sort()
        ranked.append([m for _, _, m in scored])
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
