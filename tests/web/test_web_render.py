"""The shared renderers: boards, cards and fields, as data and as terminal text."""

from __future__ import annotations

import random

import pytest

from ggp.load import load_model
from ggp.render import render, to_text


def _played(game: str, steps: int, seed: int = 1):
    model = load_model(game)
    state, rng = model.initial_state(), random.Random(seed)
    for _ in range(steps):
        if model.is_terminal(state):
            break
        state = model.apply(state, rng.choice(model.legal_actions(state)))
    return model, state


def test_tic_tac_toe_is_a_small_board_in_the_terminal():
    obs = {"board": [["x", ".", "o"], [".", "x", "."], [".", ".", "."]],
           "current_player": 1, "winner": None, "rewards": [0.0, 0.0]}
    view = render(obs, "tic_tac_toe")
    assert view["parts"][0] == {"kind": "grid", "label": "board",
                                "cells": [["x", "", "o"], ["", "x", ""], ["", "", ""]],
                                "rows": ["0", "1", "2"], "cols": ["0", "1", "2"]}
    text = to_text(view)
    assert "0  x . o" in text and "1  . x ." in text
    assert len(text.splitlines()) < 10  # was about 30 lines of indented JSON


@pytest.mark.parametrize("game", ["connect_four", "generalized_tic_tac_toe",
                                  "generalized_chess"])
def test_board_games_render_their_board(game):
    model, state = _played(game, 6)
    obs = model.observation(state, 0)
    grid = render(obs, game)["parts"][0]
    assert grid["kind"] == "grid"
    pieces = sorted(c for row in obs["board"] for c in row if c != ".")
    assert sorted(c for row in grid["cells"] for c in row if c) == pieces


def test_blind_tic_tac_toe_shows_own_marks_and_failed_tries():
    obs = {"role": "white", "mark": "x", "round": 3,
           "my_tries": [{"cell": "mark(1,1)", "ok": True}, {"cell": "mark(2,2)", "ok": False}],
           "my_pending_try": None, "my_marks": ["mark(1,1)"]}
    grid = render(obs, "blind_tic_tac_toe")["parts"][0]
    assert grid["cells"] == [["x", "", ""], ["", "o?", ""], ["", "", ""]]


def test_gdl_facts_become_a_board():
    model, state = _played("src/ggp/gdl/games/connect_four.kif", 5)
    grid = render(model.observation(state, 0), "connect_four.kif")["parts"][0]
    assert grid["kind"] == "grid" and grid["label"] == "disc"
    discs = [f for f in state["true"] if f.startswith("(disc ")]
    assert sum(1 for row in grid["cells"] for c in row if c) == len(discs) == 5


@pytest.mark.parametrize("game,key", [("kuhn_poker", "my card"), ("leduc_poker", "my card"),
                                      ("hearts", "hand"), ("gin_rummy", "hand"),
                                      ("golf", "slots"), ("ninety_eight", "hand")])
def test_card_games_show_cards(game, key):
    model, state = _played(game, 30)
    player = max(model.current_player(state), 0)
    obs = model.observation(state, player)
    cards = {p["label"]: p["cards"] for p in render(obs, game)["parts"] if p["kind"] == "cards"}
    assert key in cards and cards[key]
    assert "[" + cards[key][0] + "]" in to_text(render(obs, game))


def test_any_other_observation_is_fields_one_line_each():
    view = render({"pool": [1, 2], "note": "hi", "nested": {"a": [1, {"b": 2}]}})
    assert view == {"parts": [{"kind": "fields", "items": [
        ["pool", "[1, 2]"], ["note", "hi"], ["nested", '{"a": [1, {"b": 2}]}']]}]}
    assert render(7)["parts"][0]["items"] == [["value", "7"]]


def test_the_view_holds_nothing_but_the_observation():
    model, state = _played("kuhn_poker", 2)  # both cards dealt
    mine = model.observation(state, 0)["my_card"]
    theirs = model.observation(state, 1)["my_card"]
    text = to_text(render(model.observation(state, 0), "kuhn_poker"))
    assert f"[{mine}]" in text and f"[{theirs}]" not in text


def test_terminal_human_agent_prints_the_board(monkeypatch):
    from ggp.agents.base import MatchInfo
    from ggp.agents.human import HumanAgent

    model = load_model("tic_tac_toe")
    said: list[str] = []
    agent = HumanAgent(model, ask=lambda _: "4", say=said.append)
    agent.start(MatchInfo("tic_tac_toe", 0, 2, 0))
    obs = model.observation(model.initial_state(), 0)
    assert agent.act([(obs, None)]) == "x(1,1)"
    shown = "\n".join(said)
    assert "0  . . ." in shown and '"board"' not in shown


def test_betting_histories_read_as_moves():
    from ggp.render import render

    kuhn = render({"betting": [[0, "Bet"], [1, "Pass"]], "my_card": "K"}, "kuhn_poker")
    assert ["betting", "player 0: Bet, player 1: Pass"] in kuhn["parts"][-1]["items"]
    leduc = render({"betting": [[[0, "Raise"], [1, "Call"]], [[0, "Call"]]]}, "leduc_poker")
    assert leduc["parts"][-1]["items"] == [
        ["betting", "round 1: player 0: Raise, player 1: Call; round 2: player 0: Call"]]
    # anything else stays compact JSON
    assert render({"x": [[1, 2]]})["parts"][-1]["items"] == [["x", "[[1, 2]]"]]
