"""OpenSpiel games as world models (ggp.openspiel.model)."""

import random

import pytest

pytest.importorskip("pyspiel")

from ggp.check import check_model  # noqa: E402
from ggp.core.errors import ModelLoadError  # noqa: E402
from ggp.core.protocol import CHANCE, TERMINAL  # noqa: E402
from ggp.load import load_model  # noqa: E402
from ggp.openspiel.differential import compare_with_openspiel  # noqa: E402
from ggp.openspiel.model import OpenSpielGame, openspiel_model  # noqa: E402

GAMES = ["tic_tac_toe", "kuhn_poker", "leduc_poker", "liars_dice",
         "goofspiel(num_cards=4,imp_info=True)", "cliff_walking", "oh_hell"]


@pytest.mark.parametrize("game", GAMES)
def test_conformance(game):
    report = check_model(openspiel_model(game), games=10)
    assert report.ok, [str(v) for v in report.violations.values()]


@pytest.mark.parametrize("game", ["tic_tac_toe", "leduc_poker", "cliff_walking",
                                  "liars_dice"])
def test_agrees_with_the_pyspiel_game(game):
    """Same players, legal action strings, chance probabilities and (summed) returns."""
    report = compare_with_openspiel(openspiel_model(game), game, games=50, seed=2)
    assert report.games == 50


def test_intermediate_rewards_sum_to_returns():
    model = openspiel_model("cliff_walking")
    state, total = model.initial_state(), 0.0
    rewards_seen = set()
    for action in ["UP", "RIGHT", "RIGHT"]:
        state = model.apply(state, action)
        rewards_seen.add(model.rewards(state)[0])
        total += model.rewards(state)[0]
    assert rewards_seen == {-1.0}
    assert total == model.namespace.pyspiel_state(state).returns()[0] == -3.0


def test_load_model_prefix_and_metadata():
    model = load_model("openspiel:leduc_poker")
    assert model.name == "openspiel:leduc_poker"
    meta = model.metadata
    assert (meta.num_players, meta.zero_sum, meta.perfect_information, meta.chance) == (
        2, True, False, True)
    assert (meta.min_utility, meta.max_utility, meta.outcome) == (-13.0, 13.0, "payoff")
    assert openspiel_model("tic_tac_toe").metadata.outcome == "win_loss_draw"


def test_chance_outcomes_and_hidden_cards():
    model = openspiel_model("kuhn_poker")
    state = model.initial_state()
    assert model.current_player(state) == CHANCE
    assert model.chance_outcomes(state) == [(f"Deal:{i}", pytest.approx(1 / 3))
                                            for i in range(3)]
    for action in ["Deal:2", "Deal:0"]:
        state = model.apply(state, action)
    assert model.legal_actions(state) == ["Pass", "Bet"]
    obs = model.observations(state)
    assert set(obs[0]) == {"observation", "information_state", "information_state_tensor"}
    assert obs[0]["information_state_tensor"] != obs[1]["information_state_tensor"]
    assert obs[0]["information_state"] != obs[1]["information_state"]
    state = model.apply(model.apply(state, "Bet"), "Bet")
    assert model.current_player(state) == TERMINAL and model.rewards(state) == [2.0, -2.0]


def test_perfect_information_observation_is_the_state():
    model = openspiel_model("tic_tac_toe")
    state = model.apply(model.initial_state(), "x(1,1)")
    assert model.observation(state, 1) == state
    assert "x" in state["text"] and state["history"] == [4]


def test_simultaneous_moves_are_hidden_until_both_chose():
    model = openspiel_model("goofspiel(num_cards=3,imp_info=True,points_order=descending)")
    state = model.initial_state()
    assert model.current_player(state) == 0 and model.metadata.simultaneous
    after = [model.apply(state, a) for a in model.legal_actions(state)]
    assert {model.current_player(s) for s in after} == {1}
    views = {model.observation(s, 1)["information_state"] for s in after}
    assert len(views) == 1  # player 1 cannot tell which bid player 0 chose


def test_states_survive_cache_eviction():
    """States are plain JSON: a state rebuilt from its history behaves the same."""
    small = OpenSpielGame("leduc_poker", cache_size=2)
    big = OpenSpielGame("leduc_poker")
    rng = random.Random(5)
    for _ in range(20):
        s_small, s_big = small.INITIAL_STATE, big.INITIAL_STATE
        while small.get_current_player(s_small) != TERMINAL:
            assert small.get_observations(s_small) == big.get_observations(s_big)
            action = rng.choice(small.get_legal_actions(s_small))
            s_small, s_big = small.apply_action(s_small, action), big.apply_action(s_big,
                                                                                   action)
        assert s_small == s_big


def test_bad_names_and_illegal_actions_have_clear_errors():
    with pytest.raises(ModelLoadError, match="leduc_poker"):
        openspiel_model("leduc_pokr")
    with pytest.raises(ModelLoadError, match="Unknown parameter"):
        openspiel_model("leduc_poker(foo=1)")
    model = openspiel_model("tic_tac_toe")
    with pytest.raises(Exception, match="not legal"):
        model.apply(model.initial_state(), "o(0,0)")
