"""Local search, then Metropolis moves, over complete histories (the filter's repair).

The particle filter deals forward and sees only the player's *next* observation, so it
cannot know that a card it deals now must reach the opponent who plays it, passes it or
shows it many moves later. When a stage of the filter dies, :class:`HistorySearch` works
on complete histories instead: action lists from the initial state to the player's
current decision point, scored against *every* recorded observation at once.

* **Energy.** A history is replayed and, at each of the player's decision points, its
  observation is compared with the recorded one by :func:`ggp.belief.tokens.mismatch`
  (tokens in one and not the other). The energy is the sum; 0 means the history is
  consistent. The player's own recorded actions are kept; they must stay legal.
* **Moves.** A proposal changes one or two moves of the history: it swaps two chance
  outcomes (a card dealt to one hand and a card dealt to another), redraws one chance
  outcome, or changes one opponent move. It is directed by the first decision point
  that mismatches: values that observation should show and does not (*wanted*) and
  values it shows and should not (*unwanted*), matched against the words of the moves
  (``"Deal KH"`` names ``KH``). The rest of the history is replayed from the first
  changed move: a chance outcome must stay legal; an opponent's move that became
  illegal is replaced by the move at the same place in its legal list (the card from
  the same slot), so that a swap of two dealt cards carries the plays that used them.
* **Search.** Proposals are accepted when they do not raise the energy, else with
  probability ``exp(-increase / temperature)`` (annealing lets a two-card exchange pass
  through a worse history); the chain restarts from another seed when stuck.
* **Rejuvenation.** Once consistent, the chain continues with symmetric proposals (a
  uniformly drawn pair of chance outcomes swapped, one outcome redrawn uniformly among
  the others of its node, or one opponent move redrawn uniformly among its legal
  alternatives), no slot replacement, and the Metropolis acceptance
  ``min(1, π(h') / π(h))`` restricted to consistent histories, with ``π`` the chance
  odds times the uniform opponent model. That is the exact posterior's own
  Metropolis–Hastings chain; its samples are kept every few proposals.

What is exact and what is not: every returned history replays to all of the player's
observations (exact support). The distribution is an MCMC approximation: the chain
starts from whatever history the search found and runs only a few dozen steps, so
samples are correlated and biased towards the start; histories whose number of moves
differs from the seed's are never proposed.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from ggp.belief.tokens import _Target, _token_counts, _words, mismatch
from ggp.core.protocol import CHANCE, TERMINAL, Action, State

TEMPERATURE = 0.7
"""Annealing temperature of the search: a proposal adding one mismatched token is
accepted one time in four."""

STUCK = 60
"""Proposals without improvement after which the search restarts from another seed."""

THIN = 3
"""Rejuvenation proposals between two kept samples."""


@dataclass
class Replayed:
    """A history replayed from the initial state, with what proposals need."""

    actions: list[Action]
    states: list[State]  # states[i] is the state before actions[i]; one more at the end
    movers: list[int]  # current player before each action
    slots: list[int | None]  # an opponent's move: its index in the legal list
    log_prior: list[float]  # cumulative log probability before each action (+ one)
    decisions: list[int]  # the positions of the player's decision points
    energies: list[int]  # mismatch at each decision point, the current one last

    @property
    def energy(self) -> int:
        return sum(self.energies)


class HistorySearch:
    """Finds and rejuvenates complete histories consistent with ``targets`` (the player's
    recorded observations at decision points ``0..len(targets)-1``, the last one current)
    given the player's recorded ``actions`` at the earlier ones."""

    def __init__(self, ops, player: int, targets: list[_Target], actions: list[Action]) -> None:
        self.ops, self.player = ops, player
        self.targets, self.recorded = targets, actions
        self.last = len(targets) - 1

    # -- replay ---------------------------------------------------------------------------

    def replay(self, actions: list[Action], base: Replayed | None = None, start: int = 0,
               strict: bool = False) -> Replayed | None:
        """Replay ``actions`` (changed at ``start`` and later, relative to ``base``).

        None when the history cannot be kept: a chance outcome or the player's action is
        illegal, an opponent's illegal move has no replacement (``strict``: none is
        allowed), the game ends first or the player's decisions fall elsewhere."""
        ops, player = self.ops, self.player
        if base is None or start == 0:
            start = 0
            states, movers, slots = [ops.model.initial_state()], [], []
            log_prior, decisions, energies = [0.0], [], []
        else:
            states, movers = base.states[:start + 1], base.movers[:start]
            slots, log_prior = base.slots[:start], base.log_prior[:start + 1]
            decisions = [p for p in base.decisions if p < start]
            energies = base.energies[:len(decisions)]
        actions = list(actions)
        state = states[start]
        lp = log_prior[start]
        for i in range(start, len(actions)):
            mover = ops.current_player(state)
            action = actions[i]
            slot = None
            if mover == player:
                d = len(decisions)
                if d >= self.last or action != self.recorded[d]:
                    return None
                if action not in ops.legal_actions(state):
                    return None
                decisions.append(i)
                energies.append(mismatch(ops.observations(state)[player], self.targets[d]))
            elif mover == CHANCE:
                p = next((q for a, q in ops.chance_outcomes(state) if a == action), 0.0)
                if p <= 0:
                    return None
                lp += math.log(p)
            elif mover == TERMINAL:
                return None
            else:
                legal = ops.legal_actions(state)
                try:
                    slot = legal.index(action)
                except ValueError:
                    old = base.slots[i] if base is not None and i < len(base.slots) else None
                    if strict or old is None or old >= len(legal):
                        return None
                    slot, action = old, legal[old]
                    actions[i] = action
                lp -= math.log(len(legal))
            movers.append(mover)
            slots.append(slot)
            state = ops.apply(state, action)
            states.append(state)
            log_prior.append(lp)
        if ops.current_player(state) != player or len(decisions) != self.last:
            return None
        decisions.append(len(actions))
        energies.append(mismatch(ops.observations(state)[player], self.targets[self.last]))
        return Replayed(actions, states, movers, slots, log_prior, decisions, energies)

    # -- proposals ------------------------------------------------------------------------

    def _wanted(self, h: Replayed) -> tuple[int, set[str], set[str]]:
        """The first mismatched decision's position, the values its recorded observation
        shows more often than the replayed one, and those it shows less often."""
        d = next(k for k, e in enumerate(h.energies) if e)
        counts = _token_counts(self.ops.observations(h.states[h.decisions[d]])[self.player])
        counts.subtract(self.targets[d].tokens)
        wanted = {key[2] for key, n in counts.items() if n < 0}
        unwanted = {key[2] for key, n in counts.items() if n > 0}
        return h.decisions[d], wanted, unwanted

    def _outcomes(self, h: Replayed, i: int) -> list[Action]:
        return [a for a, p in self.ops.chance_outcomes(h.states[i]) if p > 0 and a != h.actions[i]]

    def propose(self, h: Replayed, rng: random.Random) -> tuple[list[Action], int] | None:
        """A directed change of ``h`` (search mode) and the first position it changes."""
        limit, wanted, unwanted = self._wanted(h)
        chance = [i for i, m in enumerate(h.movers) if m == CHANCE]
        early = [i for i in chance if i < limit]
        others = [i for i, m in enumerate(h.movers[:limit]) if m not in (CHANCE, self.player)]

        def naming(positions: list[int], values: set[str]) -> list[int]:
            return [i for i in positions if any(w in values for w in _words(str(h.actions[i])))]

        def pick(positions: list[int], values: set[str], bias: float) -> int:
            named = naming(positions, values)
            return rng.choice(named if named and rng.random() < bias else positions)

        actions = list(h.actions)
        r = rng.random()
        if r < 0.55 and early and len(chance) > 1:
            # the wanted value's chance move exchanged with one that gave an unwanted value
            i = pick(early, wanted, 0.8)
            rest = [j for j in chance if actions[j] != actions[i]]
            if not rest:
                return None
            j = pick(rest, unwanted, 0.5)
            actions[i], actions[j] = actions[j], actions[i]
            return actions, min(i, j)
        if r < 0.85 and others:
            i = pick(others, unwanted, 0.8)
            options = [a for a in self.ops.legal_actions(h.states[i]) if a != actions[i]]
            if not options:
                return None
            named = [a for a in options if any(w in wanted for w in _words(str(a)))]
            actions[i] = rng.choice(named if named and rng.random() < 0.8 else options)
            return actions, i
        if early:
            i = pick(early, unwanted, 0.8)
            options = self._outcomes(h, i)
            if not options:
                return None
            named = [a for a in options if any(w in wanted for w in _words(str(a)))]
            actions[i] = rng.choice(named if named and rng.random() < 0.8 else options)
            return actions, i
        return None

    def symmetric(self, h: Replayed, rng: random.Random) -> tuple[list[Action], int] | None:
        """An undirected change whose reverse has the same probability (rejuvenation)."""
        chance = [i for i, m in enumerate(h.movers) if m == CHANCE]
        others = [i for i, m in enumerate(h.movers) if m not in (CHANCE, self.player)]
        actions = list(h.actions)
        r = rng.random()
        if r < 0.5 and len(chance) > 1:
            i, j = rng.sample(chance, 2)
            if actions[i] == actions[j]:
                return None
            actions[i], actions[j] = actions[j], actions[i]
            return actions, min(i, j)
        if r < 0.75 and others:
            i = rng.choice(others)
            options = [a for a in self.ops.legal_actions(h.states[i]) if a != actions[i]]
        elif chance:
            i = rng.choice(chance)
            options = self._outcomes(h, i)
        else:
            return None
        if not options:
            return None
        actions[i] = rng.choice(options)
        return actions, i

    # -- the chain ------------------------------------------------------------------------

    def run(self, seeds: list[list[Action]], rng: random.Random, deadline: float,
            samples: int) -> list[Replayed]:
        """Up to ``samples`` consistent histories (repeats possible, as in any MCMC), found
        from ``seeds`` (histories reaching the current decision point) before
        ``deadline``; [] when none is found in time."""
        starts = [h for h in (self.replay(s) for s in seeds) if h is not None]
        if not starts:
            return []
        kept: list[Replayed] = []
        current, best, stuck, steps = None, math.inf, 0, 0
        while len(kept) < samples and time.monotonic() < deadline:
            if current is None or (current.energy and stuck > STUCK):
                current = rng.choice(starts)
                best, stuck = current.energy, 0
            if current.energy == 0:
                if not kept:
                    kept.append(current)
                proposal = self.symmetric(current, rng)
                if proposal is not None:
                    new = self.replay(*proposal[:1], current, proposal[1], strict=True)
                    if new is not None and new.energy == 0 and rng.random() < math.exp(
                            min(0.0, new.log_prior[-1] - current.log_prior[-1])):
                        current = new
                steps += 1
                if steps % THIN == 0:
                    kept.append(current)
                continue
            proposal = self.propose(current, rng)
            stuck += 1
            if proposal is None:
                continue
            new = self.replay(proposal[0], current, proposal[1])
            if new is None:
                continue
            rise = new.energy - current.energy
            if rise <= 0 or rng.random() < math.exp(-rise / TEMPERATURE):
                current = new
                if new.energy < best:
                    best, stuck = new.energy, 0
        return kept
