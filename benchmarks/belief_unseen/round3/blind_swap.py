"""Blind swap: two players secretly swap cards with a face-down pile, then show down.

Written for the belief benchmark (issue 31), round three: after the design freeze, by an
evaluator who did not read the sampler. Hand-written; not the work of a language model.
"""

import json

from ggp.core.protocol import GameMetadata

RULES = """Blind swap. Two players and the cards 1 to 10. Chance deals three cards to
each player, one at a time, to players 0, 1, 0, 1, ... (chance actions "Deal 6", each
remaining card equally likely); the four other cards form a face-down pile. A player sees
only their own hand. Then three rounds: in each, player 0 and then player 1 either keep
their hand ("Keep") or swap ("Swap 3"): chance draws one card of the pile at random for
them ("Draw 8", each card of the pile equally likely), then the named card goes face down
onto the pile. The other player only learns that a swap happened, not which cards. Then
the hands are shown: the higher total gets 1 and the lower -1 (equal: 0 each)."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=False, chance=True)

ROUNDS = 3

INITIAL_STATE = {"hands": [[], []], "pile": [], "dealt": 0, "moves": [], "giving": None,
                 "logs": [[], []], "done": False, "rewards": [0.0, 0.0]}


def get_current_player(state):
    if state["done"]:
        return -4
    if state["dealt"] < 6 or state["giving"] is not None:
        return -1
    return len(state["moves"]) % 2


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        if state["dealt"] < 6:
            used = {c for h in state["hands"] for c in h}
            return [f"Deal {c}" for c in range(1, 11) if c not in used]
        return [f"Draw {c}" for c in state["pile"]]
    return ["Keep"] + [f"Swap {c}" for c in state["hands"][player]]


def get_chance_outcomes(state):
    actions = get_legal_actions(state)
    return [(a, 1.0 / len(actions)) for a in actions]


def _end_move(state):
    if len(state["moves"]) == 2 * ROUNDS:
        state["done"] = True
        totals = [sum(h) for h in state["hands"]]
        won = (totals[0] > totals[1]) - (totals[0] < totals[1])
        state["rewards"] = [float(won), float(-won)]


def apply_action(state, action):
    state = json.loads(json.dumps(state))
    state["rewards"] = [0.0, 0.0]
    words = action.split()
    if words[0] == "Deal":
        seat = state["dealt"] % 2
        state["hands"][seat] = sorted(state["hands"][seat] + [int(words[1])])
        state["dealt"] += 1
        if state["dealt"] == 6:
            state["pile"] = [c for c in range(1, 11)
                             if c not in state["hands"][0] + state["hands"][1]]
        return state
    player = len(state["moves"]) % 2
    if words[0] == "Keep":
        state["moves"].append("Keep")
        for p in range(2):
            state["logs"][p].append([player, "keep"])
        _end_move(state)
    elif words[0] == "Swap":
        state["giving"] = int(words[1])
    else:
        drawn, given = int(words[1]), state["giving"]
        state["pile"].remove(drawn)
        state["pile"] = sorted(state["pile"] + [given])
        hand = state["hands"][player]
        hand.remove(given)
        state["hands"][player] = sorted(hand + [drawn])
        state["giving"] = None
        state["moves"].append("Swap")
        state["logs"][player].append([player, "swap", given, drawn])
        state["logs"][1 - player].append([player, "swap"])
        _end_move(state)
    return state


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [{"hand": state["hands"][p], "dealt": state["dealt"],
             "swapping": state["giving"] is not None, "log": state["logs"][p],
             "hands": state["hands"] if state["done"] else None} for p in range(2)]
