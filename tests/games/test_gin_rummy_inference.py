"""Gin rummy ground-truth inference (``resample_history``).

* replay: at every decision point of seeded games (random and knock-seeking play, full
  deck and a small deck), and from the terminal view, a sampled history replays to exactly
  the player's observations;
* distribution: simple cases with known answers on the full deck, and an exact
  enumeration of the information set on a 9-card deck compared with the sampler by a
  chi-square statistic (fixed seeds).
"""

import math
import random
from collections import Counter

import pytest

from ggp.belief.replay import replay_history
from ggp.core.protocol import CHANCE
from ggp.core.registry import make_game
from ggp.games.gin_rummy import Cards
from tests.games.test_gin_rummy_openspiel import knock_seeking_policy

SMALL = "gin_rummy(num_ranks=6,num_suits=3,hand_size=4,knock_card=6)"
TINY = "gin_rummy(num_ranks=3,num_suits=3,hand_size=2)"


def uniform_policy(state, legal, rng):
    return rng.choice(legal)


def play_out(model, policy, rng):
    """One game; returns (actions, final state, decision points as (player, number of
    actions before it, the player's obs-action history), full histories per player)."""
    state, actions, points = model.initial_state(), [], []
    histories = [[], []]
    while not model.is_terminal(state):
        player = model.current_player(state)
        if player == CHANCE:
            action = model.sample_chance(state, rng)
        else:
            action = policy(state, model.legal_actions(state), rng)
            histories[player].append((model.observation(state, player), None))
            points.append((player, len(actions), list(histories[player])))
            histories[player][-1] = (histories[player][-1][0], action)
        state = model.apply(state, action)
        actions.append(action)
    return actions, state, points, histories


def policy_for(model, kind):
    if kind == "uniform":
        return uniform_policy
    params = model.metadata.extra
    return knock_seeking_policy(Cards(params["num_ranks"], params["num_suits"],
                                      params["hand_size"]), 0.5)


@pytest.mark.parametrize("spec,kind,games", [
    ("gin_rummy", "knock", 10), ("gin_rummy", "uniform", 3),
    (SMALL, "knock", 60), (SMALL, "uniform", 20),
])
def test_resampled_histories_replay_exactly(spec, kind, games):
    model = make_game(spec)
    rng = random.Random(11)
    policy, revealed = policy_for(model, kind), 0
    for _ in range(games):
        _, final, points, histories = play_out(model, policy, rng)
        for player, _, history in points:
            replay_history(model, model.resample_history(history, player, rng=rng),
                           player, history)
            revealed += history[-1][0]["opponent_hand"] is not None
        for player in (0, 1):  # the whole game, seen from its end
            history = histories[player] + [(model.observation(final, player), None)]
            sample = model.resample_history(history, player, last_is_terminal=True, rng=rng)
            replay_to_terminal(model, sample, player, history)
    if kind == "knock":
        assert revealed > 0  # some decisions were taken facing a knocker's open hand


def replay_to_terminal(model, actions, player, history):
    state, step = model.initial_state(), 0
    for action in actions:
        if model.current_player(state) == player:
            assert model.same(model.observation(state, player), history[step][0])
            assert action == history[step][1]
            step += 1
        state = model.apply(state, action)
    assert model.is_terminal(state) and step == len(history) - 1
    assert model.same(model.observation(state, player), history[-1][0])


def opponent_hand(model, actions, player):
    state = model.initial_state()
    for action in actions:
        state = model.apply(state, action)
    return state["hands"][1 - player]


def test_first_decision_every_unseen_card_is_equally_likely():
    model = make_game("gin_rummy")
    rng = random.Random(4)
    state = model.initial_state()
    while model.current_player(state) == CHANCE:
        state = model.apply(state, model.sample_chance(state, rng))
    for player, before in ((0, []), (1, ["Pass"])):
        current = state
        for action in before:
            current = model.apply(current, action)
        history = [(model.observation(current, player), None)]
        unseen = set(Cards(13, 4, 10).names) - set(current["hands"][player]) - {
            current["upcard"]}
        samples = 2000
        counts = Counter(card for _ in range(samples) for card in opponent_hand(
            model, model.resample_history(history, player, rng=rng), player))
        assert set(counts) == unseen and len(unseen) == 41
        expected = samples * 10 / 41
        for card in unseen:  # about 5 standard deviations
            assert abs(counts[card] - expected) < 5 * math.sqrt(expected), card


def test_a_discard_after_a_stock_draw_came_from_the_stock_one_time_in_eleven():
    model = make_game("gin_rummy")
    rng = random.Random(9)
    state, history = model.initial_state(), []

    def act(action):  # plays an action (a chance outcome when None), recording player 0
        nonlocal state
        if model.current_player(state) == CHANCE:
            action = model.sample_chance(state, rng)
        elif model.current_player(state) == 0:
            history.append((model.observation(state, 0), action))
        state = model.apply(state, action)

    for _ in range(21):
        act(None)
    for action in ("Pass", "Pass", "Draw stock", None):
        act(action)
    act(state["hands"][0][0])
    act("Draw stock")  # player 1 draws ...
    act(None)
    thrown = state["hands"][1][0]
    act(thrown)  # ... and throws a card: from its deal (10 chances in 11) or the stock
    history.append((model.observation(state, 0), None))
    samples, from_stock, holds = 3300, 0, Counter()
    for _ in range(samples):
        actions = model.resample_history(history, 0, rng=rng)
        stock_draw = actions[actions.index("Draw stock", actions.index("Draw stock") + 1) + 1]
        from_stock += stock_draw == f"Deal {thrown}"
        holds.update(opponent_hand(model, actions, 0))
    assert abs(from_stock - samples / 11) < 5 * math.sqrt(samples / 11 * 10 / 11)
    # The other 39 unseen cards are each held with probability 10/39.
    assert len(holds) == 39
    for card, count in holds.items():
        assert abs(count - samples * 10 / 39) < 5 * math.sqrt(samples * 10 / 39), card


def information_set(model, actions, player, history):
    """Every action list from the initial state that repeats the non-chance ``actions``,
    varies the chance outcomes, and shows ``player`` exactly ``history``: the player's
    information set, as complete chance histories (all equally likely a priori)."""
    found, prefix = [], []

    def extend(state, i, step):
        if model.current_player(state) == player:
            if not model.same(model.observation(state, player), history[step][0]):
                return
            step += 1
        if i == len(actions):
            if model.current_player(state) == player and step == len(history):
                found.append(tuple(prefix))
            return
        if model.current_player(state) == CHANCE:
            options = model.legal_actions(state)
        else:
            options = [actions[i]] if actions[i] in model.legal_actions(state) else []
        for action in options:
            prefix.append(action)
            extend(model.apply(state, action), i + 1, step)
            prefix.pop()

    extend(model.initial_state(), 0, 0)
    return found


def test_sampler_matches_the_exact_information_set_on_a_tiny_deck():
    model = make_game(TINY)
    rng = random.Random(2)
    actions, _, points, _ = play_out(model, uniform_policy, rng)
    # Decision points after the opponent drew from the stock: the interesting constraints.
    chosen = [(p, n, h) for p, n, h in points
              if any(e["player"] != p and e["action"] == "Draw stock"
                     for e in h[-1][0]["history"])][:3]
    assert chosen
    for player, n, history in chosen:
        exact = information_set(model, actions[:n], player, history)
        samples = 40 * len(exact)
        counts = Counter(tuple(model.resample_history(history, player, rng=rng))
                         for _ in range(samples))
        assert set(counts) == set(exact)
        expected = samples / len(exact)
        chi2 = sum((counts[h] - expected) ** 2 / expected for h in exact)
        dof = len(exact) - 1
        assert chi2 < dof + 5 * math.sqrt(2 * dof), (len(exact), chi2)
