# Code world model of 'territory_paint', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

LENGTH = 12

INITIAL_STATE: State = {'rewards': [0.0, 0.0], 'strip': '.' * LENGTH, 'turn': 0}


def _is_terminal(state: State) -> bool:
    return '.' not in state['strip']


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
    s = state['strip']
    actions = []
    for i in range(LENGTH):
        if s[i] == '.':
            actions.append(f"Paint {i}")
            if i + 1 < LENGTH and s[i + 1] == '.':
                actions.append(f"Paint {i}-{i + 1}")
    return actions


def _longest_run(strip: str, mark: str) -> int:
    best = cur = 0
    for ch in strip:
        cur = cur + 1 if ch == mark else 0
        best = max(best, cur)
    return best


def apply_action(state: State, action: Action) -> State:
    new = copy.deepcopy(state)
    p = state['turn']
    cells = [int(x) for x in action.split()[1].split('-')]
    strip = list(new['strip'])
    for c in cells:
        strip[c] = str(p)
    new['strip'] = ''.join(strip)
    new['turn'] = 1 - p
    new['rewards'] = [0.0, 0.0]
    if _is_terminal(new):
        a, b = _longest_run(new['strip'], '0'), _longest_run(new['strip'], '1')
        if a > b:
            new['rewards'] = [1.0, -1.0]
        elif b > a:
            new['rewards'] = [-1.0, 1.0]
    return new


def get_rewards(state: State) -> list[float]:
    return list(state['rewards'])


def get_observations(state: State) -> list[Observation]:
    return [copy.deepcopy(state) for _ in range(2)]
