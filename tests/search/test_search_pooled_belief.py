"""PooledSampler: at most ``size`` determinizations per decision, reused; the ``pool``
setting of the ISMCTS agents."""

import random

import pytest

from ggp.agents import make_agent
from ggp.arena.match import play_match
from ggp.belief.sampler import PooledSampler, make_sampler
from ggp.core.errors import GGPError
from ggp.core.protocol import CHANCE
from ggp.core.registry import make_game


def _history_after(model, plays, seed=0):
    """Player 0's history after ``plays`` random decisions by anyone."""
    rng, state, history, done = random.Random(seed), model.initial_state(), [], 0
    while True:
        player = model.current_player(state)
        if player == CHANCE:
            state = model.apply(state, model.sample_chance(state, rng))
            continue
        if player == 0:
            history.append((model.observation(state, 0), None))
            if done >= plays:
                return history
        action = rng.choice(model.legal_actions(state))
        if player == 0:
            history[-1] = (history[-1][0], action)
        state = model.apply(state, action)
        done += 1


def test_a_pool_draws_at_most_size_states_and_reuses_them():
    model = make_game("agram")
    history = _history_after(model, 6)
    belief = PooledSampler(make_sampler(model, "model"), 4).belief(
        history, 0, random.Random(1))
    assert belief.pooled
    rng = random.Random(2)
    draws = [belief.sample(rng) for _ in range(60)]
    first = draws[:4]
    assert all(any(d is f for f in first) for d in draws)  # the same objects, reused
    assert len({id(d) for d in draws[4:]}) > 1  # and more than one of them
    # every pooled state is consistent with what player 0 saw
    for state in first:
        assert model.observation(state, 0) == history[-1][0]
    with pytest.raises(GGPError, match="at least one state"):
        PooledSampler(make_sampler(model, "model"), 0)


def test_ismcts_agents_play_with_a_pool():
    model = make_game("agram")
    for spec in ("ismcts:sims=30:rollouts=1:pool=5", "moismcts:sims=30:rollouts=1:pool=5"):
        agents = [make_agent(spec, model)] + [make_agent("random", model) for _ in range(3)]
        result = play_match(model, agents, seed=3)
        assert result.forfeit is None and sum(result.returns) == 1
    assert isinstance(make_agent("ismcts:pool=5", model).sampler, PooledSampler)
