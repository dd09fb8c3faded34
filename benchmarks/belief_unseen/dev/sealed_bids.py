"""Sealed bids: three players with secret budgets bid at once for three prizes.

Written for the belief benchmark (issue 31): a hidden-information game the generic belief
sampler was not tuned to. Hand-written; not the work of a language model.
"""

import json

from ggp.core.protocol import GameMetadata

RULES = """Sealed bids. Three players. Chance gives each player a secret budget of 3, 4
or 5 coins, players 0, 1 and 2 in turn (chance actions "Budget 4" and so on, each equally
likely); a player sees only their own budget. Three prizes are then auctioned one after
another. For each, chance first sets its value to 1, 2 or 3 for everyone to see ("Prize
2"). Then the players choose their bids simultaneously: in the order 0, 1, 2 each picks in
secret a bid of 0 to 3 coins, never more than the coins they have left ("Bid 2"). When all
have chosen, the bids are shown and every player pays their bid (the coins are gone
whatever happens). The highest bid wins the prize if no other player made the same bid;
otherwise nobody wins it. A player sees their own budget and coins left, their own pending
bid, each prize's value, and all revealed bids and winners. At the end a player's reward
is the total value of the prizes they won."""

METADATA = GameMetadata(num_players=3, min_utility=0.0, max_utility=9.0, zero_sum=False,
                        outcome="payoff", perfect_information=False, chance=True,
                        simultaneous=True)

INITIAL_STATE = {"budgets": [], "left": [], "prize": None, "bids": [None, None, None],
                 "turn": 0, "history": [], "score": [0, 0, 0], "over": False,
                 "rewards": [0.0, 0.0, 0.0]}


def get_current_player(state):
    if state["over"]:
        return -4
    if len(state["budgets"]) < 3 or state["prize"] is None:
        return -1
    return state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        if len(state["budgets"]) < 3:
            return ["Budget 3", "Budget 4", "Budget 5"]
        return ["Prize 1", "Prize 2", "Prize 3"]
    return [f"Bid {b}" for b in range(min(3, state["left"][player]) + 1)]


def get_chance_outcomes(state):
    return [(a, 1.0 / 3) for a in get_legal_actions(state)]


def apply_action(state, action):
    state = json.loads(json.dumps(state))
    state["rewards"] = [0.0, 0.0, 0.0]
    verb, n = action.split()
    n = int(n)
    if verb == "Budget":
        state["budgets"].append(n)
        state["left"].append(n)
        return state
    if verb == "Prize":
        state["prize"], state["turn"] = n, 0
        return state
    p = state["turn"]
    state["bids"][p] = n
    if p < 2:
        state["turn"] = p + 1
        return state
    bids = state["bids"]
    top = max(bids)
    winner = bids.index(top) if bids.count(top) == 1 else None
    for q in range(3):
        state["left"][q] -= bids[q]
    if winner is not None:
        state["score"][winner] += state["prize"]
    state["history"].append([state["prize"], bids, winner])
    state["bids"], state["prize"], state["turn"] = [None, None, None], None, 0
    if len(state["history"]) == 3:
        state["over"] = True
        state["rewards"] = [float(s) for s in state["score"]]
    return state


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    out = []
    for p in range(3):
        known = p < len(state["budgets"])
        out.append({"budget": state["budgets"][p] if known else None,
                    "left": state["left"][p] if known else None,
                    "my_bid": state["bids"][p], "prize": state["prize"],
                    "history": state["history"], "score": state["score"],
                    "turn": state["turn"]})
    return out
