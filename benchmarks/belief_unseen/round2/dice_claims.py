"""Dice claims: four players claim totals of their hidden dice and may be called.

Written for the belief benchmark (issue 31), after the sampler's final change: a second
round of games it was not tuned to. Hand-written; not the work of a language model.
"""

import json

from ggp.core.protocol import GameMetadata

RULES = """Dice claims. Four players, each with two hidden four-sided dice (faces 1 to
4). Chance rolls player 0's dice, then player 1's, 2's and 3's, one die at a time ("Roll
3", each face equally likely); a player sees only their own dice. Then the players take
turns 0, 1, 2, 3, 0, ... On a turn a player claims a total for their own two dice ("Claim
6"), at least the previous claim and at most 8, or, if someone has claimed, calls the
previous claim ("Call"). On a call the previous claimant's dice are shown: if their total
is at least the claim, the caller loses; otherwise the claimant loses. The game ends at
the first call, or after eight claims with nobody losing. Everyone sees every claim, who
called and the dice shown. Rewards at the end: -1 for the loser, 0 for everyone else."""

METADATA = GameMetadata(num_players=4, min_utility=-1.0, max_utility=0.0, zero_sum=False,
                        outcome="payoff", perfect_information=False, chance=True)

INITIAL_STATE = {"dice": [[], [], [], []], "turn": 0, "claims": [], "called": None,
                 "over": False, "rewards": [0.0] * 4}


def get_current_player(state):
    if state["over"]:
        return -4
    if len(state["dice"][3]) < 2:
        return -1
    return state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        return [f"Roll {f}" for f in range(1, 5)]
    low = state["claims"][-1][1] if state["claims"] else 2
    return [f"Claim {k}" for k in range(low, 9)] + (["Call"] if state["claims"] else [])


def get_chance_outcomes(state):
    return [(f"Roll {f}", 0.25) for f in range(1, 5)]


def apply_action(state, action):
    state = json.loads(json.dumps(state))
    state["rewards"] = [0.0] * 4
    words = action.split()
    if words[0] == "Roll":
        seat = next(p for p in range(4) if len(state["dice"][p]) < 2)
        state["dice"][seat] = sorted(state["dice"][seat] + [int(words[1])])
        return state
    p = state["turn"]
    if words[0] == "Claim":
        state["claims"].append([p, int(words[1])])
        state["turn"] = (p + 1) % 4
        if len(state["claims"]) == 8:
            state["over"] = True
        return state
    claimant, claim = state["claims"][-1]
    shown = state["dice"][claimant]
    loser = p if sum(shown) >= claim else claimant
    state["called"] = [p, claimant, shown, loser]
    state["over"] = True
    state["rewards"][loser] = -1.0
    return state


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [{"dice": state["dice"][p], "turn": state["turn"], "claims": state["claims"],
             "called": state["called"], "rolled": sum(len(d) for d in state["dice"])}
            for p in range(4)]
