"""Unit tests generated from trajectories, rendered as readable ``unittest`` code.

Three kinds of test (seed 000 §4.1, App. G.2 and G.5):

* ``transition`` — one per non-final step of an open-deck trajectory: from the recorded
  state, every protocol function must give the recorded answer (current player, player
  name, rewards, observations, legal actions as a set, chance probabilities at chance
  nodes when recorded, and the next state after the recorded action); step 0 also checks
  ``INITIAL_STATE``.
* ``terminal`` — the last state of a finished game: terminal player, final rewards,
  observations, no legal actions.
* ``random_play`` — from the recorded initial state, seeded random play must run without
  errors, give one reward per player and reach a terminal state within a step bound.
* Tests on what the players see (``states=False``, for sources whose programs choose
  their own state layout: GDL descriptions): the ``transition`` tests of a game are
  segments of its recorded moves, replayed from ``INITIAL_STATE``, comparing at each step
  of the segment the current player, player name, rewards, observations, legal actions
  and chance probabilities, never a state; its ``terminal`` test replays the whole game
  and checks the end. ``random_play`` and ``inference`` tests then start from
  ``INITIAL_STATE`` too.
* ``inference`` (optional, App. G.3 and G.5) — one per decision point of a player: the
  model's ``resample_history`` must return a full action list (chance included) that,
  replayed with ``apply_action`` from the initial state, reproduces exactly that player's
  observations and own actions and ends at its turn (in a closed-deck game's last test,
  called with ``last_is_terminal=True``, at the end of the game).

Expected values are JSON literals; results are normalized through JSON before comparing
(so a tuple equals a list, as the protocol says), and ``unittest``'s messages show the
expected and the actual value. The source is what the LLM reads; what runs is the test's
``plan``, the same test as data: :mod:`ggp.synth.judge` sends its model calls to the
candidate's box and makes the source's comparisons in the parent, so expected values
never enter the box and a candidate cannot forge a pass (docs/sandbox.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from ggp.core.protocol import CHANCE, TERMINAL
from ggp.synth.trajectories import TrajectorySet

KINDS = ("transition", "terminal", "random_play", "inference")

# Defined once at the top of the test module (shown to the LLM with the tests).
PRELUDE = '''\
import json
import random
import unittest


class CWMTestCase(unittest.TestCase):
    maxDiff = 3000

    def assertJSONEqual(self, expected, actual, call):
        """Compare as JSON values, so a tuple equals a list."""
        try:
            actual = json.loads(json.dumps(actual))
        except (TypeError, ValueError) as exc:
            self.fail(f"{call} returned a value that is not JSON-serializable: {exc}")
        self.assertEqual(expected, actual, call)

    def assertChanceOutcomes(self, expected, state):
        """Outcome probabilities; without get_chance_outcomes all are equally likely."""
        if "get_chance_outcomes" in globals():
            call = "get_chance_outcomes(state)"
            actual = {outcome: p for outcome, p in get_chance_outcomes(state)}
        else:
            call = "equally likely get_legal_actions(state) (no get_chance_outcomes)"
            legal = list(get_legal_actions(state))
            actual = {outcome: 1.0 / len(legal) for outcome in legal}
        self.assertEqual(sorted(expected), sorted(actual), call)
        for outcome, p in expected.items():
            self.assertAlmostEqual(p, actual[outcome], 6, f"{call}: {outcome!r}")
'''


@dataclass(frozen=True)
class UnitTest:
    """One generated test: a stable id, its kind, its ``unittest`` source (shown to the
    LLM) and its plan (the same test as data, run by :mod:`ggp.synth.judge`)."""

    id: str
    kind: str
    source: str
    plan: dict[str, Any] = field(default_factory=dict, compare=False, hash=False,
                                 repr=False)


def _lit(value) -> str:
    """A Python literal for a JSON value."""
    return repr(value)


def _who(player: int) -> str:
    return "Chance picks" if player == CHANCE else f"Player {player} takes"


def transition_test(name: str, step, next_step, *, check_initial: bool) -> UnitTest:
    state = _lit(step.state)
    action = step.action
    lines = [
        f"class {name}(CWMTestCase):",
        f'    """{_who(step.current_player)} {action!r}."""',
        "",
        "    def test(self):",
        f"        state = {state}",
    ]
    if check_initial:
        lines.append("        self.assertJSONEqual(state, INITIAL_STATE, 'INITIAL_STATE')")
    lines += [
        f"        self.assertJSONEqual({step.current_player}, get_current_player(state), "
        "'get_current_player(state)')",
    ]
    if step.player_name:
        lines.append(f"        self.assertEqual({step.player_name!r}, "
                     f"get_player_name({step.current_player}), "
                     f"'get_player_name({step.current_player})')")  # names are str
    lines += [
        f"        self.assertJSONEqual({_lit(step.rewards)}, get_rewards(state), "
        "'get_rewards(state)')",
        f"        self.assertJSONEqual({_lit(step.observations)}, get_observations(state), "
        "'get_observations(state)')",
        f"        self.assertSetEqual(set({_lit(sorted(step.legal_actions))}), "
        "set(get_legal_actions(state)), 'get_legal_actions(state)')",
    ]
    if step.current_player == CHANCE and step.chance_outcomes:
        outcomes = {a: round(float(p), 12) for a, p in step.chance_outcomes}
        lines.append(f"        self.assertChanceOutcomes({_lit(outcomes)}, state)")
    lines += [
        f"        self.assertJSONEqual({_lit(next_step.state)}, apply_action(state, "
        f"{action!r}), {f'apply_action(state, {action!r})'!r})",
    ]
    plan = {"kind": "transition", "state": step.state, "check_initial": check_initial,
            "player": step.current_player, "player_name": step.player_name or None,
            "rewards": step.rewards, "observations": step.observations,
            "legal": sorted(step.legal_actions), "action": action, "next": next_step.state,
            "chance": ({a: round(float(p), 12) for a, p in step.chance_outcomes}
                       if step.current_player == CHANCE and step.chance_outcomes else None)}
    return UnitTest(name, "transition", "\n".join(lines) + "\n", plan)


def terminal_test(name: str, step) -> UnitTest:
    lines = [
        f"class {name}(CWMTestCase):",
        '    """The game is over in this state."""',
        "",
        "    def test(self):",
        f"        state = {_lit(step.state)}",
        f"        self.assertJSONEqual({TERMINAL}, get_current_player(state), "
        "'get_current_player(state)')",
        f"        self.assertJSONEqual({_lit(step.rewards)}, get_rewards(state), "
        "'get_rewards(state)')",
        f"        self.assertJSONEqual({_lit(step.observations)}, get_observations(state), "
        "'get_observations(state)')",
        "        self.assertJSONEqual([], list(get_legal_actions(state)), "
        "'get_legal_actions(state)')",
    ]
    plan = {"kind": "terminal", "state": step.state, "rewards": step.rewards,
            "observations": step.observations}
    return UnitTest(name, "terminal", "\n".join(lines) + "\n", plan)


#: A replay test checks consecutive steps until what it expects is about this long (as
#: Python text), at most _MAX_SEGMENT steps: each test replays its game from the start, so
#: longer segments cost less to run, but the tests shown to the model must stay readable
#: (an old transition test of a GDL game, two states and the observations, was ~8 kB).
_SEGMENT_CHARS, _MAX_SEGMENT = 8000, 8

_REPLAY_LOOP = """\
        state = INITIAL_STATE
        for ply, move in enumerate(moves):
            self.assertIsInstance(state, dict, "a state must be a dict")
            if ply in expected:
                want = expected[ply]
                where = f" after moves[:{ply}]"
                self.assertJSONEqual(want["player"], get_current_player(state),
                                     "get_current_player(state)" + where)
                if "name" in want:
                    self.assertEqual(want["name"], get_player_name(want["player"]),
                                     f"get_player_name({want['player']})")
                self.assertJSONEqual(want["rewards"], get_rewards(state),
                                     "get_rewards(state)" + where)
                self.assertJSONEqual(want["observations"], get_observations(state),
                                     "get_observations(state)" + where)
                self.assertSetEqual(set(want["legal"]), set(get_legal_actions(state)),
                                    "get_legal_actions(state)" + where)
                if "chance" in want:
                    self.assertChanceOutcomes(want["chance"], state)
            state = apply_action(state, move)
"""


def _seen(step) -> dict[str, Any]:
    """What a replay test checks at one recorded step (never the state)."""
    want: dict[str, Any] = {"player": step.current_player, "rewards": step.rewards,
                            "observations": step.observations,
                            "legal": sorted(step.legal_actions)}
    if step.player_name:
        want["name"] = step.player_name
    if step.current_player == CHANCE and step.chance_outcomes:
        want["chance"] = {a: round(float(p), 12) for a, p in step.chance_outcomes}
    return want


def _segments(seen: list[dict[str, Any]]) -> list[dict[int, dict[str, Any]]]:
    """Consecutive steps grouped into segments of about :data:`_SEGMENT_CHARS`."""
    segments: list[dict[int, dict[str, Any]]] = []
    size = 0
    for ply, want in enumerate(seen):
        length = len(_lit(want))
        if not segments or size + length > _SEGMENT_CHARS or \
                len(segments[-1]) >= _MAX_SEGMENT:
            segments.append({})
            size = 0
        segments[-1][ply] = want
        size += length
    return segments


def replay_tests(name: str, t: int, trajectory) -> list[UnitTest]:
    """The ``transition`` segments and the ``terminal`` test of one game, judged on what
    the players see: the recorded moves are replayed from ``INITIAL_STATE`` (see the
    module docstring)."""
    steps = trajectory.steps
    moves = [s.action for s in steps[:-1]]
    tests = []
    for expected in _segments([_seen(step) for step in steps[:-1]]):
        first, last = min(expected), max(expected) + 1
        shown = "".join(f"\n            {ply}: {_lit(want)}," for ply, want in expected.items())
        lines = [
            f"class {name}Transition_g{t}_s{first}(CWMTestCase):",
            (f'    """Game {t}, moves {first} to {last - 1}: the recorded moves are replayed '
             "from INITIAL_STATE and what the\n    players see is compared before each of "
             'these moves (the state itself is never compared)."""'),
            "",
            "    def test(self):",
            f"        moves = {_lit(moves[:last])}",
            f"        expected = {{{shown}\n        }}",
            _REPLAY_LOOP,
        ]
        plan = {"kind": "replay", "moves": moves[:last],
                "checks": [[ply, want] for ply, want in expected.items()], "terminal": None}
        tests.append(UnitTest(f"{name}Transition_g{t}_s{first}", "transition",
                              "\n".join(lines), plan))
    if steps and steps[-1].current_player == TERMINAL:
        end = steps[-1]
        source = f'''\
class {name}Terminal_g{t}(CWMTestCase):
    """The recorded moves of game {t}, replayed from INITIAL_STATE, end the game."""

    def test(self):
        moves = {_lit(moves)}
        state = INITIAL_STATE
        for move in moves:
            state = apply_action(state, move)
        self.assertJSONEqual({TERMINAL}, get_current_player(state), 'get_current_player(state)')
        self.assertJSONEqual({_lit(end.rewards)}, get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual({_lit(end.observations)}, get_observations(state),
                             'get_observations(state)')
        self.assertJSONEqual([], list(get_legal_actions(state)), 'get_legal_actions(state)')
'''
        end_plan: dict[str, Any] = {
            "kind": "replay", "moves": moves, "checks": [],
            "terminal": {"rewards": end.rewards, "observations": end.observations}}
        tests.append(UnitTest(f"{name}Terminal_g{t}", "terminal", source, end_plan))
    return tests


def random_play_test(name: str, initial_state, num_players: int, seed: int,
                     max_steps: int = 1000) -> UnitTest:
    start = "INITIAL_STATE" if initial_state is None else _lit(initial_state)
    source = f'''\
class {name}(CWMTestCase):
    """Random play must run without errors and end within {max_steps} steps."""

    def test(self):
        rng = random.Random({seed})
        state = {start}
        for _ in range({max_steps}):
            player = get_current_player(state)
            rewards = get_rewards(state)
            self.assertEqual({num_players}, len(rewards), f"get_rewards gave {{rewards!r}}")
            if player == {TERMINAL}:
                return
            legal = list(get_legal_actions(state))
            print(f"player {{player}} in state {{state}}; legal actions {{legal[:10]}}")
            self.assertTrue(legal, "no legal actions in a non-terminal state")
            action = rng.choice(sorted(legal))
            print(f"player {{player}} takes {{action!r}}")
            state = apply_action(state, action)
        self.fail("no terminal state after {max_steps} random steps")
'''
    plan = {"kind": "random_play", "initial": initial_state, "players": num_players,
            "seed": seed, "max_steps": max_steps}
    return UnitTest(name, "random_play", source, plan)


def inference_test(name: str, initial_state, history: list, player: int,
                   last_is_terminal: bool | None) -> UnitTest:
    """``history`` is a list of ``[observation, action]``, the last action None."""
    start = "INITIAL_STATE" if initial_state is None else _lit(initial_state)
    extra = "" if last_is_terminal is None else f", last_is_terminal={last_is_terminal}"
    expected_player = TERMINAL if last_is_terminal else player
    source = f'''\
class {name}(CWMTestCase):
    """Player {player}'s view after {len(history)} observations: resample_history must give
    actions (chance included) that reproduce it from the initial state."""

    def test(self):
        history = {_lit([[obs, action] for obs, action in history])}
        player_id = {player}
        actions = resample_history([tuple(entry) for entry in history], player_id{extra})
        print(f"resample_history returned {{actions!r}}")
        state = {start}
        views = iter(history)
        observation, own_action = next(views)
        for action in actions:
            if get_current_player(state) == player_id:
                self.assertJSONEqual(observation, get_observations(state)[player_id],
                                     "the player's observation in the replayed state")
                self.assertEqual(own_action, action, "the player's own action")
                observation, own_action = next(views, (None, "no observation left"))
            print(f"in state {{state}} taking {{action!r}}")
            state = apply_action(state, action)
        self.assertJSONEqual({expected_player}, get_current_player(state),
                             "get_current_player at the end of the replayed history")
        self.assertJSONEqual(observation, get_observations(state)[player_id],
                             "the player's last observation")
        self.assertIsNone(next(views, None), "observations left over after the history")
'''
    plan = {"kind": "inference", "initial": initial_state,
            "history": [[obs, action] for obs, action in history], "player": player,
            "last_is_terminal": last_is_terminal}
    return UnitTest(name, "inference", source, plan)


def _open_deck_views(trajectory) -> dict[int, list[list]]:
    """Each player's obs-action history (its decision points), from an open-deck game."""
    views: dict[int, list[list]] = {}
    for step in trajectory.steps:
        if step.current_player >= 0:
            views.setdefault(step.current_player, []).append(
                [step.observations[step.current_player], step.action])
    return views


def inference_tests(trajectories: TrajectorySet, prefix: str = "",
                    closed_api: bool = False, states: bool = True) -> list[UnitTest]:
    """Inference tests: open deck, one per decision point of every player; closed deck,
    one per decision point of the viewing player plus one at the end of the game.
    ``closed_api``: open-deck tests for a model synthesized closed deck, whose
    ``resample_history`` also takes ``last_is_terminal`` (False at a decision point).
    ``states=False``: replayed from the model's ``INITIAL_STATE``, not the recorded one."""
    tests = []
    initial = trajectories.initial_state if states else None
    for t, trajectory in enumerate(trajectories.trajectories):
        if trajectories.deck == "open":
            for player, view in sorted(_open_deck_views(trajectory).items()):
                for k in range(len(view)):
                    history = [*view[:k], [view[k][0], None]]
                    tests.append(inference_test(f"Test{prefix}Inference_g{t}_p{player}_{k}",
                                                initial, history, player,
                                                False if closed_api else None))
            continue
        view = trajectory.view
        for k, entry in enumerate(view):
            history = [[e["observation"], e["action"]] for e in view[:k]]
            history.append([entry["observation"], None])
            tests.append(inference_test(f"Test{prefix}Inference_g{t}_{k}", None, history,
                                        trajectory.player, bool(entry.get("terminal"))))
    return tests


def generate_tests(trajectories: TrajectorySet, *, prefix: str = "",
                   random_play: int = 5, seed: int = 0,
                   inference: bool = False, closed_api: bool = False,
                   states: bool = True) -> list[UnitTest]:
    """All tests of ``trajectories``: transition and terminal tests (open deck),
    random-play tests, and inference tests if asked for. ``states=False``: the model's
    states are never compared nor given; every test starts from its ``INITIAL_STATE``
    (see the module docstring)."""
    tests: list[UnitTest] = []
    for t, trajectory in enumerate(trajectories.trajectories):
        steps = trajectory.steps
        if not states:
            tests += replay_tests(f"Test{prefix}", t, trajectory)
            continue
        for s in range(len(steps) - 1):
            name = f"Test{prefix}Transition_g{t}_s{s}"
            tests.append(transition_test(name, steps[s], steps[s + 1], check_initial=s == 0))
        if steps and steps[-1].current_player == TERMINAL:
            tests.append(terminal_test(f"Test{prefix}Terminal_g{t}", steps[-1]))
    rng = random.Random(seed)
    initial = trajectories.initial_state if states else None
    for k in range(random_play):
        tests.append(random_play_test(f"Test{prefix}RandomPlay_{k}", initial,
                                      trajectories.num_players, rng.randrange(10**6)))
    if inference:
        tests += inference_tests(trajectories, prefix, closed_api, states)
    return tests


def render_module(tests: list[UnitTest], results: dict[str, dict] | None = None) -> str:
    """The tests as one ``unittest`` module; failed tests get their error as a comment."""
    parts = [PRELUDE]
    for test in tests:
        parts.append(annotate(test, (results or {}).get(test.id)))
    return "\n\n".join(parts)


def annotate(test: UnitTest, result: dict | None) -> str:
    """The test's source, preceded by ``# TODO`` comments with its failure, if any."""
    if not result or result.get("passed"):
        return test.source
    lines = ["# TODO: this test fails. Error:"]
    lines += [f"#   {line}" for line in (result.get("error") or "").rstrip().splitlines()]
    output = (result.get("output") or "").rstrip().splitlines()
    if output:
        lines.append(f"# Last {len(output)} lines the test printed:")
        lines += [f"#   {line}" for line in output]
    return "\n".join(lines) + "\n" + test.source


def sample_tests(tests: list[UnitTest], per_kind: int, rng: random.Random,
                 only: set[str] | None = None) -> list[UnitTest]:
    """Up to ``per_kind`` tests of each kind (restricted to ids in ``only``), in order."""
    chosen: list[UnitTest] = []
    for kind in KINDS:
        pool = [t for t in tests if t.kind == kind and (only is None or t.id in only)]
        picked = set(id(t) for t in rng.sample(pool, min(per_kind, len(pool))))
        chosen += [t for t in pool if id(t) in picked]
    return chosen
