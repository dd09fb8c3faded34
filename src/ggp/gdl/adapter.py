"""Any GDL / GDL-II game as a world model (docs/protocol.md).

Mapping (documented in docs/gdl.md):

* Roles keep the order of the ``(role ...)`` facts. In a GDL-II game the role ``random``
  is nature: it becomes the chance player, uniform over its legal moves. In plain GDL a
  role named ``random`` is an ordinary player (beatMania.kif). Players are the other roles.
* Simultaneous moves are sequentialized: in each step the roles choose in role order;
  choices already made wait in ``state["pending"]`` and are hidden from the other players'
  observations. A role with exactly one legal move is not asked: its move is applied
  automatically (so turn-taking games with ``noop`` become ordinary alternating games).
* A state is a JSON dict: ``{"step": joint moves so far, "true": sorted KIF texts of the
  true fluents, "pending": {role: move}}`` plus, in GDL-II, ``"history": {role: [[own
  move, [percepts...]], ...]}`` (what each player has seen so far).
* Observations: in GDL, the state itself without other roles' pending moves (perfect
  information); in GDL-II, ``{"role", "step", "history", "pending"}``: the player's own
  moves and percepts so far (perfect recall) and nothing else.
* Actions are the KIF texts of moves, e.g. ``"(mark 1 1)"`` or ``"noop"``.
* Rewards are 0 except at terminal states, where each player gets its GDL goal value:
  returns are the goals, utility range 0..100, nothing rescaled.

The rules are evaluated by the grounded reasoner (:mod:`ggp.gdl.grounded`, bitset states)
when the game grounds within its limits and is measured faster, else by the compiled
reasoner (:func:`ggp.gdl.reasoner.make_reasoner`); JSON states are
converted to the engine's states at the boundary (and remembered).
"""

from __future__ import annotations

import random as _random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ggp.core.errors import BeliefError, IllegalActionError, ModelError, ModelLoadError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata, State
from ggp.gdl.description import NATURE, parse_description
from ggp.gdl.hypotheses import HypothesisTracker
from ggp.gdl.kif import parse_kif_term
from ggp.gdl.match import MatchGame
from ggp.gdl.reasoner import make_reasoner
from ggp.gdl.terms import Description, to_kif
from ggp.gdl.validate import check, is_gdl_ii

_MAX_FORCED_STEPS = 100_000


def _remember(table: dict, key: Any, compute: Callable[[Any], Any]) -> Any:
    """``compute(key)``, remembered in ``table`` (emptied when it passes 100,000 entries)."""
    found = table.get(key)
    if found is None:
        if len(table) > 100_000:
            table.clear()
        found = table[key] = compute(key)
    return found


class GDLGame:
    """The protocol functions of one GDL game (wrap it in a WorldModel to use it)."""

    def __init__(self, desc: Description, *, gdl_ii: bool, name: str = "gdl",
                 engine: str = "auto") -> None:
        self.desc = desc
        self.name = name
        self.gdl_ii = gdl_ii
        # "auto": the engine measured faster (see ggp.gdl.reasoner.make_reasoner)
        self.engine = make_reasoner(desc.rules, engine)
        roles = self.engine.roles
        self.roles = roles
        self.chance_role = NATURE if gdl_ii and NATURE in roles else None
        self.players = [r for r in roles if r != self.chance_role]
        self._player_id = {r: i for i, r in enumerate(self.players)}
        self._text: dict = {}   # ground term -> KIF text
        self._term: dict = {}   # KIF text -> ground term
        self._states: dict = {}  # tuple of fluent texts -> the engine's state
        self._legal_memo: dict = {}
        self._actions_memo: dict = {}
        self._terminal_memo: dict = {}
        self._outcomes_memo: dict = {}
        self._beliefs: dict[str, PlayerBelief] = {}  # GDL-II: per player role
        start = {"step": 0, "true": self._texts(self.engine.decode(self.engine.initial_state())),
                 "pending": {}}
        if gdl_ii:
            start["history"] = {r: [] for r in self.players}
        self.INITIAL_STATE = self._advance(start)
        self.METADATA = GameMetadata(
            num_players=len(self.players),
            min_utility=0.0,
            max_utility=100.0,
            zero_sum=False,
            outcome="payoff",
            perfect_information=not gdl_ii and not self._probe_simultaneous(),
            chance=self.chance_role is not None,
            simultaneous=self._probe_simultaneous(),
            source=f"GDL{'-II' if gdl_ii else ''} description {name}",
            extra={"roles": list(roles), "gdl_ii": gdl_ii, "utility": "GDL goals 0..100",
                   "engine": self.engine.info.name,
                   "why_not_grounded": self.engine.info.why_not_grounded,
                   "engine_speeds": self.engine.info.speeds},
        )

    # ------------------------------------------------------------------ conversions
    def text(self, term) -> str:
        found = self._text.get(term)
        if found is None:
            found = self._text[term] = to_kif(term)
            self._term[found] = term
        return found

    def _texts(self, terms) -> list[str]:
        return sorted(self.text(t) for t in terms)

    def term(self, text: str):
        found = self._term.get(text)
        if found is None:
            found = parse_kif_term(text)
            self._term[text] = found
        return found

    def _legal(self, fluents) -> dict:
        """The engine's legal moves, remembered per state (the protocol functions ask
        several times about the same state)."""
        return _remember(self._legal_memo, fluents, self.engine.legal_moves)

    def _actions(self, fluents, role: str) -> dict:
        """``{KIF text: move term}`` of ``role``'s legal moves, in the engine's order,
        remembered per state (random's deal in some games has thousands of moves)."""
        return _remember(self._actions_memo, (fluents, role), self._move_texts)

    def _move_texts(self, key: tuple) -> dict:
        fluents, role = key
        known, text = self._text.get, self.text  # the memo first: no call per known move
        return {known(m) or text(m): m for m in self._legal(fluents)[role]}

    def _terminal(self, fluents) -> bool:
        return _remember(self._terminal_memo, fluents, self.engine.is_terminal)

    def fluents(self, state: State):
        """The engine's state (a fluent frozenset or a bitset) for a JSON state."""
        return _remember(self._states, tuple(state["true"]),
                         lambda key: self.engine.encode(self.term(t) for t in key))

    # ------------------------------------------------------------------ protocol
    def get_current_player(self, state: State) -> int:
        role = self._decider(state)
        if role is None:
            return TERMINAL
        return CHANCE if role == self.chance_role else self._player_id[role]

    def get_player_name(self, player_id: int) -> str:
        if player_id == CHANCE:
            return "chance"
        if player_id == TERMINAL:
            return "terminal"
        return self.players[player_id]

    def get_legal_actions(self, state: State) -> list[str]:
        role = self._decider(state)
        if role is None:
            return []
        return list(self._actions(self.fluents(state), role))

    def get_chance_outcomes(self, state: State) -> list[tuple[str, float]]:
        """Uniform over nature's legal moves; the list is remembered per state (a deal
        can have thousands of outcomes and a playout samples one at every chance node),
        so callers must not modify it."""
        role = self._decider(state)
        if role is None:
            return []
        return _remember(self._outcomes_memo, (self.fluents(state), role), self._uniform)

    def _uniform(self, key: tuple) -> list[tuple[str, float]]:
        actions = self._actions(*key)
        p = 1.0 / len(actions)
        return [(a, p) for a in actions]

    def apply_action(self, state: State, action: str) -> State:
        role = self._decider(state)
        if role is None:
            raise IllegalActionError(f"no move is possible in a terminal state (got {action!r})")
        legal = self._actions(self.fluents(state), role)
        if action not in legal:
            try:  # accept other spellings of the same move, e.g. "(MARK 1 1)"
                action = self.text(parse_kif_term(action))
            except Exception:  # noqa: BLE001 - reported as illegal below
                pass
        if action not in legal:
            raise IllegalActionError(
                f"{action!r} is not a legal move of {role}; legal: {sorted(legal)}")
        pending = dict(state["pending"])
        pending[role] = action
        new = dict(state)
        new["pending"] = pending
        if self._decider(new):  # another role still has to choose in this step
            return new
        return self._advance(self._joint_step(new))

    def get_rewards(self, state: State) -> list[float]:
        if state["pending"] or not self._terminal(self.fluents(state)):
            return [0.0] * len(self.players)
        goals = dict(zip(self.roles, self.engine.goals(self.fluents(state))))
        return [float(goals[p]) for p in self.players]

    def get_observations(self, state: State) -> list[dict]:
        return [self.observation(state, p) for p in self.players]

    def observation(self, state: State, role: str) -> dict:
        pending = {role: state["pending"][role]} if role in state["pending"] else {}
        if not self.gdl_ii:
            return {"step": state["step"], "true": state["true"], "pending": pending}
        return {"role": role, "step": state["step"], "history": state["history"][role],
                "pending": pending}

    def resample_state(self, history, player_id: int) -> State:
        """A complete state consistent with the player's view, drawn from its belief.

        GDL-II: the player's belief is kept across calls (:class:`PlayerBelief`): each call
        only advances it by the steps the player has seen since the last one, so a
        searcher drawing one state per simulation pays for filtering once per decision.
        Plain GDL: the state is the observation; the pending moves of roles that chose
        earlier in a simultaneous step are drawn uniformly from their legal moves."""
        obs = history[-1][0]
        role = self.players[player_id]
        if not self.gdl_ii:
            return self._fill_pending({"step": obs["step"], "true": list(obs["true"]),
                                       "pending": dict(obs["pending"])}, role)
        belief = self._beliefs.get(role)
        if belief is None:
            belief = self._beliefs[role] = PlayerBelief(self, role)
        return belief.sample(obs)

    def _fill_pending(self, state: State, role: str) -> State:
        """``state`` with a uniformly random move for every role that chooses before
        ``role`` in the current step (sequentialized simultaneous moves)."""
        legal = self._legal(self.fluents(state))
        for other in self.roles:
            if other == role:
                break
            if other not in state["pending"] and len(legal[other]) > 1:
                state["pending"][other] = self.text(_random.choice(legal[other]))
        return state

    # ------------------------------------------------------------------ stepping
    def _decider(self, state: State) -> str | None:
        """The role that chooses next, or None at a terminal state."""
        fluents = self.fluents(state)
        if self._terminal(fluents):
            return None
        legal = self._legal(fluents)
        pending = state["pending"]
        for role in self.roles:
            if role in pending:
                continue
            n = len(legal[role])
            if n == 0:
                raise ModelError(f"role {role} has no legal move in a non-terminal state",
                                 function="get_legal_actions", state=state)
            if n > 1:
                return role
        return ""  # everyone has chosen or has a single move: the step can be taken

    def _joint_step(self, state: State) -> State:
        fluents = self.fluents(state)
        legal = self._legal(fluents)
        joint = {}
        for role in self.roles:
            if role in state["pending"]:
                joint[role] = self.term(state["pending"][role])
            else:
                joint[role] = legal[role][0]
        new: dict[str, Any] = {"step": state["step"] + 1, "pending": {}}
        if self.gdl_ii:
            nxt, percepts = self.engine.step(fluents, joint)
            new["history"] = {
                r: state["history"][r] + [[self.text(joint[r]), self._texts(percepts[r])]]
                for r in self.players}
        else:
            nxt = self.engine.next_state(fluents, joint)
        new["true"] = self._texts(self.engine.decode(nxt))
        return new

    def _advance(self, state: State) -> State:
        """Apply forced steps (no role has a choice) until someone must choose or the end."""
        for _ in range(_MAX_FORCED_STEPS):
            if self._decider(state) != "":
                return state
            state = self._joint_step(state)
        empty = "; the state holds no facts: does the game define 'init'?" \
            if not state.get("true") else ""
        raise ModelError(f"more than {_MAX_FORCED_STEPS} steps in a row where no role had a "
                         f"choice and no terminal state came (check the 'terminal' and "
                         f"'legal' rules){empty}", function="apply_action", state=state)

    def _probe_simultaneous(self, seconds: float = 0.3, playouts: int = 5) -> bool:
        """Whether short random playouts meet a step where two roles have a choice
        (a heuristic for the metadata only; play does not depend on it)."""
        if hasattr(self, "_simultaneous"):
            return self._simultaneous
        rng = _random.Random(0)
        deadline = time.perf_counter() + seconds
        found = False
        state = self.INITIAL_STATE
        while not found and time.perf_counter() < deadline and len(self.roles) > 1:
            role = self._decider(state)
            if role is None:
                playouts -= 1
                if playouts <= 0:
                    break
                state = self.INITIAL_STATE
                continue
            legal = self._legal(self.fluents(state))
            found = sum(len(legal[r]) > 1 for r in self.roles) > 1
            state = self.apply_action(state, rng.choice([self.text(m) for m in legal[role]]))
        self._simultaneous = found
        return found


class PlayerBelief:
    """One GDL-II player's belief, kept across the calls of ``resample_state``.

    It holds :class:`ggp.gdl.hypotheses.HypothesisTracker` objects (complete states
    consistent with the player's moves and percepts, advanced one GDL step at a time,
    the GGP player's belief too). The player's GDL-II observation carries its whole
    record of (move, percepts) per step, so a call finds the tracker whose record is a
    prefix of the observed one (a match goes on) and feeds it the new steps, or starts
    a new one (another match). The last ``keep`` trackers are kept. Draws use the
    global :mod:`random` (seeded by the belief samplers); hypotheses in which the player
    would not be deciding now (terminal, or a single legal move) are skipped."""

    def __init__(self, game: GDLGame, role: str, size: int = 48, keep: int = 4,
                 seconds: float = 20.0) -> None:
        self.game = game
        self.role = role
        self.size = size
        self.keep = keep
        self.seconds = seconds
        self.match = MatchGame("", gdl_ii=True, name=game.name,
                               reasoner=game.engine)
        self.trackers: list = []
        self._states: tuple = (None, -1, [])  # (tracker, record length, JSON states)
        self._failed: tuple = (None, -1)  # (tracker, record length) of a failed search

    def sample(self, obs: dict) -> State:
        states = self.states(obs)
        state = _random.choice(states)
        state = dict(state, pending={})
        return self.game._fill_pending(state, self.role)

    def states(self, obs: dict) -> list[State]:
        """The JSON states (without pending moves) of the hypotheses for ``obs``."""
        record = [(move, tuple(percepts)) for move, percepts in obs["history"]]
        tracker = self._tracker(record)
        if tracker is None:
            tracker = HypothesisTracker(self.match, self.role, size=self.size,
                                        rng=_random.Random(_random.getrandbits(64)))
            self.trackers.append(tracker)
            del self.trackers[:-self.keep]
        cached, length, states = self._states
        if cached is tracker and length == len(record) and tracker.exact:
            return states
        # each new step gets a quarter of the time (a step whose percepts the sampled
        # successors miss is searched until its deadline); not a share of one budget:
        # a first belief late in a match feeds many steps at once, and starving the
        # later ones would lose a belief that plain sampling keeps
        for move, percepts in record[len(tracker.record):]:
            tracker.observe(move, percepts, time.monotonic() + self.seconds / 4)
        if self._failed == (tracker, len(record)):  # do not search again for this view
            raise BeliefError(f"no state consistent with what {self.role} has seen in "
                              f"{len(record)} steps was found")
        hypotheses = tracker.ensure(time.monotonic() + self.seconds, going_on=True)
        if not tracker.exact:
            self._failed = (tracker, len(record))
            raise BeliefError(f"no state consistent with what {self.role} has seen in "
                              f"{len(record)} steps was found in {self.seconds:.0f}s")
        game, engine = self.game, self.game.engine
        # per distinct state and per hypothesis object (resampling repeats both; a
        # record is as long as the match)
        states, texts, built = [], {}, {}
        for hyp in hypotheses:
            if id(hyp) in built:
                states.append(built[id(hyp)])
                continue
            true = texts.get(hyp.state)
            if true is None:
                deciding = not engine.is_terminal(hyp.state) and len(
                    game._legal(hyp.state)[self.role]) >= 2
                true = texts[hyp.state] = game._texts(engine.decode(hyp.state)) if deciding else []
                if true:
                    game._states.setdefault(tuple(true), hyp.state)
            if not true:
                continue
            state = built[id(hyp)] = {"step": len(record), "true": true, "pending": {},
                                      "history": {r: [[m, list(p)] for m, p in hyp.records[r]]
                                                  for r in game.players}}
            states.append(state)
        if not states:
            raise BeliefError(f"no consistent state found in which {self.role} is to move")
        self._states = (tracker, len(record), states)
        return states

    def _tracker(self, record: list):
        """The kept tracker with the longest record that is a prefix of ``record``."""
        best = None
        for tracker in self.trackers:
            n = len(tracker.record)
            if n <= len(record) and tracker.record == record[:n] and (
                    best is None or n > len(best.record)):
                best = tracker
        return best


def load_gdl_text(text: str, *, name: str = "gdl", syntax: str = "auto",
                  gdl_ii: bool | None = None, source: str = "",
                  engine: str = "auto") -> WorldModel:
    """A world model from GDL text (KIF or infix). ``gdl_ii`` None means: GDL-II when the
    rules use ``sees``/``percept``. ``engine``: "auto" (the engine measured faster when the game grounds,
    else compiled), "grounded" or "compiled" (see :func:`ggp.gdl.reasoner.make_reasoner`;
    the choice is in ``metadata.extra["engine"]``). Raises GDLSyntaxError /
    GDLValidationError (GGPErrors with line and column) for malformed or invalid
    descriptions."""
    desc = parse_description(text, source or name, syntax)
    ii = is_gdl_ii(desc) if gdl_ii is None else gdl_ii
    check(desc, ii)
    game = GDLGame(desc, gdl_ii=ii, name=name, engine=engine)
    model = WorldModel(game, name=name, trusted=True, rules=text, metadata=game.METADATA)
    game._model = model  # the samplers search through the wrapper
    return model


def load_gdl_model(path: str | Path, *, gdl_ii: bool | None = None,
                   engine: str = "auto") -> WorldModel:
    """A world model from a ``.kif`` / ``.gdl`` file.

    GDL-II detection when ``gdl_ii`` is None: the rules use ``sees``/``percept``, or they
    declare ``(role random)`` and the file is not a ``.kif`` file (GDL-II archives use
    ``.gdl``; the ggp.org GDL repository uses ``.kif`` and has a plain game with a role
    named random).
    """
    path = Path(path)
    if not path.is_file():
        raise ModelLoadError(f"No such GDL file: {path}.")
    text = path.read_text(encoding="utf-8", errors="replace")
    if gdl_ii is None:
        desc = parse_description(text, str(path))
        has_random = any(r.head == ("role", NATURE) for r in desc.rules)
        gdl_ii = is_gdl_ii(desc) or (has_random and path.suffix.lower() != ".kif")
    return load_gdl_text(text, name=path.stem, gdl_ii=gdl_ii, source=str(path), engine=engine)
