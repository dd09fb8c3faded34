"""Choosing, racing and checking the GDL engines.

Every engine in :mod:`ggp.gdl` satisfies :class:`Reasoner` (declared in
:mod:`ggp.gdl.engine`, re-exported here as the one place callers import it from) and
carries an :class:`EngineInfo`:

* :class:`ggp.gdl.naive.NaiveReasoner`: a plain interpreter, the oracle and baseline;
* :class:`ggp.gdl.compiled.CompiledReasoner`: rules compiled to Python, no grounding;
* :class:`ggp.gdl.grounded.GroundedReasoner`: a grounded game over bitset states.

:func:`make_reasoner` picks the engine for a rule set (grounded when the game grounds and
is measured faster in a race, else compiled); :func:`measure_speeds` is that race;
:func:`first_disagreement` walks two engines through the same random playouts and names
the first query they answer differently (what ggp-base's ``StateMachineVerifier`` does).
"""

from __future__ import annotations

import random
import threading
import time
from collections import OrderedDict

from ggp.gdl.compiled import CompiledReasoner
from ggp.gdl.engine import EngineInfo, EngineState, GroundTerm, Reasoner
from ggp.gdl.ground import GroundingLimits, NotGroundable, ground
from ggp.gdl.grounded import GroundedReasoner
from ggp.gdl.terms import Rule, to_kif

__all__ = ["ENGINES", "EngineInfo", "EngineState", "GroundTerm", "RACE_SECONDS", "Reasoner",
           "first_disagreement", "make_reasoner", "measure_speeds"]

#: The values of ``make_reasoner``'s ``engine`` argument.
ENGINES = ("auto", "grounded", "compiled")

RACE_SECONDS = 0.25  # CPU time of this thread per engine when make_reasoner measures
_RACE_SLICES = 5
_RACES: "OrderedDict[tuple, dict[str, float]]" = OrderedDict()  # rules -> measured speeds
_RACES_LOCK = threading.Lock()


def make_reasoner(rules: list[Rule], engine: str = "auto",
                  limits: GroundingLimits = GroundingLimits(),
                  race_seconds: float = RACE_SECONDS) -> Reasoner:
    """The fastest reasoner for ``rules``: ``engine`` "auto", "grounded" (raise
    :class:`NotGroundable` if impossible) or "compiled".

    "auto": when the game grounds within ``limits``, both engines play the same random
    playouts for ``race_seconds`` of this thread's CPU time each (interleaved, so load
    changes touch both alike; :func:`measure_speeds`) and the one with more steps per CPU
    second is returned; the grounded engine's lazily generated functions are built only
    as far as the race needs them and dropped with it when it loses. A game that does not
    ground gets the compiled engine. A grounded engine that wins steps *cold* joint moves
    through a compiled engine of its own until generating their functions pays
    (:meth:`GroundedReasoner._joint_function`). The engine's :class:`EngineInfo` says
    which it is, why it is not the grounded one, and the race's speeds (steps per CPU
    second of each engine raced, else None). Speeds are remembered per rule set."""
    if engine not in ENGINES:
        raise ValueError(f"unknown GDL engine {engine!r} (expected auto, grounded or compiled)")
    if engine != "compiled":
        try:
            grounded = GroundedReasoner(ground(rules, limits))
            grounded.check_step_code(limits.max_step_chars)
        except NotGroundable as exc:
            if engine == "grounded":
                raise
            reason = str(exc)
        except Exception as exc:  # noqa: BLE001 - "auto" must still load the game
            if engine == "grounded":
                raise
            reason = f"grounding failed ({type(exc).__name__}: {exc})"
        else:
            if engine == "grounded":
                return grounded  # every joint move generated: what the tests check
            compiled = CompiledReasoner(rules)
            speeds = _race(rules, limits, grounded, compiled, race_seconds)
            if speeds["grounded"] >= speeds["compiled"]:
                # raced generating every joint move (the race leaves that cost out); in
                # play, rare joint moves go through the compiled engine that lost
                grounded.cold_engine = compiled
                grounded.info = EngineInfo("grounded", speeds=speeds)
                return grounded
            compiled.info = EngineInfo("compiled", speeds=speeds, why_not_grounded=(
                f"the compiled engine was faster in measured playouts ({speeds['compiled']:,.0f}"
                f" vs {speeds['grounded']:,.0f} steps per CPU second)"))
            return compiled
    else:
        reason = "the compiled engine was asked for"
    fallback = CompiledReasoner(rules)
    fallback.info = EngineInfo("compiled", why_not_grounded=reason)
    return fallback


def _race(rules: list[Rule], limits: GroundingLimits, grounded: GroundedReasoner,
          compiled: CompiledReasoner, seconds: float) -> dict[str, float]:
    key = (tuple(rules), limits, seconds)
    with _RACES_LOCK:
        found = _RACES.get(key)
        if found is None:
            found = _RACES[key] = measure_speeds(
                {"grounded": grounded, "compiled": compiled}, seconds)
            if len(_RACES) > 32:
                _RACES.popitem(last=False)
    return dict(found)


def measure_speeds(engines: dict[str, Reasoner], seconds: float,
                   seed: int = 0) -> dict[str, float]:
    """Steps per CPU second of this thread of each engine on the same random playouts,
    code generation left out.

    A step is the terminal test, every role's legal moves and the next state for a random
    joint move (goals at the end of a playout count with the last step). Every engine
    follows the same playouts from ``seed`` (legal moves come in the same order in every
    engine) for ``seconds`` of CPU time, in interleaved slices; a slice ends at the first
    step past its budget. An engine that raises gets speed 0. Each engine's state queries
    are built first, untimed (the grounded engine generates them on first use).

    The grounded engine generates a function the first time it meets a joint move (in
    the race every joint move is generated). Such a call is left out of its speed and the
    step timed again with the function made: in play, a joint move is generated only once
    stepping it through the compiled engine has cost as much
    (:meth:`GroundedReasoner._joint_function`), so generation costs at most as much again
    as the compiled steps it replaces, and what decides a long game is the speed once the
    moves it meets have functions. Extrapolating the generation
    seen in a short race was tried and misjudged both ways: early steps meet new joint
    moves all the time (chineseCheckers4, breakthrough, amazons were given the compiled
    engine while the grounded one was 2-9x faster over 12 s), and the count of joint moves
    a match meets is not predictable from 0.25 s.

    An engine that has used its share of ``seconds`` plays no more in a slice (a single
    step can take longer than a slice): the race costs at most one step more than
    ``seconds`` per engine."""
    runs = {name: _Playouts(reasoner, seed) for name, reasoner in engines.items()}
    for run in runs.values():
        run.warm_up()
    for i in range(_RACE_SLICES):
        for run in runs.values():
            run.play((i + 1) * seconds / _RACE_SLICES - run.cpu)
    return {name: run.speed() for name, run in runs.items()}


class _Playouts:
    """Random playouts of one engine that can stop after any step and go on later."""

    def __init__(self, reasoner: Reasoner, seed: int) -> None:
        self.reasoner = reasoner
        self.rng = random.Random(seed)
        self.state: EngineState = None
        self.steps = 0
        self.cpu = 0.0
        self.failed = False
        self.gen_cpu = 0.0  # grounded engine: CPU time of the steps that generated code

    def warm_up(self) -> None:
        """Build what an engine builds once, on first use (the grounded engine's legal,
        terminal and goal functions), outside the timed steps."""
        r = self.reasoner
        try:
            state = r.initial_state()
            r.is_terminal(state), r.legal_moves(state), r.goals(state)
        except Exception:  # noqa: BLE001 - a failing engine loses the race
            self.failed = True

    def play(self, budget: float) -> None:
        """Go on with the playouts for ``budget`` CPU seconds (and the step that passes it)."""
        if self.failed or budget <= 0:
            return
        r, rng = self.reasoner, self.rng
        start = time.thread_time()
        end = start + budget
        try:
            while True:
                if self.state is None:
                    self.state = r.initial_state()
                if r.is_terminal(self.state):
                    r.goals(self.state)
                    self.state = None
                    self.steps += 1  # counts as a step (a game may end at once)
                    if time.thread_time() >= end:
                        break
                    continue
                legal = r.legal_moves(self.state)
                joint = {role: rng.choice(moves) for role, moves in legal.items()}
                made = getattr(r, "functions_generated", 0)
                t0 = time.thread_time()
                nxt = r.next_state(self.state, joint)
                if getattr(r, "functions_generated", 0) != made:
                    # the call that generated is left out; the step is timed again with
                    # its function made, as it will run from now on
                    self.gen_cpu += time.thread_time() - t0
                    r.next_state(self.state, joint)
                self.state = nxt
                self.steps += 1
                if time.thread_time() >= end:
                    break
        except Exception:  # noqa: BLE001 - a failing engine loses the race
            self.failed = True
        self.cpu += time.thread_time() - start

    def speed(self) -> float:
        """Steps per CPU second, code generation left out (see measure_speeds)."""
        rest = self.cpu - self.gen_cpu
        if self.failed or rest <= 0 or not self.steps:
            return 0.0
        return self.steps / rest


def first_disagreement(first: Reasoner, second: Reasoner, steps: int,
                       seed: int = 0) -> str | None:
    """Walk both engines through the same random playouts for ``steps`` states and return
    the first difference found (a sentence), or None when they agree everywhere.

    At every state: the fluents (``decode``), each engine's ``encode`` of them giving its
    own state back, terminal, goals; at non-terminal ones also the legal moves (same
    moves, same order), and for one random joint move both engines' percepts and next
    states through ``step``, and ``next_state`` giving the same state as ``step``. A
    terminal state starts a new playout. The joint moves come from ``seed``, so a
    failure can be replayed. This is ggp-base's ``StateMachineVerifier``: the naive
    interpreter is the oracle, every faster engine is checked against it and each other
    (``tests/gdl/test_gdl_engines.py``)."""
    if first.roles != second.roles:
        return f"roles differ: {first.roles} vs {second.roles}"
    rng = random.Random(seed)
    a = b = None
    history: list[str] = []  # the joint moves of this playout, for the report
    for _ in range(steps):
        if a is None:
            a, b, history = first.initial_state(), second.initial_state(), []
        where = "the initial state" if not history else "the state after " + " ".join(history)
        found = _state_difference(first, second, a, b)
        if found:
            return f"{found} in {where}"
        if first.is_terminal(a):
            a = None
            continue
        legal = first.legal_moves(a)
        if legal != second.legal_moves(b):
            return (f"legal moves differ in {where}: {_texts(legal)} vs "
                    f"{_texts(second.legal_moves(b))}")
        joint = {role: rng.choice(moves) for role, moves in legal.items()}
        history.append("[" + ", ".join(f"{r} {to_kif(m)}" for r, m in joint.items()) + "]")
        (a2, pa), (b2, pb) = first.step(a, joint), second.step(b, joint)
        if pa != pb:
            return f"percepts differ after {' '.join(history)}: {_texts(pa)} vs {_texts(pb)}"
        for label, engine, state, nxt in (("first", first, a, a2), ("second", second, b, b2)):
            if engine.decode(engine.next_state(state, joint)) != engine.decode(nxt):
                return (f"the {label} engine ({engine.info.name}): next_state and step "
                        f"disagree after {' '.join(history)}")
        a, b = a2, b2
    return None


def _state_difference(first: Reasoner, second: Reasoner, a: EngineState,
                      b: EngineState) -> str | None:
    fa, fb = first.decode(a), second.decode(b)
    if fa != fb:
        only_a, only_b = sorted(map(to_kif, fa - fb)), sorted(map(to_kif, fb - fa))
        return f"states differ (only in the first: {only_a}; only in the second: {only_b})"
    for label, engine, state in (("first", first, a), ("second", second, b)):
        if engine.encode(fa) != state:
            return (f"the {label} engine ({engine.info.name}): encode does not give its "
                    "state back")
    if first.is_terminal(a) != second.is_terminal(b):
        return f"terminal differs ({first.is_terminal(a)} vs {second.is_terminal(b)})"
    if first.goals(a) != second.goals(b):
        return f"goals differ ({first.goals(a)} vs {second.goals(b)})"
    return None


def _texts(per_role: dict[str, list]) -> dict[str, list[str]]:
    return {role: [to_kif(t) for t in terms] for role, terms in per_role.items()}
