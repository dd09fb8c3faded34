"""SePoT / R-NaD checkpoints on the reference games of ggp.games (ggp.sepot.reference)."""

import random

import pytest

pytest.importorskip("pyspiel")

from ggp.core.registry import make_game  # noqa: E402
from ggp.sepot.games import load_sepot_game  # noqa: E402
from ggp.sepot.reference import GameMismatch, ReferenceGameMap, check_same_game  # noqa: E402

PAIRS = [  # (reference game, SePoT game)
    ("kuhn_poker", "kuhn"),
    ("leduc_poker", "leduc"),
    ("goofspiel(num_cards=4,points_order=descending)", "goofspiel4"),
    ("goofspiel(num_cards=4,points_order=random)", "goofspiel4r"),
    ("battleship", "battleship3"),
]


@pytest.mark.parametrize("reference,sepot", PAIRS)
def test_histories_map_to_the_same_information_states(reference, sepot):
    # Random games in the reference model; at every decision the rebuilt pyspiel state
    # has the same actor and legal actions, and obs-action histories correspond one to one
    # with OpenSpiel's information states.
    model, spec = make_game(reference), load_sepot_game(sepot)
    mapping = ReferenceGameMap(model, spec)
    rng = random.Random(0)
    pairs = set()
    for _ in range(8 if sepot == "battleship3" else 15):
        state, views = model.initial_state(), {0: [], 1: []}
        while not model.is_terminal(state):
            player = model.current_player(state)
            if player < 0:
                state = model.apply(state, model.sample_chance(state, rng))
                continue
            history = views[player] + [(model.observation(state, player), None)]
            ps = mapping.pyspiel_state(history, player)
            assert ps.current_player() == player
            legal = model.legal_actions(state)
            assert {mapping.action_name(ps, a) for a in ps.legal_actions()} == set(legal)
            pairs.add((player, repr(history), ps.information_state_string()))
            action = rng.choice(legal)
            views[player] = history[:-1] + [(history[-1][0], action)]
            state = model.apply(state, action)
    for player in (0, 1):
        mine = {(h, i) for p, h, i in pairs if p == player}
        assert len({h for h, _ in mine}) == len({i for _, i in mine}) == len(mine)


@pytest.mark.parametrize("reference,sepot,message", [
    ("goofspiel(num_cards=4,points_order=descending)", "goofspiel4r", "points_order"),
    ("goofspiel(num_cards=5,points_order=descending)", "goofspiel4", "num_cards"),
    ("goofspiel(num_cards=4,points_order=descending,returns_type=point_difference)",
     "goofspiel4", "returns_type"),
    ("leduc_poker", "kuhn", "kuhn_poker"),
    ("leduc_poker(blinds=true)", "leduc", "does not declare"),
    ("battleship(board_width=4)", "battleship3", "board_width"),
])
def test_a_different_game_is_refused_with_the_difference(reference, sepot, message):
    with pytest.raises(GameMismatch, match=message):
        check_same_game(make_game(reference), load_sepot_game(sepot))


def test_agents_play_reference_games_and_refuse_others(tmp_path):
    pytest.importorskip("torch")
    from ggp.agents import make_agent
    from ggp.agents.sepot_agents import SePoTAgentError
    from ggp.arena.match import play_match
    from ggp.sepot.rnad import RNaDConfig
    from ggp.sepot.train import train

    small = dict(batch_size=16, hidden=(32, 32), critic_hidden=(32, 32), seed=3)
    for game, reference in (("kuhn", "kuhn_poker"),
                            ("goofspiel3", "goofspiel(num_cards=3,points_order=descending)")):
        train(RNaDConfig(game=game, **small), str(tmp_path / game), 2, verbose=False)
        checkpoint = tmp_path / game / "latest.pt"
        model = make_game(reference)
        agents = [make_agent(f"sepot:checkpoint={checkpoint}:iterations=20:"
                             "cfv_source=previous:ranges=played", model),
                  make_agent(f"rnad:checkpoint={checkpoint}", model)]
        for seed in range(3):
            result = play_match(model, agents if seed % 2 else agents[::-1], seed=seed)
            assert result.forfeit is None and sum(result.returns) == 0
    with pytest.raises(SePoTAgentError, match="goofspiel"):
        make_agent(f"rnad:checkpoint={tmp_path / 'kuhn' / 'latest.pt'}",
                   make_game("goofspiel(num_cards=3,points_order=descending)"))
