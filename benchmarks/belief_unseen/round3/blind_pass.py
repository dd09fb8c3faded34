"""Blind pass: three players pass cards left or right; only giver and receiver know where.

Written for the belief benchmark (issue 31), round three: after the design freeze, by an
evaluator who did not read the sampler. Hand-written; not the work of a language model.
"""

import json

from ggp.core.protocol import GameMetadata

RULES = """Blind pass. Three players and the cards 1 to 12. Chance deals three cards to
each player, one at a time, to players 0, 1, 2, 0, ... (chance actions "Deal 7", each
remaining card equally likely); the last three cards stay out of play, unseen. Then four
turns are played by players 0, 1, 2, 0. On a turn the player gives one card of their hand
to the player on their left (player + 1, modulo 3) or on their right (player - 1, modulo
3): "Pass 7 left". The receiver then discards the lowest card of their new hand (possibly
the one just received) face up. Hand sizes are kept hidden. The giver knows what they
gave and to whom; the receiver knows what they received and from whom; the third player
only learns that the giver passed and which card was discarded, not who received the
card nor who discarded. Everyone sees their own hand. After the four turns, the player
(or players) with the highest total of cards in hand shares a reward of 1 equally; the
others get 0."""

METADATA = GameMetadata(num_players=3, min_utility=0.0, max_utility=1.0, zero_sum=False,
                        outcome="payoff", perfect_information=False, chance=True)

TURNS = 4

INITIAL_STATE = {"hands": [[], [], []], "dealt": 0, "turn": 0,
                 "logs": [[], [], []], "rewards": [0.0, 0.0, 0.0]}


def get_current_player(state):
    if state["dealt"] < 9:
        return -1
    if state["turn"] == TURNS:
        return -4
    return state["turn"] % 3


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        used = {c for h in state["hands"] for c in h}
        return [f"Deal {c}" for c in range(1, 13) if c not in used]
    return [f"Pass {c} {side}" for c in state["hands"][player] for side in ("left", "right")]


def get_chance_outcomes(state):
    actions = get_legal_actions(state)
    return [(a, 1.0 / len(actions)) for a in actions]


def apply_action(state, action):
    state = json.loads(json.dumps(state))
    state["rewards"] = [0.0, 0.0, 0.0]
    words = action.split()
    card = int(words[1])
    if words[0] == "Deal":
        seat = state["dealt"] % 3
        state["hands"][seat] = sorted(state["hands"][seat] + [card])
        state["dealt"] += 1
        return state
    giver = state["turn"] % 3
    receiver = (giver + 1) % 3 if words[2] == "left" else (giver - 1) % 3
    third = 3 - giver - receiver
    state["hands"][giver].remove(card)
    hand = sorted(state["hands"][receiver] + [card])
    discarded = hand.pop(0)
    state["hands"][receiver] = hand
    state["logs"][giver].append(["gave", card, receiver, discarded])
    state["logs"][receiver].append(["got", card, giver, discarded])
    state["logs"][third].append(["passed", giver, discarded])
    state["turn"] += 1
    if state["turn"] == TURNS:
        totals = [sum(h) for h in state["hands"]]
        best = [p for p in range(3) if totals[p] == max(totals)]
        state["rewards"] = [1.0 / len(best) if p in best else 0.0 for p in range(3)]
    return state


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [{"hand": state["hands"][p], "dealt": state["dealt"], "turn": state["turn"],
             "log": state["logs"][p]} for p in range(3)]
