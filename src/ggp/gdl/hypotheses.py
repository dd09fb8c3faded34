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

import itertools
import random
import time
from dataclasses import dataclass

from ggp.core.errors import BeliefError
from ggp.gdl.match import MatchGame, MatchState

Record = tuple[tuple[str, tuple[str, ...]], ...]  # ((move, sorted percepts), ...) per step
_JOINT_TRIES = 256  # joint moves tried per hypothesis and step before giving up on it
_REJECTION_TRIES = 8  # random joint moves per wanted hypothesis in rejection sampling


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
        for _ in range(self.size * _REJECTION_TRIES):
            if len(out) >= self.size or (sampling_end is not None
                                         and time.monotonic() > sampling_end):
                break
            hyp = self.rng.choice(self.hypotheses)
            legal = self.game.legal(hyp.state)
            if move in legal[self.role]:
                joint = {r: self.rng.choice(legal[r]) for r in self.game.roles}
                joint[self.role] = move
                child = self._child(hyp, joint, seen)
                if child is not None:
                    out.append(child)
        if out:
            return out
        per = max(1, self.size // max(1, len(self.hypotheses)))
        for hyp in self.rng.sample(self.hypotheses, len(self.hypotheses)):
            if deadline is not None and time.monotonic() > deadline:
                break
            out.extend(self._successors(hyp, move, seen, per, deadline))
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
        for joint in self._joint_moves(legal, move):
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

    def _joint_moves(self, legal: dict[str, list[str]], move: str):
        """Joint moves with this role's move fixed, in random order (all of them when
        there are few, else ``_JOINT_TRIES`` random draws)."""
        others = [r for r in self.game.roles if r != self.role]
        choices = [legal[r] for r in others]
        total = 1
        for c in choices:
            total *= len(c)
        if total <= _JOINT_TRIES:
            combos = list(itertools.product(*choices))
            self.rng.shuffle(combos)
        else:
            combos = (tuple(self.rng.choice(c) for c in choices) for _ in range(_JOINT_TRIES))
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
            stack = [(h, depth0) for h in self.rng.sample(self.levels[depth0],
                                                         len(self.levels[depth0]))]
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
