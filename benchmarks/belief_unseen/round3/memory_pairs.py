"""Memory pairs: two players flip face-down cards; the second card of a miss is seen only
by the player who flipped it.

Written for the belief benchmark (issue 31), round three: after the design freeze, by an
evaluator who did not read the sampler. Hand-written; not the work of a language model.
"""

import json

from ggp.core.protocol import GameMetadata

RULES = """Memory pairs. Two players and eight face-down cards in positions 0 to 7: two
each of A, B, C and D. Chance lays out the cards one position at a time, from position 0
("Place B", each letter with copies left equally likely); nobody sees them. Then the
players take turns, player 0 first. On a turn the player flips one face-down card
("Flip 5"), which everyone sees, then a second one ("Flip 2"). If the two match, everyone
sees the second card too, the pair is removed, the player scores a point and takes
another turn. If not, only the player who flipped it sees the second card; both cards are
turned face down again and the other player moves. The game ends when every pair is
taken or after twelve turns. More points gets 1 and fewer -1 (equal: 0 each)."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=False, chance=True)

CARDS = 8
TURNS = 12

INITIAL_STATE = {"layout": [], "removed": [], "first": None, "mover": 0, "turns": 0,
                 "score": [0, 0], "logs": [[], []], "done": False, "rewards": [0.0, 0.0]}


def get_current_player(state):
    if state["done"]:
        return -4
    if len(state["layout"]) < CARDS:
        return -1
    return state["mover"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        return [f"Place {x}" for x in "ABCD" if state["layout"].count(x) < 2]
    return [f"Flip {i}" for i in range(CARDS)
            if i not in state["removed"] and i != state["first"]]


def get_chance_outcomes(state):
    actions = get_legal_actions(state)
    return [(a, 1.0 / len(actions)) for a in actions]


def apply_action(state, action):
    state = json.loads(json.dumps(state))
    state["rewards"] = [0.0, 0.0]
    verb, arg = action.split()
    if verb == "Place":
        state["layout"].append(arg)
        return state
    pos, player = int(arg), state["mover"]
    if state["first"] is None:
        state["first"] = pos
        return state
    first, layout = state["first"], state["layout"]
    state["first"] = None
    state["turns"] += 1
    if layout[first] == layout[pos]:
        state["removed"] += [first, pos]
        state["score"][player] += 1
        for p in range(2):
            state["logs"][p].append([player, first, layout[first], pos, layout[pos]])
    else:
        state["logs"][player].append([player, first, layout[first], pos, layout[pos]])
        state["logs"][1 - player].append([player, first, layout[first], pos, None])
        state["mover"] = 1 - player
    if len(state["removed"]) == CARDS or state["turns"] == TURNS:
        state["done"] = True
        s = state["score"]
        won = (s[0] > s[1]) - (s[0] < s[1])
        state["rewards"] = [float(won), float(-won)]
    return state


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    first = state["first"]
    return [{"placed": len(state["layout"]), "removed": state["removed"],
             "first": None if first is None else [first, state["layout"][first]],
             "score": state["score"], "turns": state["turns"], "log": state["logs"][p]}
            for p in range(2)]
