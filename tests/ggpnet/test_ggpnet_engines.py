"""A match followed by the grounded engine and by the compiled one is the same match, and
the player follows it with the engine its world model built (one compilation)."""

import random

import pytest
from ggpnet_helpers import gdl_file, quick_player

from ggp.gdl.description import parse_description
from ggp.gdl.reasoner import make_reasoner
from ggp.gdl.match import MatchGame, load_match_game
from ggp.ggpnet.messages import rules_list, start_message


@pytest.mark.parametrize("name", ["ticTacToe.kif", "connectFour.kif", "montyhall.gdl",
                                  "kriegTTT_4x4.gdl"])
def test_grounded_and_compiled_match_games_agree(name):
    game = load_match_game(gdl_file(name))
    rules = parse_description(game.rules, name, "kif").rules
    fast = MatchGame(game.rules, gdl_ii=game.gdl_ii, reasoner=make_reasoner(rules, "grounded"))
    slow = MatchGame(game.rules, gdl_ii=game.gdl_ii, reasoner=make_reasoner(rules, "compiled"))
    rng = random.Random(11)
    for _ in range(5):
        a, b = fast.initial(), slow.initial()
        while True:
            assert fast.fluents(a) == slow.fluents(b)
            assert fast.is_terminal(a) == slow.is_terminal(b)
            if fast.is_terminal(a):
                assert fast.goals(a) == slow.goals(b)
                break
            legal = fast.legal(a)
            assert legal == slow.legal(b)
            joint = {r: rng.choice(moves) for r, moves in legal.items()}
            (a, seen_a), (b, seen_b) = fast.step(a, joint), slow.step(b, joint)
            assert seen_a == seen_b


@pytest.mark.parametrize("name, role", [("ticTacToe.kif", "xplayer"),
                                        ("montyhall.gdl", "candidate")])
def test_the_player_follows_the_match_with_its_world_models_engine(name, role):
    game = load_match_game(gdl_file(name))
    player = quick_player()
    start = start_message("m1", role, rules_list(game.rules), 10, 1)
    assert player.handle(start) == (200, "ready")
    match = player._match
    assert match.ready.wait(30) and match.error is None
    assert match.game.reasoner is match.model.namespace.engine
    assert player.handle("(ABORT m1)") == (200, "aborted")
