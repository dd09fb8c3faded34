"""Player names: the shared helper (ggp.core.protocol.player_name) and what every reference
game answers with it (the names each game gave before the helper, unchanged)."""

import pytest

from ggp.core.protocol import CHANCE, TERMINAL, player_name
from ggp.core.registry import make_game

NUMBERED = ["agram", "battleship", "bottle_imp", "generalized_chess", "gin_rummy", "golf",
            "goofspiel", "hand_of_war", "hearts", "ninety_eight"]
ROLES = {
    "backgammon": ("player 0", "player 1"),
    "bargaining": ("player 0", "player 1"),
    "blind_tic_tac_toe": ("white", "black"),
    "connect_four": ("x", "o"),
    "exploding_bomb": ("agent",),
    "generalized_tic_tac_toe": ("x", "o"),
    "kuhn_poker": ("player 0", "player 1"),
    "leduc_poker": ("player 0", "player 1"),
    "monty_hall": ("contestant",),
    "quadranto": ("player 0", "player 1"),
    "tic_tac_toe": ("x", "o"),
}


def test_the_helper_names_chance_terminal_and_seats():
    assert player_name(CHANCE) == "chance" and player_name(TERMINAL) == "terminal"
    assert player_name(2) == "player 2"
    assert player_name(1, ("x", "o")) == "o"
    # an id that is no seat has no name (not a role counted from the end)
    assert player_name(2, ("x", "o")) == "" and player_name(-2, ("x", "o")) == ""


@pytest.mark.parametrize("game", NUMBERED)
def test_games_without_role_names_number_their_players(game):
    model = make_game(game)
    names = [model.player_name(p) for p in (CHANCE, TERMINAL, *range(model.num_players + 1))]
    assert names == ["chance", "terminal", *(f"player {p}" for p in range(model.num_players + 1))]


@pytest.mark.parametrize("game", sorted(ROLES))
def test_games_with_roles_name_their_seats_and_nothing_else(game):
    model = make_game(game)
    seats = range(model.num_players)
    assert [model.player_name(p) for p in seats] == list(ROLES[game])
    assert model.player_name(CHANCE) == "chance" and model.player_name(TERMINAL) == "terminal"
    assert model.player_name(model.num_players) == "" and model.player_name(-2) == ""
