"""Liar's dice with re-rolls: two players bid on hidden dice over two rounds.

Written for the belief benchmark (issue 31): a hidden-information game the generic belief
sampler was not tuned to. Hand-written; not the work of a language model.
"""

import json

from ggp.core.protocol import GameMetadata

RULES = """Liar's dice with re-rolls. Two players, each starting with three six-sided
dice. The game has two rounds. A round starts with chance rolling every die of player 0,
then every die of player 1, one die at a time (chance actions "Roll 1" ... "Roll 6", each
equally likely); a player sees only their own dice. Then each player, player 0 first, may
re-roll one of their dice once: "Reroll 4" re-rolls one die showing 4 (chance then rolls
it again), "Keep" keeps all. Everyone sees that a player re-rolled, not which die or what
came up. Then the players bid alternately, the round's starter first (player 0 in round
1, the loser of round 1 in round 2). A bid "Bid 3 5" claims that at least three of all
dice on the table show 5. A bid must name more dice than the previous bid, or as many
dice and a higher face, and at most as many dice as are on the table. Instead of bidding
a player may "Challenge" the previous bid: all dice are shown; if at least that many dice
show that face the bidder wins the round, otherwise the challenger does. The loser of a
round loses one die for the next round. A player sees their own dice, how many dice each
player has, all re-roll announcements, bids and challenges, the dice shown at each
challenge and who won each round. At the end a player's reward is the number of rounds
they won minus the number the opponent won."""

METADATA = GameMetadata(num_players=2, min_utility=-2.0, max_utility=2.0, zero_sum=True,
                        outcome="payoff", perfect_information=False, chance=True)

INITIAL_STATE = {"dice": [[], []], "counts": [3, 3], "round": 0, "phase": "roll",
                 "turn": 0, "starter": 0, "bid": None, "reroller": None, "won": [0, 0],
                 "log": [], "rewards": [0.0, 0.0]}


def _rolling(state):
    return state["phase"] == "roll" or state["reroller"] is not None


def get_current_player(state):
    if state["phase"] == "over":
        return -4
    if _rolling(state):
        return -1
    return state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        return [f"Roll {f}" for f in range(1, 7)]
    if state["phase"] == "reroll":
        return ["Keep"] + [f"Reroll {f}" for f in sorted(set(state["dice"][player]))]
    total = sum(state["counts"])
    bids = []
    for q in range(1, total + 1):
        for f in range(1, 7):
            if state["bid"] is None or (q, f) > tuple(state["bid"][1:]):
                bids.append(f"Bid {q} {f}")
    return bids + (["Challenge"] if state["bid"] is not None else [])


def get_chance_outcomes(state):
    return [(f"Roll {f}", 1.0 / 6) for f in range(1, 7)]


def apply_action(state, action):
    state = json.loads(json.dumps(state))
    state["rewards"] = [0.0, 0.0]
    words = action.split()
    if words[0] == "Roll":
        face = int(words[1])
        if state["reroller"] is not None:
            p = state["reroller"]
            state["dice"][p] = sorted(state["dice"][p] + [face])
            state["reroller"] = None
            _after_reroll(state, p)
            return state
        p = 0 if len(state["dice"][0]) < state["counts"][0] else 1
        state["dice"][p] = sorted(state["dice"][p] + [face])
        if len(state["dice"][1]) == state["counts"][1]:
            state["phase"], state["turn"] = "reroll", 0
        return state
    p = state["turn"]
    if words[0] == "Keep":
        state["log"].append(["keep", p])
        _after_reroll(state, p)
    elif words[0] == "Reroll":
        state["dice"][p].remove(int(words[1]))
        state["reroller"] = p
        state["log"].append(["reroll", p])
    elif words[0] == "Bid":
        state["bid"] = [p, int(words[1]), int(words[2])]
        state["log"].append(["bid", p, int(words[1]), int(words[2])])
        state["turn"] = 1 - p
    else:
        bidder, q, f = state["bid"]
        shown = sum(d == f for hand in state["dice"] for d in hand)
        winner = bidder if shown >= q else p
        state["log"].append(["challenge", p, state["dice"][0], state["dice"][1], winner])
        state["won"][winner] += 1
        loser = 1 - winner
        state["counts"][loser] -= 1
        state["round"] += 1
        state["bid"], state["dice"] = None, [[], []]
        if state["round"] == 2:
            state["phase"] = "over"
            state["rewards"] = [float(state["won"][0] - state["won"][1]),
                                float(state["won"][1] - state["won"][0])]
        else:
            state["phase"], state["starter"] = "roll", loser
    return state


def _after_reroll(state, p):
    if p == 0:
        state["turn"] = 1
    else:
        state["phase"], state["turn"] = "bid", state["starter"]


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    public = {k: state[k] for k in ("counts", "round", "phase", "turn", "bid", "won", "log")}
    return [dict(public, dice=state["dice"][p]) for p in range(2)]
