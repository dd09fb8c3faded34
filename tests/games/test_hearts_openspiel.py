"""Hearts with ``rules=openspiel``: a differential test against OpenSpiel 2.0.2's hearts,
the rules that differ from the thesis version, and ground-truth inference."""

import pytest

from ggp.belief.replay import replay_history
from ggp.check import check_model
from ggp.load import load_model
from tests.games.card_helpers import (
    assert_inference_replays,
    deal_for,
    random_histories,
)

pytest.importorskip("pyspiel")
from ggp.openspiel.differential import compare_with_openspiel  # noqa: E402

SPEC = "hearts(rules=openspiel)"
OPENSPIEL_DIRECTIONS = {"No pass": "No Pass", "Pass left": "Left", "Pass across": "Across",
                        "Pass right": "Right"}


def to_openspiel(state, action):
    """Our action name -> OpenSpiel's: cards lose the verb and write ten as T."""
    if action in OPENSPIEL_DIRECTIONS:
        return OPENSPIEL_DIRECTIONS[action]
    return action.split(" ")[1].replace("10", "T")


@pytest.fixture(scope="module")
def model():
    return load_model(SPEC)


def test_random_games_agree_with_openspiel(model):
    report = compare_with_openspiel(model, "hearts", games=300, seed=3, action_map=to_openspiel)
    assert report.games == 300
    returns = [tuple(r) for r in report.returns]
    # Every pass direction and a spread of scores were exercised.
    assert len(set(returns)) > 100
    assert all(sum(r) in (78.0, 26.0) for r in returns)  # 104 - 26 points, or a moon shot


def test_a_small_rule_change_is_caught():
    """The comparison is not vacuous: letting only discarded hearts break hearts (as in
    the thesis) makes random games diverge from OpenSpiel."""
    from ggp.core.model import WorldModel
    from ggp.games.hearts import make
    from ggp.openspiel.differential import Divergence

    game = make("openspiel")
    game._breaks_hearts = lambda card, trick: bool(trick) and card[-1] == "H" != trick[0][-1]
    mutant = WorldModel(game, name="mutant", trusted=True, rules=game.RULES,
                        metadata=game.METADATA)
    with pytest.raises(Divergence):
        compare_with_openspiel(mutant, "hearts", games=50, seed=0, action_map=to_openspiel)


def deal_rows(hands):
    return [f"Deal {hands[i % 4][i // 4]}" for i in range(52)]


HANDS = [  # player 1 holds the two of clubs; player 2 has no clubs
    ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "2D"],
    ["2C", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD"],
    ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QS", "KS", "AS"],
    ["QH", "KH", "AH", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS"],
]


def test_two_of_clubs_leads_and_first_trick_refuses_points_until_forced(model):
    state = deal_for(model, ["No pass"] + deal_rows(HANDS))
    assert model.current_player(state) == 1
    assert model.legal_actions(state) == ["Play 2C"]
    state = model.apply(state, "Play 2C")
    # Player 2 holds only hearts and spades: points are forbidden, so a spade but not QS.
    assert set(model.legal_actions(state)) == {"Play KS", "Play AS"}
    state = model.apply(state, "Play KS")
    assert set(model.legal_actions(state)) == {f"Play {r}S" for r in
                                               ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J"]}


def test_queen_of_spades_breaks_hearts_and_passing_follows_the_direction(model):
    passes = [["3C", "4C", "5C"], ["3D", "4D", "5D"], ["2H", "3H", "4H"], ["QH", "KH", "AH"]]
    actions = ["Pass across"] + deal_rows(HANDS) + [f"Pass {c}" for p in passes for c in p]
    state = deal_for(model, actions)
    assert {"3C", "4C", "5C"} <= set(state["hands"][2])  # 0 passes across to 2
    assert model.observation(state, 3)["received"] == ["3D", "4D", "5D"]
    assert model.observation(state, 0)["pass_dir"] == 2
    state = model.apply(state, "Play 2C")  # player 1 leads
    state = model.apply(state, "Play 3C")  # player 2 follows with a received club
    state = model.apply(state, "Play 2S")  # player 3: no clubs, plays a spade
    state = model.apply(state, "Play 6C")
    assert not state["hearts_broken"]
    assert model.current_player(state) == 0  # 6C, the highest club, wins
    # Hearts are not broken, so player 0 may not lead its received hearts.
    assert not any(a[-1] == "H" for a in model.legal_actions(state))
    for action in ["Play 2D", "Play 6D", "Play QS"]:  # player 2 discards the queen
        state = model.apply(state, action)
    assert state["hearts_broken"]


def test_moon_shot_and_ordinary_scores():
    from ggp.games.hearts import make

    game = make("openspiel")
    assert game._scores([26, 0, 0, 0]) == [26.0, 0.0, 0.0, 0.0]
    assert game._scores([13, 10, 3, 0]) == [13.0, 16.0, 23.0, 26.0]


def test_conformance_and_inference(model):
    assert check_model(model, games=8).ok
    assert_inference_replays(model, seed=1, games=8)


def test_inference_late_in_the_hand_and_without_passing(model):
    checked, directions = 0, set()
    for state, player, history in random_histories(model, seed=7, games=12):
        directions.add(state["pass_dir"])
        if len(state["tricks"]) >= 6 or state["pass_dir"] == 0:
            actions = model.resample_history(history, player)
            replay_history(model, actions, player, history)
            checked += 1
    assert 0 in directions and checked > 50


def test_inference_knows_a_first_trick_point_discard_means_only_points(model):
    """Player 2 holds only hearts: discarding one on the first trick (legal only with
    no other card) must make every sampled hand of player 2 hearts or QS."""
    hands = [["3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "2D"],
             ["2C"] + [r + "D" for r in
                       ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]],
             [r + "H" for r in
              ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]],
             [r + "S" for r in
              ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]]]
    state = deal_for(model, ["No pass"] + deal_rows(hands))
    for action in ["Play 2C", "Play 5H", "Play 2S"]:
        state = model.apply(state, action)
    history = [(model.observation(state, 0), None)]
    for _ in range(30):
        actions = model.resample_history(history, 0)
        sampled = replay_history(model, actions, 0, history)
        assert all(c[-1] == "H" or c == "QS" for c in sampled["hands"][2])
