"""World models as registered pyspiel games: OpenSpiel's CFR, best response and
exploitability give the same numbers on our Kuhn and Leduc as on OpenSpiel's own."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python import policy  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402
from open_spiel.python.algorithms.expected_game_score import policy_value  # noqa: E402

from ggp.core.errors import GGPError  # noqa: E402
from ggp.core.protocol import CHANCE, canonical_json  # noqa: E402
from ggp.load import load_model  # noqa: E402
from ggp.openspiel.game import explore_actions, register_world_model  # noqa: E402


@pytest.fixture(scope="module")
def kuhn():
    return register_world_model(load_model("kuhn_poker"), "ggp_test_kuhn")


@pytest.fixture(scope="module")
def leduc():
    return register_world_model(load_model("leduc_poker"), "ggp_test_leduc")


def cpp_cfr_plus(game, iterations):
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    return pyspiel.exploitability(game, solver.average_policy()), solver


def python_cfr_plus(game, iterations):
    solver = cfr.CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    return exploitability.exploitability(game, average), average


def test_game_info(kuhn, leduc):
    assert kuhn.get_type().short_name == "ggp_test_kuhn"
    assert (kuhn.num_distinct_actions(), kuhn.max_chance_outcomes()) == (2, 3)
    # max_game_length counts player moves only, as native kuhn_poker does (chance: 2 deals)
    assert (kuhn.min_utility(), kuhn.max_utility(), kuhn.max_game_length()) == (-2, 2, 3)
    assert (leduc.num_distinct_actions(), leduc.max_chance_outcomes()) == (3, 6)
    assert (leduc.min_utility(), leduc.max_utility()) == (-13, 13)
    assert pyspiel.load_game("ggp_test_kuhn").num_players() == 2


def test_information_states_count(kuhn):
    """Kuhn has 12 information states (6 per player), as in OpenSpiel."""
    table = policy.TabularPolicy(kuhn)
    native = policy.TabularPolicy(pyspiel.load_game("kuhn_poker"))
    assert len(table.state_lookup) == len(native.state_lookup) == 12


def test_uniform_exploitability(kuhn, leduc):
    assert exploitability.exploitability(kuhn, policy.UniformRandomPolicy(kuhn)) == (
        pytest.approx(0.458333, abs=1e-6))
    native = pyspiel.load_game("leduc_poker")
    ours = exploitability.exploitability(leduc, policy.UniformRandomPolicy(leduc))
    assert ours == pytest.approx(
        exploitability.exploitability(native, policy.UniformRandomPolicy(native)), abs=1e-9)
    assert ours == pytest.approx(2.3736, abs=1e-4)


def test_kuhn_cfr_plus_matches_native(kuhn):
    native = pyspiel.load_game("kuhn_poker")
    ours_cpp, _ = cpp_cfr_plus(kuhn, 100)
    native_cpp, _ = cpp_cfr_plus(native, 100)
    assert ours_cpp == pytest.approx(native_cpp, abs=1e-9)
    ours_py, average = python_cfr_plus(kuhn, 100)
    assert ours_py == pytest.approx(native_cpp, abs=1e-9)
    assert ours_py < 2e-3
    value = policy_value(kuhn.new_initial_state(), [average, average])[0]
    assert value == pytest.approx(-1 / 18, abs=5e-3)


def test_leduc_cfr_plus_matches_native(leduc):
    native = pyspiel.load_game("leduc_poker")
    ours, _ = cpp_cfr_plus(leduc, 3)
    theirs, _ = cpp_cfr_plus(native, 3)
    assert ours == pytest.approx(theirs, abs=1e-9)
    ours, _ = python_cfr_plus(leduc, 2)
    theirs, _ = python_cfr_plus(native, 2)
    assert ours == pytest.approx(theirs, abs=1e-9)


def test_best_response_value(kuhn):
    from open_spiel.python.algorithms.best_response import BestResponsePolicy

    response = BestResponsePolicy(kuhn, 0, policy.UniformRandomPolicy(kuhn))
    assert response.value(kuhn.new_initial_state()) == pytest.approx(0.5)


def test_strings_and_clones(kuhn):
    state = kuhn.new_initial_state()
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == [
        "Deal J", "Deal K", "Deal Q"]
    for name in ["Deal K", "Deal J"]:
        state.apply_action(state.string_to_action(name))
    clone = state.clone()
    clone.apply_action(clone.string_to_action("Bet"))
    assert state.current_player() == 0 and clone.current_player() == 1
    info0 = state.information_state_string(0)
    assert '"my_card":"K"' in info0 and '"J"' not in info0
    assert state.world_model_state()["cards"] == ["K", "J"]


def test_perfect_information_game_without_chance():
    ttt = register_world_model(load_model("tic_tac_toe"), "ggp_test_ttt")
    assert ttt.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert ttt.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert ttt.num_distinct_actions() == 18  # x(r,c) and o(r,c)
    state = ttt.new_initial_state()
    state.apply_action(state.string_to_action("x(1,1)"))
    assert state.current_player() == 1


def test_explicit_action_lists_and_errors():
    model = load_model("kuhn_poker")
    game = register_world_model(model, "ggp_test_kuhn_listed", actions=["Pass", "Bet"],
                                chance_actions=["Deal J", "Deal Q", "Deal K"],
                                max_game_length=5)
    assert game.num_distinct_actions() == 2
    assert explore_actions(model)["max_game_length"] == 3
    with pytest.raises(GGPError, match="max_game_length"):
        register_world_model(model, "ggp_test_bad", actions=["Pass", "Bet"])
    with pytest.raises(GGPError, match="no OpenSpiel id"):
        register_world_model(model, "ggp_test_missing", actions=["Pass", "Bet"],
                             chance_actions=["Deal J"], max_game_length=5)
    with pytest.raises(GGPError, match="more than 10 states"):
        register_world_model(load_model("leduc_poker"), "ggp_test_big", max_nodes=10)


@pytest.mark.parametrize("spec", ["kuhn_poker", "leduc_poker(blinds=true)"])
def test_round_trip_through_openspiel(spec):
    """A registered world model, wrapped back as a world model, plays exactly like the
    original: same players, legal sets, chance probabilities and returns."""
    from ggp.openspiel.differential import compare_with_openspiel
    from ggp.openspiel.model import openspiel_model

    short_name = "ggp_round_trip_" + spec.split("(")[0]
    register_world_model(load_model(spec), short_name)
    report = compare_with_openspiel(load_model(spec), short_name, games=200, seed=9,
                                    information_states=True)
    assert report.games == 200
    wrapped = openspiel_model(short_name)
    assert wrapped.metadata.perfect_information is False
    assert compare_with_openspiel(wrapped, short_name, games=50, seed=1).games == 50


def test_python_games_of_openspiel_load():
    from ggp.openspiel.model import openspiel_model

    model = openspiel_model("python_kuhn_poker")
    assert model.legal_actions(model.initial_state()) == ["Deal:0", "Deal:1", "Deal:2"]


@settings(max_examples=60, deadline=None)
@given(choices=st.lists(st.integers(min_value=0, max_value=10), min_size=0, max_size=14))
def test_pyspiel_view_matches_the_world_model(leduc, choices):
    """Along any action sequence the registered game shows exactly the world model:
    players, legal action names, returns, and information states equal to the canonical
    JSON of the acting player's obs-action history."""
    model = load_model("leduc_poker")
    state, os_state = model.initial_state(), leduc.new_initial_state()
    views = [[], []]
    returns = [0.0, 0.0]
    for choice in choices:
        if model.is_terminal(state):
            break
        player = model.current_player(state)
        assert os_state.current_player() == player
        legal = model.legal_actions(state)
        ids = [a for a, _ in os_state.chance_outcomes()] if player == CHANCE else (
            os_state.legal_actions())
        assert sorted(os_state.action_to_string(player, a) for a in ids) == sorted(legal)
        action = legal[choice % len(legal)]
        if player != CHANCE:
            obs = model.observation(state, player)
            view = [*views[player], [obs, None]]
            assert os_state.information_state_string(player) == canonical_json(view)
            assert os_state.observation_string(player) == canonical_json(obs)
            views[player].append([obs, action])
        os_state.apply_action(os_state.string_to_action(action))
        state = model.apply(state, action)
        returns = [r + x for r, x in zip(returns, model.rewards(state))]
        assert os_state.returns() == returns
    assert os_state.is_terminal() == model.is_terminal(state)
