"""Card questions: three players ask each other about hidden cards; answers are public.

Written for the belief benchmark (issue 31): a hidden-information game the generic belief
sampler was not tuned to. Hand-written; not the work of a language model.
"""

import json

from ggp.core.protocol import GameMetadata

RULES = """Card questions. Three players and eight cards numbered 1 to 8. Chance deals two
cards to each player, one at a time, to players 0, 1, 2, 0, 1, 2 (chance actions
"Deal 5", each remaining card equally likely); the last two cards stay face down, unseen.
A player sees only their own cards. Then nine turns, players 0, 1, 2, 0, ... in order. On
a turn a player asks another player whether they hold a card the asker does not hold
("Ask 2 5": does player 2 hold 5?), and never the same question to the same player twice.
The answer is given by the rules, truthfully and publicly: yes or no. A yes scores 1 for
the asker and the card is shown to everyone. A player who has no question left says
"Pass". Everyone sees every question, its answer and whose turn it is. At the end a
player's reward is the number of yes answers they received."""

METADATA = GameMetadata(num_players=3, min_utility=0.0, max_utility=3.0, zero_sum=False,
                        outcome="payoff", perfect_information=False, chance=True)

INITIAL_STATE = {"hands": [[], [], []], "dealt": 0, "turn": 0, "turns": 0, "log": [],
                 "score": [0, 0, 0], "rewards": [0.0, 0.0, 0.0]}


def get_current_player(state):
    if state["dealt"] < 6:
        return -1
    return -4 if state["turns"] == 9 else state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        used = {c for h in state["hands"] for c in h}
        return [f"Deal {c}" for c in range(1, 9) if c not in used]
    asked = {(q, c) for p, q, c, _ in state["log"] if p == player}
    known = {c for _, _, c, yes in state["log"] if yes}
    actions = [f"Ask {q} {c}" for q in range(3) if q != player for c in range(1, 9)
               if c not in state["hands"][player] and (q, c) not in asked and c not in known]
    return actions or ["Pass"]


def get_chance_outcomes(state):
    actions = get_legal_actions(state)
    return [(a, 1.0 / len(actions)) for a in actions]


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
    if words[0] == "Ask":
        q, c = int(words[1]), int(words[2])
        yes = c in state["hands"][q]
        state["log"].append([p, q, c, yes])
        state["score"][p] += int(yes)
    state["turns"] += 1
    state["turn"] = (p + 1) % 3
    if state["turns"] == 9:
        state["rewards"] = [float(s) for s in state["score"]]
    return state


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    public = {k: state[k] for k in ("dealt", "turn", "turns", "log")}
    return [dict(public, hand=state["hands"][p]) for p in range(3)]
