"""Kuhn and Leduc poker against OpenSpiel: same players, legal sets, chance
probabilities and returns along hundreds of seeded random games."""

import pytest

from ggp.core.model import load_model

pytest.importorskip("pyspiel")

from ggp.openspiel.differential import Divergence, compare_with_openspiel  # noqa: E402


def kuhn_action(state, action):
    """Ours "Deal K" is OpenSpiel's "Deal:2"; betting actions have the same names."""
    if action.startswith("Deal "):
        return f"Deal:{'JQK'.index(action[5:])}"
    return action


def leduc_action(state, action):
    """Ours "Deal Qh" is OpenSpiel's card 2 * rank + suit = 3."""
    if action.startswith("Deal "):
        rank, suit = action[5], action[6]
        return f"Chance outcome:{2 * 'JQK'.index(rank) + 'sh'.index(suit)}"
    return action


def test_kuhn_matches_openspiel():
    report = compare_with_openspiel(load_model("kuhn_poker"), "kuhn_poker", games=500,
                                    seed=3, action_map=kuhn_action)
    assert report.games == 500
    assert {tuple(r) for r in report.returns} == {(1, -1), (-1, 1), (2, -2), (-2, 2)}


def test_leduc_matches_openspiel():
    report = compare_with_openspiel(load_model("leduc_poker"), "leduc_poker", games=1000,
                                    seed=4, action_map=leduc_action)
    assert report.games == 1000
    outcomes = {r[0] for r in report.returns}
    # Folds, showdowns, split pots and the largest pot all occur.
    assert {0.0, 1.0, -1.0, 13.0, -13.0} <= outcomes


def test_blinds_variant_differs_from_openspiel():
    """The differential test does detect rule differences (here: the blinds)."""
    with pytest.raises(Divergence):
        compare_with_openspiel(load_model("leduc_poker(blinds=true)"), "leduc_poker",
                               games=20, seed=0, action_map=leduc_action)
