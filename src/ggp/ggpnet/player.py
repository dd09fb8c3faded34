"""The GGP player: answers a game server's messages for one match at a time.

:class:`GGPPlayer` is transport-free: ``handle(text, received)`` returns the HTTP status
and the reply body, and :class:`ggp.ggpnet.transport.GGPServer` puts it on the wire.

Contract (docs/ggp_protocol.md):

* ``INFO`` -> ``((name N) (status available|busy) (species python))``;
  ``PREVIEW`` -> ``ready`` (``busy`` during a match); ``ABORT`` -> ``aborted``;
  ``STOP`` -> ``done``.
* ``START`` -> ``ready`` within the start clock (minus the safety margin) while the rules
  are parsed, validated and compiled in the background; ``busy`` if another match is
  running; a 400 error for rules that do not parse or a role that is not in them.
* ``PLAY`` -> a legal move within the play clock minus the margin (minus, on a loaded
  machine, the recent lateness of its own threads, which it measures). Bookkeeping (the GDL
  joint move, or the GDL-II move and percepts) is done in a worker thread, one per turn
  and in order; the worker then searches until the deadline. If it has not answered by
  then, the reply is a random legal move from the worker's own list (in GDL-II, before
  the belief is updated, the list of one likely successor state), or ``noop`` if it had no
  time to compute even that.
* Messages for another match id get ``busy`` (as ggp-base's players answer); PLAYs out of
  order (a repeated or skipped GDL-II turn, a second ``NIL`` PLAY, mixed forms) get a 409
  error reply; unparseable messages a 400 error reply. No message can crash the player.
  In GDL a first PLAY that carries moves means its ``NIL`` PLAY was missed: the moves
  are applied to the initial state and the match goes on.

A match that has heard nothing for ``stale_after`` seconds is considered abandoned (its
manager died): a new START replaces it.
"""

from __future__ import annotations

import gc
import logging
import random
import threading
import time
from dataclasses import dataclass, field

from ggp.budget import Budget, check_budget, warm_up
from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.gdl.adapter import load_gdl_text
from ggp.gdl.description import NATURE, parse_description
from ggp.gdl.terms import to_kif
from ggp.gdl.validate import is_gdl_ii
from ggp.ggpnet.choosers import Chooser, Decision, SearchChooser, Stopped
from ggp.gdl.match import MatchGame, MatchState, canonical_move, detect_gdl_ii
from ggp.gdl.hypotheses import HypothesisTracker
from ggp.ggpnet.messages import (
    Abort,
    Info,
    MessageError,
    Play,
    Preview,
    Start,
    info_reply,
    parse_message,
)

log = logging.getLogger(__name__)
FALLBACK_MOVE = "noop"
#: What a START's rules may take to build (the largest corpus games need a few hundred MB).
START_BUDGET = Budget(memory_mb=2048, seconds=120.0)
_HANDOFF = 0.1  # seconds between the chooser's deadline and the reply deadline
_AFTER_REPLY = 0.05  # seconds from a match's end to the full collection after it


class _QuietGC:
    """Keeps full garbage collections out of matches.

    A generation-2 collection stops every thread, and once the reasoner's caches and the
    search trees are large it takes 0.3-0.5 s (measured on connectFour), longer than the
    safety margin. While any player in the process is in a match, the objects built so
    far are frozen (never scanned) and full collections are postponed. The state is per
    process, so holders are counted.

    The postponed collection must not land on a clock either. Until the compiled
    reasoner's per-state contexts stopped being reference cycles, a match left
    millions of objects for it, and it stopped every thread for 0.6-28 s on a loaded
    machine. When the collector was simply restored at the end of a match, that
    collection began while the next START was being parsed: against ggp-base, START
    replies came up to 1.7 s after a 10 s start clock. So now:

    * when the last match ends, the collection runs at once in a background thread,
      after the reply that ended the match has gone out, and only then are the normal
      thresholds restored (:meth:`release`);
    * a new match runs the collection itself, first thing in its start clock, when
      there is time for it and it has not run yet (:meth:`collect`), and holds the
      collector from then on;
    * during the match, each turn first collects what the previous turn left and
      freezes the survivors, when 3 times the last such collection fits before the
      turn's deadline (:meth:`collect_in_match`). Frozen objects are not scanned, so
      this costs about one turn's new objects, not the whole heap. It bounds the
      memory of a match with any garbage that still has cycles.
    """

    _lock = threading.Lock()
    _holders = 0
    _saved: tuple[int, int, int] | None = None  # normal thresholds while suppressed
    _full_seconds = 0.0  # how long the last full collection run here took
    _turn_seconds = 0.0  # how long the last collection during a match took

    def __init__(self) -> None:
        self.holding = False

    def hold(self) -> None:
        with self._lock:
            if self.holding:
                return
            self.holding = True
            if _QuietGC._holders == 0:
                self._suppress()
                gc.freeze()
            _QuietGC._holders += 1

    def release(self) -> None:
        with self._lock:
            if not self.holding:
                return
            self.holding = False
            _QuietGC._holders -= 1
            if _QuietGC._holders == 0:
                gc.unfreeze()
                timer = threading.Timer(_AFTER_REPLY, self._collect_between_matches)
                timer.daemon = True
                timer.name = "ggp-gc-after-match"
                timer.start()

    def collect(self, until: float) -> bool:
        """Run a full collection now unless a match in this process holds the collector
        or the last one's duration (x3, + 0.5 s) would not fit before ``until``
        (monotonic). Returns whether it ran."""
        with self._lock:
            if _QuietGC._holders:
                return False
            if time.monotonic() + 3 * self._full_seconds + 0.5 > until:
                _QuietGC._full_seconds /= 2  # as in collect_in_match
                return False
            self._collect("before the match")
            return True

    def collect_in_match(self, until: float) -> bool:
        """During a held match: collect the garbage of the turns since the last call,
        if 3 times the last such collection (+ 0.05 s) fits before ``until``. A skip
        halves that estimate, so one slow collection cannot stop them for good."""
        with self._lock:
            if not self.holding:
                return False
            if time.monotonic() + 3 * self._turn_seconds + 0.05 > until:
                _QuietGC._turn_seconds /= 2
                return False
            began = time.perf_counter()
            gc.collect()
            gc.freeze()  # the survivors are not scanned again: next time, only new objects
            _QuietGC._turn_seconds = time.perf_counter() - began
            log.debug("garbage collection during the match: %.3f s", self._turn_seconds)
            return True

    def _collect_between_matches(self) -> None:
        with self._lock:
            if _QuietGC._holders:  # a new match started first; it collected itself
                return
            self._collect("after the match")
            if _QuietGC._saved is not None:
                gc.set_threshold(*_QuietGC._saved)
                _QuietGC._saved = None

    def _suppress(self) -> None:
        if _QuietGC._saved is None:  # else still suppressed since the last match
            _QuietGC._saved = gc.get_threshold()
            gc.set_threshold(self._saved[0], self._saved[1], 1_000_000)

    def _collect(self, when: str) -> None:
        began = time.perf_counter()
        gc.collect()
        _QuietGC._full_seconds = time.perf_counter() - began
        log.debug("full garbage collection %s: %.3f s", when, self._full_seconds)


def _share(deadline: float, fraction: float) -> float:
    """A deadline ``fraction`` of the way from now to ``deadline`` (belief tracking gets
    part of the time, so the search always gets some)."""
    now = time.monotonic()
    return now + max(0.0, deadline - now) * fraction


class ProtocolError(GGPError):
    """A message that is well formed but does not fit the match (answered with 409)."""


@dataclass
class _Turn:
    """What the worker of one PLAY found: the legal moves (as soon as known) and the move."""

    legal: list[str] | None = None
    move: str | None = None
    done: threading.Event = field(default_factory=threading.Event)
    stop: threading.Event = field(default_factory=threading.Event)


class _Match:
    """One match as the player follows it."""

    def __init__(self, start: Start, received: float) -> None:
        self.start = start
        self.last_heard = received
        self.ready = threading.Event()  # set when preparation ended (well or not)
        self.error: str | None = None
        self.game: MatchGame | None = None
        self.model: WorldModel | None = None
        self.player = -1
        self.state: MatchState | None = None  # GDL: the true state
        self.tracker: HypothesisTracker | None = None  # GDL-II
        self.actions: list[str] = []  # GDL: the moves so far as world-model actions
        self.asked: list[int] = []  # GDL-II: the steps at which this role had a choice
        self.ambiguous = False  # GDL or GDL-II is decided by the second PLAY
        self.plays = 0  # PLAY messages accepted
        self.five_field: bool | None = None
        self.last_reply: str | None = None
        self.worker: threading.Thread | None = None
        self.turn: _Turn | None = None
        self.lock = threading.Lock()
        self.cancelled = threading.Event()  # ABORT, STOP or a replacing START

    def halt(self) -> None:
        """Tell the running worker to stop (it ends within one model step)."""
        if self.turn is not None:
            self.turn.stop.set()

    def abandon(self) -> None:
        """The match is over (ABORT, STOP, replaced): stop the worker, and the preparation
        after its current stage."""
        self.cancelled.set()
        self.halt()


class GGPPlayer:
    """A GGP player (see the module docstring).

    Args:
        name: reported by INFO.
        chooser: how moves are picked (default: :class:`SearchChooser`).
        margin: seconds kept in reserve before each clock runs out.
        stale_after: seconds of silence after which a match counts as abandoned.
        seed: seeds the player's own randomness (fallback moves, hypotheses).
        budget: the memory and time a START's rules may take to build: they are built in a
            child process under it first (:mod:`ggp.budget`), as a few hundred bytes of
            GDL can ask for gigabytes; None trusts every manager.
    """

    def __init__(self, name: str = "ggp-python", chooser: Chooser | None = None, *,
                 margin: float = 0.3, stale_after: float = 120.0,
                 seed: int | None = None, budget: Budget | None = START_BUDGET) -> None:
        self.name = name
        self.budget = budget
        if budget is not None:
            warm_up()  # the build helper, started now rather than during a start clock
        self.chooser = chooser or SearchChooser(seed)
        self.margin = margin
        self.stale_after = stale_after
        self.rng = random.Random(seed)
        self._lock = threading.Lock()
        self._preparing = threading.Lock()
        self._match: _Match | None = None
        self.matches_ended = 0  # STOPs and ABORTs of accepted matches
        self._lag = 0.0  # how late recent replies were ready, beyond their deadline
        self._gc = _QuietGC()

    # ------------------------------------------------------------------ entry point
    def handle(self, text: str, received: float | None = None) -> tuple[int, str]:
        """Answer one message: ``(HTTP status, body)``. Never raises."""
        received = time.monotonic() if received is None else received
        try:
            message = parse_message(text)
            if isinstance(message, Info):
                return 200, info_reply(self.name, self._busy(received))
            if isinstance(message, Preview):
                return 200, "busy" if self._busy(received) else "ready"
            if isinstance(message, Start):
                return self._on_start(message, received)
            if isinstance(message, Play):
                return self._on_play(message, received)
            if isinstance(message, Abort):
                return self._on_end(message.match_id, "aborted")
        except MessageError as exc:
            return 400, f"error: {exc}"
        except ProtocolError as exc:
            return 409, f"error: {exc}"
        except Exception as exc:  # noqa: BLE001 - a player must answer every message
            log.exception("failed to handle %r", text[:200])
            return 500, f"error: {type(exc).__name__}: {exc}"
        return 400, "error: unsupported message"

    def close(self) -> None:
        """Stop the current match's search and release the chooser (for a clean
        shutdown)."""
        with self._lock:
            if self._match is not None:
                self._match.abandon()
                self._match = None
            self._gc.release()
        self.chooser.close()

    # ------------------------------------------------------------------ messages
    def _busy(self, now: float) -> bool:
        with self._lock:
            return self._match is not None and now - self._match.last_heard < self.stale_after

    def _on_start(self, start: Start, received: float) -> tuple[int, str]:
        with self._lock:
            current = self._match
            if current is not None and received - current.last_heard < self.stale_after:
                return 200, "ready" if current.start == start else "busy"
            if current is not None:  # abandoned by its manager
                current.abandon()
                self._gc.release()
            match = self._match = _Match(start, received)
        deadline = received + start.start_clock - self.margin
        threading.Thread(target=self._prepare, args=(match, deadline), daemon=True,
                         name=f"ggp-prepare-{start.match_id}").start()
        match.ready.wait(max(0.0, deadline - time.monotonic()))
        if match.error is not None:
            with self._lock:
                if self._match is match:
                    self._match = None
                    self._gc.release()
            return 400, f"error: {match.error}"
        return 200, "ready"

    def _prepare(self, match: _Match, deadline: float) -> None:
        """Parse, validate and compile the rules (runs during the start clock, which ends
        at ``deadline``); the postponed full collection runs first (see _QuietGC).

        One preparation runs at a time, and one whose match was aborted (or replaced)
        stops after its current stage and drops what it built: abandoned STARTs cannot
        pile up rule sets in memory."""
        with self._preparing:
            if match.cancelled.is_set():
                match.ready.set()
                return
            self._prepare_now(match, deadline)
            if match.cancelled.is_set():
                match.model = match.game = match.tracker = match.state = None

    def _prepare_now(self, match: _Match, deadline: float) -> None:
        start = match.start
        self._gc.collect(until=deadline)
        with self._lock:
            if self._match is match:
                self._gc.hold()
        try:
            desc = parse_description(start.rules, f"match {start.match_id}", "kif")
            if match.cancelled.is_set():
                return
            # a role named random that is given to a player is a player, not nature
            gdl_ii = detect_gdl_ii(desc) and start.role != NATURE
            # a random role without sees rules: GDL-II (guessSix) or GDL (beatMania);
            # the first PLAY after NIL tells (see _update)
            match.ambiguous = gdl_ii and not is_gdl_ii(desc)
            if self.budget is not None:
                check_budget({"gdl": start.rules, "gdl_ii": gdl_ii}, self.budget,
                             "these rules")
                if match.cancelled.is_set():
                    return
            self._load(match, gdl_ii)
            if self._gc.holding:
                gc.freeze()  # what preparation built is never scanned either
        except GGPError as exc:
            match.error = f"cannot play these rules: {exc}"
        except Exception as exc:  # noqa: BLE001 - reported to the server, not raised
            log.exception("preparing match %s failed", start.match_id)
            match.error = f"cannot play these rules: {type(exc).__name__}: {exc}"
        finally:
            match.ready.set()

    def _load(self, match: _Match, gdl_ii: bool) -> None:
        """Build the world model and the match state for the rules (GDL or GDL-II)."""
        start = match.start
        model = load_gdl_text(start.rules, name=start.match_id, syntax="kif", gdl_ii=gdl_ii)
        # the match follows the game with the engine the world model built (one compilation)
        game = MatchGame(start.rules, gdl_ii=gdl_ii, reasoner=model.namespace.engine)
        if start.role not in model.namespace.players:
            raise ProtocolError(f"role {start.role!r} is not a player of this game "
                                f"(roles: {', '.join(game.roles)})")
        match.model, match.game = model, game
        match.player = model.namespace.players.index(start.role)
        match.tracker = HypothesisTracker(game, start.role, rng=self.rng) if gdl_ii else None
        match.state = None if gdl_ii else game.initial()
        match.actions, match.asked = [], []
        self.chooser.prepare(model)

    def _on_end(self, match_id: str, reply: str) -> tuple[int, str]:
        with self._lock:
            match = self._match
            if match is None or match.start.match_id != match_id:
                return 200, "busy"
            match.abandon()
            self._match = None
            self.matches_ended += 1
            self._gc.release()
        return 200, reply

    def _on_play(self, play: Play, received: float) -> tuple[int, str]:
        with self._lock:
            match = self._match
            if match is None or match.start.match_id != play.match_id:
                return 200, "busy"
            match.last_heard = received
        if play.stop:
            return self._on_end(play.match_id, "done")
        clock = match.start.play_clock
        deadline = received + max(0.1 * clock, clock - self.margin - self._lag)
        with match.lock:
            self._check_order(match, play)
            step = match.plays
            match.plays += 1
            match.halt()
            turn = _Turn()
            previous, match.turn = match.worker, turn
            match.worker = threading.Thread(
                target=self._work, args=(match, play, step, turn, previous,
                                         deadline - _HANDOFF),
                daemon=True, name=f"ggp-play-{play.match_id}-{match.plays}")
            match.worker.start()
        turn.done.wait(max(0.0, deadline - time.monotonic()))
        move = turn.move
        if move is None:
            move = self.rng.choice(turn.legal) if turn.legal else FALLBACK_MOVE
            turn.stop.set()
            log.info("match %s: no move chosen in time, answering %s", play.match_id, move)
        match.last_reply = move
        # On a loaded machine threads wake up late; remember by how much (decaying) and
        # aim that much earlier next time.
        self._lag = max(time.monotonic() - deadline, 0.8 * self._lag, 0.0)
        return 200, move

    @staticmethod
    def _check_order(match: _Match, play: Play) -> None:
        """Refuse PLAYs that cannot follow the ones already accepted."""
        if match.five_field is not None and match.five_field != play.five_field:
            raise ProtocolError("this match mixes the 3-field and 5-field PLAY forms")
        if play.five_field:
            if play.turn != match.plays:
                raise ProtocolError(f"expected turn {match.plays}, got turn {play.turn}")
        elif match.plays == 0 and play.items is not None:
            if not (match.ready.is_set() and match.game and not match.game.gdl_ii):
                raise ProtocolError("the first PLAY must carry NIL")
            # GDL: the PLAY NIL was missed (it came before the START was handled, e.g.
            # while the process stalled); this one's joint move was made from the
            # initial state, so the match can go on instead of failing every PLAY
            log.warning("match %s: first PLAY carries moves; the PLAY NIL was missed",
                        match.start.match_id)
            match.plays = 1
        elif play.items is None and match.plays and match.game and not match.game.gdl_ii:
            raise ProtocolError("only the first PLAY of a GDL match carries NIL")
        match.five_field = play.five_field

    # ------------------------------------------------------------------ worker
    def _work(self, match: _Match, play: Play, step: int, turn: _Turn,
              previous: threading.Thread | None, deadline: float) -> None:
        """Bring the match up to date with ``play`` (the PLAY of step ``step``, counted
        from 0), then choose a move by ``deadline``."""
        try:
            if previous is not None:
                previous.join()  # updates happen one turn at a time, in order
            match.ready.wait()
            if match.error is not None:
                return
            self._gc.collect_in_match(until=deadline)
            if step > 0:
                if match.tracker is not None:
                    # the fallback if tracking this step takes all the time
                    turn.legal = self._guess_legal(match, play)
                self._update(match, play, _share(deadline, 0.5))
            if match.tracker is not None and match.tracker.hypotheses:
                # a first guess at the legal moves, in case tracking takes all the time
                state = match.tracker.hypotheses[0].state
                turn.legal = match.game.legal(state)[match.start.role]
            if turn.stop.is_set():
                return
            decision = self._decision(match, step, _share(deadline, 0.5))
            turn.legal = decision.legal
            if len(decision.legal) == 1:
                turn.move = decision.legal[0]
            else:
                turn.move = self.chooser.choose(decision, deadline, turn.stop)
        except Stopped:
            pass
        except Exception:  # noqa: BLE001 - the handler answers with a fallback move
            log.exception("choosing a move in match %s failed", match.start.match_id)
        finally:
            turn.done.set()

    def _update(self, match: _Match, play: Play, deadline: float) -> None:
        """Apply what a PLAY after the first tells: the joint move (GDL), or this role's
        executed move and percepts (GDL-II; the 3-field form carries no move, so the
        player's own last reply is assumed)."""
        if match.ambiguous:
            match.ambiguous = False
            # without sees rules GDL-II percepts are always empty; a full joint move
            # means the server plays plain GDL, with random an ordinary role
            if not play.five_field and play.items and len(play.items) == len(match.game.roles):
                self._load(match, gdl_ii=False)
        game = match.game
        assert game is not None
        if not game.gdl_ii:
            if play.items is None or len(play.items) != len(game.roles):
                log.warning("PLAY %s does not carry one move per role %s", play.items,
                            game.roles)
                return
            joint = dict(zip(game.roles, play.items))
            # the world model takes a step one role at a time, asking only roles with a
            # choice (ggp.gdl.adapter): the same moves as its actions
            legal = game.legal(match.state)
            match.actions += [canonical_move(joint[r]) or joint[r] for r in game.roles
                              if len(legal[r]) > 1]
            match.state, _ = game.step(match.state, joint)
            return
        move = play.last_move if play.five_field else None
        move = move or match.last_reply or FALLBACK_MOVE
        percepts = play.items or ()
        assert match.tracker is not None
        match.tracker.observe(move, percepts, deadline)

    def _guess_legal(self, match: _Match, play: Play) -> list[str] | None:
        """This role's legal moves in one likely successor of the current belief (GDL-II):
        one hypothesis advanced by this role's executed move and random moves of the others,
        its percepts not checked. One engine step, so even a turn whose tracking runs out of
        time answers a move that is legal in a state the player thinks possible (the move
        a GDL-II game master takes for an illegal one is unspecified)."""
        tracker, game, role = match.tracker, match.game, match.start.role
        assert tracker is not None and game is not None
        if not tracker.hypotheses:
            return None
        state = tracker.hypotheses[0].state
        legal = game.legal(state)
        move = (play.last_move if play.five_field else None) or match.last_reply
        joint = {r: self.rng.choice(moves) for r, moves in legal.items() if moves}
        if len(joint) != len(game.roles):
            return None
        if move in legal[role]:
            joint[role] = move
        successor, _ = game.step(state, joint)
        return game.legal(successor)[role] or None

    def _decision(self, match: _Match, step: int, deadline: float) -> Decision:
        game, model, role = match.game, match.model, match.start.role
        assert game is not None and model is not None
        players = model.namespace.players
        if not game.gdl_ii:
            state = match.state
            options = [(self._base_state(game.fluents(state), step, None, players),
                        game.legal(state))]
        else:
            assert match.tracker is not None
            hypotheses = match.tracker.ensure(deadline, going_on=True)  # asked to move
            options = [(self._base_state(game.fluents(h.state), step, h.records, players),
                        game.legal(h.state)) for h in hypotheses]
        legal = options[0][1][role]
        earlier = game.roles[: game.roles.index(role)]
        # MCTS would let a role choosing later in the same (sequentialized) step see our
        # choice: any simultaneous choice makes it an ISMCTS decision
        exact = not game.gdl_ii and not any(len(options[0][1][r]) > 1
                                            for r in game.roles if r != role)

        def sample_root(rng: random.Random) -> dict:
            base, legal_moves = options[0] if len(options) == 1 else rng.choice(options)
            root = dict(base)
            root["pending"] = {r: rng.choice(legal_moves[r]) for r in earlier
                               if len(legal_moves[r]) > 1}
            return root

        if not game.gdl_ii:
            return Decision(model, match.player, legal, sample_root, exact,
                            actions=list(match.actions))
        if len(legal) > 1 and step not in match.asked:
            match.asked.append(step)
        return Decision(model, match.player, legal, sample_root, exact,
                        view=self._view(match, step))

    @staticmethod
    def _view(match: _Match, step: int) -> list[tuple[dict, str | None]]:
        """This role's observations at its decision points up to ``step`` (now), with its
        moves there: what the world model's ``resample_history`` takes (GDL-II)."""
        assert match.tracker is not None
        record = [(canonical_move(m) or m, list(p)) for m, p in match.tracker.record]

        def seen(k: int) -> dict:
            return {"role": match.start.role, "step": k,
                    "history": [[m, list(p)] for m, p in record[:k]], "pending": {}}

        return [(seen(k), record[k][0]) for k in match.asked if k < step] + [(seen(step), None)]

    @staticmethod
    def _base_state(fluents: frozenset, step: int, records: dict | None,
                    players: list[str]) -> dict:
        """The world-model adapter's state for a set of true fluents (ggp.gdl.adapter)."""
        base = {"step": step, "true": sorted(to_kif(f) for f in fluents), "pending": {}}
        if records is not None:
            base["history"] = {r: [[m, list(p)] for m, p in records[r]] for r in players}
        return base
