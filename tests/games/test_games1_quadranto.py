"""Quadranto: rules, hidden information, and the ground-truth history sampler."""

import random
from collections import Counter

import pytest

from ggp.belief.replay import replay_history
from ggp.check import check_model
from ggp.core.protocol import CHANCE, TERMINAL
from ggp.load import load_model


@pytest.fixture(scope="module")
def quad():
    return load_model("quadranto")


def play(model, actions):
    state = model.initial_state()
    for action in actions:
        state = model.apply(state, action)
    return state


START = ["Place player 0 at (1,1)", "Place player 1 at (2,2)"]


def test_setup_places_each_player_uniformly_in_its_quadrant(quad):
    state = quad.initial_state()
    assert quad.current_player(state) == CHANCE
    outcomes = quad.chance_outcomes(state)
    assert sorted(a for a, _ in outcomes) == [f"Place player 0 at ({r},{c})"
                                              for r in (0, 1) for c in (0, 1)]
    assert all(p == pytest.approx(0.25) for _, p in outcomes)
    state = quad.apply(state, outcomes[0][0])
    assert quad.current_player(state) == CHANCE
    assert {a for a, _ in quad.chance_outcomes(state)} == {
        f"Place player 1 at ({r},{c})" for r in (2, 3) for c in (2, 3)}
    state = quad.apply(state, "Place player 1 at (3,3)")
    assert quad.current_player(state) == 0


def test_steps_off_the_grid_are_not_legal(quad):
    state = play(quad, ["Place player 0 at (0,0)", "Place player 1 at (3,3)"])
    assert sorted(quad.legal_actions(state)) == ["Down", "Right", "Stay"]
    state = quad.apply(state, "Down")
    assert sorted(quad.legal_actions(state)) == ["Left", "Stay", "Up"]


def test_moving_onto_the_opponent_catches_it(quad):
    state = play(quad, START + ["Down", "Stay"])
    assert state["positions"] == [[2, 1], [2, 2]]
    state = quad.apply(state, "Right")
    assert quad.current_player(state) == TERMINAL
    assert quad.rewards(state) == [1.0, -1.0]
    assert all(obs["caught_at"] == [2, 2] and obs["winner"] == 0
               for obs in quad.observations(state))


def test_player_one_can_catch(quad):
    state = play(quad, START + ["Right", "Up"])
    assert quad.rewards(state) == [-1.0, 1.0] and state["winner"] == 1


def test_twenty_moves_without_catch_is_a_draw(quad):
    state = play(quad, ["Place player 0 at (0,0)", "Place player 1 at (3,3)"] + ["Stay"] * 19)
    assert quad.current_player(state) == 1
    state = quad.apply(state, "Stay")
    assert quad.current_player(state) == TERMINAL
    assert quad.rewards(state) == [0.0, 0.0] and state["winner"] is None


def test_observation_shows_own_cell_and_only_the_opponent_quadrant(quad):
    a = play(quad, ["Place player 0 at (0,0)", "Place player 1 at (2,2)", "Right", "Down"])
    b = play(quad, ["Place player 0 at (0,0)", "Place player 1 at (2,3)", "Right", "Left"])
    assert a["positions"][1] != b["positions"][1]
    obs = quad.observation(a, 0)
    assert obs["position"] == [0, 1] and obs["opponent_quadrant"] == "bottom-right"
    assert obs["opponent_quadrant_history"] == ["bottom-right", "bottom-right"]
    assert quad.same(obs, quad.observation(b, 0))
    assert not quad.same(quad.observation(a, 1), quad.observation(b, 1))


def test_quadrant_changes_are_seen(quad):
    state = play(quad, START + ["Down", "Left"])
    assert quad.observation(state, 0)["opponent_quadrant"] == "bottom-left"
    assert quad.observation(state, 1)["opponent_quadrant"] == "bottom-left"


def test_conformance_including_inference(quad):
    assert check_model(quad, games=40, seed=5).ok


def random_histories(model, games, seed):
    """Yield (player, obs_action_history) at every decision point of random games."""
    rng = random.Random(seed)
    for _ in range(games):
        state, views = model.initial_state(), ([], [])
        while not model.is_terminal(state):
            player = model.current_player(state)
            if player == CHANCE:
                action = model.sample_chance(state, rng)
            else:
                action = rng.choice(model.legal_actions(state))
                obs = model.observation(state, player)
                yield player, views[player] + [(obs, None)]
                views[player].append((obs, action))
            state = model.apply(state, action)


def test_resampled_histories_replay_to_the_same_observations(quad):
    count = 0
    for player, history in random_histories(quad, games=60, seed=11):
        actions = quad.resample_history(history, player)
        replay_history(quad, actions, player, history)  # raises BeliefError on mismatch
        count += 1
    assert count > 300


def test_terminal_histories_resample_to_the_same_end(quad):
    rng = random.Random(4)
    for _ in range(80):
        state, views = quad.initial_state(), ([], [])
        while not quad.is_terminal(state):
            player = quad.current_player(state)
            if player == CHANCE:
                action = quad.sample_chance(state, rng)
            else:
                action = rng.choice(quad.legal_actions(state))
                views[player].append((quad.observation(state, player), action))
            state = quad.apply(state, action)
        for player in (0, 1):
            history = views[player] + [(quad.observation(state, player), None)]
            sampled = play(quad, quad.resample_history(history, player, last_is_terminal=True))
            assert quad.is_terminal(sampled)
            assert quad.same(quad.observation(sampled, player), history[-1][0])
            assert quad.rewards(sampled) == quad.rewards(state)


def exact_posterior(model, history, player):
    """All histories consistent with the player's view, weighted by chance probabilities
    and a uniformly random opponent (the prior resample_history documents)."""
    found = {}

    def walk(state, actions, weight, step):
        current = model.current_player(state)
        if current == TERMINAL:
            return
        if current == player:
            if not model.same(model.observation(state, player), history[step][0]):
                return
            if step == len(history) - 1:
                found[tuple(actions)] = found.get(tuple(actions), 0.0) + weight
                return
            action = history[step][1]
            walk(model.apply(state, action), actions + [action], weight, step + 1)
        elif current == CHANCE:
            for action, p in model.chance_outcomes(state):
                walk(model.apply(state, action), actions + [action], weight * p, step)
        else:
            legal = model.legal_actions(state)
            for action in legal:
                walk(model.apply(state, action), actions + [action], weight / len(legal), step)

    walk(model.initial_state(), [], 1.0, 0)
    total = sum(found.values())
    return {h: w / total for h, w in found.items()}


@pytest.mark.parametrize("seed,player,decision", [(1, 0, 2), (2, 1, 2), (7, 1, 3), (4, 0, 4),
                                                   (5, 1, 4)])
def test_resample_distribution_matches_exact_enumeration(quad, seed, player, decision):
    picked = [h for p, h in random_histories(quad, games=60, seed=seed)
              if p == player and len(h) == decision + 1]
    history = picked[0]
    exact = exact_posterior(quad, history, player)
    assert len(exact) > 1
    random.seed(seed)
    samples = max(4000, 60 * len(exact))
    counts = Counter(tuple(quad.resample_history(history, player)) for _ in range(samples))
    assert set(counts) == set(exact)  # every consistent history is reachable
    # Compare the hidden state (the opponent's start cell and current cell) and the
    # histories themselves.
    for key in (lambda h: h[1 - player], lambda h: tuple(play(quad, h)["positions"][1 - player])):
        want, got = Counter(), Counter()
        for h, p in exact.items():
            want[key(h)] += p
        for h, c in counts.items():
            got[key(h)] += c / samples
        assert max(abs(want[k] - got[k]) for k in want) < 0.035
    tv = 0.5 * sum(abs(exact[h] - counts[h] / samples) for h in exact)
    assert tv < 0.08  # sampling noise here is about 0.03-0.05; a uniform sampler gives 0.13+
