"""Bargaining: deals, offers and payoffs, hidden values, the history sampler, OpenSpiel."""

import random
from collections import Counter

import pytest

from ggp.belief.replay import replay_history
from ggp.check import check_model
from ggp.core.protocol import CHANCE, TERMINAL
from ggp.games import bargaining as bgn
from ggp.load import load_model

DEAL = "Deal pool 1,2,3; player 0 values 8,1,0; player 1 values 4,0,2"


@pytest.fixture(scope="module")
def game():
    return load_model("bargaining")


def play(model, actions):
    state = model.initial_state()
    for action in actions:
        state = model.apply(state, action)
    return state


def test_every_generated_deal_follows_the_rules():
    deals = bgn.all_instances()
    assert len(deals) == len(set(deals)) == 5793
    for pool, v0, v1 in deals:
        assert min(pool) >= 1 and 5 <= sum(pool) <= 7
        for values in (v0, v1):
            assert sum(v * n for v, n in zip(values, pool)) == 10
        assert all(a or b for a, b in zip(v0, v1))
        assert any(a and b for a, b in zip(v0, v1))


def test_openspiel_list_is_a_subset_of_the_generated_deals():
    pytest.importorskip("pyspiel")
    listed = bgn.openspiel_instances()
    assert len(listed) == 1000
    assert set(listed) <= set(bgn.all_instances())


def test_deal_is_uniform(game):
    outcomes = game.chance_outcomes(game.initial_state())
    assert len(outcomes) == 5793
    assert all(p == pytest.approx(1 / 5793) for _, p in outcomes)
    assert DEAL in {a for a, _ in outcomes}


def test_offers_are_sub_pools_and_agree_needs_an_offer(game):
    state = play(game, [DEAL])
    legal = game.legal_actions(state)
    assert len(legal) == 2 * 3 * 4 and "Agree" not in legal
    assert "Offer: Book: 1, Hat: 2, Basketball: 3" in legal
    assert "Offer: Book: 2, Hat: 0, Basketball: 0" not in legal
    state = game.apply(state, "Offer: Book: 1, Hat: 0, Basketball: 0")
    assert "Agree" in game.legal_actions(state) and game.current_player(state) == 1


def test_agreement_gives_the_proposer_its_offer(game):
    # Player 0 keeps the book and one hat; player 1 gets one hat and three basketballs.
    state = play(game, [DEAL, "Offer: Book: 1, Hat: 1, Basketball: 0", "Agree"])
    assert game.current_player(state) == TERMINAL
    assert game.rewards(state) == [9.0, 6.0]


def test_player_one_offer_accepted_by_player_zero(game):
    state = play(game, [DEAL, "Offer: Book: 1, Hat: 2, Basketball: 3",
                        "Offer: Book: 1, Hat: 0, Basketball: 3", "Agree"])
    assert game.rewards(state) == [2.0, 10.0]


def test_no_agreement_after_ten_offers_pays_nothing(game):
    state = play(game, [DEAL] + ["Offer: Book: 1, Hat: 1, Basketball: 1"] * 9)
    assert game.current_player(state) == 1
    state = game.apply(state, "Offer: Book: 1, Hat: 1, Basketball: 1")
    assert game.current_player(state) == TERMINAL
    assert game.rewards(state) == [0.0, 0.0]


def test_discount_and_chance_ending():
    model = load_model("bargaining(discount=0.5,prob_end=0.25)")
    state = play(model, [DEAL, "Offer: Book: 1, Hat: 0, Basketball: 0"])
    assert model.current_player(state) == 1
    state = model.apply(state, "Offer: Book: 0, Hat: 0, Basketball: 3")
    assert model.current_player(state) == CHANCE
    assert dict(model.chance_outcomes(state)) == {"Continue": 0.75, "End": 0.25}
    ended = model.apply(state, "End")
    assert model.current_player(ended) == TERMINAL and model.rewards(ended) == [0.0, 0.0]
    state = model.apply(model.apply(state, "Continue"), "Agree")
    # The agreeing action is the game's 5th; it is discounted once: 0.5 * (8 + 2, 6).
    assert model.rewards(state) == [5.0, 3.0]


def test_observation_hides_the_opponent_values(game):
    other = "Deal pool 1,2,3; player 0 values 8,1,0; player 1 values 2,1,2"
    a = play(game, [DEAL, "Offer: Book: 1, Hat: 0, Basketball: 0"])
    b = play(game, [other, "Offer: Book: 1, Hat: 0, Basketball: 0"])
    assert game.same(game.observation(a, 0), game.observation(b, 0))
    assert not game.same(game.observation(a, 1), game.observation(b, 1))
    assert game.observation(a, 1)["offers"] == [{"proposer": 0, "quantities": [1, 0, 0]}]


def test_bad_parameters_are_clear_errors():
    from ggp.core.errors import ModelLoadError

    with pytest.raises(ModelLoadError, match="instances"):
        load_model("bargaining(instances=mine)")


@pytest.mark.parametrize("spec", ["bargaining", "bargaining(prob_end=0.3,discount=0.9)"])
def test_conformance_including_inference(spec):
    assert check_model(load_model(spec), games=30, seed=1).ok


def views(model, games, seed, terminal=False):
    """(player, history) at every decision point of random games (and at the end)."""
    rng = random.Random(seed)
    for _ in range(games):
        state, seen = model.initial_state(), ([], [])
        while not model.is_terminal(state):
            player = model.current_player(state)
            if player == CHANCE:
                action = model.sample_chance(state, rng)
            else:
                action = rng.choice(model.legal_actions(state))
                obs = model.observation(state, player)
                if not terminal:
                    yield player, seen[player] + [(obs, None)]
                seen[player].append((obs, action))
            state = model.apply(state, action)
        if terminal:
            for player in (0, 1):
                yield player, seen[player] + [(model.observation(state, player), None)], state


def test_resampled_histories_replay(game):
    model = load_model("bargaining(prob_end=0.2)")
    for m in (game, model):
        count = 0
        for player, history in views(m, games=40, seed=2):
            replay_history(m, m.resample_history(history, player), player, history)
            count += 1
        assert count > 100


def test_terminal_histories_resample_to_the_same_end():
    model = load_model("bargaining(prob_end=0.2)")
    for player, history, final in views(model, games=60, seed=3, terminal=True):
        sampled = play(model, model.resample_history(history, player, last_is_terminal=True))
        assert model.is_terminal(sampled)
        assert model.same(model.observation(sampled, player), history[-1][0])
        assert sampled["offers"] == final["offers"] and sampled["agreed"] == final["agreed"]


def exact_posterior(model, history, player):
    """Histories consistent with the player's view, weighted by chance and a uniformly
    random opponent."""
    found = {}

    def walk(state, actions, weight, step):
        current = model.current_player(state)
        if current == TERMINAL:
            return
        if current == player:
            if not model.same(model.observation(state, player), history[step][0]):
                return
            if step == len(history) - 1:
                found[tuple(actions)] = weight
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


def test_resample_distribution_matches_exact_enumeration():
    pytest.importorskip("pyspiel")
    model = load_model("bargaining(instances=openspiel)")
    checked = 0
    for player, history in views(model, games=40, seed=5):
        if len(history) != 2:
            continue
        exact = exact_posterior(model, history, player)
        if len(exact) < 3:
            continue
        random.seed(checked)
        samples = 3000
        counts = Counter(tuple(model.resample_history(history, player)) for _ in range(samples))
        assert set(counts) == set(exact)
        assert max(abs(exact[h] - counts[h] / samples) for h in exact) < 0.04
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_generated_deals_posterior_is_uniform_over_matching_deals(game):
    player, history = next((p, h) for p, h in views(game, games=5, seed=9) if p == 1)
    obs = history[-1][0]
    matching = [d for d in bgn.all_instances()
                if list(d[0]) == obs["pool"] and list(d[2]) == obs["my_values"]]
    random.seed(0)
    samples = 200 * len(matching)
    counts = Counter(bgn.parse_deal(game.resample_history(history, 1)[0])
                     for _ in range(samples))
    assert set(counts) == set(matching)
    assert max(abs(c / samples - 1 / len(matching)) for c in counts.values()) < 0.35 / len(matching)


# ----------------------------------------------------------------- OpenSpiel
def action_map_for(os_game):
    """Our deal names -> OpenSpiel's; offers, Agree, Continue and End are spelled alike."""
    root = os_game.new_initial_state()
    names = {bgn.deal_action(instance): root.action_to_string(-1, i)
             for i, instance in enumerate(bgn.openspiel_instances())}
    return lambda state, action: names.get(action, action)


@pytest.mark.parametrize("ours,theirs,games", [
    ("bargaining(instances=openspiel)", "bargaining", 300),
    ("bargaining(instances=openspiel,max_turns=4,discount=0.9,prob_end=0.2)",
     "bargaining(max_turns=4,discount=0.9,prob_end=0.2)", 300),
])
def test_matches_openspiel(ours, theirs, games):
    pyspiel = pytest.importorskip("pyspiel")
    from ggp.openspiel.differential import compare_with_openspiel

    model = load_model(ours)
    report = compare_with_openspiel(model, theirs, games=games, seed=7,
                                    action_map=action_map_for(pyspiel.load_game(theirs)))
    assert report.games == games
    assert any(sum(r) > 0 for r in report.returns)  # some agreements
    assert any(r == [0.0, 0.0] for r in report.returns)  # and some walk-aways
