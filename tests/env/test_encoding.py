"""The schema encoder and the action index."""

from __future__ import annotations

import numpy as np
import pytest

from ggp.env.encoding import ActionIndex, EncodingError, SchemaEncoder
from ggp.env.samples import random_play_samples
from ggp.load import load_model

EXAMPLES = [
    {"board": ["x", ".", "o"], "turn": 0, "pot": 3.5, "bets": [[0, "Call"]], "card": None},
    {"board": ["o", "x", "."], "turn": 1, "pot": 10.25, "bets": [], "card": "Ks"},
    {"board": [".", ".", "."], "turn": 1, "pot": 0.0, "bets": [[1, "Raise"], [0, "Call"]],
     "card": "Qh", "extra": True},
]


def test_distinct_examples_get_distinct_fixed_size_vectors() -> None:
    encoder = SchemaEncoder.fit(EXAMPLES)
    vectors = [encoder.encode(e) for e in EXAMPLES]
    assert all(v.shape == (encoder.size,) and v.dtype == np.float32 for v in vectors)
    assert len({v.tobytes() for v in vectors}) == len(EXAMPLES)
    # the numeric leaf is scaled by the largest magnitude seen
    assert max(v.max() for v in vectors) == 1.0


def test_round_trip_through_json_keeps_the_encoding() -> None:
    encoder = SchemaEncoder.fit(EXAMPLES)
    again = SchemaEncoder.from_dict(encoder.to_dict())
    for example in EXAMPLES:
        np.testing.assert_array_equal(encoder.encode(example), again.encode(example))


@pytest.mark.parametrize("bad, where", [
    ({**EXAMPLES[0], "card": "Js"}, "observation.card"),
    ({**EXAMPLES[0], "surprise": 1}, "unknown key 'surprise'"),
    ({**EXAMPLES[0], "bets": [[0, "Call"]] * 3}, "observation.bets: a list of 3 items"),
    ({**EXAMPLES[0], "turn": "zero"}, "observation.turn: a string"),
])
def test_observation_outside_the_schema_is_a_clear_error(bad: dict, where: str) -> None:
    with pytest.raises(EncodingError, match="outside the schema") as info:
        SchemaEncoder.fit(EXAMPLES).encode(bad)
    assert where in str(info.value)
    lenient = SchemaEncoder.fit(EXAMPLES, unknown="ignore")
    assert lenient.encode(bad).shape == (lenient.size,)


def test_action_index_masks_and_out_of_index_handling() -> None:
    index = ActionIndex(["b", "a", "c", "a"])
    assert index.actions == ["a", "b", "c"] and index.id("c") == 2
    assert index.mask(["c", "a"]).tolist() == [1, 0, 1]
    with pytest.raises(EncodingError, match="not in the action index"):
        index.mask(["a", "zz"])
    lenient = ActionIndex(["a", "b"], unknown="ignore")
    assert lenient.mask(["a", "zz"]).tolist() == [1, 0]
    with pytest.raises(EncodingError, match="none of the legal actions"):
        lenient.mask(["zz"])


def test_the_other_slot_plays_legal_actions_outside_the_index() -> None:
    index = ActionIndex(["a", "b"], unknown="overflow")
    assert len(index) == 3 and index.other == 2
    assert index.mask(["a", "zz", "yy"]).tolist() == [1, 0, 1]
    assert index.mask(["zz"]).tolist() == [0, 0, 1]  # never "none of the legal actions"
    assert index.action(2, ["a", "zz", "yy"]) == "zz" and index.action(2, ["a"]) is None
    assert index.unseen == 3
    restored = ActionIndex.from_dict(index.to_dict())
    assert len(restored) == 3 and restored.action(2, ["b", "q"]) == "q"


def test_the_fit_adds_the_other_slot_only_for_open_action_sets() -> None:
    from ggp.env.envs import Encoding

    closed = Encoding.for_model(load_model("tic_tac_toe"), games=20)
    assert len(closed.index) == 9 and closed.index.other is None
    # bargaining's offers keep appearing: 30 random games do not show them all
    bargaining = load_model("bargaining")
    samples = random_play_samples(bargaining, 30, seed=0)
    assert samples.open_actions
    index = Encoding.fit(samples, model=bargaining).index
    assert index.other == len(index) - 1
    assert Encoding.fit(samples, model=bargaining, unknown="ignore").index.other is None


def test_every_random_leduc_observation_fits_a_schema_fitted_on_other_games() -> None:
    model = load_model("leduc_poker")
    encoder = SchemaEncoder.fit(random_play_samples(model, 300, seed=0).observations)
    seen = set()
    for observation in random_play_samples(model, 100, seed=1).observations:
        seen.add(encoder.encode(observation).tobytes())
    assert len(seen) > 50
