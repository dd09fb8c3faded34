"""Lock-step walks through a GDL / GDL-II description and a reference game.

Both models are driven along the same seeded random game, move for move, through an
explicit :class:`Pairing` (reference action -> GDL move text, GDL goals -> reference
returns). A walk checks, at every step:

* the acting player is the same, and the legal moves correspond one to one;
* chance: the GDL ``random`` role (the adapter's chance player, uniform over its legal
  moves) draws the same outcomes with the same probabilities as the reference's chance
  player. A reference chance move may come before the GDL random move it stands for (Monty
  Hall hides the car before the pick; the GDL description hides it in the same step as the
  pick): it then waits in a queue until the GDL random role moves. A GDL random move with
  no reference counterpart must be irrelevant: every outcome must lead to the same GDL
  state (blind tic-tac-toe's coin when nobody collided);
* a reference decision or chance node with a single legal action may be missing in GDL:
  the adapter applies forced moves without asking (the last free cell in tic-tac-toe;
  the only door Monty Hall's host can open);
* at the end, the returns agree (GDL goals mapped to reference utilities);
* information: at every decision point, and at the end, the acting player's whole view
  (obs-action history) in one model determines its view in the other, across all walks:
  two walks the player cannot tell apart in one model are indistinguishable in the other
  (a one-to-one map between GDL percept histories and reference observation histories).
  A ``same_view`` check can compare the two observations explicitly as well.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, Observation, State, canonical_json


class Disagreement(AssertionError):
    """The GDL description and the reference game differ; the message says where."""


@dataclass(frozen=True)
class Pairing:
    """How a reference game corresponds to a GDL description."""

    to_gdl: Callable[[str], str]  # reference action (player or chance) -> GDL move text
    goals_to_returns: Callable[[float], float]  # one GDL goal -> one reference return
    same_view: Callable[[Observation, Observation], bool] | None = None  # (ref, GDL)
    # GDL moves outside the reference game: left out of the legal-move comparison
    gdl_only_moves: frozenset[str] = frozenset()
    # a walk stops uncompared when the reference reaches a state where this holds (for
    # a GDL game larger than the reference game; see AgreementReport.truncated)
    truncate: Callable[[State], bool] | None = None
    # called at every decision with (player, reference view, GDL view, reference state)
    on_decision: Callable[[int, list, list, State], None] | None = None


@dataclass
class AgreementReport:
    games: int = 0
    steps: int = 0
    decisions: int = 0
    matched_chance: int = 0  # chance moves made by both at once
    queued_chance: int = 0  # reference chance moves drawn before the GDL random move
    irrelevant_chance: int = 0  # GDL random moves without a reference counterpart
    forced: int = 0  # single-action reference decisions the adapter applied itself
    truncated: int = 0  # walks stopped by Pairing.truncate
    returns: list[list[float]] = field(default_factory=list)
    ref_to_gdl: dict[tuple[int, str], str] = field(default_factory=dict)
    gdl_to_ref: dict[tuple[int, str], str] = field(default_factory=dict)

    @property
    def information_states(self) -> int:
        return len(self.ref_to_gdl)


def walk_many(ref: WorldModel, gdl: WorldModel, pairing: Pairing, *, games: int,
              seed: int = 0, max_steps: int = 10_000) -> AgreementReport:
    """Walk ``games`` seeded random games through both models; raise
    :class:`Disagreement` at the first difference."""
    if ref.num_players != gdl.num_players:
        raise Disagreement(f"{ref.num_players} reference players, {gdl.num_players} in GDL")
    rng = random.Random(seed)
    report = AgreementReport()
    for _ in range(games):
        _Walk(ref, gdl, pairing, rng, report).run(max_steps)
        report.games += 1
    return report


class _Stop(Exception):
    """Pairing.truncate ended the walk."""


class _Walk:
    def __init__(self, ref, gdl, pairing, rng, report):
        self.ref, self.gdl, self.pairing, self.rng, self.report = ref, gdl, pairing, rng, report
        self.rs, self.gs = ref.initial_state(), gdl.initial_state()
        self.queue: deque = deque()  # (GDL outcome distribution, GDL move) drawn by ref
        self.ref_returns = [0.0] * ref.num_players
        self.gdl_returns = [0.0] * gdl.num_players
        # per player: running hashes of the obs-action history on each side
        self.views = [["", ""] for _ in range(ref.num_players)]
        self.last = [None] * ref.num_players  # (ref action, GDL move) at the last decision
        # per player: the obs-action histories themselves, for Pairing.on_decision
        self.histories = [([], []) for _ in range(ref.num_players)]
        self.trace: list[str] = []

    def fail(self, message: str) -> None:
        raise Disagreement(f"{message}\n  after reference moves {self.trace}")

    # ------------------------------------------------------------------ stepping
    def apply_ref(self, action: str) -> None:
        self.rs = self.ref.apply(self.rs, action)
        self.ref_returns = [a + b for a, b in zip(self.ref_returns, self.ref.rewards(self.rs))]
        self.trace.append(action)

    def apply_gdl(self, move: str) -> None:
        self.gs = self.gdl.apply(self.gs, move)
        self.gdl_returns = [a + b for a, b in zip(self.gdl_returns, self.gdl.rewards(self.gs))]
        self.report.steps += 1

    def ref_distribution(self) -> tuple[dict[str, float], str]:
        outcomes = self.ref.chance_outcomes(self.rs)
        dist = {self.pairing.to_gdl(a): p for a, p in outcomes}
        return dist, self.ref.sample_chance(self.rs, self.rng)

    def check_distribution(self, ours: dict[str, float]) -> None:
        theirs = dict(self.gdl.chance_outcomes(self.gs))
        if set(ours) != set(theirs) or any(
                not math.isclose(p, theirs[m], abs_tol=1e-9) for m, p in ours.items()):
            self.fail(f"chance outcomes differ: reference {ours}, GDL {theirs}")

    def run(self, max_steps: int) -> None:
        try:
            self.steps(max_steps)
        except _Stop:
            pass

    def steps(self, max_steps: int) -> None:
        for _ in range(max_steps):
            ar, ag = self.ref.current_player(self.rs), self.gdl.current_player(self.gs)
            forced = ar != TERMINAL and len(self.ref.legal_actions(self.rs)) == 1
            if ar == CHANCE and forced:  # the adapter never asks a move without choice
                self.apply_ref(self.ref.legal_actions(self.rs)[0])
                self.report.forced += 1
            elif ag == CHANCE and (self.queue or ar == CHANCE or self.gdl_chance_is_idle()):
                self.gdl_chance(ar)
            elif ar >= 0 and ar != ag and forced:
                self.apply_ref(self.ref.legal_actions(self.rs)[0])
                self.report.forced += 1
            elif ag == CHANCE:
                self.fail(f"a GDL random move ({self.gdl.legal_actions(self.gs)}) changes "
                          "the GDL state where the reference game has no chance move")
            elif ar == CHANCE:  # the reference draws first; GDL's random role comes later
                dist, action = self.ref_distribution()
                self.queue.append((dist, self.pairing.to_gdl(action)))
                self.apply_ref(action)
                self.report.queued_chance += 1
            elif ar == TERMINAL or ag == TERMINAL:
                return self.finish(ar, ag)
            elif ar != ag:
                self.fail(f"acting player: reference {ar}, GDL {ag}")
            else:
                self.decide(ar)
        self.fail(f"no end after {max_steps} steps")

    def gdl_chance(self, ar: int) -> None:
        if self.queue:
            dist, move = self.queue.popleft()
            self.check_distribution(dist)
            self.apply_gdl(move)
        elif ar == CHANCE:
            dist, action = self.ref_distribution()
            self.check_distribution(dist)
            self.apply_ref(action)
            self.apply_gdl(self.pairing.to_gdl(action))
            self.report.matched_chance += 1
        else:
            self.apply_gdl(self.rng.choice(self.gdl.legal_actions(self.gs)))
            self.report.irrelevant_chance += 1

    def gdl_chance_is_idle(self) -> bool:
        """Whether every outcome of GDL's random move leads to the same GDL state."""
        moves = self.gdl.legal_actions(self.gs)
        return len({canonical_json(self.gdl.apply(self.gs, m)) for m in moves}) == 1

    def decide(self, player: int) -> None:
        legal = self.ref.legal_actions(self.rs)
        mapped = {self.pairing.to_gdl(a): a for a in legal}
        gdl_legal = set(self.gdl.legal_actions(self.gs)) - self.pairing.gdl_only_moves
        if set(mapped) != gdl_legal:
            self.fail(f"legal moves of player {player} differ: only reference "
                      f"{sorted(set(mapped) - gdl_legal)}, only GDL "
                      f"{sorted(gdl_legal - set(mapped))}")
        self.see(player)
        ref_view, gdl_view = self.histories[player]
        ref_view.append((self.ref.observation(self.rs, player), None))
        gdl_view.append((self.gdl.observation(self.gs, player), None))
        if self.pairing.on_decision is not None:
            self.pairing.on_decision(player, list(ref_view), list(gdl_view), self.rs)
        action = self.rng.choice(legal)
        ref_view[-1] = (ref_view[-1][0], action)
        gdl_view[-1] = (gdl_view[-1][0], self.pairing.to_gdl(action))
        self.last[player] = (action, self.pairing.to_gdl(action))
        self.apply_ref(action)
        self.report.decisions += 1
        if self.pairing.truncate is not None and self.pairing.truncate(self.rs):
            self.report.truncated += 1
            raise _Stop
        self.apply_gdl(self.pairing.to_gdl(action))

    # ------------------------------------------------------------------ information
    def see(self, player: int, final: bool = False) -> None:
        """Extend the player's view on both sides and check the two stay paired."""
        ref_obs = self.ref.observation(self.rs, player)
        gdl_obs = self.gdl.observation(self.gs, player)
        same = self.pairing.same_view
        if same is not None and not same(ref_obs, gdl_obs):
            self.fail(f"player {player} observes {ref_obs} in the reference but {gdl_obs} "
                      "in GDL")
        last = self.last[player] or (None, None)
        view = self.views[player]
        view[0] = _chain(view[0], last[0], ref_obs)
        view[1] = _chain(view[1], last[1], gdl_obs)
        self.last[player] = None
        ref_key, gdl_key = (player, view[0] + "|end" * final), (player, view[1] + "|end" * final)
        known_gdl = self.report.ref_to_gdl.setdefault(ref_key, gdl_key[1])
        known_ref = self.report.gdl_to_ref.setdefault(gdl_key, ref_key[1])
        if known_gdl != gdl_key[1]:
            self.fail(f"player {player} cannot tell apart two walks in the reference game "
                      "that its GDL percepts distinguish")
        if known_ref != ref_key[1]:
            self.fail(f"player {player} tells apart two walks in the reference game that "
                      "look the same through its GDL percepts")

    def finish(self, ar: int, ag: int) -> None:
        if ar == TERMINAL and ag != TERMINAL:
            self.fail("the reference game ended; GDL goes on with "
                      f"{sorted(self.gdl.legal_actions(self.gs))}")
        if ag == TERMINAL and ar != TERMINAL:
            self.fail("GDL ended; the reference game goes on")
        if self.queue:
            self.fail("the reference drew chance moves that GDL never made")
        mapped = [self.pairing.goals_to_returns(g) for g in self.gdl_returns]
        if not all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(self.ref_returns, mapped)):
            self.fail(f"returns differ: reference {self.ref_returns}, GDL goals "
                      f"{self.gdl_returns} -> {mapped}")
        for player in range(self.ref.num_players):
            self.see(player, final=True)
        self.report.returns.append(self.ref_returns)


def _chain(previous: str, action, observation) -> str:
    """A running hash of an obs-action history (keeps long views cheap to compare)."""
    text = previous + canonical_json([action, observation])
    return hashlib.sha256(text.encode()).hexdigest()


def reference_information_set(model: WorldModel, history: list, player: int
                              ) -> list[tuple[State, float]]:
    """Every state of a reference game consistent with ``player``'s obs-action history,
    with its probability: chance as the model says, other players uniform over their
    legal moves (as ``ggp.gdl.infosets.information_set`` assumes). Exhaustive: for small
    games and early decision points only."""
    found: list[tuple[State, float]] = []
    last = len(history) - 1
    stack = [(model.initial_state(), 0, 1.0)]
    while stack:
        state, k, weight = stack.pop()
        current = model.current_player(state)
        if current == TERMINAL:
            continue
        if current == player:
            if not model.same(model.observation(state, player), history[k][0]):
                continue
            if k == last:
                found.append((state, weight))
                continue
            children, k = [(history[k][1], 1.0)], k + 1
        elif current == CHANCE:
            children = model.chance_outcomes(state)
        else:
            legal = model.legal_actions(state)
            children = [(a, 1.0 / len(legal)) for a in legal]
        stack.extend((model.apply(state, a), k, weight * p) for a, p in children)
    total = sum(w for _, w in found)
    return [(s, w / total) for s, w in found]
