# Code world model of 'lights_duel', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

SIZE = 3
MAX_PRESSES = 20

INITIAL_STATE: State = {'grid': ['111', '111', '111'], 'presses': 0,
                        'rewards': [0.0, 0.0], 'turn': 0}


def _all_off(grid) -> bool:
    return all(ch == '0' for row in grid for ch in row)


def _is_terminal(state: State) -> bool:
    return _all_off(state['grid']) or state['presses'] >= MAX_PRESSES


def get_current_player(state: State) -> int:
    return -4 if _is_terminal(state) else state['turn']


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"player {player_id}"


def get_legal_actions(state: State) -> list[Action]:
    if _is_terminal(state):
        return []
    return [f"Press {r},{c}" for r in range(SIZE) for c in range(SIZE)]


def apply_action(state: State, action: Action) -> State:
    new = copy.deepcopy(state)
    r, c = (int(x) for x in action.split()[1].split(','))
    cells = [list(row) for row in new['grid']]
    for dr, dc in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < SIZE and 0 <= cc < SIZE:
            cells[rr][cc] = '0' if cells[rr][cc] == '1' else '1'
    new['grid'] = [''.join(row) for row in cells]
    mover = state['turn']
    new['presses'] = state['presses'] + 1
    new['turn'] = 1 - mover
    if _all_off(new['grid']):
        rewards = [-1.0, -1.0]
        rewards[mover] = 1.0
        new['rewards'] = rewards
    else:
        new['rewards'] = [0.0, 0.0]
    return new


def get_rewards(state: State) -> list[float]:
    return list(state['rewards'])


def get_observations(state: State) -> list[Observation]:
    return [copy.deepcopy(state) for _ in range(2)]
