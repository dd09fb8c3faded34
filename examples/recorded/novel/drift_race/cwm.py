# Code world model of 'drift_race', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

NUM_PLAYERS = 3
FINISH = 80
MAX_TURNS = 400
WINDS = [(0, 0.4), (2, 0.4), (5, 0.2)]

INITIAL_STATE: State = {"miles": [0, 0, 0], "over": False, "rewards": [0.0] * NUM_PLAYERS,
                        "sailing": False, "turn": 0, "turns": 0}


def get_current_player(state: State) -> int:
    if state["over"]:
        return -4
    if state["sailing"]:
        return -1
    return state["turn"]


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"boat {player_id}"


def get_legal_actions(state: State) -> list[Action]:
    p = get_current_player(state)
    if p == -4:
        return []
    if p == -1:
        return [f"Wind {w}" for w, _ in WINDS]
    return ["Row", "Sail"]


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    return [(f"Wind {w}", p) for w, p in WINDS]


def _end_turn(state: State, distance: int) -> None:
    mover = state["turn"]
    state["miles"][mover] += distance
    state["sailing"] = False
    state["turns"] += 1
    state["turn"] = (mover + 1) % NUM_PLAYERS
    if state["miles"][mover] >= FINISH:
        state["over"] = True
        state["rewards"] = [-1.0] * NUM_PLAYERS
        state["rewards"][mover] = 2.0
    elif state["turns"] >= MAX_TURNS:
        state["over"] = True


def apply_action(state: State, action: Action) -> State:
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r}")
    new = copy.deepcopy(state)
    new["rewards"] = [0.0] * NUM_PLAYERS
    if action == "Sail":
        new["sailing"] = True
    elif action == "Row":
        _end_turn(new, 1)
    else:
        _end_turn(new, int(action.split()[1]))
    return new


def get_rewards(state: State) -> list[float]:
    return [float(r) for r in state["rewards"]]


def get_observations(state: State) -> list[Observation]:
    return [copy.deepcopy(state) for _ in range(NUM_PLAYERS)]
