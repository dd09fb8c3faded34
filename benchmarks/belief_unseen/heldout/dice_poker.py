"""Dice poker with re-rolls: two players improve hidden dice, then bet.

Written for the belief benchmark (issue 31): a hidden-information game the generic belief
sampler was not tuned to. Hand-written; not the work of a language model.
"""

import json

from ggp.core.protocol import GameMetadata

RULES = """Dice poker with re-rolls. Two players, each with four hidden four-sided dice
(faces 1 to 4). Both put 1 chip in the pot. Chance rolls player 0's dice one at a time,
then player 1's ("Roll 3", each face equally likely); a player sees only their own dice.
Then two re-roll turns each, alternating 0, 1, 0, 1: on a re-roll turn a player either
stands ("Stand") or re-rolls one die showing a given face ("Reroll 2"; chance rolls it
again). Everyone sees whether a player re-rolled, not which die or the new face. Then one
betting round: player 0 may "Check" or "Bet" (1 more chip). After a check player 1 may
"Check" (showdown) or "Bet"; facing a bet a player may "Call" (showdown) or "Fold" (lose
what they put in). At a showdown all dice are shown. A hand's score is the largest number
of dice showing the same face; ties are broken by that face (higher is better), then the
sum of the dice; a complete tie splits the pot. The winner gains what the loser put in,
the loser loses it."""

METADATA = GameMetadata(num_players=2, min_utility=-2.0, max_utility=2.0, zero_sum=True,
                        outcome="payoff", perfect_information=False, chance=True)

INITIAL_STATE = {"dice": [[], []], "rolling": None, "phase": "roll", "turn": 0,
                 "rerolls": 0, "bets": [], "put": [1, 1], "log": [], "shown": None,
                 "rewards": [0.0, 0.0]}


def get_current_player(state):
    if state["phase"] == "over":
        return -4
    if state["phase"] == "roll" or state["rolling"] is not None:
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
    if state["phase"] == "reroll":
        return ["Stand"] + [f"Reroll {f}" for f in sorted(set(state["dice"][player]))]
    if state["bets"] and state["bets"][-1] == "Bet":
        return ["Call", "Fold"]
    return ["Check", "Bet"]


def get_chance_outcomes(state):
    return [(f"Roll {f}", 0.25) for f in range(1, 5)]


def _score(dice):
    best = max((dice.count(f), f) for f in set(dice))
    return (best[0], best[1], sum(dice))


def _finish(state, winner):
    state["phase"] = "over"
    if winner is None:
        return
    gain = float(state["put"][1 - winner])
    state["rewards"][winner], state["rewards"][1 - winner] = gain, -gain


def _next_reroll(state):
    state["rerolls"] += 1
    if state["rerolls"] == 4:
        state["phase"], state["turn"] = "bet", 0
    else:
        state["turn"] = state["rerolls"] % 2


def apply_action(state, action):
    state = json.loads(json.dumps(state))
    state["rewards"] = [0.0, 0.0]
    words = action.split()
    if words[0] == "Roll":
        face = int(words[1])
        if state["rolling"] is not None:
            p = state["rolling"]
            state["dice"][p] = sorted(state["dice"][p] + [face])
            state["rolling"] = None
            _next_reroll(state)
            return state
        p = 0 if len(state["dice"][0]) < 4 else 1
        state["dice"][p] = sorted(state["dice"][p] + [face])
        if len(state["dice"][1]) == 4:
            state["phase"], state["turn"] = "reroll", 0
        return state
    p = state["turn"]
    state["log"].append([p, words[0]])
    if words[0] == "Stand":
        _next_reroll(state)
    elif words[0] == "Reroll":
        state["dice"][p].remove(int(words[1]))
        state["rolling"] = p
    elif words[0] == "Fold":
        _finish(state, 1 - p)
    else:
        state["bets"].append(words[0])
        if words[0] in ("Bet", "Call"):
            state["put"][p] += 1
        if words[0] == "Call" or state["bets"] == ["Check", "Check"]:
            state["shown"] = state["dice"]
            s0, s1 = _score(state["dice"][0]), _score(state["dice"][1])
            _finish(state, None if s0 == s1 else (0 if s0 > s1 else 1))
        else:
            state["turn"] = 1 - p
    return state


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    public = {k: state[k] for k in ("phase", "turn", "rerolls", "bets", "put", "log",
                                    "shown")}
    return [dict(public, dice=state["dice"][p]) for p in range(2)]
