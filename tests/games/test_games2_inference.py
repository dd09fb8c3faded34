"""Ground-truth inference (``resample_history``) of the imperfect-information games.

Two properties are tested:

* replay: for many seeded random trajectories and every decision point (and the terminal
  state where supported), a sampled history replays to exactly the player's observations
  (:func:`ggp.belief.replay.replay_history`);
* distribution: on small cases, the empirical distribution of sampled histories matches an
  exact enumeration of the player's information set (chance moves weighted by their
  probabilities, player moves uniformly), by a chi-square test with a fixed seed.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict

import pytest

from ggp.belief.replay import replay_history
from ggp.core.protocol import CHANCE, TERMINAL
from ggp.core.registry import make_game

REPLAY_GAMES = [
    ("goofspiel(num_cards=4)", 60),
    ("goofspiel(num_cards=5,points_order=descending)", 40),
    ("goofspiel(num_cards=8,returns_type=point_difference)", 15),
    ("battleship", 60),
    ("battleship(board_height=5,board_width=5,ship_sizes=[3;2;2])", 4),
    (("battleship(board_height=4,board_width=3,ship_sizes=[1;2],num_shots=6,"
      "allow_repeated_shots=true)"), 30),
    ("hand_of_war", 60),
    ("blind_tic_tac_toe", 40),
]


def random_trajectory(model, rng):
    """Play a random game; return (actions, per-player obs-action histories at each of
    their decision points, as (prefix_length, history) pairs)."""
    state, actions = model.initial_state(), []
    histories = [[] for _ in range(model.num_players)]
    points = []
    while not model.is_terminal(state):
        player = model.current_player(state)
        if player == CHANCE:
            action = model.sample_chance(state, rng)
        else:
            action = rng.choice(model.legal_actions(state))
            histories[player].append((model.observation(state, player), None))
            points.append((player, [h for h in histories[player]]))
            histories[player][-1] = (histories[player][-1][0], action)
        state = model.apply(state, action)
        actions.append(action)
    return state, actions, histories, points


@pytest.mark.parametrize("spec,games", REPLAY_GAMES)
def test_resampled_histories_replay_exactly(spec, games):
    model = make_game(spec)
    rng = random.Random(7)
    checked = 0
    for _ in range(games):
        final, _, histories, points = random_trajectory(model, rng)
        for player, history in points:
            sample = model.resample_history(history, player, rng=rng)
            replay_history(model, sample, player, history)
            checked += 1
        for player in range(model.num_players):  # the whole game, from the terminal view
            history = histories[player] + [(model.observation(final, player), None)]
            sample = model.resample_history(history, player, last_is_terminal=True, rng=rng)
            _replay_to_terminal(model, sample, player, history)
    assert checked > games


def _replay_to_terminal(model, actions, player, history):
    """Like replay_history, but the sampled history must end at a terminal state whose
    observation is the last one of ``history``."""
    state, step = model.initial_state(), 0
    for action in actions:
        if model.current_player(state) == player:
            assert model.same(model.observation(state, player), history[step][0])
            assert action == history[step][1]
            step += 1
        assert action in model.legal_actions(state)
        state = model.apply(state, action)
    assert model.current_player(state) == TERMINAL
    assert step == len(history) - 1
    assert model.same(model.observation(state, player), history[-1][0])


def information_set(model, history, player):
    """Exact enumeration: every full history consistent with ``history``, with weight =
    product of its chance probabilities (player moves count 1 each)."""
    found = defaultdict(float)

    def dfs(state, actions, step, weight):
        current = model.current_player(state)
        if current == player:
            if not model.same(model.observation(state, player), history[step][0]):
                return
            if step == len(history) - 1:
                found[tuple(actions)] += weight
                return
            action = history[step][1]
            dfs(model.apply(state, action), actions + [action], step + 1, weight)
        elif current == CHANCE:
            for action, p in model.chance_outcomes(state):
                dfs(model.apply(state, action), actions + [action], step, weight * p)
        elif current != TERMINAL:
            for action in model.legal_actions(state):
                dfs(model.apply(state, action), actions + [action], step, weight)

    dfs(model.initial_state(), [], 0, 1.0)
    return found


# (game, trajectories, most decisions of the player so far: bounds the enumeration cost)
DISTRIBUTION_CASES = [
    ("goofspiel(num_cards=3)", 3, 9),
    ("goofspiel(num_cards=4)", 3, 9),
    ("goofspiel(num_cards=4,points_order=descending)", 3, 9),
    ("battleship", 4, 99),
    ("blind_tic_tac_toe", 6, 3),
]


@pytest.mark.parametrize("spec,trajectories,max_decisions", DISTRIBUTION_CASES)
def test_sample_distribution_matches_exact_enumeration(spec, trajectories, max_decisions):
    _check_distribution(make_game(spec), trajectories, max_decisions, seed=11)


def test_battleship_rejection_sampler_is_exact(monkeypatch):
    """Large boards use stratified rejection sampling instead of enumeration; force it on
    the 3x3 game and compare with exact enumeration."""
    from ggp.games import battleship

    monkeypatch.setattr(battleship, "_ENUMERATION_LIMIT", 0)
    battleship._fleet_space.cache_clear()
    try:
        _check_distribution(make_game("battleship"), 4, 99, seed=12)
    finally:
        battleship._fleet_space.cache_clear()


def _check_distribution(model, trajectories, max_decisions, seed):
    stats = pytest.importorskip("scipy.stats")
    rng = random.Random(seed)
    tested = 0
    for _ in range(trajectories):
        _, _, _, points = random_trajectory(model, rng)
        for player, history in points[1::2]:  # every other decision point keeps it quick
            if len(history) > max_decisions:
                continue
            exact = information_set(model, history, player)
            assert exact, "the true history must be in its own information set"
            if len(exact) < 2 or len(exact) > 150:
                continue
            keys = sorted(exact)
            total = sum(exact.values())
            draws = 40 * len(keys)
            counts = Counter(tuple(model.resample_history(history, player, rng=rng))
                             for _ in range(draws))
            assert set(counts) <= set(keys), "a sample outside the information set"
            observed = [counts[k] for k in keys]
            expected = [draws * exact[k] / total for k in keys]
            p_value = stats.chisquare(observed, expected).pvalue
            assert p_value > 1e-4, (model.name, len(keys), p_value)
            tested += 1
    assert tested >= 2


def test_battleship_rejection_sampler_agrees_with_enumeration_on_5x5(monkeypatch):
    """On 5x5 information sets with hits, the rejection sampler and exact enumeration give
    the same distribution of which opponent ships lie on the hit cells, and of the first
    ship's orientation."""
    stats = pytest.importorskip("scipy.stats")
    from ggp.games import battleship

    model = make_game("battleship(board_height=5,board_width=5,ship_sizes=[3;2;2])")
    rng = random.Random(3)
    cases = []
    while len(cases) < 3:
        _, _, _, points = random_trajectory(model, rng)
        for player, history in points:
            shots = [s for s in history[-1][0]["shots"] if s["player"] == player]
            if sum(s["result"] == "hit" for s in shots) >= 2 and len(shots) < 12:
                cases.append((player, history))
                break
    for player, history in cases:
        hits = {tuple(s["cell"]) for s in history[-1][0]["shots"]
                if s["player"] == player and s["result"] != "miss"}
        counts = []
        for limit in (battleship._ENUMERATION_LIMIT, 0):
            monkeypatch.setattr(battleship, "_ENUMERATION_LIMIT", limit)
            battleship._fleet_space.cache_clear()
            counts.append(Counter(
                _fleet_statistic(model.resample_history(history, player, rng=rng)[1 - player:6:2],
                                 (3, 2, 2), hits)
                for _ in range(1500)))
        battleship._fleet_space.cache_clear()
        keys = sorted(set(counts[0]) | set(counts[1]))
        if len(keys) >= 2:
            table = [[c[k] for k in keys] for c in counts]
            assert stats.chi2_contingency(table).pvalue > 1e-4, (keys, table)


def _fleet_statistic(placements, sizes, hits):
    """Which ships cover a hit cell, and the first ship's orientation."""
    covering = []
    for action, size in zip(placements, sizes):
        r, c = (int(x) for x in action[action.index("(") + 1:-1].split(","))
        horizontal = "horizontally" in action
        cells = {(r, c + i) if horizontal else (r + i, c) for i in range(size)}
        covering.append(bool(cells & hits))
    return tuple(covering) + ("horizontally" in placements[0],)
