# Code world model of 'weighted_race', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

GOAL = 15
MAX_TURNS = 40
DASH = [("Dash +3", 0.5, 3), ("Dash +0", 0.3, 0), ("Dash -1", 0.2, -1)]

INITIAL_STATE: State = {'dashing': False, 'over': False, 'pos': [0, 0],
                        'rewards': [0.0, 0.0], 'turn': 0, 'turns': 0}


def get_current_player(state: State) -> int:
    if state['over']:
        return -4
    return -1 if state['dashing'] else state['turn']


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
    if p == -1:
        return [name for name, _, _ in DASH]
    return ["Walk", "Dash"]


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    if get_current_player(state) != -1:
        return []
    return [(name, prob) for name, prob, _ in DASH]


def _finish_turn(new: State, p: int, step: int) -> None:
    new['pos'][p] = max(0, new['pos'][p] + step)
    new['turns'] += 1
    new['turn'] = 1 - p
    new['dashing'] = False
    if new['pos'][p] >= GOAL:
        new['over'] = True
        new['rewards'] = [1.0 if i == p else -1.0 for i in range(2)]
    elif new['turns'] >= MAX_TURNS:
        new['over'] = True
        a, b = new['pos']
        new['rewards'] = [1.0, -1.0] if a > b else [-1.0, 1.0] if b > a else [0.0, 0.0]


def apply_action(state: State, action: Action) -> State:
    new = copy.deepcopy(state)
    new['rewards'] = [0.0, 0.0]
    p = new['turn']
    if new['dashing']:
        step = next(d for name, _, d in DASH if name == action)
        _finish_turn(new, p, step)
    elif action == "Dash":
        new['dashing'] = True
    else:  # Walk
        _finish_turn(new, p, 1)
    return new


def get_rewards(state: State) -> list[float]:
    return list(state['rewards'])


def get_observations(state: State) -> list[Observation]:
    return [copy.deepcopy(state) for _ in range(2)]
