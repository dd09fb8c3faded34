"""Chip count: four players with hidden chip counts whose total everyone knows.

Written for the belief benchmark (issue 31): a hidden-information game the generic belief
sampler was not tuned to. Hand-written; not the work of a language model.
"""

import json

from ggp.core.protocol import GameMetadata

RULES = """Chip count. Four players and eight chips. Chance hands out the chips one at a
time, each to a player chosen uniformly at random (chance actions "Chip 0" ... "Chip 3"
name the receiving player). A player sees how many chips they hold and that eight chips
exist, not who holds the others. Then two rounds of turns, players 0, 1, 2, 3 in order
each round. On a turn a player either keeps their chips ("Keep") or gives one chip to the
next player (player 3 gives to player 0), which is only allowed when they hold at least
one chip ("Give"); everyone sees each player's choice. Finally each player in turn 0, 1,
2, 3 guesses how many chips the next player holds now ("Guess 3", 0 to 8); guesses are
public. Rewards at the end: 1 for a correct guess, plus 1 for each player holding the
most chips (ties all get it)."""

METADATA = GameMetadata(num_players=4, min_utility=0.0, max_utility=2.0, zero_sum=False,
                        outcome="payoff", perfect_information=False, chance=True)

CHIPS = 8

INITIAL_STATE = {"chips": [0, 0, 0, 0], "dealt": 0, "turn": 0, "moves": 0, "guesses": [],
                 "log": [], "over": False, "rewards": [0.0, 0.0, 0.0, 0.0]}


def get_current_player(state):
    if state["over"]:
        return -4
    if state["dealt"] < CHIPS:
        return -1
    return state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        return [f"Chip {p}" for p in range(4)]
    if state["moves"] < 8:
        return ["Keep"] + (["Give"] if state["chips"][player] > 0 else [])
    return [f"Guess {k}" for k in range(CHIPS + 1)]


def get_chance_outcomes(state):
    return [(f"Chip {p}", 0.25) for p in range(4)]


def apply_action(state, action):
    state = json.loads(json.dumps(state))
    state["rewards"] = [0.0] * 4
    words = action.split()
    if words[0] == "Chip":
        state["chips"][int(words[1])] += 1
        state["dealt"] += 1
        return state
    p = state["turn"]
    state["turn"] = (p + 1) % 4
    if words[0] == "Guess":
        state["guesses"].append(int(words[1]))
        state["log"].append(["guess", p, int(words[1])])
        if len(state["guesses"]) == 4:
            top = max(state["chips"])
            state["rewards"] = [float(state["guesses"][q] == state["chips"][(q + 1) % 4])
                                + float(state["chips"][q] == top) for q in range(4)]
            state["over"] = True
        return state
    if words[0] == "Give":
        state["chips"][p] -= 1
        state["chips"][(p + 1) % 4] += 1
    state["log"].append([words[0].lower(), p])
    state["moves"] += 1
    return state


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [{"mine": state["chips"][p], "total": CHIPS, "dealt": state["dealt"],
             "turn": state["turn"], "log": state["log"]} for p in range(4)]
