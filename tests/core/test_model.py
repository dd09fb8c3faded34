"""The WorldModel wrapper: loading, validation, guarding."""

import pytest

from ggp.core.errors import ModelError, ModelLoadError
from ggp.core.model import WorldModel, from_functions, load_model_source
from ggp.core.protocol import canonical_json, json_copy
from ggp.core.registry import parse_game_spec
from ggp.load import load_model

COUNTING = open(__file__.replace("test_model.py", "broken_models/counting.py")).read()


def test_untrusted_model_cannot_mutate_callers_state():
    source = COUNTING.replace(
        "def apply_action(state, action):\n", "def apply_action(state, action):\n"
        "    state['total'] = 99\n")
    model = load_model_source(source, name="mutator")
    state = model.initial_state()
    model.apply(state, "+1")
    assert state["total"] == 0


def test_exceptions_become_model_errors_naming_function_state_and_action():
    model = load_model_source(COUNTING.replace("int(action)", "int(action) + undefined_name"))
    with pytest.raises(ModelError) as info:
        model.apply(model.initial_state(), "+1")
    err = info.value
    assert err.function == "apply_action" and err.action == "+1"
    assert "NameError" in str(err) and "state:" in str(err)


def test_bad_current_player_is_reported():
    model = load_model_source(COUNTING.replace('state["player"]\n', '"p0"\n', 1))
    with pytest.raises(ModelError, match="expected 0..1"):
        model.current_player(model.initial_state())


def test_non_json_initial_state_is_rejected():
    with pytest.raises(ModelLoadError, match="not JSON-serializable"):
        load_model_source(COUNTING.replace('"rewards": [0.0, 0.0]}', '"rewards": {0.0}}', 1))


def test_import_time_error_is_reported():
    with pytest.raises(ModelLoadError, match="ZeroDivisionError"):
        load_model_source("x = 1 / 0\n")


def test_chance_outcomes_default_to_uniform():
    model = from_functions(
        INITIAL_STATE={"t": 0},
        get_current_player=lambda s: -1 if s["t"] == 0 else -4,
        get_player_name=lambda p: "chance",
        get_legal_actions=lambda s: ["a", "b", "c", "d"] if s["t"] == 0 else [],
        apply_action=lambda s, a: {"t": 1},
        get_rewards=lambda s: [0.0],
        get_observations=lambda s: [s],
    )
    assert model.chance_outcomes(model.initial_state()) == [
        ("a", 0.25), ("b", 0.25), ("c", 0.25), ("d", 0.25)]


def test_unknown_game_suggests_close_names():
    with pytest.raises(ModelLoadError, match="Did you mean tic_tac_toe"):
        load_model("tic_tac_to")


def test_unknown_parameter_is_explained():
    with pytest.raises(ModelLoadError, match="has no parameter size"):
        load_model("tic_tac_toe(size=4)")


def test_game_spec_parsing():
    assert parse_game_spec("goofspiel(num_cards=5, points_order=descending,x=true,y=0.5)") == (
        "goofspiel", {"num_cards": 5, "points_order": "descending", "x": True, "y": 0.5})
    with pytest.raises(ModelLoadError):
        parse_game_spec("bad name!")


def test_canonical_json_equality():
    assert canonical_json({"b": [1, (2, 3)], "a": None}) == '{"a":null,"b":[1,[2,3]]}'
    assert json_copy({"t": (1, 2)}) == {"t": [1, 2]}
    assert WorldModel.same({"x": (1,)}, {"x": [1]})
    with pytest.raises(ValueError):
        canonical_json(float("nan"))
