# Code world model of 'frog_crossing', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

NUM_PLAYERS = 2
NUM_FROGS = 4
BANK = 40
MAX_MOVES = 1000

INITIAL_STATE: State = {"moves": 0, "pads": [[0] * NUM_FROGS, [0] * NUM_FROGS],
                        "rewards": [0.0, 0.0], "turn": 0, "winner": None}


def _over(state: State) -> bool:
    return state["winner"] is not None or state["moves"] >= MAX_MOVES


def get_current_player(state: State) -> int:
    return -4 if _over(state) else state["turn"]


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"player {player_id}"


def get_legal_actions(state: State) -> list[Action]:
    if _over(state):
        return []
    pads = state["pads"][state["turn"]]
    return [f"Frog {i} +{k}" for i in range(NUM_FROGS) if pads[i] < BANK for k in (1, 2)]


def apply_action(state: State, action: Action) -> State:
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r}")
    _, frog, step = action.split()
    i, k = int(frog), int(step)
    p = state["turn"]
    new = copy.deepcopy(state)
    new["rewards"] = [0.0, 0.0]
    pad = min(BANK, new["pads"][p][i] + k)
    new["pads"][p][i] = pad
    if 0 < pad < BANK and new["pads"][1 - p][i] == pad:
        new["pads"][1 - p][i] = 0  # bumped back to the start
    new["moves"] += 1
    new["turn"] = 1 - p
    if all(x == BANK for x in new["pads"][p]):
        new["winner"] = p
        new["rewards"][p] = 1.0
        new["rewards"][1 - p] = -1.0
    return new


def get_rewards(state: State) -> list[float]:
    return [float(r) for r in state["rewards"]]


def get_observations(state: State) -> list[Observation]:
    return [copy.deepcopy(state) for _ in range(NUM_PLAYERS)]
