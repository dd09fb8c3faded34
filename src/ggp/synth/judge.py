"""The judge of synthesis tests: runs a test's plan against a boxed candidate and decides,
in this process, whether it passed.

A :class:`~ggp.synth.unit_tests.UnitTest` carries, next to the ``unittest`` source shown
to the language model, a *plan*: the same test as data. The judge sends the plan's model
calls to a :class:`~ggp.sandbox.modelbox.CallBox` (states and actions as arguments, never
an expected value), gets back what each call returned, and compares here with the same
``unittest`` assertions the source shows, so the messages read as before. A candidate
that tampers with everything inside its box can only change what its calls appear to
return: it cannot see the expected values, so it cannot make a test pass that its
functions would fail (docs/sandbox.md).

Plans (``plan["kind"]``): ``transition``, ``terminal``, ``replay`` (recorded moves replayed
from the initial state, only what the players see compared), ``random_play``, ``inference``
(``resample_history`` replayed) and ``state_inference`` (``resample_state``); their fields
are written by the generators in :mod:`ggp.synth.unit_tests` and
:mod:`ggp.synth.state_inference`.
"""

from __future__ import annotations

import random
import time
import traceback
import unittest
from collections.abc import Callable
from typing import Any

from ggp.core.protocol import TERMINAL
from ggp.sandbox.modelbox import CallBox, lit, pairs, slot, step

#: Largest pair of values (their ``repr`` lengths together) that gets ``unittest``'s diff
#: in a failure message; beyond it the message is short (a diff of megabytes is slow).
_SHOWN = 50_000
_OUTPUT_LINES, _LINE_CHARS = 10, 500


class _Fail(Exception):
    """The test failed; the message is what the language model is shown."""


class _TimedOut(Exception):
    """The test ran out of its time."""


class _Asserter(unittest.TestCase):
    maxDiff = 3000

    def runTest(self) -> None:  # noqa: N802 - a TestCase needs one to be instantiated
        pass


_ASSERT = _Asserter()


def _assertion(check: Callable[..., None], *args: Any) -> None:
    try:
        check(*args)
    except AssertionError as exc:
        raise _Fail(str(exc)) from None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 300 else text[:300] + f"... ({len(text)} characters)"


def _equal(expected: Any, actual: Any, call: str) -> None:
    """``assertEqual(expected, actual, call)``, with a short message for huge values."""
    try:
        if expected == actual:
            return
    except RecursionError:
        pass
    if len(repr(expected)) + len(repr(actual)) <= _SHOWN:
        _assertion(_ASSERT.assertEqual, expected, actual, call)
    raise _Fail(f"{_short(expected)} != {_short(actual)} : {call}")


class _Session:
    """One test's calls into the box, under the test's time budget."""

    def __init__(self, box: CallBox, seconds: float) -> None:
        self.box, self.seconds = box, seconds
        self.started = time.monotonic()
        self.lines: list[str] = []
        self._fresh = True

    def ask(self, steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
        left = self.seconds - (time.monotonic() - self.started)
        if left <= 0:
            raise _TimedOut
        results, output = self.box.run(steps, left, reset=self._fresh)
        self._fresh = False
        if output:
            self.lines += output.splitlines()
        return results

    def print(self, text: str) -> None:
        self.lines += text.splitlines()
        del self.lines[:-_OUTPUT_LINES]

    def output(self) -> str:
        return "\n".join(line[:_LINE_CHARS] for line in self.lines[-_OUTPUT_LINES:])


def _value(results: list[dict[str, Any]], index: int, call: str) -> Any:
    """The value of step ``index``, or the failure it stands for."""
    if index >= len(results):  # an earlier step failed; its failure is reported first
        raise _Fail(f"{call} was not reached")
    result = results[index]
    if "ok" in result:
        return result["ok"]
    if "timeout" in result:
        raise _TimedOut
    if "missing" in result:
        name = call.split("(", 1)[0]
        raise _Fail(f"NameError: name {name!r} is not defined ({call})")
    if "unjson" in result:
        raise _Fail(f"{call} returned a value that is not JSON-serializable: "
                    f"{result['unjson']}")
    return _raise_error(result, call)


def _raise_error(result: dict[str, Any], call: str) -> Any:
    raise _Fail(f"{call} raised:\n{result['error'].rstrip()}")


def _start_step(initial: Any) -> dict[str, Any]:
    if initial is None:
        return step("INITIAL_STATE", keep="s")
    return step("=", lit(initial), keep="s")


# ------------------------------------------------------------------------ the plans
def _transition(session: _Session, plan: dict[str, Any]) -> None:
    steps = [step("=", lit(plan["state"]), keep="s")]
    where: dict[str, int] = {}

    def add(key: str, call: dict[str, Any]) -> None:
        where[key] = len(steps)
        steps.append(call)

    if plan.get("check_initial"):
        add("initial", step("INITIAL_STATE"))
    add("player", step("get_current_player", slot("s")))
    if plan.get("player_name"):
        add("name", step("get_player_name", lit(plan["player"])))
    add("rewards", step("get_rewards", slot("s")))
    add("observations", step("get_observations", slot("s")))
    if plan["kind"] == "transition":
        add("legal", step("get_legal_actions", slot("s")))
        if plan.get("chance"):
            add("chance", step("get_chance_outcomes", slot("s"), optional=True))
        add("apply", step("apply_action", slot("s"), lit(plan["action"])))
    else:
        add("legal", step("get_legal_actions", slot("s")))
    results = session.ask(steps)

    def value(key: str, call: str) -> Any:
        return _value(results, where[key], call)

    if "initial" in where:
        _equal(plan["state"], value("initial", "INITIAL_STATE"), "INITIAL_STATE")
    player = TERMINAL if plan["kind"] == "terminal" else plan["player"]
    _equal(player, value("player", "get_current_player(state)"), "get_current_player(state)")
    if "name" in where:
        call = f"get_player_name({plan['player']})"
        _assertion(_ASSERT.assertEqual, plan["player_name"], value("name", call), call)
    _equal(plan["rewards"], value("rewards", "get_rewards(state)"), "get_rewards(state)")
    _equal(plan["observations"], value("observations", "get_observations(state)"),
           "get_observations(state)")
    if plan["kind"] == "terminal":
        legal = list(value("legal", "get_legal_actions(state)"))
        _equal([], legal, "get_legal_actions(state)")
        return
    actual = set(value("legal", "get_legal_actions(state)"))
    _assertion(_ASSERT.assertSetEqual, set(plan["legal"]), actual, "get_legal_actions(state)")
    if "chance" in where:
        _chance(plan["chance"], results[where["chance"]],
                list(value("legal", "get_legal_actions(state)")))
    action = plan["action"]
    _equal(plan["next"], value("apply", f"apply_action(state, {action!r})"),
           f"apply_action(state, {action!r})")


def _replay(session: _Session, plan: dict[str, Any]) -> None:
    """A game's recorded moves replayed from ``INITIAL_STATE`` (states kept in the box,
    never sent back nor compared), what the players see checked before the moves named in
    ``checks`` and, with ``terminal``, at the end (:func:`ggp.synth.unit_tests.replay_tests`)."""
    moves, checks = plan["moves"], {ply: want for ply, want in plan["checks"]}
    steps = [step("INITIAL_STATE", keep="s", quiet=True)]
    # in the order the test's source asserts: ("apply", ply, index) for each move made,
    # ("probe", ply, {call: index}) for each check
    order: list[tuple[str, int, Any]] = []

    def probe(want: dict[str, Any], ply: int) -> None:
        calls = {"player": step("get_current_player", slot("s")),
                 "rewards": step("get_rewards", slot("s")),
                 "observations": step("get_observations", slot("s")),
                 "legal": step("get_legal_actions", slot("s"))}
        if "name" in want:
            calls["name"] = step("get_player_name", lit(want["player"]))
        if "chance" in want:
            calls["chance"] = step("get_chance_outcomes", slot("s"), optional=True)
        where = {}
        for key, call in calls.items():
            where[key] = len(steps)
            steps.append(call)
        order.append(("probe", ply, (want, where)))

    for ply, move in enumerate(moves):
        if ply in checks:
            probe(checks[ply], ply)
        order.append(("apply", ply, len(steps)))
        steps.append(step("apply_action", slot("s"), lit(move), keep="s", quiet=True))
    if plan.get("terminal") is not None:
        probe({**plan["terminal"], "player": TERMINAL, "legal": []}, len(moves))
    results = session.ask(steps)
    _state(results, 0, "INITIAL_STATE")
    for kind, ply, detail in order:
        where = f" after moves[:{ply}]"
        if kind == "apply":
            _state(results, detail, f"apply_action(state, {moves[ply]!r}){where}")
            continue
        want, index = detail

        def value(key: str, call: str, index: dict = index, where: str = where) -> Any:
            return _value(results, index[key], call + where)

        _equal(want["player"], value("player", "get_current_player(state)"),
               "get_current_player(state)" + where)
        if "name" in want:
            call = f"get_player_name({want['player']})"
            _assertion(_ASSERT.assertEqual, want["name"], value("name", call), call)
        _equal(want["rewards"], value("rewards", "get_rewards(state)"),
               "get_rewards(state)" + where)
        _equal(want["observations"], value("observations", "get_observations(state)"),
               "get_observations(state)" + where)
        legal = list(value("legal", "get_legal_actions(state)"))
        if want["player"] == TERMINAL:
            _equal([], legal, "get_legal_actions(state)" + where)
            continue
        _assertion(_ASSERT.assertSetEqual, set(want["legal"]), set(legal),
                   "get_legal_actions(state)" + where)
        if "chance" in want:
            _chance(want["chance"], results[index["chance"]], legal)


def _state(results: list[dict[str, Any]], index: int, call: str) -> None:
    """A state the box kept (its value is not sent back): the call must have succeeded
    and made a dict, the protocol's state type (its layout is the model's own)."""
    _value(results, index, call)
    kind = results[index].get("type")
    if kind != "dict":
        raise _Fail(f"{call} returned a {kind}; a state must be a dict")


def _chance(expected: dict[str, float], result: dict[str, Any], legal: list) -> None:
    """``assertChanceOutcomes``: the outcome probabilities, or equally likely legal
    actions when the model has no ``get_chance_outcomes``."""
    if "missing" in result:
        call = "equally likely get_legal_actions(state) (no get_chance_outcomes)"
        actual = {outcome: 1.0 / len(legal) for outcome in legal}
    else:
        call = "get_chance_outcomes(state)"
        actual = {outcome: p for outcome, p in _value([result], 0, call)}
    _assertion(_ASSERT.assertEqual, sorted(expected), sorted(actual), call)
    for outcome, p in expected.items():
        _assertion(_ASSERT.assertAlmostEqual, p, actual[outcome], 6, f"{call}: {outcome!r}")


def _random_play(session: _Session, plan: dict[str, Any]) -> None:
    rng = random.Random(plan["seed"])
    probe = [step("get_current_player", slot("s")), step("get_rewards", slot("s")),
             step("get_legal_actions", slot("s"))]
    steps = [_start_step(plan.get("initial")), *probe]
    action: Any = None
    for _ in range(plan["max_steps"]):
        results = session.ask(steps)
        state = _value(results, 0, "INITIAL_STATE" if action is None
                       else f"apply_action(state, {action!r})")
        player = _value(results, 1, "get_current_player(state)")
        rewards = _value(results, 2, "get_rewards(state)")
        _assertion(_ASSERT.assertEqual, plan["players"], len(rewards),
                   f"get_rewards gave {rewards!r}")
        if player == TERMINAL:
            return
        legal = list(_value(results, 3, "get_legal_actions(state)"))
        session.print(f"player {player} in state {state}; legal actions {legal[:10]}")
        _assertion(_ASSERT.assertTrue, legal, "no legal actions in a non-terminal state")
        action = rng.choice(sorted(legal))
        session.print(f"player {player} takes {action!r}")
        steps = [step("apply_action", slot("s"), lit(action), keep="s"), *probe]
    raise _Fail(f"no terminal state after {plan['max_steps']} random steps")


def _inference(session: _Session, plan: dict[str, Any]) -> None:
    history, player = plan["history"], plan["player"]
    last_is_terminal = plan.get("last_is_terminal")
    extra = {} if last_is_terminal is None else {"last_is_terminal": lit(last_is_terminal)}
    results = session.ask([step("resample_history", pairs(history), lit(player), **extra),
                           _start_step(plan.get("initial")),
                           step("get_current_player", slot("s"))])
    actions = _value(results, 0, "resample_history(history, player_id)")
    session.print(f"resample_history returned {actions!r}")
    state = _value(results, 1, "INITIAL_STATE")
    current = _value(results, 2, "get_current_player(state)")
    views = iter(history)
    observation, own_action = next(views)
    for action in actions:
        mine = current == player
        steps = [step("get_observations", slot("s"))] if mine else []
        steps += [step("apply_action", slot("s"), lit(action), keep="s"),
                  step("get_current_player", slot("s"))]
        results = session.ask(steps)
        if mine:
            seen = _value(results, 0, "get_observations(state)")
            _equal(observation, seen[player], "the player's observation in the replayed state")
            _assertion(_ASSERT.assertEqual, own_action, action, "the player's own action")
            observation, own_action = next(views, (None, "no observation left"))
        session.print(f"in state {state} taking {action!r}")
        state = _value(results, int(mine), f"apply_action(state, {action!r})")
        current = _value(results, int(mine) + 1, "get_current_player(state)")
    expected_player = TERMINAL if last_is_terminal else player
    _equal(expected_player, current, "get_current_player at the end of the replayed history")
    seen = _value(session.ask([step("get_observations", slot("s"))]), 0,
                  "get_observations(state)")
    _equal(observation, seen[player], "the player's last observation")
    _assertion(_ASSERT.assertIsNone, next(views, None),
               "observations left over after the history")


def _state_inference(session: _Session, plan: dict[str, Any]) -> None:
    history, player = plan["history"], plan["player"]
    results = session.ask([step("resample_state", pairs(history), lit(player), keep="s"),
                           step("get_current_player", slot("s")),
                           step("get_observations", slot("s")),
                           step("get_legal_actions", slot("s"))])
    state = _value(results, 0, "resample_state(history, player_id)")
    session.print(f"resample_state returned {state!r}")
    _assertion(_ASSERT.assertIsInstance, state, dict, "resample_state must return a state dict")
    _equal(player, _value(results, 1, "get_current_player(state)"),
           "get_current_player of the sampled state")
    seen = _value(results, 2, "get_observations(state)")
    _equal(history[-1][0], seen[player], "the player's observation in the sampled state")
    _assertion(_ASSERT.assertTrue, _value(results, 3, "get_legal_actions(state)"),
               "no legal actions in the sampled state")


_PLANS: dict[str, Callable[[_Session, dict[str, Any]], None]] = {
    "transition": _transition,
    "terminal": _transition,
    "random_play": _random_play,
    "inference": _inference,
    "state_inference": _state_inference,
    "replay": _replay,
}


def judge(box: CallBox, plan: dict[str, Any], seconds: float) -> tuple[bool, str | None, str]:
    """Run ``plan`` against the candidate in ``box`` within ``seconds``; returns
    ``(passed, error, output)``. :class:`~ggp.sandbox.SandboxFailure` (the box died) is
    left to the caller."""
    session = _Session(box, seconds)
    try:
        _PLANS[plan["kind"]](session, plan)
    except _Fail as failure:
        return False, str(failure), session.output()
    except _TimedOut:
        return False, f"Timed out: the test took more than {seconds:g} seconds.", \
            session.output()
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError,
            RecursionError, StopIteration) as exc:
        # what the test's own code would have raised on the values the model returned
        return False, "".join(traceback.format_exception_only(type(exc), exc))[-2000:], \
            session.output()
    return True, None, session.output()


__all__ = ["judge"]
