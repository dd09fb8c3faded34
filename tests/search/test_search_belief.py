"""Belief samplers: exact information sets against brute force, the generic particle
filter's support and distribution, the model sampler's validation."""

import random
import types

import pytest
from search_kuhn_fixture import kuhn_model

from ggp.belief import sample_state
from ggp.belief.exact import information_set, state_distribution
from ggp.belief.generic import particle_filter, sample_generic
from ggp.belief.sampler import ExactSampler, GenericSampler, ModelSampler, make_sampler
from ggp.core.errors import BeliefError, GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, canonical_json
from ggp.core.registry import make_game

KUHN = kuhn_model()
MONTY = make_game("monty_hall")
BOMB = make_game("exploding_bomb")


def play(model, actions):
    """The state after ``actions`` and every player's obs-action history (last entry of
    the player to move has action None)."""
    state = model.initial_state()
    views = [[] for _ in range(model.num_players)]
    for a in actions:
        p = model.current_player(state)
        if p >= 0:
            views[p].append((model.observation(state, p), a))
        state = model.apply(state, a)
    p = model.current_player(state)
    views[p].append((model.observation(state, p), None))
    return state, views[p], p


def brute_force(model, history, player):
    """Enumerate *every* history of the game (no pruning), keep those whose view for
    ``player`` equals ``history``; weights: chance odds x uniform opponents."""
    target = [(canonical_json(o), a) for o, a in history]
    dist = {}

    def walk(state, view, prob):
        p = model.current_player(state)
        if p == TERMINAL:
            return
        if p == player:
            here = view + [(canonical_json(model.observation(state, p)), None)]
            if here == target:
                key = canonical_json(state)
                dist[key] = dist.get(key, 0.0) + prob
        if p == CHANCE:
            branches = model.chance_outcomes(state)
        else:
            legal = model.legal_actions(state)
            branches = [(a, 1.0 / len(legal)) if p != player else (a, 1.0) for a in legal]
        for a, q in branches:
            nxt_view = view
            if p == player:
                nxt_view = view + [(canonical_json(model.observation(state, p)), a)]
            walk(model.apply(state, a), nxt_view, prob * q)

    walk(model.initial_state(), [], 1.0)
    total = sum(dist.values())
    return {k: v / total for k, v in dist.items()}


KUHN_CASES = [["0", "1"], ["2", "0", "pass"], ["1", "2", "pass", "bet"], ["0", "2", "bet"]]


@pytest.mark.parametrize("actions", KUHN_CASES)
def test_exact_information_set_matches_brute_force_on_kuhn(actions):
    _, history, player = play(KUHN, actions)
    exact = state_distribution(information_set(KUHN, history, player))
    brute = brute_force(KUHN, history, player)
    assert exact.keys() == brute.keys()
    for k in exact:
        assert exact[k] == pytest.approx(brute[k])


REFERENCE_CASES = [
    ("kuhn_poker", ["Deal J", "Deal K", "Pass", "Bet"]),
    ("kuhn_poker", ["Deal Q", "Deal J", "Bet"]),
    ("leduc_poker", ["Deal Js", "Deal Kh", "Call", "Raise"]),
    ("leduc_poker", ["Deal Qs", "Deal Kh", "Raise", "Call", "Deal Ks"]),
]


@pytest.mark.parametrize("game, actions", REFERENCE_CASES)
def test_exact_information_set_matches_brute_force_on_poker(game, actions):
    model = make_game(game)
    _, history, player = play(model, actions)
    exact = state_distribution(information_set(model, history, player))
    brute = brute_force(model, history, player)
    assert exact.keys() == brute.keys() and len(exact) > 1
    for k in exact:
        assert exact[k] == pytest.approx(brute[k])


def test_exact_monty_hall_posterior_and_bomb():
    _, history, player = play(MONTY, ["car(0)", "pick(1)", "open(2)"])
    weighted = information_set(MONTY, history, player)
    cars = {w.state["car"]: w.probability for w in weighted}
    assert cars == pytest.approx({1: 1 / 3, 0: 2 / 3})
    assert state_distribution(weighted) == pytest.approx(brute_force(MONTY, history, player))
    _, history, player = play(BOMB, ["arm(red)", "ask"])
    assert [w.state["armed"] for w in information_set(BOMB, history, player)] == ["red"]
    _, history, player = play(BOMB, ["arm(red)", "noop"])
    assert len(information_set(BOMB, history, player)) == 2


def test_exact_rejects_impossible_history():
    _, history, player = play(MONTY, ["car(0)", "pick(1)", "open(2)"])
    forged = [history[0], ({**history[1][0], "opened": 1}, None)]  # host opened the pick
    with pytest.raises(BeliefError):
        information_set(MONTY, forged, player)


@pytest.mark.parametrize("actions", KUHN_CASES + [["1", "0", "pass", "bet"]])
def test_generic_samples_are_consistent(actions):
    _, history, player = play(KUHN, actions)
    support = set(brute_force(KUHN, history, player))
    rng = random.Random(0)
    for state in particle_filter(KUHN, history, player, rng, particles=50):
        assert canonical_json(state) in support
    assert canonical_json(sample_generic(KUHN, history, player, rng)) in support


def test_generic_distribution_approaches_the_posterior():
    _, history, player = play(MONTY, ["car(0)", "pick(1)", "open(2)"])
    pool = particle_filter(MONTY, history, player, random.Random(3), particles=3000)
    share = sum(s["car"] == 0 for s in pool) / len(pool)
    assert share == pytest.approx(2 / 3, abs=0.05)


def test_generic_sampler_raises_typed_error_when_nothing_matches():
    _, history, player = play(MONTY, ["car(0)", "pick(1)", "open(2)"])
    forged = [history[0], ({**history[1][0], "opened": 1}, None)]
    with pytest.raises(BeliefError):
        particle_filter(MONTY, forged, player, random.Random(0), particles=10, retries=3)


def test_model_sampler_validates_and_retries():
    _, history, player = play(MONTY, ["car(2)", "pick(0)", "open(1)"])
    belief = ModelSampler(MONTY).belief(history, player, random.Random(0))
    cars = [belief.sample(random.Random(i))["car"] for i in range(300)]
    assert set(cars) == {0, 2} and cars.count(2) / 300 == pytest.approx(2 / 3, abs=0.08)

    ns = make_game("monty_hall").namespace
    liar = types.SimpleNamespace(**{k: getattr(ns, k) for k in dir(ns) if not k.startswith("_")})
    liar.resample_history = lambda h, p, last_is_terminal=False: ["car(0)", "pick(0)", "open(2)"]
    bad = WorldModel(liar, name="liar", trusted=True)
    with pytest.raises(BeliefError):
        ModelSampler(bad).belief(history, player, random.Random(0))


def test_sampler_selection_and_dispatch():
    assert isinstance(make_sampler(MONTY, "exact"), ExactSampler)
    assert isinstance(make_sampler(MONTY, "generic"), GenericSampler)
    assert isinstance(make_sampler(MONTY), ModelSampler)
    assert isinstance(make_sampler(KUHN), GenericSampler)  # no inference function
    with pytest.raises(GGPError):
        make_sampler(KUHN, "model")
    with pytest.raises(GGPError):
        make_sampler(KUHN, "psychic")
    _, history, player = play(KUHN, ["2", "0", "pass"])
    state = sample_state(KUHN, history, player, random.Random(0))  # generic path
    assert state["cards"][1] == 0 and state["bets"] == ["pass"]
