"""Pass left: three players pass a card in secret, then play three tricks.

Written for the belief benchmark (issue 31): a hidden-information game the generic belief
sampler was not tuned to. Hand-written; not the work of a language model.
"""

import json

from ggp.core.protocol import GameMetadata

RULES = """Pass left. Three players and nine cards numbered 1 to 9. Chance deals three
cards to each player, one at a time, to players 0, 1, 2, 0, 1, 2, ... (chance actions
"Deal 7" and so on, each remaining card equally likely); a player sees only their own
hand. Then every player, in the order 0, 1, 2, chooses in secret one card of their hand
to pass to the player on their left (player 0 passes to 1, 1 to 2, 2 to 0): "Pass 7".
When all three have chosen, the cards change hands at once; a player sees the card they
passed and the card they received, not the others'. Then three tricks are played. Player
0 leads the first trick; each player in turn, clockwise from the leader, plays one card of
their hand face up ("Play 7"). The highest card wins the trick and its winner leads the
next. Everyone sees all played cards and who won each trick. A player's reward at the end
is the number of tricks they won."""

METADATA = GameMetadata(num_players=3, min_utility=0.0, max_utility=3.0, zero_sum=False,
                        outcome="payoff", perfect_information=False, chance=True)

CARDS = list(range(1, 10))

INITIAL_STATE = {"hands": [[], [], []], "passing": [None, None, None], "received": [None] * 3,
                 "phase": "deal", "turn": 0, "leader": 0, "table": [], "tricks": [],
                 "won": [0, 0, 0], "rewards": [0.0, 0.0, 0.0]}


def get_current_player(state):
    return {"deal": -1, "over": -4}.get(state["phase"], state["turn"])


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        used = {c for h in state["hands"] for c in h}
        return [f"Deal {c}" for c in CARDS if c not in used]
    verb = "Pass" if state["phase"] == "pass" else "Play"
    return [f"{verb} {c}" for c in state["hands"][player]]


def get_chance_outcomes(state):
    actions = get_legal_actions(state)
    return [(a, 1.0 / len(actions)) for a in actions]


def apply_action(state, action):
    state = json.loads(json.dumps(state))
    state["rewards"] = [0.0, 0.0, 0.0]
    verb, card = action.split()
    card = int(card)
    if verb == "Deal":
        seat = sum(len(h) for h in state["hands"]) % 3
        state["hands"][seat] = sorted(state["hands"][seat] + [card])
        if sum(len(h) for h in state["hands"]) == 9:
            state["phase"], state["turn"] = "pass", 0
        return state
    p = state["turn"]
    if verb == "Pass":
        state["passing"][p] = card
        if p < 2:
            state["turn"] = p + 1
            return state
        for q in range(3):
            state["hands"][q].remove(state["passing"][q])
        for q in range(3):
            got = state["passing"][(q - 1) % 3]
            state["received"][q] = got
            state["hands"][q] = sorted(state["hands"][q] + [got])
        state["phase"], state["turn"] = "play", 0
        return state
    state["hands"][p].remove(card)
    state["table"].append(card)
    if len(state["table"]) < 3:
        state["turn"] = (p + 1) % 3
        return state
    leader = state["leader"]
    winner = (leader + state["table"].index(max(state["table"]))) % 3
    state["tricks"].append([leader, state["table"], winner])
    state["won"][winner] += 1
    state["table"], state["leader"], state["turn"] = [], winner, winner
    if len(state["tricks"]) == 3:
        state["phase"] = "over"
        state["rewards"] = [float(w) for w in state["won"]]
    return state


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    public = {k: state[k] for k in ("phase", "turn", "leader", "table", "tricks", "won")}
    return [dict(public, hand=state["hands"][p], passed=state["passing"][p],
                 received=state["received"][p]) for p in range(3)]
