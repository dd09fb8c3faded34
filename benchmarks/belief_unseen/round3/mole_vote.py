"""Mole vote: four players, one hidden mole, public team votes, secret mission cards.

Written for the belief benchmark (issue 31), round three: after the design freeze, by an
evaluator who did not read the sampler. Hand-written; not the work of a language model.
"""

import json

from ggp.core.protocol import GameMetadata

RULES = """Mole vote. Four players. Chance picks one of them to be the mole ("Mole 2",
each equally likely); only the mole is told. Three missions follow; the leader of
mission m (m = 0, 1, 2) is player m. The leader proposes a team of two players
("Team 1 3", the lower number first; the leader may include themselves). Then players
0, 1, 2, 3 vote on the team one after another, in public ("Yes" or "No"). With at least
three Yes votes the mission goes ahead: the two team members, lower number first, each
secretly play a card, "Pass" or "Fail" (only the mole may play Fail); everyone then learns
only how many Fail cards were played. With fewer than three Yes votes the mission is
skipped. After the missions, players 0, 1, 2, 3 each secretly accuse another player
("Accuse 3"); a player does not see the others' accusations until all have accused. If
the mole alone has the most accusations the innocent players get 1 each and the mole 0;
otherwise the mole gets 1 plus 1 for each failed mission and the innocent players 0.
Everyone sees every proposal, every vote, every count of Fail cards and, at the end, the
accusations; each player sees whether they are the mole and their own pending card or
accusation."""

METADATA = GameMetadata(num_players=4, min_utility=0.0, max_utility=4.0, zero_sum=False,
                        outcome="payoff", perfect_information=False, chance=True,
                        simultaneous=True)

MISSIONS = 3

INITIAL_STATE = {"mole": None, "mission": 0, "team": None, "votes": [], "cards": [],
                 "record": [], "fails": 0, "accusations": [], "done": False,
                 "rewards": [0.0, 0.0, 0.0, 0.0]}


def get_current_player(state):
    if state["done"]:
        return -4
    if state["mole"] is None:
        return -1
    if state["mission"] == MISSIONS:
        return len(state["accusations"])
    if state["team"] is None:
        return state["mission"]
    if len(state["votes"]) < 4:
        return len(state["votes"])
    return state["team"][len(state["cards"])]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        return [f"Mole {p}" for p in range(4)]
    if state["mission"] == MISSIONS:
        return [f"Accuse {p}" for p in range(4) if p != player]
    if state["team"] is None:
        return [f"Team {a} {b}" for a in range(4) for b in range(a + 1, 4)]
    if len(state["votes"]) < 4:
        return ["Yes", "No"]
    return ["Pass", "Fail"] if player == state["mole"] else ["Pass"]


def get_chance_outcomes(state):
    return [(a, 0.25) for a in get_legal_actions(state)]


def _next_mission(state):
    state["mission"] += 1
    state["team"], state["votes"], state["cards"] = None, [], []


def apply_action(state, action):
    state = json.loads(json.dumps(state))
    state["rewards"] = [0.0] * 4
    words = action.split()
    if words[0] == "Mole":
        state["mole"] = int(words[1])
    elif words[0] == "Team":
        state["team"] = [int(words[1]), int(words[2])]
    elif words[0] in ("Yes", "No"):
        state["votes"].append(words[0])
        if len(state["votes"]) == 4 and state["votes"].count("Yes") < 3:
            state["record"].append([state["team"], state["votes"], None])
            _next_mission(state)
    elif words[0] in ("Pass", "Fail"):
        state["cards"].append(words[0])
        if len(state["cards"]) == 2:
            failed = state["cards"].count("Fail")
            state["fails"] += 1 if failed else 0
            state["record"].append([state["team"], state["votes"], failed])
            _next_mission(state)
    else:
        state["accusations"].append(int(words[1]))
        if len(state["accusations"]) == 4:
            state["done"] = True
            counts = [state["accusations"].count(p) for p in range(4)]
            caught = counts[state["mole"]] == max(counts) and counts.count(max(counts)) == 1
            mole_gets = 0.0 if caught else 1.0 + state["fails"]
            state["rewards"] = [mole_gets if p == state["mole"] else float(caught)
                                for p in range(4)]
    return state


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    out = []
    for p in range(4):
        on_team = state["team"] is not None and p in state["team"]
        mine = state["team"].index(p) if on_team else None
        out.append({"mole": None if state["mole"] is None else state["mole"] == p,
                    "mission": state["mission"], "team": state["team"],
                    "votes": state["votes"], "record": state["record"],
                    "cards_played": len(state["cards"]),
                    "my_card": state["cards"][mine] if mine is not None
                    and mine < len(state["cards"]) else None,
                    "accused": len(state["accusations"]),
                    "my_accusation": state["accusations"][p]
                    if p < len(state["accusations"]) else None,
                    "accusations": state["accusations"] if state["done"] else None})
    return out
