"""solve_cfr_plus: a CFR+ policy callable on obs-action histories."""

import random

import pytest

pytest.importorskip("pyspiel")

from ggp.core.errors import GGPError  # noqa: E402
from ggp.core.protocol import CHANCE  # noqa: E402
from ggp.load import load_model  # noqa: E402
from ggp.openspiel.solve import solve_cfr_plus  # noqa: E402


@pytest.fixture(scope="module")
def kuhn():
    return load_model("kuhn_poker")


@pytest.fixture(scope="module")
def solved(kuhn):
    return solve_cfr_plus(kuhn, 200)


def test_policy_covers_every_decision_of_random_games(kuhn, solved):
    rng = random.Random(0)
    for _ in range(50):
        state = kuhn.initial_state()
        histories = [[], []]
        while not kuhn.is_terminal(state):
            player = kuhn.current_player(state)
            if player == CHANCE:
                state = kuhn.apply(state, kuhn.sample_chance(state, rng))
                continue
            obs = kuhn.observation(state, player)
            probs = solved([*histories[player], (obs, None)], player)
            assert set(probs) == set(kuhn.legal_actions(state))
            assert sum(probs.values()) == pytest.approx(1.0)
            action = rng.choice(kuhn.legal_actions(state))
            histories[player].append((obs, action))
            state = kuhn.apply(state, action)


def test_known_equilibrium_facts(kuhn, solved):
    """In Kuhn's equilibria player 1 always calls a bet with a King and never with a Jack,
    and player 0 never bets a Queen first."""
    def first_view(cards, moves, player):
        state = kuhn.initial_state()
        for action in [f"Deal {c}" for c in cards]:
            state = kuhn.apply(state, action)
        history = []
        for action in moves:
            if kuhn.current_player(state) == player:
                history.append((kuhn.observation(state, player), action))
            state = kuhn.apply(state, action)
        return [*history, (kuhn.observation(state, player), None)]

    assert solved(first_view("QK", ["Bet"], 1), 1)["Bet"] > 0.99
    assert solved(first_view("QJ", ["Bet"], 1), 1)["Pass"] > 0.99
    assert solved(first_view("QK", [], 0), 0)["Pass"] > 0.99
    assert solved.exploitability() < 1e-3


def test_unknown_history_is_a_clear_error(solved):
    with pytest.raises(GGPError, match="no entry"):
        solved([({"nonsense": 1}, None)], 0)
    with pytest.raises(GGPError):
        solve_cfr_plus(load_model("kuhn_poker"), 0)


def test_save_and_load(tmp_path, kuhn, solved):
    path = tmp_path / "kuhn_cfr.json"
    solved.save(path)
    loaded = type(solved).load(path)
    assert loaded.table == solved.table
    state = kuhn.initial_state()
    for action in ["Deal K", "Deal J"]:
        state = kuhn.apply(state, action)
    view = [(kuhn.observation(state, 0), None)]
    assert loaded(view, 0) == solved(view, 0)
    with pytest.raises(GGPError, match="no game"):
        loaded.exploitability()
    (tmp_path / "bad.json").write_text("[1, 2]")
    with pytest.raises(GGPError, match="Cannot read"):
        type(solved).load(tmp_path / "bad.json")


def test_pickles_without_its_game(solved):
    import pickle

    copy = pickle.loads(pickle.dumps(solved))  # noqa: S301 - our own object, round-tripped
    assert copy.table == solved.table and copy.game is None
