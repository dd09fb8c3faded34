# Code world model of 'stone_mill', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

START_PILE = 360

INITIAL_STATE: State = {'pile': START_PILE, 'points': [0, 0], 'rewards': [0.0, 0.0], 'turn': 0}


def get_current_player(state: State) -> int:
    return -4 if state['pile'] <= 0 else state['turn']


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"player {player_id}"


def get_legal_actions(state: State) -> list[Action]:
    if state['pile'] <= 0:
        return []
    return [f"Take {n}" for n in (1, 2) if n <= state['pile']]


def apply_action(state: State, action: Action) -> State:
    new = copy.deepcopy(state)
    p = state['turn']
    new['pile'] -= int(action.split()[1])
    if new['pile'] % 10 == 0:
        new['points'][p] += 1
    new['rewards'] = [0.0, 0.0]
    if new['pile'] == 0:
        new['points'][p] += 2
        a, b = new['points']
        if a > b:
            new['rewards'] = [1.0, -1.0]
        elif b > a:
            new['rewards'] = [-1.0, 1.0]
    new['turn'] = 1 - p
    return new


def get_rewards(state: State) -> list[float]:
    return list(state['rewards'])


def get_observations(state: State) -> list[Observation]:
    return [copy.deepcopy(state) for _ in range(2)]
