# Code world model of 'grid_chase', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy
import random

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

NUM_PLAYERS = 2
SIZE = 4
MAX_ROUNDS = 10
STEPS = {"Stay": (0, 0), "North": (-1, 0), "South": (1, 0), "West": (0, -1), "East": (0, 1)}
NAMES = {0: "hunter", 1: "runner", -1: "chance", -4: "terminal"}

INITIAL_STATE: State = {"caught": False, "pending": None, "pos": [[0, 0], [SIZE - 1, SIZE - 1]],
                        "rewards": [0.0, 0.0], "round": 0}


def _move(cell: list[int], step: str) -> list[int]:
    dr, dc = STEPS[step]
    return [cell[0] + dr, cell[1] + dc]


def _legal_steps(cell: list[int]) -> list[Action]:
    return [s for s in STEPS if all(0 <= x < SIZE for x in _move(cell, s))]


def _over(state: State) -> bool:
    return state["caught"] or state["round"] >= MAX_ROUNDS


def get_current_player(state: State) -> int:
    if _over(state):
        return -4
    return 0 if state["pending"] is None else 1


def get_player_name(player_id: int) -> str:
    return NAMES.get(player_id, f"player {player_id}")


def get_legal_actions(state: State) -> list[Action]:
    p = get_current_player(state)
    return [] if p == -4 else _legal_steps(state["pos"][p])


def apply_action(state: State, action: Action) -> State:
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r}")
    new = copy.deepcopy(state)
    new["rewards"] = [0.0, 0.0]
    if new["pending"] is None:
        new["pending"] = action
        return new
    old_h, old_r = new["pos"]
    h, r = _move(old_h, new["pending"]), _move(old_r, action)
    new["pos"] = [h, r]
    new["pending"] = None
    new["round"] += 1
    if h == r or (h == old_r and r == old_h):
        new["caught"] = True
        new["rewards"] = [1.0, -1.0]
    elif new["round"] >= MAX_ROUNDS:
        new["rewards"] = [-1.0, 1.0]
    return new


def get_rewards(state: State) -> list[float]:
    return [float(r) for r in state["rewards"]]


def get_observations(state: State) -> list[Observation]:
    return [{"pos": copy.deepcopy(state["pos"]), "round": state["round"],
             "my_pending": state["pending"] if p == 0 else None} for p in range(NUM_PLAYERS)]


def _step_between(a: list[int], b: list[int]) -> Action:
    for s in STEPS:
        if _move(a, s) == list(b):
            return s
    raise ValueError(f"no single step from {a} to {b}")


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int) -> list[Action]:
    opp = 1 - player_id
    actions: list[Action] = []
    for (o, own), (nxt, _) in zip(obs_action_history, obs_action_history[1:]):
        other = _step_between(o["pos"][opp], nxt["pos"][opp])
        actions += [own, other] if player_id == 0 else [other, own]
    if player_id == 1:  # the hunter's pending step is hidden from the runner
        hunter = obs_action_history[-1][0]["pos"][0]
        actions.append(random.choice(_legal_steps(hunter)))
    return actions
