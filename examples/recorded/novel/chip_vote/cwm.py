# Code world model of 'chip_vote', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy
import random

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

NUM_PLAYERS = 4
CHIPS = 8
NUM_PROPOSALS = 2

INITIAL_STATE: State = {"history": [], "number": 0, "over": False,
                        "rewards": [0.0] * NUM_PLAYERS, "split": None, "votes": []}


def _splits() -> list[list[int]]:
    out = []
    for a in range(CHIPS + 1):
        for b in range(CHIPS + 1 - a):
            for c in range(CHIPS + 1 - a - b):
                out.append([a, b, c, CHIPS - a - b - c])
    return out


PROPOSALS = ["Propose " + "-".join(map(str, s)) for s in _splits()]


def _voter(proposer: int, i: int) -> int:
    return (proposer + 1 + i) % NUM_PLAYERS


def get_current_player(state: State) -> int:
    if state["over"]:
        return -4
    proposer = state["number"]
    if state["split"] is None:
        return proposer
    return _voter(proposer, len(state["votes"]))


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"player {player_id}"


def get_legal_actions(state: State) -> list[Action]:
    if state["over"]:
        return []
    if state["split"] is None:
        return list(PROPOSALS)
    return ["Yes", "No"]


def apply_action(state: State, action: Action) -> State:
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r}")
    new = copy.deepcopy(state)
    new["rewards"] = [0.0] * NUM_PLAYERS
    if action.startswith("Propose "):
        new["split"] = [int(x) for x in action.split()[1].split("-")]
        new["votes"] = []
        return new
    new["votes"].append(action)
    if len(new["votes"]) < NUM_PLAYERS - 1:
        return new
    split, votes = new["split"], new["votes"]
    new["history"].append({"proposer": new["number"], "split": split, "votes": votes})
    new["split"], new["votes"] = None, []
    if votes.count("Yes") >= 2:
        new["over"] = True
        new["rewards"] = [float(x) for x in split]
    elif new["number"] + 1 >= NUM_PROPOSALS:
        new["over"] = True
    else:
        new["number"] += 1
    return new


def get_rewards(state: State) -> list[float]:
    return [float(r) for r in state["rewards"]]


def get_observations(state: State) -> list[Observation]:
    obs = []
    for p in range(NUM_PLAYERS):
        my_vote = None
        if state["split"] is not None:
            for i, v in enumerate(state["votes"]):
                if _voter(state["number"], i) == p:
                    my_vote = v
        obs.append({"number": state["number"],
                    "split": copy.deepcopy(state["split"]),
                    "my_vote": my_vote,
                    "history": copy.deepcopy(state["history"])})
    return obs


def _propose(split: list[int]) -> Action:
    return "Propose " + "-".join(str(x) for x in split)


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int) -> list[Action]:
    last = obs_action_history[-1][0]
    actions: list[Action] = []
    for entry in last["history"]:  # finished proposals are fully public
        actions.append(_propose(entry["split"]))
        actions.extend(entry["votes"])
    if last["split"] is not None:  # proposal in progress: earlier votes are hidden
        actions.append(_propose(last["split"]))
        n_before = (player_id - last["number"] - 1) % NUM_PLAYERS
        actions.extend(random.choice(["Yes", "No"]) for _ in range(n_before))
    return actions
