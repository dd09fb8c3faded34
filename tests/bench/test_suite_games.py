"""Every game of the novel suite: its reference model passes ggp check on a few seeded
games, and the properties its catalogue entry claims hold for its model."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ggp.benchmark.suite import catalogue_markdown, load_suite
from ggp.check import check_model
from ggp.load import load_model

SUITE = load_suite(Path(__file__).parents[2] / "benchmarks" / "novel")
GAMES = {g.name: g for g in SUITE.games}
#: One entry per model file: a closed-deck variant shares its file with the open-deck entry,
#: and checking the same code twice would only cost time.
MODELS = [g.name for i, g in enumerate(SUITE.games)
          if g.file not in {h.file for h in SUITE.games[:i]}]


def _model(name):
    return load_model(str(GAMES[name].file), trusted=True)  # our own code


def _random_games(model, games, seed):
    """Lengths, the largest number of legal moves, whether a chance node was not uniform,
    and the return vectors of seeded random games."""
    rng = random.Random(seed)
    lengths, widest, weighted, returns = [], 0, False, []
    for _ in range(games):
        state, total, steps = model.initial_state(), [0.0] * model.num_players, 0
        while not model.is_terminal(state):
            legal = model.legal_actions(state)
            widest = max(widest, len(legal))
            if model.current_player(state) == -1:
                outcomes = model.chance_outcomes(state)
                probs = [p for _, p in outcomes]
                weighted |= max(probs) - min(probs) > 1e-9
                action = rng.choices([a for a, _ in outcomes], weights=probs)[0]
            else:
                action = rng.choice(legal)
            state = model.apply(state, action)
            total = [a + b for a, b in zip(total, model.rewards(state))]
            steps += 1
        lengths.append(steps)
        returns.append(total)
    return lengths, widest, weighted, returns


def test_the_suite_has_30_games_covering_every_tag_several_times():
    assert len(SUITE.games) >= 30
    for tag in ("hidden", "bluff", "simultaneous", "chance-weighted", "multiplayer",
                "closed-deck", "long", "branching", "general-sum", "limit-or-draw"):
        assert sum(tag in g.tags for g in SUITE.games) >= 3, tag


def test_the_catalogue_is_generated_from_the_suite_file():
    assert (SUITE.path / "CATALOGUE.md").read_text(encoding="utf-8") == catalogue_markdown(SUITE)


def test_no_suite_game_shares_a_name_with_a_registered_game():
    from ggp.core.registry import registered_games

    assert not {g.name for g in SUITE.games} & set(registered_games())


@pytest.mark.parametrize("name", MODELS)
def test_reference_model_passes_ggp_check(name):
    report = check_model(_model(name), games=5, seed=7)
    assert report.ok, "\n".join(str(v) for v in report.violations)


@pytest.mark.parametrize("name", list(GAMES))
def test_catalogue_claims_hold(name):
    game, model = GAMES[name], _model(name)
    meta = model.metadata
    assert meta.num_players == game.players
    assert ("multiplayer" in game.tags) == (3 <= meta.num_players <= 5)
    assert ("general-sum" in game.tags) == (not meta.zero_sum)
    assert ("simultaneous" in game.tags) == meta.simultaneous
    assert game.inference == (not meta.perfect_information)
    if {"hidden", "bluff", "closed-deck", "simultaneous"} & set(game.tags):
        assert not meta.perfect_information
    if game.deck == "closed":
        assert "closed-deck" in game.tags and game.inference
    lengths, widest, weighted, returns = _random_games(model, 4, seed=3)
    assert ("long" in game.tags) == (sum(lengths) / len(lengths) > 200), lengths
    if "branching" in game.tags:
        assert widest > 100
    else:
        assert widest <= 100
    if "chance-weighted" in game.tags:
        assert weighted
    for total in returns:
        assert all(meta.min_utility <= r <= meta.max_utility for r in total)
        if meta.zero_sum:
            assert abs(sum(total)) < 1e-9


WITH_INFERENCE = [n for n in MODELS if "def resample_history" in GAMES[n].file.read_text()]


@pytest.mark.parametrize("name", WITH_INFERENCE)
def test_ground_truth_inference_replays_every_view(name):
    """A sampled history replays to the player's observations and own actions, at every
    decision point and, with last_is_terminal, at the end of the game (as the synthesis'
    inference tests ask of a closed deck)."""
    from ggp.belief.replay import replay_history
    from ggp.core.protocol import canonical_json

    model = _model(name)
    rng = random.Random(11)
    sample = model.namespace.resample_history
    for _ in range(8):
        state = model.initial_state()
        histories = [[] for _ in range(model.num_players)]
        while not model.is_terminal(state):
            player = model.current_player(state)
            if player == -1:
                outcomes = model.chance_outcomes(state)
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                histories[player].append((model.observation(state, player), None))
                replay_history(model, sample(histories[player], player), player,
                               histories[player])
                action = rng.choice(model.legal_actions(state))
                histories[player][-1] = (histories[player][-1][0], action)
            state = model.apply(state, action)
        for player in range(model.num_players):
            history = histories[player] + [(model.observation(state, player), None)]
            replayed, step = model.initial_state(), 0
            for action in sample(history, player, last_is_terminal=True):
                if model.current_player(replayed) == player:
                    assert canonical_json(model.observation(replayed, player)) == \
                        canonical_json(history[step][0])
                    assert action == history[step][1]
                    step += 1
                assert action in model.legal_actions(replayed)
                replayed = model.apply(replayed, action)
            assert model.is_terminal(replayed) and step == len(history) - 1
            assert canonical_json(model.observation(replayed, player)) == \
                canonical_json(history[-1][0])
