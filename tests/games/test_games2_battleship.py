"""Battleships: rules unit tests (placement, hit/sunk detection, payoffs) and a
differential test against OpenSpiel's ``battleship``."""

from __future__ import annotations

import random
import re

import pytest

from ggp.core.errors import ModelLoadError
from ggp.core.protocol import canonical_json
from ggp.core.registry import make_game


def _play(model, actions):
    state = model.initial_state()
    for action in actions:
        assert action in model.legal_actions(state), (action, model.legal_actions(state))
        state = model.apply(state, action)
    return state


# Both fleets: ship 1 on row 0 (cells (0,0),(0,1)), ship 2 vertical in column 2.
PLACE = ["Place horizontally at (0,0)", "Place horizontally at (0,0)",
         "Place vertically at (1,2)", "Place vertically at (1,2)"]


def test_placement_rejects_overlap_and_off_board():
    model = make_game("battleship")
    state = _play(model, PLACE[:2])
    legal = model.legal_actions(state)
    assert "Place horizontally at (0,1)" not in legal  # overlaps (0,1)
    assert "Place vertically at (0,0)" not in legal  # overlaps (0,0)
    assert "Place horizontally at (0,2)" not in legal  # off the board
    assert "Place vertically at (2,0)" not in legal  # off the board
    assert "Place vertically at (1,0)" in legal  # touching is fine
    assert len(model.legal_actions(model.initial_state())) == 12


def test_hit_miss_and_sunk_detection_and_payoff():
    model = make_game("battleship")
    state = _play(model, PLACE + ["Shoot (0,0)", "Shoot (2,0)", "Shoot (1,1)"])
    results = [s["result"] for s in model.observation(state, 1)["shots"]]
    assert results == ["hit", "miss", "miss"]
    state = _play(model, PLACE + ["Shoot (0,0)", "Shoot (2,0)", "Shoot (0,1)"])
    assert model.observation(state, 0)["shots"][-1]["result"] == "sunk"
    assert not model.is_terminal(state)
    # Player 0 sinks the second ship too: game over, 2 sunk for player 0, none for 1.
    state = _play(model, PLACE + ["Shoot (0,0)", "Shoot (2,0)", "Shoot (0,1)", "Shoot (0,0)",
                                  "Shoot (1,2)", "Shoot (0,1)", "Shoot (2,2)"])
    assert model.observation(state, 1)["shots"][-2]["result"] == "sunk"  # player 1 sank one
    assert model.observation(state, 1)["shots"][-1]["result"] == "sunk"
    assert model.is_terminal(state)
    assert model.rewards(state) == [1.0, -1.0]  # 2 dealt - 1 received


def test_repeated_shots_and_shot_limit():
    model = make_game("battleship(num_shots=2,allow_repeated_shots=true,loss_multiplier=2)")
    state = _play(model, PLACE + ["Shoot (0,0)", "Shoot (0,0)", "Shoot (0,0)"])
    assert [s["result"] for s in model.observation(state, 0)["shots"]] == ["hit", "hit", "hit"]
    state = model.apply(state, "Shoot (0,1)")  # player 1 sinks ship 1 with its last shot
    assert model.observation(state, 0)["shots"][-1]["result"] == "sunk"
    assert model.is_terminal(state)
    assert model.rewards(state) == [0.0 - 2.0, 1.0]
    no_repeat = make_game("battleship")
    state = _play(no_repeat, PLACE + ["Shoot (0,0)", "Shoot (1,1)"])
    assert "Shoot (0,0)" not in no_repeat.legal_actions(state)


def test_placements_are_secret_and_shots_public():
    model = make_game("battleship")
    a = _play(model, ["Place horizontally at (0,0)"])
    b = _play(model, ["Place vertically at (0,2)"])
    assert model.same(model.observation(a, 1), model.observation(b, 1))
    assert not model.same(model.observation(a, 0), model.observation(b, 0))


def test_parameters():
    model = make_game("battleship(board_height=5,board_width=5,ship_sizes=[3;2;2])")
    assert model.metadata.max_utility == 3.0 and model.metadata.min_utility == -3.0
    with pytest.raises(ModelLoadError):
        make_game("battleship(num_shots=10)")  # more shots than cells, no repeats
    with pytest.raises(ModelLoadError):
        make_game("battleship(ship_sizes=[4])")


# ---------------------------------------------------------------- OpenSpiel differential
CONFIGS = [
    (3, 3, "[2;2]", "[1.0;1.0]", 9, False, 1.0),
    (5, 5, "[3;2;2]", "[1.0;1.0;1.0]", 25, False, 1.0),
    (4, 3, "[1;2]", "[1.0;3.0]", 5, True, 2.0),
    (2, 4, "[3;1]", "[2.0;1.0]", 6, False, 0.5),
    (3, 3, "[2;2]", "[1.0;1.0]", 4, True, 1.0),
]
_OS = re.compile(r"Pl(\d): (?:place ship (horizontally|vertically) with top-left corner in|"
                 r"shoot at) \((\d+), (\d+)\)")


def _from_openspiel(text: str) -> str:
    _, orientation, r, c = _OS.fullmatch(text).groups()
    if orientation:
        return f"Place {orientation} at ({r},{c})"
    return f"Shoot ({r},{c})"


@pytest.mark.parametrize("h,w,sizes,values,shots,repeated,lm", CONFIGS)
def test_matches_openspiel(h, w, sizes, values, shots, repeated, lm):
    pyspiel = pytest.importorskip("pyspiel")
    params = (f"board_height={h},board_width={w},ship_sizes={sizes},ship_values={values},"
              f"num_shots={shots},allow_repeated_shots={str(repeated).lower()},"
              f"loss_multiplier={lm}")
    ours = make_game(f"battleship({params})")
    theirs = pyspiel.load_game(f"battleship({params})")
    assert ours.metadata.min_utility == theirs.min_utility()
    assert ours.metadata.max_utility == theirs.max_utility()
    rng = random.Random(h * 100 + w * 10 + shots)
    views = set()  # (player, our observation, OpenSpiel information state)
    for _ in range(60):  # 5 configs x 60 = 300 games
        state, ref = ours.initial_state(), theirs.new_initial_state()
        while not ours.is_terminal(state):
            player = ours.current_player(state)
            assert ref.current_player() == player
            views.add((player, canonical_json(ours.observation(state, player)),
                       ref.information_state_string(player)))
            mapping = {_from_openspiel(ref.action_to_string(player, a)): a
                       for a in ref.legal_actions()}
            legal = ours.legal_actions(state)
            assert set(legal) == set(mapping)
            action = rng.choice(legal)
            state = ours.apply(state, action)
            ref.apply_action(mapping[action])
            if action.startswith("Shoot"):
                tag = ref.information_state_string(player).split("/")[-1]
                result = {"H": "hit", "W": "miss", "S": "sunk"}[tag[-1]]
                assert model_last_result(ours, state, player) == result
        assert ref.is_terminal()
        assert ours.rewards(state) == pytest.approx(ref.returns())
    # Same information: equal observations exactly when OpenSpiel's information states are.
    for player in (0, 1):
        seen = {(o, i) for p, o, i in views if p == player}
        assert len({o for o, _ in seen}) == len({i for _, i in seen}) == len(seen)


def model_last_result(model, state, player):
    return model.observation(state, player)["shots"][-1]["result"]


def test_ship_list_parameters_parse_in_every_accepted_form():
    from hypothesis import given
    from hypothesis import strategies as st

    from ggp.games.battleship import _parse_list

    @given(st.lists(st.integers(min_value=1, max_value=9), min_size=1, max_size=6))
    def check(sizes):
        text = ";".join(map(str, sizes))
        assert _parse_list(f"[{text}]", "ship_sizes", int) == sizes
        assert _parse_list(text, "ship_sizes", int) == sizes
        assert _parse_list(sizes, "ship_sizes", int) == sizes

    check()
    with pytest.raises(ValueError):
        _parse_list("[2;x]", "ship_sizes", int)
