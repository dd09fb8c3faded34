"""Policy transformations: shapes, normalisation and the documented fallbacks."""

import numpy as np
import pytest

from ggp.sepot.transformations import goofspiel_set, pure_action_set


def _rows():
    pi = np.array([[0.1, 0.2, 0.3, 0.4], [0.0, 0.5, 0.0, 0.5], [0.0, 0.0, 1.0, 0.0]])
    legal = pi > 0
    legal[0] = True
    return pi, legal


def test_goofspiel_set_has_22_normalised_transformations():
    pi, legal = _rows()
    fs = goofspiel_set(np.arange(1, 5))
    assert len(fs) == 22 and fs[0].name == "identity"
    for f in fs:
        out = f(pi, legal)
        assert np.allclose(out.sum(axis=1), 1.0), f.name
        assert np.all(out[~legal] == 0.0), f.name


def test_weighting_by_card_value():
    pi, legal = _rows()
    out = goofspiel_set(np.arange(1, 5))[3](pi, legal)  # pi * I
    expected = pi[0] * np.arange(1, 5)
    assert out[0] == pytest.approx(expected / expected.sum())


def test_exponential_weights_do_not_overflow():
    index = np.arange(1, 101, dtype=float)
    pi = np.full((1, 100), 0.01)
    out = goofspiel_set(index)[5](pi, np.ones((1, 100), bool))
    assert np.isfinite(out).all() and out[0, -1] > 0.6


def test_removing_every_legal_action_falls_back_to_pi():
    pi, legal = _rows()
    odd = goofspiel_set(np.arange(1, 5))[16]      # keep only odd cards
    assert odd.name == "odd"
    out = odd(pi, legal)
    assert out[1] == pytest.approx(pi[1])  # only cards 2 and 4 legal: nothing odd, unchanged
    assert out[2] == pytest.approx(pi[2])  # only card 3 legal: odd keeps it
    even = goofspiel_set(np.arange(1, 5))[15]
    assert even(pi, legal)[2] == pytest.approx(pi[2])  # nothing even is legal: unchanged


def test_pure_actions_with_illegal_fallback():
    pi = np.array([[0.0, 0.3, 0.7]])
    legal = np.array([[False, True, True]])
    fs = pure_action_set(3)
    assert [f.name for f in fs] == ["identity", "pure_0", "pure_1", "pure_2"]
    assert fs[2](pi, legal)[0].tolist() == [0.0, 1.0, 0.0]
    assert fs[1](pi, legal)[0] == pytest.approx(pi[0])  # fold is illegal: keep pi
