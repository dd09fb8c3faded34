# Code world model of 'hot_potato', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

NUM_PLAYERS = 5
MAX_PASSES = 10
OFFSETS = {"Left": 1, "Right": -1, "Across": 2}

INITIAL_STATE: State = {"burst": False, "holder": 0, "passes": 0,
                        "rewards": [0.0] * NUM_PLAYERS, "waiting": False}


def get_current_player(state: State) -> int:
    if state["burst"]:
        return -4
    if state["waiting"]:
        return -1
    return state["holder"]


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"player {player_id}"


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    p_burst = min(1.0, state["passes"] / MAX_PASSES)
    outcomes = [("Burst", p_burst), ("Safe", 1.0 - p_burst)]
    return [(a, p) for a, p in outcomes if p > 0]


def get_legal_actions(state: State) -> list[Action]:
    p = get_current_player(state)
    if p == -4:
        return []
    if p == -1:
        return [a for a, _ in get_chance_outcomes(state)]
    return list(OFFSETS)


def apply_action(state: State, action: Action) -> State:
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r}")
    new = copy.deepcopy(state)
    new["rewards"] = [0.0] * NUM_PLAYERS
    if action in OFFSETS:
        new["holder"] = (new["holder"] + OFFSETS[action]) % NUM_PLAYERS
        new["passes"] += 1
        new["waiting"] = True
    elif action == "Burst":
        new["waiting"] = False
        new["burst"] = True
        new["rewards"] = [1.0] * NUM_PLAYERS
        new["rewards"][new["holder"]] = -4.0
    else:  # Safe
        new["waiting"] = False
    return new


def get_rewards(state: State) -> list[float]:
    return [float(r) for r in state["rewards"]]


def get_observations(state: State) -> list[Observation]:
    return [copy.deepcopy(state) for _ in range(NUM_PLAYERS)]
