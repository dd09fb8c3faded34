# Code world model of 'chain_count', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

NUM_PLAYERS = 4
TARGET = 31

INITIAL_STATE: State = {"count": 0, "last": 0, "rewards": [0.0] * NUM_PLAYERS, "turn": 0}


def get_current_player(state: State) -> int:
    return -4 if state["count"] >= TARGET else state["turn"]


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"player {player_id}"


def get_legal_actions(state: State) -> list[Action]:
    if state["count"] >= TARGET:
        return []
    return [f"Add {k}" for k in (1, 2, 3)
            if state["count"] + k <= TARGET and not (k == 3 and state["last"] == 3)]


def apply_action(state: State, action: Action) -> State:
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r}")
    k = int(action.split()[1])
    mover = state["turn"]
    new = copy.deepcopy(state)
    new["count"] += k
    new["last"] = k
    new["turn"] = (mover + 1) % NUM_PLAYERS
    new["rewards"] = [0.0] * NUM_PLAYERS
    if new["count"] == TARGET:
        new["rewards"] = [1.0] * NUM_PLAYERS
        new["rewards"][mover] = -3.0
    return new


def get_rewards(state: State) -> list[float]:
    return [float(r) for r in state["rewards"]]


def get_observations(state: State) -> list[Observation]:
    return [copy.deepcopy(state) for _ in range(NUM_PLAYERS)]
