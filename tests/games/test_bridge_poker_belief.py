"""Ground-truth inference of Kuhn and Leduc poker.

1. Replaying a resampled history reproduces the player's observations and actions, at
   every decision point of many random games.
2. The resampled hidden cards follow the exact posterior, found here independently by
   walking the whole game tree and keeping the histories the player cannot tell apart
   (chance-weighted; the opponent's recorded actions are given). Checked by chi-square.
"""

import random
from collections import Counter

import pytest

from ggp.belief.replay import replay_history
from ggp.core.protocol import CHANCE, TERMINAL
from ggp.load import load_model

GAMES = ["kuhn_poker", "leduc_poker", "leduc_poker(blinds=true)"]


def random_views(model, rng, games):
    """(obs-action history, player) at every decision point of ``games`` random games."""
    for _ in range(games):
        state = model.initial_state()
        histories = [[] for _ in range(model.num_players)]
        while not model.is_terminal(state):
            player = model.current_player(state)
            if player == CHANCE:
                action = model.sample_chance(state, rng)
            else:
                action = rng.choice(model.legal_actions(state))
                obs = model.observation(state, player)
                yield [*histories[player], (obs, None)], player
                histories[player].append((obs, action))
            state = model.apply(state, action)


def exact_posterior(model, history, player):
    """{chance actions: probability} over all histories consistent with the view."""
    weights = Counter()

    def walk(state, step, chance_actions, prob):
        mover = model.current_player(state)
        if mover == TERMINAL:
            return
        if mover == player:
            if not model.same(model.observation(state, player), history[step][0]):
                return
            if step == len(history) - 1:
                weights[tuple(chance_actions)] += prob
                return
            walk(model.apply(state, history[step][1]), step + 1, chance_actions, prob)
        elif mover == CHANCE:
            for action, p in model.chance_outcomes(state):
                walk(model.apply(state, action), step, chance_actions + [action], prob * p)
        else:
            for action in model.legal_actions(state):
                walk(model.apply(state, action), step, chance_actions, prob)

    walk(model.initial_state(), 0, [], 1.0)
    total = sum(weights.values())
    return {k: w / total for k, w in weights.items()}


def chance_part(model, actions):
    state, chance = model.initial_state(), []
    for action in actions:
        if model.current_player(state) == CHANCE:
            chance.append(action)
        state = model.apply(state, action)
    return tuple(chance)


@pytest.mark.parametrize("spec", GAMES)
def test_resampled_histories_replay(spec):
    model = load_model(spec)
    rng = random.Random(7)
    random.seed(7)
    points = 0
    for history, player in random_views(model, rng, games=300):
        state = replay_history(model, model.resample_history(history, player), player, history)
        assert model.current_player(state) == player
        points += 1
    assert points > 500


@pytest.mark.parametrize("spec", GAMES)
def test_resampled_cards_follow_exact_posterior(spec):
    stats = pytest.importorskip("scipy.stats")
    model = load_model(spec)
    rng = random.Random(11)
    random.seed(11)
    views = list(random_views(model, rng, games=40))
    for history, player in rng.sample(views, 12):
        exact = exact_posterior(model, history, player)
        draws = 600
        counts = Counter(chance_part(model, model.resample_history(history, player))
                         for _ in range(draws))
        assert set(counts) <= set(exact), "a sample outside the information set"
        keys = sorted(exact)
        if len(keys) == 1:
            assert counts[keys[0]] == draws
            continue
        observed = [counts[k] for k in keys]
        expected = [exact[k] * draws for k in keys]
        assert stats.chisquare(observed, expected).pvalue > 1e-4, (history, exact, counts)


def test_exact_posterior_sees_the_public_card():
    """A sanity check of the oracle itself: after the flop, the opponent cannot hold the
    public card nor the player's own card, and the rest are equally likely."""
    model = load_model("leduc_poker")
    state = model.initial_state()
    for action in ["Deal Kh", "Deal Js"]:
        state = model.apply(state, action)
    history = [(model.observation(state, 0), "Call")]
    for action in ["Call", "Call", "Deal Qs"]:
        state = model.apply(state, action)
    history.append((model.observation(state, 0), None))
    post = exact_posterior(model, history, 0)
    opponent_cards = sorted(k[1] for k in post)
    assert opponent_cards == ["Deal Jh", "Deal Js", "Deal Ks", "Deal Qh"]
    assert all(abs(p - 0.25) < 1e-12 for p in post.values())


@pytest.mark.parametrize("spec", GAMES)
def test_resampling_from_a_terminal_observation(spec):
    """With last_is_terminal=True the sample ends at a terminal state the player sees the
    same way; after a showdown it is the true deal."""
    model = load_model(spec)
    rng = random.Random(3)
    random.seed(3)
    for _ in range(100):
        state, actions = model.initial_state(), []
        histories = [[], []]
        while not model.is_terminal(state):
            player = model.current_player(state)
            if player == CHANCE:
                action = model.sample_chance(state, rng)
            else:
                action = rng.choice(model.legal_actions(state))
                histories[player].append((model.observation(state, player), action))
            actions.append(action)
            state = model.apply(state, action)
        for player in (0, 1):
            view = [*histories[player], (model.observation(state, player), None)]
            sample = model.resample_history(view, player, last_is_terminal=True)
            end = model.initial_state()
            for action in sample:
                end = model.apply(end, action)
            assert model.is_terminal(end)
            assert model.same(model.observation(end, player), view[-1][0])
            if view[-1][0]["showdown_cards"] is not None:
                assert sample == actions
