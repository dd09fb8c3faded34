# Code world model of 'ember_duel', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy
import random

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

NUM_PLAYERS = 2
START_EMBERS = 5
NUM_ROUNDS = 3

INITIAL_STATE: State = {"embers": [START_EMBERS, START_EMBERS], "pending": None,
                        "rewards": [0.0, 0.0], "rounds": [], "wins": [0, 0]}


def _over(state: State) -> bool:
    return len(state["rounds"]) >= NUM_ROUNDS


def get_current_player(state: State) -> int:
    if _over(state):
        return -4
    return 0 if state["pending"] is None else 1


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"player {player_id}"


def get_legal_actions(state: State) -> list[Action]:
    p = get_current_player(state)
    if p == -4:
        return []
    return [f"Commit {k}" for k in range(state["embers"][p] + 1)]


def apply_action(state: State, action: Action) -> State:
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r}")
    p = get_current_player(state)
    k = int(action.split()[1])
    new = copy.deepcopy(state)
    new["rewards"] = [0.0, 0.0]
    if p == 0:
        new["pending"] = k
        return new
    c0, c1 = new["pending"], k
    new["embers"][0] -= c0
    new["embers"][1] -= c1
    winner = 0 if c0 > c1 else (1 if c1 > c0 else None)
    if winner is not None:
        new["wins"][winner] += 1
    new["rounds"].append([c0, c1, winner])
    new["pending"] = None
    if _over(new):
        w0, w1 = new["wins"]
        if w0 != w1:
            best = 0 if w0 > w1 else 1
            new["rewards"][best] = 1.0
            new["rewards"][1 - best] = -1.0
    return new


def get_rewards(state: State) -> list[float]:
    return [float(r) for r in state["rewards"]]


def get_observations(state: State) -> list[Observation]:
    rnd = min(len(state["rounds"]) + 1, NUM_ROUNDS)
    return [{"round": rnd,
             "my_embers": state["embers"][p],
             "my_pending": state["pending"] if p == 0 else None,
             "rounds": copy.deepcopy(state["rounds"]),
             "wins": list(state["wins"])} for p in range(NUM_PLAYERS)]


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int) -> list[Action]:
    last = obs_action_history[-1][0]
    actions: list[Action] = []
    spent0 = 0
    for c0, c1, _ in last["rounds"]:
        actions += [f"Commit {c0}", f"Commit {c1}"]
        spent0 += c0
    if player_id == 1:  # player 0's commitment this round is hidden
        actions.append(f"Commit {random.randint(0, START_EMBERS - spent0)}")
    return actions
