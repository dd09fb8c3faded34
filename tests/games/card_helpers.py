"""Shared helpers for the card-game tests."""

import random

from ggp.belief.replay import replay_history
from ggp.core.protocol import CHANCE, TERMINAL


def random_histories(model, seed, games):
    """Yield (state, player, obs_action_history) at every decision point of random games."""
    rng = random.Random(seed)
    for _ in range(games):
        state = model.initial_state()
        histories = [[] for _ in range(model.num_players)]
        while (player := model.current_player(state)) != TERMINAL:
            if player == CHANCE:
                state = model.apply(state, model.sample_chance(state, rng))
                continue
            action = rng.choice(model.legal_actions(state))
            histories[player].append((model.observation(state, player), None))
            yield state, player, list(histories[player])
            histories[player][-1] = (histories[player][-1][0], action)
            state = model.apply(state, action)


def assert_inference_replays(model, seed=0, games=20):
    """Every sampled history replays to the player's observations (and its actions)."""
    count = 0
    for _, player, history in random_histories(model, seed, games):
        replay_history(model, model.resample_history(history, player), player, history)
        count += 1
    assert count > 0


def deal_for(model, actions):
    state = model.initial_state()
    for action in actions:
        state = model.apply(state, action)
    return state
