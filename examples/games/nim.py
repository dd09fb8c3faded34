"""Nim with a random pile: a user's own game written as a Python model file.

An example for `ggp synth examples/games/nim.py` (docs/synth.md): the file is the ground
truth (training and held-out games are recorded from it, in a sandbox) and RULES is the
text the language model is shown. Hand-written; not the work of a language model.
"""

from ggp.core.protocol import GameMetadata

RULES = """Nim with a random pile. Two players. First chance sets the pile to 5, 6 or 7
stones, each equally likely (chance actions "Pile 5", "Pile 6", "Pile 7"). Then the
players alternate, player 0 first: on a turn a player takes 1, 2 or 3 stones from the
pile, but never more stones than are left (actions "Take 1", "Take 2", "Take 3"). The
player who takes the last stone wins: reward +1 for the winner and -1 for the loser,
given on that last move; every other reward is 0. Both players see the whole state."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=True, chance=True)

INITIAL_STATE = {"pile": None, "player": 0, "rewards": [0.0, 0.0]}


def get_current_player(state):
    if state["pile"] is None:
        return -1
    return -4 if state["pile"] == 0 else state["player"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    if state["pile"] is None:
        return ["Pile 5", "Pile 6", "Pile 7"]
    return [f"Take {n}" for n in (1, 2, 3) if n <= state["pile"]]


def apply_action(state, action):
    word, number = action.split()
    if word == "Pile":
        return {"pile": int(number), "player": 0, "rewards": [0.0, 0.0]}
    pile = state["pile"] - int(number)
    rewards = [0.0, 0.0]
    if pile == 0:
        rewards[state["player"]], rewards[1 - state["player"]] = 1.0, -1.0
    return {"pile": pile, "player": 1 - state["player"], "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [dict(state), dict(state)]
