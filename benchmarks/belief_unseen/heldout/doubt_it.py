"""Doubt it: three players play cards face down under a claim and may be doubted.

Written for the belief benchmark (issue 31): a hidden-information game the generic belief
sampler was not tuned to. Hand-written; not the work of a language model.
"""

import json

from ggp.core.protocol import GameMetadata

RULES = """Doubt it. Three players and nine cards: three each of ranks 1, 2 and 3. Chance
deals three cards to each player, one at a time, to players 0, 1, 2, 0, ... (chance
actions "Deal 2", each remaining card equally likely by count); a player sees only their
own hand. Then six plays, player 0 first, then 1, 2, 0, ... The rank to claim goes 1, 2,
3, 1, 2, 3 over the six plays. On a play the player puts any card of their hand face down
on the pile ("Play 3"), claiming it is the rank to claim; a player with no cards says
"Pass" and the play is skipped. After a card is played the next player clockwise either
accepts ("Accept") or doubts ("Doubt"). On a doubt the card is shown: if it is the
claimed rank the doubter takes the whole pile into their hand, otherwise the player who
played it does. Everyone sees each play, accept and doubt, the shown cards, who took the
pile and how many cards each hand and the pile hold; the taker sees what they took. At
the end a player's reward is minus the number of cards in their hand."""

METADATA = GameMetadata(num_players=3, min_utility=-9.0, max_utility=0.0, zero_sum=False,
                        outcome="payoff", perfect_information=False, chance=True)

INITIAL_STATE = {"hands": [[], [], []], "dealt": 0, "pile": [], "plays": 0, "turn": 0,
                 "pending": False, "log": [], "over": False, "rewards": [0.0, 0.0, 0.0]}


def get_current_player(state):
    if state["over"]:
        return -4
    if state["dealt"] < 9:
        return -1
    return state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def _left(state):
    held = [c for h in state["hands"] for c in h]
    return {r: 3 - held.count(r) for r in (1, 2, 3) if held.count(r) < 3}


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        return [f"Deal {r}" for r in sorted(_left(state))]
    if state["pending"]:
        return ["Accept", "Doubt"]
    if not state["hands"][player]:
        return ["Pass"]
    return [f"Play {r}" for r in sorted(set(state["hands"][player]))]


def get_chance_outcomes(state):
    left = _left(state)
    total = sum(left.values())
    return [(f"Deal {r}", n / total) for r, n in sorted(left.items())]


def _next_play(state, player):
    state["plays"] += 1
    state["turn"] = (player + 1) % 3
    if state["plays"] == 6:
        state["over"] = True
        state["rewards"] = [-float(len(h)) for h in state["hands"]]


def apply_action(state, action):
    state = json.loads(json.dumps(state))
    state["rewards"] = [0.0, 0.0, 0.0]
    words = action.split()
    if words[0] == "Deal":
        seat = state["dealt"] % 3
        state["hands"][seat] = sorted(state["hands"][seat] + [int(words[1])])
        state["dealt"] += 1
        return state
    p = state["turn"]
    if words[0] == "Pass":
        state["log"].append(["pass", p])
        _next_play(state, p)
        return state
    if words[0] == "Play":
        state["hands"][p].remove(int(words[1]))
        state["pile"].append(int(words[1]))
        state["log"].append(["play", p, state["plays"] % 3 + 1])
        state["pending"], state["turn"] = True, (p + 1) % 3
        return state
    player = (p - 1) % 3
    state["pending"] = False
    if words[0] == "Accept":
        state["log"].append(["accept", p])
    else:
        card = state["pile"][-1]
        taker = p if card == state["plays"] % 3 + 1 else player
        state["log"].append(["doubt", p, card, taker, len(state["pile"])])
        state["hands"][taker] = sorted(state["hands"][taker] + state["pile"])
        state["pile"] = []
    _next_play(state, player)
    return state


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    public = {"dealt": state["dealt"], "pile": len(state["pile"]), "plays": state["plays"],
              "turn": state["turn"], "pending": state["pending"], "log": state["log"],
              "sizes": [len(h) for h in state["hands"]]}
    return [dict(public, hand=state["hands"][p]) for p in range(3)]
