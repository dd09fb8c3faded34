"""A time limit covers the whole move: building the belief and drawing determinizations
count against it (checked with a fake clock, so no timing in the test)."""

import random
import time

import pytest

from ggp.belief.sampler import make_sampler
from ggp.core.registry import make_game
from ggp.search.evaluators import RandomRolloutEvaluator
from ggp.search.ismcts import ISMCTS
from ggp.search.pimc import PIMC


class SlowBelief:
    """A belief sampler whose belief takes 'ten seconds' on the fake clock."""

    def __init__(self, sampler, clock):
        self.sampler, self.clock = sampler, clock

    def belief(self, history, player, rng):
        self.clock[0] += 10.0
        return self.sampler.belief(history, player, rng)


@pytest.fixture
def clock(monkeypatch):
    now = [0.0]
    monkeypatch.setattr(time, "perf_counter", lambda: now[0])
    return now


def _history(model):
    rng, state = random.Random(0), model.initial_state()
    while model.current_player(state) != 0:
        state = model.apply(state, model.sample_chance(state, rng))
    return [(model.observation(state, 0), None)]


@pytest.mark.parametrize("observer", ["single", "multiple"])
def test_ismcts_counts_belief_building_against_the_time_limit(clock, observer):
    model = make_game("leduc_poker")
    sampler = SlowBelief(make_sampler(model, "model"), clock)
    search = ISMCTS(model, sampler, RandomRolloutEvaluator(model, 1), observer=observer,
                    simulations=40, time_limit=1.0, rng=random.Random(1))
    root = search.search(_history(model), 0)
    # the belief used up the budget: one simulation (the minimum), not 40
    assert sum(stats[0] for stats in root.stats.values()) == 1


def test_pimc_gives_each_determinization_a_share_of_the_time_left(clock):
    model = make_game("leduc_poker")
    sampler = SlowBelief(make_sampler(model, "model"), clock)
    pimc = PIMC(model, sampler, RandomRolloutEvaluator(model, 1), determinizations=5,
                simulations=50, time_limit=1.0, rng=random.Random(1))
    totals = pimc.action_values(_history(model), 0)
    # no time left after the belief: one simulation per determinization, not 10 each
    assert sum(v[0] for v in totals.values()) == 5
    clock[0] = 0.0
    pimc.sampler = make_sampler(model, "model")  # a belief that takes no time
    assert sum(v[0] for v in pimc.action_values(_history(model), 0).values()) == 50
