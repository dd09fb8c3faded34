"""Each model source's own tensors, the overflow schema, the shared action index and
encodings that know their game."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

from ggp.env.encoding import ActionIndex, EncodingError, SchemaEncoder, seat_tokens  # noqa: E402
from ggp.env.envs import Encoding, GameAECEnv  # noqa: E402
from ggp.env.tensors import FactEncoder, OpenSpielEncoder  # noqa: E402
from ggp.load import load_model  # noqa: E402

GDL = Path(__file__).resolve().parents[2] / "src" / "ggp" / "gdl" / "games"


def _api(model, encoding) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(GameAECEnv(model, encoding), num_cycles=30)


@pytest.mark.parametrize("game, size", [("openspiel:leduc_poker", 30),
                                        ("openspiel:goofspiel(num_cards=4)", None)])
def test_openspiel_games_use_their_own_tensor(game: str, size: int | None) -> None:
    pytest.importorskip("pyspiel")
    model = load_model(game)
    encoding = Encoding.for_model(model, games=20)
    assert isinstance(encoding.encoder, OpenSpielEncoder)
    if size is not None:
        assert encoding.encoder.size == size  # 2,821 one-hot categories before
    _api(model, encoding)
    again = Encoding.from_dict(encoding.to_dict())  # without the live model: replays
    for obs in model.observations(model.initial_state()):
        np.testing.assert_array_equal(again.encode(obs), encoding.encode(obs))


def test_perfect_information_openspiel_state_is_replayed_for_its_tensor() -> None:
    pytest.importorskip("pyspiel")
    model = load_model("openspiel:tic_tac_toe")
    encoding = Encoding.for_model(model, games=5)
    state = model.apply(model.initial_state(), model.legal_actions(model.initial_state())[4])
    vector = Encoding.from_dict(encoding.to_dict()).encode(model.observation(state, 1))
    assert vector.shape == (27,) and vector.sum() == 9  # 3 planes, one mark per cell


@pytest.mark.parametrize("file, gdl_ii", [("connect_four.kif", False),
                                          ("blind_tic_tac_toe.kif", True)])
def test_gdl_games_are_bits_over_a_fact_vocabulary(file: str, gdl_ii: bool) -> None:
    model = load_model(str(GDL / file))
    encoding = Encoding.for_model(model, games=10)
    encoder = encoding.encoder
    assert isinstance(encoder, FactEncoder) and encoder.gdl_ii == gdl_ii
    assert encoder.size < 200  # facts by position gave connect four 4,852 inputs
    _api(model, encoding)
    obs = model.observation(model.initial_state(), 0)
    if not gdl_ii:
        assert encoding.encode(obs)[:len(encoder.facts)].sum() == len(obs["true"])
    with pytest.raises(EncodingError, match="not a GDL"):
        encoder.encode({"board": []})


def test_a_fact_outside_the_vocabulary_is_counted_not_fatal() -> None:
    encoder = FactEncoder(["(cell 1 b)"], ["noop"], gdl_ii=False)
    vector = encoder.encode({"step": 3, "true": ["(cell 1 b)", "(cell 9 x)"], "pending": {}})
    assert vector[0] == 1.0 and encoder.unseen == {"fact": 1}


def test_overflow_schema_never_fails_and_counts_what_it_met() -> None:
    examples = [{"card": "Ks", "bets": [1], "pot": 2}, {"card": "Qh", "bets": [], "pot": 4}]
    encoder = SchemaEncoder.fit(examples, unknown="overflow")
    strict = SchemaEncoder.fit(examples)
    # one "other" slot per categorical leaf: card, the bets element, pot (few integers)
    assert encoder.size == strict.size + 3
    odd = {"card": "Js", "bets": [1, 1, 1], "pot": 1e9, "surprise": None}
    vector = encoder.encode(odd)
    assert encoder.low <= vector.min() and vector.max() <= encoder.high  # bounded
    assert encoder.unseen == {"observation.card": 1, "observation.bets": 1,
                              "observation.pot": 1, "observation": 1}
    with pytest.raises(EncodingError):
        strict.encode(odd)
    again = SchemaEncoder.from_dict(encoder.to_dict())
    np.testing.assert_array_equal(again.encode(odd), vector)


def test_moves_carrying_the_movers_mark_share_one_index() -> None:
    model = load_model("tic_tac_toe")
    encoding = Encoding.for_model(model, games=20)
    index = encoding.index
    assert len(index) == 9 and index.tokens == {0: "x", 1: "o"}  # Discrete(18) before
    state = model.apply(model.initial_state(), "x(1,1)")
    legal = model.legal_actions(state)
    mask = index.mask(legal, seat=1)
    assert mask.sum() == 8 and mask[index.id("o(0,0)", 1)] == 1
    assert index.action(index.id("x(1,1)", 0), legal, 1) is None  # taken cell
    assert index.action(index.id("o(0,0)", 1), legal, 1) == "o(0,0)"
    restored = ActionIndex.from_dict(index.to_dict())
    assert restored.actions == index.actions and restored.tokens == index.tokens


def test_identity_rules_words_prefixes_and_none() -> None:
    assert seat_tokens({0: {"x0", "x1"}, 1: {"o0", "o1"}}) == {0: ["", "x"], 1: ["", "o"]}
    assert seat_tokens({0: {"move white a1", "move white b2"},
                        1: {"move black a1", "move black c3"}}) == {0: "white", 1: "black"}
    # no shared move after stripping: different moves, kept apart
    assert seat_tokens({0: {"x0", "x1"}, 1: {"o7", "o8"}}) == {}
    # same moves for both seats already: nothing to strip
    assert seat_tokens({0: {"Call", "Raise"}, 1: {"Call", "Fold"}}) == {}


def test_an_encoding_refuses_another_game() -> None:
    pytest.importorskip("pyspiel")
    native = Encoding.for_model(load_model("leduc_poker"), games=5)
    bridged = load_model("openspiel:leduc_poker")
    with pytest.raises(EncodingError, match="trained on leduc_poker .* not on "
                                            "openspiel:leduc_poker"):
        native.check(bridged)
    with pytest.raises(EncodingError, match="trained on leduc_poker"):
        GameAECEnv(bridged, native)
    tensor = Encoding.for_model(bridged, games=5)
    with pytest.raises(EncodingError, match="does not come from openspiel:leduc_poker"):
        tensor.encode(load_model("leduc_poker").observation(
            load_model("leduc_poker").initial_state(), 0))
