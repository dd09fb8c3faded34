"""Draw and discard: two players draw from a hidden stock towards three of a kind.

Written for the belief benchmark (issue 31), after the sampler's final change: a second
round of games it was not tuned to. Hand-written; not the work of a language model.
"""

import json

from ggp.core.protocol import GameMetadata

RULES = """Draw and discard. Two players and fifteen cards: ranks A, B, C, D and E in
suits x, y and z (cards "Ax" ... "Ez"). Chance deals three cards to each player, one at a
time, to players 0, 1, 0, 1, ... (chance actions "Deal Cy", each remaining card equally
likely); the other cards form a face-down stock; a player sees only their own hand. The
players then take turns, player 0 first, at most six turns each. On a turn a player
either draws the top stock card ("Stock"; chance then picks it among the stock cards,
"Draw Bz", and only the drawer sees it) or takes the last discarded card, which everyone
saw ("Pile"); then they discard one card of their four face up ("Discard Bz"). A player
who holds three cards of one rank after discarding wins at once (reward 1, the other -1).
When the turns run out, or the stock is empty at the start of a turn, the game is a draw
(0 each). Everyone sees every discard, whether a player drew from the stock or the pile,
the stock's size and whose turn it is."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=False, chance=True)

DECK = [r + s for r in "ABCDE" for s in "xyz"]

INITIAL_STATE = {"hands": [[], []], "pile": [], "turn": 0, "turns": 0, "phase": "deal",
                 "log": [], "rewards": [0.0, 0.0]}


def _stock(state):
    used = set(state["pile"]) | set(state["hands"][0]) | set(state["hands"][1])
    return [c for c in DECK if c not in used]


def get_current_player(state):
    if state["phase"] in ("deal", "draw"):
        return -1
    if state["phase"] == "over":
        return -4
    return state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        verb = "Deal" if state["phase"] == "deal" else "Draw"
        return [f"{verb} {c}" for c in _stock(state)]
    if state["phase"] == "take":
        return ["Stock"] + (["Pile"] if state["pile"] else [])
    return [f"Discard {c}" for c in state["hands"][player]]


def get_chance_outcomes(state):
    actions = get_legal_actions(state)
    return [(a, 1.0 / len(actions)) for a in actions]


def _start_turn(state):
    if state["turns"] >= 12 or not _stock(state):
        state["phase"] = "over"
    else:
        state["phase"] = "take"


def apply_action(state, action):
    state = json.loads(json.dumps(state))
    state["rewards"] = [0.0, 0.0]
    words = action.split()
    p = state["turn"]
    if words[0] == "Deal":
        seat = sum(len(h) for h in state["hands"]) % 2
        state["hands"][seat] = sorted(state["hands"][seat] + [words[1]])
        if sum(len(h) for h in state["hands"]) == 6:
            _start_turn(state)
    elif words[0] == "Draw":
        state["hands"][p] = sorted(state["hands"][p] + [words[1]])
        state["phase"] = "discard"
    elif words[0] == "Stock":
        state["log"].append([p, "stock"])
        state["phase"] = "draw"
    elif words[0] == "Pile":
        card = state["pile"].pop()
        state["log"].append([p, "pile", card])
        state["hands"][p] = sorted(state["hands"][p] + [card])
        state["phase"] = "discard"
    else:
        card = words[1]
        state["hands"][p].remove(card)
        state["pile"].append(card)
        state["log"].append([p, "discard", card])
        ranks = [c[0] for c in state["hands"][p]]
        if any(ranks.count(r) == 3 for r in ranks):
            state["phase"] = "over"
            state["rewards"][p], state["rewards"][1 - p] = 1.0, -1.0
            return state
        state["turns"] += 1
        state["turn"] = 1 - p
        _start_turn(state)
    return state


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    public = {"log": state["log"], "turn": state["turn"], "phase": state["phase"],
              "stock": len(_stock(state)), "turns": state["turns"]}
    return [dict(public, hand=state["hands"][p]) for p in range(2)]
