# The training tests of this run; `python tests.py` runs them on cwm.py.
from cwm import *  # noqa: F403 - the model under test

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


class TestTransition_g0_s0(CWMTestCase):
    """Player 0 takes 'x(0,0)'."""

    def test(self):
        state = {'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(state, INITIAL_STATE, 'INITIAL_STATE')
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(0,0)', 'x(0,1)', 'x(0,2)', 'x(1,0)', 'x(1,1)', 'x(1,2)', 'x(2,0)', 'x(2,1)', 'x(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'x(0,0)'), "apply_action(state, 'x(0,0)')")


class TestTransition_g0_s1(CWMTestCase):
    """Player 1 takes 'o(2,0)'."""

    def test(self):
        state = {'board': [['x', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(1, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('o', get_player_name(1), 'get_player_name(1)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['x', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['o(0,1)', 'o(0,2)', 'o(1,0)', 'o(1,1)', 'o(1,2)', 'o(2,0)', 'o(2,1)', 'o(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', '.', '.'], ['.', '.', '.'], ['o', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'o(2,0)'), "apply_action(state, 'o(2,0)')")


class TestTransition_g0_s2(CWMTestCase):
    """Player 0 takes 'x(1,1)'."""

    def test(self):
        state = {'board': [['x', '.', '.'], ['.', '.', '.'], ['o', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', '.', '.'], ['.', '.', '.'], ['o', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['x', '.', '.'], ['.', '.', '.'], ['o', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(0,1)', 'x(0,2)', 'x(1,0)', 'x(1,1)', 'x(1,2)', 'x(2,1)', 'x(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', '.', '.'], ['.', 'x', '.'], ['o', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'x(1,1)'), "apply_action(state, 'x(1,1)')")


class TestTransition_g0_s3(CWMTestCase):
    """Player 1 takes 'o(1,0)'."""

    def test(self):
        state = {'board': [['x', '.', '.'], ['.', 'x', '.'], ['o', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(1, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('o', get_player_name(1), 'get_player_name(1)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', '.', '.'], ['.', 'x', '.'], ['o', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['x', '.', '.'], ['.', 'x', '.'], ['o', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['o(0,1)', 'o(0,2)', 'o(1,0)', 'o(1,2)', 'o(2,1)', 'o(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', '.', '.'], ['o', 'x', '.'], ['o', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'o(1,0)'), "apply_action(state, 'o(1,0)')")


class TestTransition_g0_s4(CWMTestCase):
    """Player 0 takes 'x(2,1)'."""

    def test(self):
        state = {'board': [['x', '.', '.'], ['o', 'x', '.'], ['o', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', '.', '.'], ['o', 'x', '.'], ['o', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['x', '.', '.'], ['o', 'x', '.'], ['o', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(0,1)', 'x(0,2)', 'x(1,2)', 'x(2,1)', 'x(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', '.', '.'], ['o', 'x', '.'], ['o', 'x', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'x(2,1)'), "apply_action(state, 'x(2,1)')")


class TestTransition_g0_s5(CWMTestCase):
    """Player 1 takes 'o(0,1)'."""

    def test(self):
        state = {'board': [['x', '.', '.'], ['o', 'x', '.'], ['o', 'x', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(1, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('o', get_player_name(1), 'get_player_name(1)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', '.', '.'], ['o', 'x', '.'], ['o', 'x', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['x', '.', '.'], ['o', 'x', '.'], ['o', 'x', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['o(0,1)', 'o(0,2)', 'o(1,2)', 'o(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', 'o', '.'], ['o', 'x', '.'], ['o', 'x', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'o(0,1)'), "apply_action(state, 'o(0,1)')")


class TestTransition_g0_s6(CWMTestCase):
    """Player 0 takes 'x(0,2)'."""

    def test(self):
        state = {'board': [['x', 'o', '.'], ['o', 'x', '.'], ['o', 'x', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', 'o', '.'], ['o', 'x', '.'], ['o', 'x', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['x', 'o', '.'], ['o', 'x', '.'], ['o', 'x', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(0,2)', 'x(1,2)', 'x(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', 'o', 'x'], ['o', 'x', '.'], ['o', 'x', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'x(0,2)'), "apply_action(state, 'x(0,2)')")


class TestTransition_g0_s7(CWMTestCase):
    """Player 1 takes 'o(1,2)'."""

    def test(self):
        state = {'board': [['x', 'o', 'x'], ['o', 'x', '.'], ['o', 'x', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(1, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('o', get_player_name(1), 'get_player_name(1)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', 'o', 'x'], ['o', 'x', '.'], ['o', 'x', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['x', 'o', 'x'], ['o', 'x', '.'], ['o', 'x', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['o(1,2)', 'o(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', 'o', 'x'], ['o', 'x', 'o'], ['o', 'x', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'o(1,2)'), "apply_action(state, 'o(1,2)')")


class TestTransition_g0_s8(CWMTestCase):
    """Player 0 takes 'x(2,2)'."""

    def test(self):
        state = {'board': [['x', 'o', 'x'], ['o', 'x', 'o'], ['o', 'x', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', 'o', 'x'], ['o', 'x', 'o'], ['o', 'x', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['x', 'o', 'x'], ['o', 'x', 'o'], ['o', 'x', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', 'o', 'x'], ['o', 'x', 'o'], ['o', 'x', 'x']], 'current_player': -4, 'rewards': [1.0, -1.0], 'winner': 0}, apply_action(state, 'x(2,2)'), "apply_action(state, 'x(2,2)')")


class TestTerminal_g0(CWMTestCase):
    """The game is over in this state."""

    def test(self):
        state = {'board': [['x', 'o', 'x'], ['o', 'x', 'o'], ['o', 'x', 'x']], 'current_player': -4, 'rewards': [1.0, -1.0], 'winner': 0}
        self.assertJSONEqual(-4, get_current_player(state), 'get_current_player(state)')
        self.assertJSONEqual([1.0, -1.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', 'o', 'x'], ['o', 'x', 'o'], ['o', 'x', 'x']], 'current_player': -4, 'rewards': [1.0, -1.0], 'winner': 0}, {'board': [['x', 'o', 'x'], ['o', 'x', 'o'], ['o', 'x', 'x']], 'current_player': -4, 'rewards': [1.0, -1.0], 'winner': 0}], get_observations(state), 'get_observations(state)')
        self.assertJSONEqual([], list(get_legal_actions(state)), 'get_legal_actions(state)')


class TestTransition_g1_s0(CWMTestCase):
    """Player 0 takes 'x(2,0)'."""

    def test(self):
        state = {'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(state, INITIAL_STATE, 'INITIAL_STATE')
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(0,0)', 'x(0,1)', 'x(0,2)', 'x(1,0)', 'x(1,1)', 'x(1,2)', 'x(2,0)', 'x(2,1)', 'x(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['.', '.', '.'], ['.', '.', '.'], ['x', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'x(2,0)'), "apply_action(state, 'x(2,0)')")


class TestTransition_g1_s1(CWMTestCase):
    """Player 1 takes 'o(1,1)'."""

    def test(self):
        state = {'board': [['.', '.', '.'], ['.', '.', '.'], ['x', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(1, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('o', get_player_name(1), 'get_player_name(1)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', '.', '.'], ['.', '.', '.'], ['x', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', '.', '.'], ['.', '.', '.'], ['x', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['o(0,0)', 'o(0,1)', 'o(0,2)', 'o(1,0)', 'o(1,1)', 'o(1,2)', 'o(2,1)', 'o(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['.', '.', '.'], ['.', 'o', '.'], ['x', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'o(1,1)'), "apply_action(state, 'o(1,1)')")


class TestTransition_g1_s2(CWMTestCase):
    """Player 0 takes 'x(2,1)'."""

    def test(self):
        state = {'board': [['.', '.', '.'], ['.', 'o', '.'], ['x', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', '.', '.'], ['.', 'o', '.'], ['x', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', '.', '.'], ['.', 'o', '.'], ['x', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(0,0)', 'x(0,1)', 'x(0,2)', 'x(1,0)', 'x(1,2)', 'x(2,1)', 'x(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['.', '.', '.'], ['.', 'o', '.'], ['x', 'x', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'x(2,1)'), "apply_action(state, 'x(2,1)')")


class TestTransition_g1_s3(CWMTestCase):
    """Player 1 takes 'o(0,0)'."""

    def test(self):
        state = {'board': [['.', '.', '.'], ['.', 'o', '.'], ['x', 'x', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(1, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('o', get_player_name(1), 'get_player_name(1)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', '.', '.'], ['.', 'o', '.'], ['x', 'x', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', '.', '.'], ['.', 'o', '.'], ['x', 'x', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['o(0,0)', 'o(0,1)', 'o(0,2)', 'o(1,0)', 'o(1,2)', 'o(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['o', '.', '.'], ['.', 'o', '.'], ['x', 'x', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'o(0,0)'), "apply_action(state, 'o(0,0)')")


class TestTransition_g1_s4(CWMTestCase):
    """Player 0 takes 'x(0,2)'."""

    def test(self):
        state = {'board': [['o', '.', '.'], ['.', 'o', '.'], ['x', 'x', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['o', '.', '.'], ['.', 'o', '.'], ['x', 'x', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['o', '.', '.'], ['.', 'o', '.'], ['x', 'x', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(0,1)', 'x(0,2)', 'x(1,0)', 'x(1,2)', 'x(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['o', '.', 'x'], ['.', 'o', '.'], ['x', 'x', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'x(0,2)'), "apply_action(state, 'x(0,2)')")


class TestTransition_g1_s5(CWMTestCase):
    """Player 1 takes 'o(2,2)'."""

    def test(self):
        state = {'board': [['o', '.', 'x'], ['.', 'o', '.'], ['x', 'x', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(1, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('o', get_player_name(1), 'get_player_name(1)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['o', '.', 'x'], ['.', 'o', '.'], ['x', 'x', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['o', '.', 'x'], ['.', 'o', '.'], ['x', 'x', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['o(0,1)', 'o(1,0)', 'o(1,2)', 'o(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['o', '.', 'x'], ['.', 'o', '.'], ['x', 'x', 'o']], 'current_player': -4, 'rewards': [-1.0, 1.0], 'winner': 1}, apply_action(state, 'o(2,2)'), "apply_action(state, 'o(2,2)')")


class TestTerminal_g1(CWMTestCase):
    """The game is over in this state."""

    def test(self):
        state = {'board': [['o', '.', 'x'], ['.', 'o', '.'], ['x', 'x', 'o']], 'current_player': -4, 'rewards': [-1.0, 1.0], 'winner': 1}
        self.assertJSONEqual(-4, get_current_player(state), 'get_current_player(state)')
        self.assertJSONEqual([-1.0, 1.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['o', '.', 'x'], ['.', 'o', '.'], ['x', 'x', 'o']], 'current_player': -4, 'rewards': [-1.0, 1.0], 'winner': 1}, {'board': [['o', '.', 'x'], ['.', 'o', '.'], ['x', 'x', 'o']], 'current_player': -4, 'rewards': [-1.0, 1.0], 'winner': 1}], get_observations(state), 'get_observations(state)')
        self.assertJSONEqual([], list(get_legal_actions(state)), 'get_legal_actions(state)')


class TestTransition_g2_s0(CWMTestCase):
    """Player 0 takes 'x(2,2)'."""

    def test(self):
        state = {'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(state, INITIAL_STATE, 'INITIAL_STATE')
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(0,0)', 'x(0,1)', 'x(0,2)', 'x(1,0)', 'x(1,1)', 'x(1,2)', 'x(2,0)', 'x(2,1)', 'x(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'x(2,2)'), "apply_action(state, 'x(2,2)')")


class TestTransition_g2_s1(CWMTestCase):
    """Player 1 takes 'o(2,0)'."""

    def test(self):
        state = {'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(1, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('o', get_player_name(1), 'get_player_name(1)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['o(0,0)', 'o(0,1)', 'o(0,2)', 'o(1,0)', 'o(1,1)', 'o(1,2)', 'o(2,0)', 'o(2,1)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['.', '.', '.'], ['.', '.', '.'], ['o', '.', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'o(2,0)'), "apply_action(state, 'o(2,0)')")


class TestTransition_g2_s2(CWMTestCase):
    """Player 0 takes 'x(2,1)'."""

    def test(self):
        state = {'board': [['.', '.', '.'], ['.', '.', '.'], ['o', '.', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', '.', '.'], ['.', '.', '.'], ['o', '.', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', '.', '.'], ['.', '.', '.'], ['o', '.', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(0,0)', 'x(0,1)', 'x(0,2)', 'x(1,0)', 'x(1,1)', 'x(1,2)', 'x(2,1)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['.', '.', '.'], ['.', '.', '.'], ['o', 'x', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'x(2,1)'), "apply_action(state, 'x(2,1)')")


class TestTransition_g2_s3(CWMTestCase):
    """Player 1 takes 'o(1,0)'."""

    def test(self):
        state = {'board': [['.', '.', '.'], ['.', '.', '.'], ['o', 'x', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(1, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('o', get_player_name(1), 'get_player_name(1)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', '.', '.'], ['.', '.', '.'], ['o', 'x', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', '.', '.'], ['.', '.', '.'], ['o', 'x', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['o(0,0)', 'o(0,1)', 'o(0,2)', 'o(1,0)', 'o(1,1)', 'o(1,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['.', '.', '.'], ['o', '.', '.'], ['o', 'x', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'o(1,0)'), "apply_action(state, 'o(1,0)')")


class TestTransition_g2_s4(CWMTestCase):
    """Player 0 takes 'x(1,2)'."""

    def test(self):
        state = {'board': [['.', '.', '.'], ['o', '.', '.'], ['o', 'x', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', '.', '.'], ['o', '.', '.'], ['o', 'x', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', '.', '.'], ['o', '.', '.'], ['o', 'x', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(0,0)', 'x(0,1)', 'x(0,2)', 'x(1,1)', 'x(1,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['.', '.', '.'], ['o', '.', 'x'], ['o', 'x', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'x(1,2)'), "apply_action(state, 'x(1,2)')")


class TestTransition_g2_s5(CWMTestCase):
    """Player 1 takes 'o(0,1)'."""

    def test(self):
        state = {'board': [['.', '.', '.'], ['o', '.', 'x'], ['o', 'x', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(1, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('o', get_player_name(1), 'get_player_name(1)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', '.', '.'], ['o', '.', 'x'], ['o', 'x', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', '.', '.'], ['o', '.', 'x'], ['o', 'x', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['o(0,0)', 'o(0,1)', 'o(0,2)', 'o(1,1)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['.', 'o', '.'], ['o', '.', 'x'], ['o', 'x', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'o(0,1)'), "apply_action(state, 'o(0,1)')")


class TestTransition_g2_s6(CWMTestCase):
    """Player 0 takes 'x(1,1)'."""

    def test(self):
        state = {'board': [['.', 'o', '.'], ['o', '.', 'x'], ['o', 'x', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', 'o', '.'], ['o', '.', 'x'], ['o', 'x', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', 'o', '.'], ['o', '.', 'x'], ['o', 'x', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(0,0)', 'x(0,2)', 'x(1,1)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['.', 'o', '.'], ['o', 'x', 'x'], ['o', 'x', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'x(1,1)'), "apply_action(state, 'x(1,1)')")


class TestTransition_g2_s7(CWMTestCase):
    """Player 1 takes 'o(0,2)'."""

    def test(self):
        state = {'board': [['.', 'o', '.'], ['o', 'x', 'x'], ['o', 'x', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(1, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('o', get_player_name(1), 'get_player_name(1)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', 'o', '.'], ['o', 'x', 'x'], ['o', 'x', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', 'o', '.'], ['o', 'x', 'x'], ['o', 'x', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['o(0,0)', 'o(0,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['.', 'o', 'o'], ['o', 'x', 'x'], ['o', 'x', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'o(0,2)'), "apply_action(state, 'o(0,2)')")


class TestTransition_g2_s8(CWMTestCase):
    """Player 0 takes 'x(0,0)'."""

    def test(self):
        state = {'board': [['.', 'o', 'o'], ['o', 'x', 'x'], ['o', 'x', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', 'o', 'o'], ['o', 'x', 'x'], ['o', 'x', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', 'o', 'o'], ['o', 'x', 'x'], ['o', 'x', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(0,0)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', 'o', 'o'], ['o', 'x', 'x'], ['o', 'x', 'x']], 'current_player': -4, 'rewards': [1.0, -1.0], 'winner': 0}, apply_action(state, 'x(0,0)'), "apply_action(state, 'x(0,0)')")


class TestTerminal_g2(CWMTestCase):
    """The game is over in this state."""

    def test(self):
        state = {'board': [['x', 'o', 'o'], ['o', 'x', 'x'], ['o', 'x', 'x']], 'current_player': -4, 'rewards': [1.0, -1.0], 'winner': 0}
        self.assertJSONEqual(-4, get_current_player(state), 'get_current_player(state)')
        self.assertJSONEqual([1.0, -1.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', 'o', 'o'], ['o', 'x', 'x'], ['o', 'x', 'x']], 'current_player': -4, 'rewards': [1.0, -1.0], 'winner': 0}, {'board': [['x', 'o', 'o'], ['o', 'x', 'x'], ['o', 'x', 'x']], 'current_player': -4, 'rewards': [1.0, -1.0], 'winner': 0}], get_observations(state), 'get_observations(state)')
        self.assertJSONEqual([], list(get_legal_actions(state)), 'get_legal_actions(state)')


class TestTransition_g3_s0(CWMTestCase):
    """Player 0 takes 'x(1,2)'."""

    def test(self):
        state = {'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(state, INITIAL_STATE, 'INITIAL_STATE')
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(0,0)', 'x(0,1)', 'x(0,2)', 'x(1,0)', 'x(1,1)', 'x(1,2)', 'x(2,0)', 'x(2,1)', 'x(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['.', '.', '.'], ['.', '.', 'x'], ['.', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'x(1,2)'), "apply_action(state, 'x(1,2)')")


class TestTransition_g3_s1(CWMTestCase):
    """Player 1 takes 'o(2,1)'."""

    def test(self):
        state = {'board': [['.', '.', '.'], ['.', '.', 'x'], ['.', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(1, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('o', get_player_name(1), 'get_player_name(1)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', '.', '.'], ['.', '.', 'x'], ['.', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', '.', '.'], ['.', '.', 'x'], ['.', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['o(0,0)', 'o(0,1)', 'o(0,2)', 'o(1,0)', 'o(1,1)', 'o(2,0)', 'o(2,1)', 'o(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['.', '.', '.'], ['.', '.', 'x'], ['.', 'o', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'o(2,1)'), "apply_action(state, 'o(2,1)')")


class TestTransition_g3_s2(CWMTestCase):
    """Player 0 takes 'x(2,2)'."""

    def test(self):
        state = {'board': [['.', '.', '.'], ['.', '.', 'x'], ['.', 'o', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', '.', '.'], ['.', '.', 'x'], ['.', 'o', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', '.', '.'], ['.', '.', 'x'], ['.', 'o', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(0,0)', 'x(0,1)', 'x(0,2)', 'x(1,0)', 'x(1,1)', 'x(2,0)', 'x(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['.', '.', '.'], ['.', '.', 'x'], ['.', 'o', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'x(2,2)'), "apply_action(state, 'x(2,2)')")


class TestTransition_g3_s3(CWMTestCase):
    """Player 1 takes 'o(2,0)'."""

    def test(self):
        state = {'board': [['.', '.', '.'], ['.', '.', 'x'], ['.', 'o', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(1, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('o', get_player_name(1), 'get_player_name(1)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', '.', '.'], ['.', '.', 'x'], ['.', 'o', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', '.', '.'], ['.', '.', 'x'], ['.', 'o', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['o(0,0)', 'o(0,1)', 'o(0,2)', 'o(1,0)', 'o(1,1)', 'o(2,0)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['.', '.', '.'], ['.', '.', 'x'], ['o', 'o', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'o(2,0)'), "apply_action(state, 'o(2,0)')")


class TestTransition_g3_s4(CWMTestCase):
    """Player 0 takes 'x(0,0)'."""

    def test(self):
        state = {'board': [['.', '.', '.'], ['.', '.', 'x'], ['o', 'o', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', '.', '.'], ['.', '.', 'x'], ['o', 'o', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', '.', '.'], ['.', '.', 'x'], ['o', 'o', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(0,0)', 'x(0,1)', 'x(0,2)', 'x(1,0)', 'x(1,1)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', '.', '.'], ['.', '.', 'x'], ['o', 'o', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'x(0,0)'), "apply_action(state, 'x(0,0)')")


class TestTransition_g3_s5(CWMTestCase):
    """Player 1 takes 'o(1,0)'."""

    def test(self):
        state = {'board': [['x', '.', '.'], ['.', '.', 'x'], ['o', 'o', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(1, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('o', get_player_name(1), 'get_player_name(1)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', '.', '.'], ['.', '.', 'x'], ['o', 'o', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['x', '.', '.'], ['.', '.', 'x'], ['o', 'o', 'x']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['o(0,1)', 'o(0,2)', 'o(1,0)', 'o(1,1)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', '.', '.'], ['o', '.', 'x'], ['o', 'o', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'o(1,0)'), "apply_action(state, 'o(1,0)')")


class TestTransition_g3_s6(CWMTestCase):
    """Player 0 takes 'x(1,1)'."""

    def test(self):
        state = {'board': [['x', '.', '.'], ['o', '.', 'x'], ['o', 'o', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', '.', '.'], ['o', '.', 'x'], ['o', 'o', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['x', '.', '.'], ['o', '.', 'x'], ['o', 'o', 'x']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(0,1)', 'x(0,2)', 'x(1,1)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', '.', '.'], ['o', 'x', 'x'], ['o', 'o', 'x']], 'current_player': -4, 'rewards': [1.0, -1.0], 'winner': 0}, apply_action(state, 'x(1,1)'), "apply_action(state, 'x(1,1)')")


class TestTerminal_g3(CWMTestCase):
    """The game is over in this state."""

    def test(self):
        state = {'board': [['x', '.', '.'], ['o', 'x', 'x'], ['o', 'o', 'x']], 'current_player': -4, 'rewards': [1.0, -1.0], 'winner': 0}
        self.assertJSONEqual(-4, get_current_player(state), 'get_current_player(state)')
        self.assertJSONEqual([1.0, -1.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', '.', '.'], ['o', 'x', 'x'], ['o', 'o', 'x']], 'current_player': -4, 'rewards': [1.0, -1.0], 'winner': 0}, {'board': [['x', '.', '.'], ['o', 'x', 'x'], ['o', 'o', 'x']], 'current_player': -4, 'rewards': [1.0, -1.0], 'winner': 0}], get_observations(state), 'get_observations(state)')
        self.assertJSONEqual([], list(get_legal_actions(state)), 'get_legal_actions(state)')


class TestTransition_g4_s0(CWMTestCase):
    """Player 0 takes 'x(2,0)'."""

    def test(self):
        state = {'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(state, INITIAL_STATE, 'INITIAL_STATE')
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(0,0)', 'x(0,1)', 'x(0,2)', 'x(1,0)', 'x(1,1)', 'x(1,2)', 'x(2,0)', 'x(2,1)', 'x(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['.', '.', '.'], ['.', '.', '.'], ['x', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'x(2,0)'), "apply_action(state, 'x(2,0)')")


class TestTransition_g4_s1(CWMTestCase):
    """Player 1 takes 'o(2,1)'."""

    def test(self):
        state = {'board': [['.', '.', '.'], ['.', '.', '.'], ['x', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(1, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('o', get_player_name(1), 'get_player_name(1)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', '.', '.'], ['.', '.', '.'], ['x', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', '.', '.'], ['.', '.', '.'], ['x', '.', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['o(0,0)', 'o(0,1)', 'o(0,2)', 'o(1,0)', 'o(1,1)', 'o(1,2)', 'o(2,1)', 'o(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['.', '.', '.'], ['.', '.', '.'], ['x', 'o', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'o(2,1)'), "apply_action(state, 'o(2,1)')")


class TestTransition_g4_s2(CWMTestCase):
    """Player 0 takes 'x(0,0)'."""

    def test(self):
        state = {'board': [['.', '.', '.'], ['.', '.', '.'], ['x', 'o', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['.', '.', '.'], ['.', '.', '.'], ['x', 'o', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['.', '.', '.'], ['.', '.', '.'], ['x', 'o', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(0,0)', 'x(0,1)', 'x(0,2)', 'x(1,0)', 'x(1,1)', 'x(1,2)', 'x(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', '.', '.'], ['.', '.', '.'], ['x', 'o', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'x(0,0)'), "apply_action(state, 'x(0,0)')")


class TestTransition_g4_s3(CWMTestCase):
    """Player 1 takes 'o(0,2)'."""

    def test(self):
        state = {'board': [['x', '.', '.'], ['.', '.', '.'], ['x', 'o', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(1, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('o', get_player_name(1), 'get_player_name(1)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', '.', '.'], ['.', '.', '.'], ['x', 'o', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['x', '.', '.'], ['.', '.', '.'], ['x', 'o', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['o(0,1)', 'o(0,2)', 'o(1,0)', 'o(1,1)', 'o(1,2)', 'o(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', '.', 'o'], ['.', '.', '.'], ['x', 'o', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'o(0,2)'), "apply_action(state, 'o(0,2)')")


class TestTransition_g4_s4(CWMTestCase):
    """Player 0 takes 'x(0,1)'."""

    def test(self):
        state = {'board': [['x', '.', 'o'], ['.', '.', '.'], ['x', 'o', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', '.', 'o'], ['.', '.', '.'], ['x', 'o', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['x', '.', 'o'], ['.', '.', '.'], ['x', 'o', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(0,1)', 'x(1,0)', 'x(1,1)', 'x(1,2)', 'x(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', 'x', 'o'], ['.', '.', '.'], ['x', 'o', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'x(0,1)'), "apply_action(state, 'x(0,1)')")


class TestTransition_g4_s5(CWMTestCase):
    """Player 1 takes 'o(1,0)'."""

    def test(self):
        state = {'board': [['x', 'x', 'o'], ['.', '.', '.'], ['x', 'o', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(1, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('o', get_player_name(1), 'get_player_name(1)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', 'x', 'o'], ['.', '.', '.'], ['x', 'o', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['x', 'x', 'o'], ['.', '.', '.'], ['x', 'o', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['o(1,0)', 'o(1,1)', 'o(1,2)', 'o(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', 'x', 'o'], ['o', '.', '.'], ['x', 'o', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'o(1,0)'), "apply_action(state, 'o(1,0)')")


class TestTransition_g4_s6(CWMTestCase):
    """Player 0 takes 'x(1,2)'."""

    def test(self):
        state = {'board': [['x', 'x', 'o'], ['o', '.', '.'], ['x', 'o', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', 'x', 'o'], ['o', '.', '.'], ['x', 'o', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['x', 'x', 'o'], ['o', '.', '.'], ['x', 'o', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(1,1)', 'x(1,2)', 'x(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', 'x', 'o'], ['o', '.', 'x'], ['x', 'o', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'x(1,2)'), "apply_action(state, 'x(1,2)')")


class TestTransition_g4_s7(CWMTestCase):
    """Player 1 takes 'o(2,2)'."""

    def test(self):
        state = {'board': [['x', 'x', 'o'], ['o', '.', 'x'], ['x', 'o', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(1, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('o', get_player_name(1), 'get_player_name(1)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', 'x', 'o'], ['o', '.', 'x'], ['x', 'o', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['x', 'x', 'o'], ['o', '.', 'x'], ['x', 'o', '.']], 'current_player': 1, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['o(1,1)', 'o(2,2)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', 'x', 'o'], ['o', '.', 'x'], ['x', 'o', 'o']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'o(2,2)'), "apply_action(state, 'o(2,2)')")


class TestTransition_g4_s8(CWMTestCase):
    """Player 0 takes 'x(1,1)'."""

    def test(self):
        state = {'board': [['x', 'x', 'o'], ['o', '.', 'x'], ['x', 'o', 'o']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(0, get_current_player(state), 'get_current_player(state)')
        self.assertEqual('x', get_player_name(0), 'get_player_name(0)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', 'x', 'o'], ['o', '.', 'x'], ['x', 'o', 'o']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['x', 'x', 'o'], ['o', '.', 'x'], ['x', 'o', 'o']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertSetEqual(set(['x(1,1)']), set(get_legal_actions(state)), 'get_legal_actions(state)')
        self.assertJSONEqual({'board': [['x', 'x', 'o'], ['o', 'x', 'x'], ['x', 'o', 'o']], 'current_player': -4, 'rewards': [0.0, 0.0], 'winner': None}, apply_action(state, 'x(1,1)'), "apply_action(state, 'x(1,1)')")


class TestTerminal_g4(CWMTestCase):
    """The game is over in this state."""

    def test(self):
        state = {'board': [['x', 'x', 'o'], ['o', 'x', 'x'], ['x', 'o', 'o']], 'current_player': -4, 'rewards': [0.0, 0.0], 'winner': None}
        self.assertJSONEqual(-4, get_current_player(state), 'get_current_player(state)')
        self.assertJSONEqual([0.0, 0.0], get_rewards(state), 'get_rewards(state)')
        self.assertJSONEqual([{'board': [['x', 'x', 'o'], ['o', 'x', 'x'], ['x', 'o', 'o']], 'current_player': -4, 'rewards': [0.0, 0.0], 'winner': None}, {'board': [['x', 'x', 'o'], ['o', 'x', 'x'], ['x', 'o', 'o']], 'current_player': -4, 'rewards': [0.0, 0.0], 'winner': None}], get_observations(state), 'get_observations(state)')
        self.assertJSONEqual([], list(get_legal_actions(state)), 'get_legal_actions(state)')


class TestRandomPlay_0(CWMTestCase):
    """Random play must run without errors and end within 1000 steps."""

    def test(self):
        rng = random.Random(885440)
        state = {'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        for _ in range(1000):
            player = get_current_player(state)
            rewards = get_rewards(state)
            self.assertEqual(2, len(rewards), f"get_rewards gave {rewards!r}")
            if player == -4:
                return
            legal = list(get_legal_actions(state))
            print(f"player {player} in state {state}; legal actions {legal[:10]}")
            self.assertTrue(legal, "no legal actions in a non-terminal state")
            action = rng.choice(sorted(legal))
            print(f"player {player} takes {action!r}")
            state = apply_action(state, action)
        self.fail("no terminal state after 1000 random steps")


class TestRandomPlay_1(CWMTestCase):
    """Random play must run without errors and end within 1000 steps."""

    def test(self):
        rng = random.Random(403958)
        state = {'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        for _ in range(1000):
            player = get_current_player(state)
            rewards = get_rewards(state)
            self.assertEqual(2, len(rewards), f"get_rewards gave {rewards!r}")
            if player == -4:
                return
            legal = list(get_legal_actions(state))
            print(f"player {player} in state {state}; legal actions {legal[:10]}")
            self.assertTrue(legal, "no legal actions in a non-terminal state")
            action = rng.choice(sorted(legal))
            print(f"player {player} takes {action!r}")
            state = apply_action(state, action)
        self.fail("no terminal state after 1000 random steps")


class TestRandomPlay_2(CWMTestCase):
    """Random play must run without errors and end within 1000 steps."""

    def test(self):
        rng = random.Random(794772)
        state = {'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        for _ in range(1000):
            player = get_current_player(state)
            rewards = get_rewards(state)
            self.assertEqual(2, len(rewards), f"get_rewards gave {rewards!r}")
            if player == -4:
                return
            legal = list(get_legal_actions(state))
            print(f"player {player} in state {state}; legal actions {legal[:10]}")
            self.assertTrue(legal, "no legal actions in a non-terminal state")
            action = rng.choice(sorted(legal))
            print(f"player {player} takes {action!r}")
            state = apply_action(state, action)
        self.fail("no terminal state after 1000 random steps")


class TestRandomPlay_3(CWMTestCase):
    """Random play must run without errors and end within 1000 steps."""

    def test(self):
        rng = random.Random(933488)
        state = {'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        for _ in range(1000):
            player = get_current_player(state)
            rewards = get_rewards(state)
            self.assertEqual(2, len(rewards), f"get_rewards gave {rewards!r}")
            if player == -4:
                return
            legal = list(get_legal_actions(state))
            print(f"player {player} in state {state}; legal actions {legal[:10]}")
            self.assertTrue(legal, "no legal actions in a non-terminal state")
            action = rng.choice(sorted(legal))
            print(f"player {player} takes {action!r}")
            state = apply_action(state, action)
        self.fail("no terminal state after 1000 random steps")


class TestRandomPlay_4(CWMTestCase):
    """Random play must run without errors and end within 1000 steps."""

    def test(self):
        rng = random.Random(441001)
        state = {'board': [['.', '.', '.'], ['.', '.', '.'], ['.', '.', '.']], 'current_player': 0, 'rewards': [0.0, 0.0], 'winner': None}
        for _ in range(1000):
            player = get_current_player(state)
            rewards = get_rewards(state)
            self.assertEqual(2, len(rewards), f"get_rewards gave {rewards!r}")
            if player == -4:
                return
            legal = list(get_legal_actions(state))
            print(f"player {player} in state {state}; legal actions {legal[:10]}")
            self.assertTrue(legal, "no legal actions in a non-terminal state")
            action = rng.choice(sorted(legal))
            print(f"player {player} takes {action!r}")
            state = apply_action(state, action)
        self.fail("no terminal state after 1000 random steps")


if __name__ == "__main__":
    unittest.main()
