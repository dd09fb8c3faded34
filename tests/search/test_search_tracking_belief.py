"""TrackingSampler: perfect information, for a program whose observation is not its state
(a compiled GDL game with a layout of its own): the state is followed from the player's
history. The programs here wrap a reference game in another layout, so the real state
is known and the tracked one can be compared with it."""

from __future__ import annotations

import itertools
import random
import types

import pytest

from ggp.belief.sampler import (
    PerfectInformationSampler,
    TrackingSampler,
    make_sampler,
    observation_is_state,
)
from ggp.core.errors import BeliefError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, canonical_json
from ggp.core.registry import make_game


def own_layout(game: WorldModel) -> WorldModel:
    """``game`` with its state inside another dict (plus a move counter the players never
    see): the same observations, rewards and legal moves, but no observation is a state."""
    def wrap(inner, moves):
        return {"inner": inner, "moves": moves}

    namespace = types.SimpleNamespace(
        INITIAL_STATE=wrap(game.initial_state(), 0),
        get_current_player=lambda s: game.current_player(s["inner"]),
        get_player_name=game.namespace.get_player_name,
        get_legal_actions=lambda s: game.legal_actions(s["inner"]),
        apply_action=lambda s, a: wrap(game.apply(s["inner"], a), s["moves"] + 1),
        get_rewards=lambda s: game.rewards(s["inner"]),
        get_observations=lambda s: game.observations(s["inner"]),
        get_chance_outcomes=lambda s: game.chance_outcomes(s["inner"]),
    )
    return WorldModel(namespace, name=f"{game.name}_own", trusted=True,
                      metadata=game.metadata)


def _decisions(game: WorldModel, seed: int):
    """(seat, seat's history so far, real state) at every decision of a random match."""
    rng, state = random.Random(seed), game.initial_state()
    histories = [[] for _ in range(game.num_players)]
    while (player := game.current_player(state)) != TERMINAL:
        if player == CHANCE:
            state = game.apply(state, game.sample_chance(state, rng))
            continue
        histories[player].append((game.observation(state, player), None))
        yield player, list(histories[player]), state
        action = rng.choice(game.legal_actions(state))
        histories[player][-1] = (histories[player][-1][0], action)
        state = game.apply(state, action)


@pytest.mark.parametrize("name, seeds, decisions", [
    ("tic_tac_toe", 3, 99), ("connect_four", 3, 99), ("backgammon", 1, 8)])
def test_the_tracked_state_is_the_real_one_at_every_decision(name, seeds, decisions):
    # backgammon: a roll, the opponent's move and our roll between two decisions (up to
    # about a second of search each, so only the first few)
    game = make_game(name)
    program = own_layout(game)
    assert observation_is_state(game) and not observation_is_state(program)
    for seed in range(seeds):
        trackers = [TrackingSampler(program) for _ in range(game.num_players)]
        for seat, history, real in itertools.islice(_decisions(game, seed), decisions):
            state = trackers[seat].belief(history, seat, random.Random(0)).sample(None)
            assert canonical_json(state["inner"]) == canonical_json(real)
            assert state["moves"] >= len(history) - 1


def test_auto_tracks_only_programs_whose_observation_is_not_their_state():
    game = make_game("connect_four")
    assert isinstance(make_sampler(game), PerfectInformationSampler)
    assert isinstance(make_sampler(own_layout(game)), TrackingSampler)


def test_a_new_match_starts_again_and_an_impossible_history_is_an_error():
    game = make_game("tic_tac_toe")
    program = own_layout(game)
    tracker = TrackingSampler(program)
    matches = [list(_decisions(game, seed)) for seed in (1, 2)]
    for match in matches:  # the second match's history does not extend the first's
        for seat, history, real in match:
            if seat == 0:
                state = tracker.belief(history, 0, random.Random(0)).sample(None)
                assert canonical_json(state["inner"]) == canonical_json(real)
    # an observation no move of the opponent leads to (two marks appear at once)
    seat, history, _ = next(d for d in matches[0] if d[0] == 0 and len(d[1]) == 2)
    later = next(d for d in matches[0] if d[0] == 0 and len(d[1]) == 3)[1][-1][0]
    with pytest.raises(BeliefError, match="decision 2"):
        TrackingSampler(program).belief(history[:1] + [(later, None)], 0, random.Random(0))


def test_the_search_budget_bounds_the_work():
    program = own_layout(make_game("backgammon"))
    seat, history, _ = next(d for d in _decisions(make_game("backgammon"), 0)
                            if len(d[1]) == 2)
    with pytest.raises(BeliefError, match="within 3 states"):
        TrackingSampler(program, max_nodes=3).belief(history, seat, random.Random(0))
