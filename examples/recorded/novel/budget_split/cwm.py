# Code world model of 'budget_split', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

NUM_PLAYERS = 2
PIES = [120, 60, 30]

INITIAL_STATE: State = {"offer": None, "over": False, "rejected": [],
                        "rewards": [0.0, 0.0], "round": 0}


def _proposer(rnd: int) -> int:
    return 1 if rnd == 1 else 0


def get_current_player(state: State) -> int:
    if state["over"]:
        return -4
    p = _proposer(state["round"])
    return p if state["offer"] is None else 1 - p


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"player {player_id}"


def get_legal_actions(state: State) -> list[Action]:
    if state["over"]:
        return []
    if state["offer"] is None:
        return [f"Offer {k}" for k in range(PIES[state["round"]] + 1)]
    return ["Accept", "Reject"]


def apply_action(state: State, action: Action) -> State:
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r}")
    new = copy.deepcopy(state)
    new["rewards"] = [0.0, 0.0]
    rnd = new["round"]
    if action.startswith("Offer "):
        new["offer"] = int(action.split()[1])
    elif action == "Accept":
        proposer = _proposer(rnd)
        k = new["offer"]
        new["rewards"][1 - proposer] = float(k)
        new["rewards"][proposer] = float(PIES[rnd] - k)
        new["over"] = True
    else:  # Reject
        new["rejected"].append(new["offer"])
        new["offer"] = None
        if rnd == len(PIES) - 1:
            new["over"] = True
        else:
            new["round"] = rnd + 1
    return new


def get_rewards(state: State) -> list[float]:
    return [float(r) for r in state["rewards"]]


def get_observations(state: State) -> list[Observation]:
    return [copy.deepcopy(state) for _ in range(NUM_PLAYERS)]


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    return []  # no chance moves in this game
