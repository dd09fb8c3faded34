"""Leduc poker: rules of the standard game and of the blinds variant (seed 000 App. H)."""

import pytest

from ggp.check import check_model
from ggp.core.errors import ModelLoadError
from ggp.core.protocol import CHANCE, TERMINAL
from ggp.load import load_model


@pytest.fixture(scope="module")
def leduc():
    return load_model("leduc_poker")


@pytest.fixture(scope="module")
def blinds():
    return load_model("leduc_poker(blinds=true)")


def play(model, actions):
    state = model.initial_state()
    for action in actions:
        assert action in model.legal_actions(state), (action, state)
        state = model.apply(state, action)
    return state


# ---------------------------------------------------------------- standard game
def test_antes_and_first_round_options(leduc):
    state = play(leduc, ["Deal Kh", "Deal Js"])
    assert state["contributions"] == [1, 1]
    assert leduc.current_player(state) == 0
    assert leduc.legal_actions(state) == ["Call", "Raise"]  # no fold when nothing is owed


def test_first_call_does_not_end_round(leduc):
    state = play(leduc, ["Deal Kh", "Deal Js", "Call"])
    assert leduc.current_player(state) == 1
    state = leduc.apply(state, "Call")
    assert leduc.current_player(state) == CHANCE
    assert sorted(a for a, _ in leduc.chance_outcomes(state)) == [
        "Deal Jh", "Deal Ks", "Deal Qh", "Deal Qs"]


def test_raise_cap_and_sizes(leduc):
    state = play(leduc, ["Deal Kh", "Deal Js", "Raise", "Raise"])
    assert state["contributions"] == [3, 5]
    assert leduc.legal_actions(state) == ["Fold", "Call"]  # two raises: cap reached
    state = play(leduc, ["Deal Kh", "Deal Js", "Raise", "Raise", "Call", "Deal Qs",
                         "Raise", "Raise", "Call"])
    assert state["contributions"] == [13, 13]
    assert leduc.current_player(state) == TERMINAL
    assert leduc.rewards(state) == [13.0, -13.0]  # K beats J


def test_pair_beats_high_card(leduc):
    state = play(leduc, ["Deal Kh", "Deal Js", "Call", "Call", "Deal Jh", "Call", "Call"])
    assert leduc.rewards(state) == [-1.0, 1.0]
    assert leduc.observation(state, 0)["showdown_cards"] == ["Kh", "Js"]


def test_same_rank_splits(leduc):
    state = play(leduc, ["Deal Kh", "Deal Ks", "Raise", "Call", "Deal Qh", "Call", "Call"])
    assert leduc.current_player(state) == TERMINAL
    assert leduc.rewards(state) == [0.0, 0.0]


def test_fold_loses_contribution(leduc):
    state = play(leduc, ["Deal Kh", "Deal Js", "Call", "Raise", "Fold"])
    assert leduc.rewards(state) == [-1.0, 1.0]
    assert leduc.observation(state, 1)["showdown_cards"] is None


def test_public_card_visible_private_hidden(leduc):
    state = play(leduc, ["Deal Kh", "Deal Js", "Call", "Call", "Deal Qs"])
    obs = leduc.observation(state, 1)
    assert obs["my_card"] == "Js" and obs["public_card"] == "Qs" and "Kh" not in str(obs)
    assert obs["round"] == 2 and obs["betting"] == [[[0, "Call"], [1, "Call"]], []]


# ---------------------------------------------------------------- blinds variant
def test_blinds_posted_and_small_blind_options(blinds):
    state = play(blinds, ["Deal Kh", "Deal Js"])
    assert state["contributions"] == [1, 2]
    assert blinds.current_player(state) == 0
    assert blinds.legal_actions(state) == ["Fold", "Call", "Raise"]


def test_blinds_small_blind_fold_loses_one(blinds):
    state = play(blinds, ["Deal Kh", "Deal Js", "Fold"])
    assert blinds.current_player(state) == TERMINAL
    assert blinds.rewards(state) == [-1.0, 1.0]


def test_blinds_call_then_big_blind_option(blinds):
    state = play(blinds, ["Deal Kh", "Deal Js", "Call"])
    assert state["contributions"] == [2, 2]
    assert blinds.current_player(state) == 1
    assert blinds.legal_actions(state) == ["Call", "Raise"]  # free call, no fold
    assert blinds.current_player(blinds.apply(state, "Call")) == CHANCE
    raised = blinds.apply(state, "Raise")
    assert raised["contributions"] == [2, 4]
    assert blinds.legal_actions(raised) == ["Fold", "Call"]  # blind + raise = cap


def test_blinds_small_blind_raise_reaches_cap(blinds):
    state = play(blinds, ["Deal Kh", "Deal Js", "Raise"])
    assert state["contributions"] == [4, 2]
    assert blinds.legal_actions(state) == ["Fold", "Call"]
    state = play(blinds, ["Deal Kh", "Deal Js", "Raise", "Fold"])
    assert blinds.rewards(state) == [2.0, -2.0]


def test_blinds_second_round_is_standard(blinds):
    state = play(blinds, ["Deal Kh", "Deal Js", "Raise", "Call", "Deal Qs"])
    assert state["contributions"] == [4, 4]
    assert blinds.current_player(state) == 0
    assert blinds.legal_actions(state) == ["Call", "Raise"]
    state = play(blinds, ["Deal Kh", "Deal Js", "Raise", "Call", "Deal Qs", "Call", "Raise"])
    assert state["contributions"] == [4, 8]
    assert blinds.legal_actions(state) == ["Fold", "Call", "Raise"]
    state = blinds.apply(state, "Raise")
    assert state["contributions"] == [12, 8]
    assert blinds.legal_actions(state) == ["Fold", "Call"]
    state = blinds.apply(state, "Call")
    assert blinds.rewards(state) == [12.0, -12.0]
    assert blinds.metadata.max_utility == 12.0


def test_blinds_rules_text_and_bad_parameter(blinds):
    assert "big blind" in blinds.rules.lower()
    with pytest.raises(ModelLoadError):
        load_model("leduc_poker(blinds=maybe)")


@pytest.mark.parametrize("spec", ["leduc_poker", "leduc_poker(blinds=true)"])
def test_conformance(spec):
    assert check_model(load_model(spec), games=100).ok
