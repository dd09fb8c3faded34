# Code world model of 'square_claim', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

SIZE = 11
MAX_STONES = 30

INITIAL_STATE: State = {'board': ['.' * SIZE] * SIZE, 'placed': 0, 'points': [0, 0],
                        'rewards': [0.0, 0.0], 'turn': 0}


def _is_terminal(state: State) -> bool:
    return state['placed'] >= MAX_STONES


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
    return [f"Place {r},{c}" for r in range(SIZE) for c in range(SIZE)
            if state['board'][r][c] == '.']


def _completed_blocks(board: list[str], r: int, c: int, mark: str) -> int:
    # Count 2x2 blocks containing (r, c) that are entirely `mark`.
    count = 0
    for tr in (r - 1, r):
        for tc in (c - 1, c):
            if 0 <= tr < SIZE - 1 and 0 <= tc < SIZE - 1:
                if all(board[tr + dr][tc + dc] == mark for dr in (0, 1) for dc in (0, 1)):
                    count += 1
    return count


def apply_action(state: State, action: Action) -> State:
    new = copy.deepcopy(state)
    r, c = (int(x) for x in action.split()[1].split(','))
    p = state['turn']
    mark = str(p)
    row = new['board'][r]
    new['board'][r] = row[:c] + mark + row[c + 1:]
    new['points'][p] += _completed_blocks(new['board'], r, c, mark)
    new['placed'] += 1
    new['turn'] = 1 - p
    new['rewards'] = [0.0, 0.0]
    if _is_terminal(new):
        a, b = new['points']
        if a > b:
            new['rewards'] = [1.0, -1.0]
        elif b > a:
            new['rewards'] = [-1.0, 1.0]
    return new


def get_rewards(state: State) -> list[float]:
    return list(state['rewards'])


def get_observations(state: State) -> list[Observation]:
    return [copy.deepcopy(state) for _ in range(2)]
