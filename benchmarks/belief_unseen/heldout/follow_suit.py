"""Follow suit: four players, four tricks, hidden hands, voids revealed by play.

Written for the belief benchmark (issue 31): a hidden-information game the generic belief
sampler was not tuned to. Hand-written; not the work of a language model.
"""

import json

from ggp.core.protocol import GameMetadata

RULES = """Follow suit. Four players and sixteen cards: ranks 1 to 4 in suits S, H, D and
C (cards "1S" ... "4C"). Chance deals four cards to each player, one at a time, to players
0, 1, 2, 3, 0, ... (chance actions "Deal 3H" and so on, each remaining card equally
likely); a player sees only their own hand. Four tricks are played. Player 0 leads the
first trick; the others play in turn clockwise ("Play 3H"). A player must play a card of
the suit that was led if they have one; otherwise any card. The highest card of the led
suit wins the trick, and its winner leads the next. Everyone sees every card played and
who won each trick. A player's reward at the end is the number of tricks they won."""

METADATA = GameMetadata(num_players=4, min_utility=0.0, max_utility=4.0, zero_sum=False,
                        outcome="payoff", perfect_information=False, chance=True)

DECK = [r + s for s in "SHDC" for r in "1234"]

INITIAL_STATE = {"hands": [[], [], [], []], "dealt": 0, "turn": 0, "leader": 0, "table": [],
                 "tricks": [], "won": [0, 0, 0, 0], "rewards": [0.0] * 4}


def get_current_player(state):
    if state["dealt"] < 16:
        return -1
    if len(state["tricks"]) == 4:
        return -4
    return state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        used = {c for h in state["hands"] for c in h}
        return [f"Deal {c}" for c in DECK if c not in used]
    hand = state["hands"][player]
    if state["table"]:
        suit = state["table"][0][1]
        follow = [c for c in hand if c[1] == suit]
        if follow:
            hand = follow
    return [f"Play {c}" for c in hand]


def get_chance_outcomes(state):
    actions = get_legal_actions(state)
    return [(a, 1.0 / len(actions)) for a in actions]


def apply_action(state, action):
    state = json.loads(json.dumps(state))
    state["rewards"] = [0.0] * 4
    verb, card = action.split()
    if verb == "Deal":
        seat = state["dealt"] % 4
        state["hands"][seat] = sorted(state["hands"][seat] + [card])
        state["dealt"] += 1
        return state
    p = state["turn"]
    state["hands"][p].remove(card)
    state["table"].append(card)
    if len(state["table"]) < 4:
        state["turn"] = (p + 1) % 4
        return state
    suit = state["table"][0][1]
    best = max((c for c in state["table"] if c[1] == suit), key=lambda c: c[0])
    winner = (state["leader"] + state["table"].index(best)) % 4
    state["tricks"].append([state["leader"], state["table"], winner])
    state["won"][winner] += 1
    state["table"], state["leader"], state["turn"] = [], winner, winner
    if len(state["tricks"]) == 4:
        state["rewards"] = [float(w) for w in state["won"]]
    return state


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    public = {k: state[k] for k in ("dealt", "turn", "leader", "table", "tricks", "won")}
    return [dict(public, hand=state["hands"][p]) for p in range(4)]
