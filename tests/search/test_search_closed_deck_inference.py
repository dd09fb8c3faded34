"""A closed-deck inference function takes ``last_is_terminal`` (the synthesis prompt asks
for it); play calls it at the player's decision points, where the flag is False.

The model is the real-model CWM of ``examples/recorded/quadranto`` (synthesized closed
deck): before the fix every belief it was asked for failed with a TypeError, and its
ISMCTS agent played random moves."""

from __future__ import annotations

import random
from pathlib import Path

from ggp.belief.replay import sample_with_model
from ggp.core.model import load_model_file
from ggp.core.protocol import CHANCE, TERMINAL

ROOT = Path(__file__).resolve().parents[2]


def views(model, seed: int):
    """Each player's (observation, action) history at one of its decision points."""
    rng, state = random.Random(seed), model.initial_state()
    seen: dict[int, list] = {}
    while True:
        player = model.current_player(state)
        if player == TERMINAL:
            return
        if player != CHANCE:
            history = seen.setdefault(player, [])
            history.append((model.observation(state, player), None))
            yield player, list(history)
        action = rng.choice(model.legal_actions(state))
        if player != CHANCE:
            seen[player][-1] = (seen[player][-1][0], action)
        state = model.apply(state, action)


def test_a_closed_deck_resample_history_is_called_with_its_flag():
    # a file of this repository, so it may run here (synthesized code from elsewhere
    # only ever runs in a box)
    model = load_model_file(ROOT / "examples/recorded/quadranto/cwm.py", trusted=True)
    points = [p for seed in range(3) for p in views(model, seed)][:12]
    assert points
    for player, history in points:
        state = sample_with_model(model, history, player)
        assert model.same(model.observation(state, player), history[-1][0])


def test_a_two_argument_resample_history_still_works():
    model = load_model_file(ROOT / "examples/recorded/leduc_poker/cwm.py", trusted=True)
    for player, history in [p for seed in range(3) for p in views(model, seed)][:8]:
        state = sample_with_model(model, history, player)
        assert model.same(model.observation(state, player), history[-1][0])
