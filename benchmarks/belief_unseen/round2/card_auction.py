"""Card auction: three players bid hidden cards at once for public prizes.

Written for the belief benchmark (issue 31), after the sampler's final change: a second
round of games it was not tuned to. Hand-written; not the work of a language model.
"""

import json

from ggp.core.protocol import GameMetadata

RULES = """Card auction. Three players and the cards 1 to 9. Chance deals three cards to
each player, one at a time, to players 0, 1, 2, 0, ... (chance actions "Deal 4", each
remaining card equally likely); a player sees only their own hand. Three rounds follow.
In a round chance first turns up a prize worth 1, 2 or 3 points for everyone to see
("Prize 3", each equally likely). Then the players choose at once: in the order 0, 1, 2
each puts one card of their hand face down ("Bid 7"); a player does not see the others'
choices until all have chosen. Then the three cards are shown: the highest card wins the
prize; the bid cards are discarded. Everyone sees every prize, every shown card and every
winner, and the player's own hand and pending bid. At the end a player's reward is the
total of the prizes they won."""

METADATA = GameMetadata(num_players=3, min_utility=0.0, max_utility=9.0, zero_sum=False,
                        outcome="payoff", perfect_information=False, chance=True,
                        simultaneous=True)

INITIAL_STATE = {"hands": [[], [], []], "dealt": 0, "prize": None, "bids": [],
                 "rounds": [], "score": [0, 0, 0], "rewards": [0.0, 0.0, 0.0]}


def get_current_player(state):
    if len(state["rounds"]) == 3:
        return -4
    if state["dealt"] < 9 or state["prize"] is None:
        return -1
    return len(state["bids"])


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        if state["dealt"] < 9:
            used = {c for h in state["hands"] for c in h}
            return [f"Deal {c}" for c in range(1, 10) if c not in used]
        return ["Prize 1", "Prize 2", "Prize 3"]
    return [f"Bid {c}" for c in state["hands"][player]]


def get_chance_outcomes(state):
    actions = get_legal_actions(state)
    return [(a, 1.0 / len(actions)) for a in actions]


def apply_action(state, action):
    state = json.loads(json.dumps(state))
    state["rewards"] = [0.0, 0.0, 0.0]
    verb, n = action.split()
    n = int(n)
    if verb == "Deal":
        seat = state["dealt"] % 3
        state["hands"][seat] = sorted(state["hands"][seat] + [n])
        state["dealt"] += 1
    elif verb == "Prize":
        state["prize"] = n
    else:
        p = len(state["bids"])
        state["hands"][p].remove(n)
        state["bids"].append(n)
        if len(state["bids"]) == 3:
            winner = state["bids"].index(max(state["bids"]))
            state["score"][winner] += state["prize"]
            state["rounds"].append([state["prize"], state["bids"], winner])
            state["bids"], state["prize"] = [], None
            if len(state["rounds"]) == 3:
                state["rewards"] = [float(s) for s in state["score"]]
    return state


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    out = []
    for p in range(3):
        out.append({"hand": state["hands"][p], "dealt": state["dealt"],
                    "prize": state["prize"], "bidding": len(state["bids"]),
                    "my_bid": state["bids"][p] if p < len(state["bids"]) else None,
                    "rounds": state["rounds"], "score": state["score"]})
    return out
