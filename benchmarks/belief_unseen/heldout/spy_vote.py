"""Spy vote: five players, one secret spy, public hints and secret simultaneous votes.

Written for the belief benchmark (issue 31): a hidden-information game the generic belief
sampler was not tuned to. Hand-written; not the work of a language model.
"""

import json

from ggp.core.protocol import GameMetadata

RULES = """Spy vote. Five players. Chance picks one player as the spy ("Spy 3", each
equally likely) and then a secret number from 1 to 4 ("Secret 2", each equally likely).
Every player learns whether they are the spy; every player except the spy learns the
secret number. The game has two rounds. In a round each player in turn 0 to 4 first says a
public hint, a number from 1 to 4 ("Hint 3"; nobody is forced to tell the truth). Then
the players vote simultaneously: in the order 0 to 4 each picks in secret another player
to accuse ("Vote 1"). When all have voted the votes are shown; a player with three or
more votes is caught and their role is shown. If the spy is caught the game ends and
every other player gets 1, the spy -1. If someone else is caught, or nobody, the next
round follows (a caught player still plays). If the spy is never caught they get 2 and
every other player -1. A player sees their role, the secret number unless they are the
spy, all hints, their own pending vote, all revealed votes and who was caught."""

METADATA = GameMetadata(num_players=5, min_utility=-1.0, max_utility=2.0, zero_sum=False,
                        outcome="payoff", perfect_information=False, chance=True,
                        simultaneous=True)

N = 5

INITIAL_STATE = {"spy": None, "secret": None, "round": 0, "turn": 0, "hints": [],
                 "votes": [], "results": [], "over": False, "rewards": [0.0] * N}


def get_current_player(state):
    if state["over"]:
        return -4
    if state["spy"] is None or state["secret"] is None:
        return -1
    return state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        if state["spy"] is None:
            return [f"Spy {p}" for p in range(N)]
        return [f"Secret {k}" for k in range(1, 5)]
    if len(state["hints"]) < N * (state["round"] + 1):
        return [f"Hint {k}" for k in range(1, 5)]
    return [f"Vote {q}" for q in range(N) if q != player]


def get_chance_outcomes(state):
    actions = get_legal_actions(state)
    return [(a, 1.0 / len(actions)) for a in actions]


def apply_action(state, action):
    state = json.loads(json.dumps(state))
    state["rewards"] = [0.0] * N
    verb, n = action.split()
    n = int(n)
    if verb == "Spy":
        state["spy"] = n
        return state
    if verb == "Secret":
        state["secret"] = n
        return state
    p = state["turn"]
    state["turn"] = (p + 1) % N
    if verb == "Hint":
        state["hints"].append([p, n])
        return state
    state["votes"].append(n)
    if len(state["votes"]) < N:
        return state
    counts = [state["votes"].count(q) for q in range(N)]
    caught = next((q for q in range(N) if counts[q] >= 3), None)
    spy = state["spy"]
    state["results"].append([state["votes"], caught, None if caught is None else caught == spy])
    state["votes"], state["round"] = [], state["round"] + 1
    if caught == spy:
        state["over"] = True
        state["rewards"] = [-1.0 if q == spy else 1.0 for q in range(N)]
    elif state["round"] == 2:
        state["over"] = True
        state["rewards"] = [2.0 if q == spy else -1.0 for q in range(N)]
    return state


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    out = []
    for p in range(N):
        spy = None if state["spy"] is None else state["spy"] == p
        out.append({"spy": spy, "secret": None if spy else state["secret"],
                    "round": state["round"], "turn": state["turn"], "hints": state["hints"],
                    "my_vote": state["votes"][p] if p < len(state["votes"]) else None,
                    "voted": len(state["votes"]), "results": state["results"]})
    return out
