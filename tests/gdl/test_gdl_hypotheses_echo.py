"""Belief tracking when nature has many moves and the percepts echo the one it made."""

import random

from ggp.gdl.hypotheses import HypothesisTracker, _echo_order, _longest_common_run
from ggp.gdl.match import MatchGame

# nature picks one of 20 x 20 = 400 codes; the player sees the code back, with its own
# name added (as BattleshipsFog's "(position admiral ...)" echoes random's setup move)
_CODE = "\n".join([
    "(role player) (role random)",
    *[f"(digit {i})" for i in range(1, 21)],
    "(init (phase 0))",
    "(<= (legal random (pick ?x ?y)) (true (phase 0)) (digit ?x) (digit ?y))",
    "(<= (legal random noop) (true (phase 1)))",
    "(<= (legal player noop) (true (phase 0)))",
    "(<= (legal player (guess ?x)) (true (phase 1)) (digit ?x))",
    "(<= (sees player (code player ?x ?y)) (does random (pick ?x ?y)))",
    "(<= (next (secret ?x ?y)) (does random (pick ?x ?y)))",
    "(<= (next (secret ?x ?y)) (true (secret ?x ?y)))",
    "(<= (next (phase 1)) (true (phase 0)))",
    "(<= (next (guessed ?x)) (does player (guess ?x)))",
    "(<= (next done) (true (phase 1)))",
    "(<= terminal (true done))",
    "(<= (goal player 100) (true (secret ?x ?y)) (true (guessed ?x)))",
    "(goal player 0) (goal random 0)",
])


def test_echo_order_puts_the_echoing_move_first() -> None:
    moves = [f"(pick {x} {y})" for x in range(1, 21) for y in range(1, 21)]
    first = next(_echo_order([moves], ("(code player 7 13)",), {}, random.Random(0)))
    assert first == ("(pick 7 13)",)


def test_echo_order_is_empty_without_percept_arguments() -> None:
    assert list(_echo_order([["a", "b"]], ("ok",), {}, random.Random(0))) == []


def test_longest_common_run() -> None:
    assert _longest_common_run(("admiral", "2", "4"), ["2", "4", "1"]) == 2
    assert _longest_common_run(("x",), ["y"]) == 0


def test_a_rare_percept_is_found_by_its_echo() -> None:
    game = MatchGame(_CODE, gdl_ii=True, name="code")
    for seed in range(5):
        tracker = HypothesisTracker(game, "player", rng=random.Random(seed))
        tracker.observe("noop", ["(code player 7 13)"])
        hypotheses = tracker.ensure()
        assert tracker.exact
        assert all(("secret", "7", "13") in game.fluents(h.state) for h in hypotheses)
