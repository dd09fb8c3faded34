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

from ggp.belief.tokens import (
    _Target,
    _words,
    exchange,
    mismatch,
    renamed,
    surplus,
)
from ggp.core.protocol import CHANCE, TERMINAL, Action, State

TEMPERATURE = 0.7
"""Annealing temperature of the search: a proposal adding one mismatched token is
accepted one time in four."""

STUCK = 300
"""Proposals without improvement after which the search restarts (from the best history
seen or another seed). Long: moves that keep the energy (a hidden card moved between two
opponents) are often what a later improvement needs (an opponent left void in a suit)."""

FOCUS = 0.8
"""How often a proposal is directed at the wanted and unwanted values while the search
improves; halved once it has not improved for a while, to explore neutral moves."""

THIN = 2
"""Rejuvenation proposals between two kept samples."""

SEEDS = 4
"""Seeds replayed at a (re)start of the search; the one with the lowest energy is used."""



def _replace(actions: list[Action], i: int, options: list[Action], wanted: set[str],
             focus: float, rng: random.Random):
    """``actions`` with move ``i`` replaced by one of ``options`` (one naming a wanted
    value with probability ``focus`` when there is one), the first changed index and the
    renaming that carries the change on; None without options."""
    if not options:
        return None
    named = [a for a in options if any(w in wanted for w in _words(str(a)))]
    old, actions[i] = actions[i], rng.choice(
        named if named and rng.random() < focus else options)
    return actions, i, exchange(old, actions[i])

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

    def __init__(self, ops, player: int, targets: list[_Target], actions: list[Action],
                 only_last: bool = False) -> None:
        # only_last: the energy counts the current observation alone (earlier decisions
        # need only allow the player's recorded action); the fallback's relaxed search
        self.only_last = only_last
        self.ops, self.player = ops, player
        self.targets, self.recorded = targets, actions
        self.last = len(targets) - 1
        self.uniform_chance = not ops.model.has("get_chance_outcomes")

    # -- replay ---------------------------------------------------------------------------

    def replay(self, actions: list[Action], base: Replayed | None = None, start: int = 0,
               strict: bool = False, cap: float = math.inf,
               rename: dict[str, str] | None = None,
               rng: random.Random | None = None) -> Replayed | None:
        """Replay ``actions`` (changed at ``start`` and later, relative to ``base``).

        From ``start`` on, every mover takes *its own* next move from the old history, in
        order (chance its next outcome, each opponent its next move), whoever moves when:
        a change that alters the turn order (another player wins a trick and leads) keeps
        each player's moves. The player always takes its recorded actions. An opponent's
        move that became illegal is renamed by ``rename`` (the values that two swapped
        outcomes exchanged: ``"Play 4C"`` becomes ``"Play QS"`` when the deals of 4C and
        QS were swapped), else replaced by the move at its old place in the legal list,
        else (its moves ran out) drawn from ``rng``. ``strict`` allows none of that: the
        movers and moves must stay as they were (the rejuvenation chain's proposals must
        be reversible).

        None when the history cannot be kept: a chance outcome or the player's action is
        illegal, the game ends first, or its energy exceeds ``cap`` (the replay stops as
        soon as that is certain: the caller draws its acceptance threshold first, so
        stopping early changes no decision)."""
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
        # each mover's own moves from ``start`` on, oldest first (reversed: pop from the end)
        queues: dict[int, list[tuple[Action, int | None]]] = {}
        if base is not None:
            for i in range(len(actions) - 1, start - 1, -1):
                mover = base.movers[i] if i < len(base.movers) else None
                if mover is not None and mover != player:
                    queues.setdefault(mover, []).append(
                        (actions[i], base.slots[i] if i < len(base.slots) else None))
        out = list(actions[:start])
        state = states[start]
        lp = log_prior[start]
        budget = 2 * len(actions) + 100  # a loop that never reaches the player ends here
        i = start
        while True:
            mover = ops.current_player(state)
            if mover == player:
                d = len(decisions)
                decisions.append(i)
                energies.append(0 if self.only_last and d < self.last else
                                mismatch(ops.observations(state)[player], self.targets[d]))
                if sum(energies) > cap:
                    return None
                if d == self.last:
                    break
                action = self.recorded[d]
                if action not in ops.legal_actions(state):
                    return None
                slot = None
            elif mover == TERMINAL or i >= budget:
                return None
            elif base is None:  # the first replay: the moves as given, in place
                if i >= len(actions):
                    return None
                action = actions[i]
                slot, lp = self._take(state, mover, action, lp)
                if slot is None and mover != CHANCE:
                    return None
                if lp is None:
                    return None
            else:
                if strict and (i >= len(base.movers) or base.movers[i] != mover):
                    return None
                queue = queues.get(mover)
                action, old = queue.pop() if queue else (None, None)
                if mover == CHANCE:
                    if action is None:
                        return None
                    slot, lp = self._take(state, mover, action, lp)
                    if lp is None:
                        return None
                else:
                    legal = ops.legal_actions(state)
                    if action not in legal:
                        if strict or not legal:
                            return None
                        other = renamed(action, rename) if rename and action else action
                        if other is not None and other in legal:
                            action = other
                        elif old is not None and old < len(legal):
                            action = legal[old]
                        else:
                            action = (rng or random).choice(legal)
                    slot = legal.index(action)
                    lp -= math.log(len(legal))
            movers.append(mover)
            slots.append(slot)
            out.append(action)
            state = ops.apply(state, action)
            states.append(state)
            log_prior.append(lp)
            i += 1
        if strict and len(out) != len(actions):
            return None
        return Replayed(out, states, movers, slots, log_prior, decisions, energies)

    def _take(self, state: State, mover: int, action: Action, lp: float
              ) -> tuple[int | None, float | None]:
        """The slot of ``action`` (an opponent's) and the log prior after it; None for the
        log prior when the move is illegal."""
        ops = self.ops
        if mover == CHANCE:
            if self.uniform_chance:  # cheaper than building the outcome list
                legal = ops.legal_actions(state)
                p = 1.0 / len(legal) if action in legal else 0.0
            else:
                p = next((q for a, q in ops.chance_outcomes(state) if a == action), 0.0)
            return None, (lp + math.log(p) if p > 0 else None)
        legal = ops.legal_actions(state)
        if action not in legal:
            return None, None
        return legal.index(action), lp - math.log(len(legal))

    # -- proposals ------------------------------------------------------------------------

    def _wanted(self, h: Replayed) -> tuple[int, set[str], set[str]]:
        """The first mismatched decision's position, the values its recorded observation
        shows more often than the replayed one, and those it shows less often."""
        d = next(k for k, e in enumerate(h.energies) if e)
        counts = surplus(self.ops.observations(h.states[h.decisions[d]])[self.player],
                         self.targets[d])
        wanted = {key[2] for key, n in counts.items() if n < 0}
        unwanted = {key[2] for key, n in counts.items() if n > 0}
        return h.decisions[d], wanted, unwanted

    def _outcomes(self, h: Replayed, i: int) -> list[Action]:
        return [a for a, p in self.ops.chance_outcomes(h.states[i]) if p > 0 and a != h.actions[i]]

    def propose(self, h: Replayed, rng: random.Random, focus: float = FOCUS
                ) -> tuple[list[Action], int, dict[str, str] | None] | None:
        """A directed change of ``h`` (search mode), the first position it changes and the
        renaming of values it implies; ``focus``: how often it is directed."""
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
            i = pick(early, wanted, focus)
            rest = [j for j in chance if actions[j] != actions[i]]
            if not rest:
                return None
            j = pick(rest, unwanted, 0.5)
            swap = self._swap(h, i, j)
            if swap is None:
                return None
            actions[i], actions[j], rename = swap
            return actions, min(i, j), rename
        if r < 0.85 and others:
            # an opponent move that showed an unwanted value or moved a wanted one away
            i = pick(others, wanted | unwanted, focus)
            options = [a for a in self.ops.legal_actions(h.states[i]) if a != actions[i]]
            return _replace(actions, i, options, wanted, focus, rng)
        if early:
            i = pick(early, unwanted, focus)
            return _replace(actions, i, self._outcomes(h, i), wanted, focus, rng)
        return None

    def _swap(self, h: Replayed, i: int, j: int
              ) -> tuple[Action, Action, dict[str, str] | None] | None:
        """The outcomes at ``i`` and ``j`` with their values exchanged, and the renaming
        that carries the exchange to later moves. The actions themselves when each is an
        outcome of the other's node (two deals); else the one differing word exchanged
        (a deal ``"Deal AS"`` and a draw ``"Draw 6D"`` become ``"Deal 6D"`` and ``"Draw
        AS"``), when that is an outcome at ``i`` (the replay checks ``j``)."""
        a, b = h.actions[i], h.actions[j]
        legal = self.ops.legal_actions(h.states[i])
        if b in legal:
            return b, a, exchange(a, b)
        wa, wb = _words(str(a)), _words(str(b))
        if len(wa) == len(wb):
            for u, v in zip(wa, wb):
                if u != v and renamed(a, {u: v}) in legal:
                    return renamed(a, {u: v}), renamed(b, {v: u}), {u: v, v: u}
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
        kept: list[Replayed] = []
        current: Replayed | None = None
        best: Replayed | None = None
        stuck, steps = 0, 0
        while len(kept) < samples and time.monotonic() < deadline:
            if current is None or (current.energy and stuck > STUCK):
                stuck = 0
                if best is not None and rng.random() < 0.5:
                    current = best  # back to the lowest energy seen, not all the way
                    continue
                # the best of a few seeds (replaying all of them would cost more than the
                # search: a failed stage leaves a hundred)
                tried = [self.replay(s) for s in rng.sample(seeds, min(SEEDS, len(seeds)))]
                tried = [h for h in tried if h is not None]
                if not tried:
                    continue
                current = min(tried, key=lambda h: h.energy)
                if best is None or current.energy < best.energy:
                    best = current
            if current.energy == 0:
                if not kept:
                    kept.append(current)
                proposal = self.symmetric(current, rng)
                if proposal is not None:
                    new = self.replay(proposal[0], current, proposal[1], strict=True, cap=0)
                    if new is not None and rng.random() < math.exp(
                            min(0.0, new.log_prior[-1] - current.log_prior[-1])):
                        current = new
                steps += 1
                if steps % THIN == 0:
                    kept.append(current)
                continue
            proposal = self.propose(current, rng, FOCUS if stuck < STUCK // 4 else FOCUS / 2)
            stuck += 1
            if proposal is None:
                continue
            # accept when the energy rises by at most -T log u: drawn first, so the replay
            # can stop as soon as it is exceeded
            u = rng.random()
            cap = current.energy - TEMPERATURE * math.log(u) if u > 0 else math.inf
            new = self.replay(proposal[0], current, proposal[1], cap=cap, rename=proposal[2],
                              rng=rng)
            if new is None:
                continue
            current = new
            if new.energy < best.energy:
                stuck = 0
            if new.energy <= best.energy:  # the latest of equals: keeps neutral progress
                best = new
        return kept
