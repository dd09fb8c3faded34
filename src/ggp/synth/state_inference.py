"""Hidden-state inference synthesis: tests and API text for ``resample_state`` (App. G.4).

The alternative to ``resample_history`` (selected per run with
``Settings(inference=True, inference_kind="state")``, CLI ``--inference state``): the
model returns a complete state directly. A test gives the player's observation-action
history at one of its decision points; the returned state must be a state where that
player acts, sees exactly its last observation and has a move to make. This checks less
than a replayed history (earlier observations are not re-derived), which is the price of
not reconstructing the past; it needs open-deck trajectories (the player's views come from
recorded games).
"""

from __future__ import annotations

from ggp.synth.prompts import API
from ggp.synth.trajectories import TrajectorySet
from ggp.synth.unit_tests import UnitTest, _lit, _open_deck_views

STATE_API = '''
# Hidden-information inference: the player sees only its own observations.
def resample_state(obs_action_history: list[tuple[Observation, Action | None]],
                   player_id: int) -> State:
    """A random complete state (hidden parts included) that is consistent with what
    player_id saw and did: in it, player_id is to move and get_observations(state)
    [player_id] equals the last observation of the history (whose action is None).
    May use the random module."""
'''


def api_text() -> str:
    """The API to implement when hidden-state inference is asked for."""
    return API + STATE_API


def state_inference_test(name: str, history: list, player: int) -> UnitTest:
    """``history`` is a list of ``[observation, action]``, the last action None."""
    source = f'''\
class {name}(CWMTestCase):
    """Player {player}'s view after {len(history)} observations: resample_state must give
    a state where it is to move and sees its last observation."""

    def test(self):
        history = {_lit([[obs, action] for obs, action in history])}
        player_id = {player}
        state = resample_state([tuple(entry) for entry in history], player_id)
        print(f"resample_state returned {{state!r}}")
        self.assertIsInstance(state, dict, "resample_state must return a state dict")
        self.assertJSONEqual(player_id, get_current_player(state),
                             "get_current_player of the sampled state")
        self.assertJSONEqual(history[-1][0], get_observations(state)[player_id],
                             "the player's observation in the sampled state")
        self.assertTrue(get_legal_actions(state), "no legal actions in the sampled state")
'''
    plan = {"kind": "state_inference", "player": player,
            "history": [[obs, action] for obs, action in history]}
    return UnitTest(name, "inference", source, plan)


def state_inference_tests(trajectories: TrajectorySet, prefix: str = "") -> list[UnitTest]:
    """One test per decision point of every player of every open-deck game."""
    if trajectories.deck != "open":
        raise ValueError("hidden-state inference tests need open-deck trajectories")
    tests = []
    for t, trajectory in enumerate(trajectories.trajectories):
        for player, view in sorted(_open_deck_views(trajectory).items()):
            for k in range(len(view)):
                history = [*view[:k], [view[k][0], None]]
                tests.append(state_inference_test(
                    f"Test{prefix}StateInference_g{t}_p{player}_{k}", history, player))
    return tests
