"""Known answers with hidden information: Monty Hall and both Exploding Bomb variants
(seed 003 §17.7; shared/research/cards_ismcts.md §1.6, §2.4)."""

import random
import statistics

import pytest

from ggp.agents import make_agent
from ggp.arena.match import play_match
from ggp.belief.sampler import make_sampler
from ggp.core.registry import make_game
from ggp.search.ismcts import ISMCTS, action_values

MONTY = make_game("monty_hall")
ASK = make_game("exploding_bomb(variant=ask)")
TELL = make_game("exploding_bomb(variant=tell)")


def matches(model, specs, games):
    results = []
    for seed in range(games):
        agents = [make_agent(spec, model) for spec in specs]
        results.append(play_match(model, agents, seed=seed))
    return results


def actions_of(result, player):
    return [s["action"] for s in result.steps if s["player"] == player]


@pytest.mark.parametrize("belief", ["exact", "generic"])
def test_monty_hall_ismcts_switches_and_wins_two_thirds(belief):
    results = matches(MONTY, [f"ismcts:sims=150:belief={belief}"], 300)
    switched = sum(actions_of(r, 0)[-1] == "switch" for r in results)
    assert switched >= 0.95 * len(results)
    win_rate = statistics.mean(r.returns[0] for r in results)
    assert win_rate == pytest.approx(2 / 3, abs=0.08)  # 3 standard errors


def test_monty_hall_clairvoyant_always_wins():
    results = matches(MONTY, ["clairvoyant:sims=100"], 50)
    assert all(r.returns == [1.0] for r in results)


def test_bomb_ask_root_estimates():
    state = ASK.apply(ASK.initial_state(), "arm(blue)")
    history = [(ASK.observation(state, 0), None)]
    values = action_values(ISMCTS(ASK, make_sampler(ASK, "exact"), simulations=400,
                                  rng=random.Random(0)).search(history, 0))
    assert values["ask"][1] == pytest.approx(90, abs=5)
    assert values["noop"][1] < 70


def test_bomb_ask_pimc_never_asks_and_scores_50():
    results = matches(ASK, ["pimc:sims=300"], 120)
    assert not any("ask" in actions_of(r, 0) for r in results)
    assert statistics.mean(r.returns[0] for r in results) == pytest.approx(50, abs=15)


@pytest.mark.parametrize("agent", ["ismcts", "moismcts"])
def test_bomb_ask_ismcts_asks_and_scores_90(agent):
    results = matches(ASK, [f"{agent}:sims=150"], 40)
    assert all(r.returns == [90.0] for r in results)


@pytest.mark.parametrize("agent", ["pimc", "ismcts", "moismcts"])
def test_bomb_tell_determinizers_tell_and_score_10(agent):
    # cfr in the opponent's seat best-responds: it cuts the safe wire when told.
    results = matches(TELL, [f"{agent}:sims=150", "cfr:iterations=300"], 30)
    assert all(actions_of(r, 0)[1] == "tell" for r in results)
    assert all(r.returns[0] == 10.0 for r in results)


@pytest.mark.parametrize("solver", ["own", "openspiel"])
def test_bomb_tell_cfr_withholds_and_scores_50(solver):
    spec = f"cfr:iterations=300:solver={solver}"
    results = matches(TELL, [spec, spec], 200)
    assert not any(actions_of(r, 0)[1] == "tell" for r in results)
    assert statistics.mean(r.returns[0] for r in results) == pytest.approx(50, abs=11)
