"""Every registered game passes `ggp check` and declares consistent metadata."""

import pytest

from ggp.check import check_model
from ggp.core.registry import make_game, registered_games

GAMES = sorted(registered_games())


@pytest.mark.parametrize("name", GAMES)
def test_game_conforms(name):
    model = make_game(name)
    report = check_model(model, games=5, seed=11)
    assert report.ok, "\n".join(str(v) for v in report.violations.values())
    lo, hi = model.metadata.min_utility, model.metadata.max_utility
    for returns in report.terminal_returns:
        assert all(lo - 1e-9 <= r <= hi + 1e-9 for r in returns), (name, returns)


@pytest.mark.parametrize("name", GAMES)
def test_game_has_rules_text(name):
    model = make_game(name)
    assert len(model.rules.split()) > 60, f"{name}: the rules text is too short to play from"
    if not model.metadata.perfect_information:
        assert model.has("resample_history"), name
