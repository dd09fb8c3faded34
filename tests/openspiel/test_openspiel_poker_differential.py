"""Kuhn and Leduc poker against OpenSpiel: same players, legal sets, chance
probabilities and returns along hundreds of seeded random games."""

import pytest

from ggp.load import load_model

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
                                    seed=3, action_map=kuhn_action, information_states=True)
    assert report.games == 500
    assert {tuple(r) for r in report.returns} == {(1, -1), (-1, 1), (2, -2), (-2, 2)}


def test_leduc_matches_openspiel():
    report = compare_with_openspiel(load_model("leduc_poker"), "leduc_poker", games=1000,
                                    seed=4, action_map=leduc_action, information_states=True)
    assert len(report.ours_to_theirs) > 300
    assert report.games == 1000
    outcomes = {r[0] for r in report.returns}
    # Folds, showdowns, split pots and the largest pot all occur.
    assert {0.0, 1.0, -1.0, 13.0, -13.0} <= outcomes


def _kuhn_with_observations(observe):
    """Kuhn poker with replaced observations (to show the check catches bad ones)."""
    import types

    import ggp.games.kuhn_poker as kuhn
    from ggp.core.model import WorldModel

    namespace = types.SimpleNamespace(**{k: getattr(kuhn, k) for k in dir(kuhn)
                                         if not k.startswith("_")})
    namespace.get_observations = lambda state: [observe(state, p) for p in (0, 1)]
    return WorldModel(namespace, name="kuhn_variant", trusted=True)


@pytest.mark.parametrize("observe, words", [
    (lambda state, p: state, "reveal"),  # leaks the opponent's card
    (lambda state, p: {"card": state["cards"][p]}, "cannot tell apart"),  # forgets bets
])
def test_information_state_check_catches_bad_observations(observe, words):
    with pytest.raises(Divergence, match=words):
        compare_with_openspiel(_kuhn_with_observations(observe), "kuhn_poker", games=200,
                               seed=0, action_map=kuhn_action, information_states=True)


def test_blinds_variant_differs_from_openspiel():
    """The differential test does detect rule differences (here: the blinds)."""
    with pytest.raises(Divergence):
        compare_with_openspiel(load_model("leduc_poker(blinds=true)"), "leduc_poker",
                               games=20, seed=0, action_map=leduc_action)


@pytest.mark.parametrize("spec, native_name, action_map", [
    ("kuhn_poker", "kuhn_poker", kuhn_action),
    ("leduc_poker", "leduc_poker", leduc_action),
])
def test_information_sets_match_openspiel(spec, native_name, action_map):
    """Over the whole game tree, two histories look the same to the acting player in our
    game (same obs-action history) exactly when they do in OpenSpiel: our observations
    neither leak hidden cards nor forget anything."""
    import pyspiel

    from ggp.openspiel.differential import openspiel_action_strings
    from ggp.openspiel.game import register_world_model

    ours = register_world_model(load_model(spec), f"ggp_partition_{native_name}")
    native = pyspiel.load_game(native_name)
    pairs = set()

    def walk(mine, theirs):
        if mine.is_terminal():
            return
        if not mine.is_chance_node():
            player = mine.current_player()
            pairs.add((mine.information_state_string(player),
                       theirs.information_state_string(player)))
        ids = openspiel_action_strings(theirs)
        for action in mine.legal_actions():
            name = mine.action_to_string(action)
            walk(mine.child(action), theirs.child(ids[action_map(None, name)]))

    walk(ours.new_initial_state(), native.new_initial_state())
    ours_sets = {a for a, _ in pairs}
    native_sets = {b for _, b in pairs}
    assert len(pairs) == len(ours_sets) == len(native_sets)
    assert len(native_sets) == {"kuhn_poker": 12, "leduc_poker": 936}[native_name]
