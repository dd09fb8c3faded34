# Code world model of 'coordinate_hunt', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy
import random

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

NUM_PLAYERS = 2
SIZE = 12
MAX_PROBES = 20
CELLS = [(r, c) for r in range(SIZE) for c in range(SIZE)]

INITIAL_STATE: State = {"probes": [], "rewards": [0.0, 0.0], "treasure": None}


def _cell(text: str) -> tuple[int, int]:
    r, c = text.split(",")
    return int(r), int(c)


def _dist(a: tuple[int, int], b: tuple[int, int]) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _is_over(state: State) -> bool:
    p = state["probes"]
    return bool(p) and (p[-1][2] == 0 or len(p) >= MAX_PROBES)


def get_current_player(state: State) -> int:
    if state["treasure"] is None:
        return -1
    if _is_over(state):
        return -4
    return len(state["probes"]) % NUM_PLAYERS


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"player {player_id}"


def get_legal_actions(state: State) -> list[Action]:
    p = get_current_player(state)
    if p == -1:
        return [f"Hide {r},{c}" for r, c in CELLS]
    if p == -4:
        return []
    probed = {x[1] for x in state["probes"]}
    return [f"Probe {r},{c}" for r, c in CELLS if f"{r},{c}" not in probed]


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    return [(f"Hide {r},{c}", 1.0 / len(CELLS)) for r, c in CELLS]


def apply_action(state: State, action: Action) -> State:
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r}")
    p = get_current_player(state)
    new = copy.deepcopy(state)
    new["rewards"] = [0.0, 0.0]
    where = action.split()[1]
    if p == -1:
        new["treasure"] = list(_cell(where))
        return new
    d = _dist(_cell(where), tuple(new["treasure"]))
    new["probes"].append([p, where, d])
    if d == 0:
        new["rewards"][p] = 1.0
        new["rewards"][1 - p] = -1.0
    return new


def get_rewards(state: State) -> list[float]:
    return [float(r) for r in state["rewards"]]


def get_observations(state: State) -> list[Observation]:
    return [{"probes": copy.deepcopy(state["probes"])} for _ in range(NUM_PLAYERS)]


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int) -> list[Action]:
    probes = obs_action_history[-1][0]["probes"]
    candidates = [cell for cell in CELLS
                  if all(_dist(_cell(w), cell) == d for _, w, d in probes)]
    r, c = random.choice(candidates)
    return [f"Hide {r},{c}"] + [f"Probe {w}" for _, w, _ in probes]
