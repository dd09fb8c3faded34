# Code world model of 'mine_dig', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

N = 3
MAX_DIGS = 5
OUTCOMES = [("Gold", 0.5), ("Rock", 0.3), ("Cave-in", 0.2)]

INITIAL_STATE: State = {'banked': [0, 0, 0], 'digging': False, 'digs': [0, 0, 0],
                        'out': [False, False, False], 'rewards': [0.0, 0.0, 0.0],
                        'sack': [0, 0, 0], 'turn': 0}


def _is_terminal(state: State) -> bool:
    return all(state['out'])


def get_current_player(state: State) -> int:
    if _is_terminal(state):
        return -4
    return -1 if state['digging'] else state['turn']


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"miner {player_id}"


def get_legal_actions(state: State) -> list[Action]:
    if _is_terminal(state):
        return []
    if state['digging']:
        return [o for o, _ in OUTCOMES]
    if state['digs'][state['turn']] >= MAX_DIGS:
        return ["Leave"]
    return ["Dig", "Leave"]


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    return list(OUTCOMES) if state['digging'] and not _is_terminal(state) else []


def _pass_turn(state: State) -> None:
    # Next miner still in the mine, cyclically; unchanged if nobody is left.
    for k in range(1, N + 1):
        p = (state['turn'] + k) % N
        if not state['out'][p]:
            state['turn'] = p
            return


def apply_action(state: State, action: Action) -> State:
    new = copy.deepcopy(state)
    new['rewards'] = [0.0] * N
    p = new['turn']
    if new['digging']:
        # Chance resolves the dig of the current miner.
        if action == "Gold":
            new['sack'][p] += 2
        elif action == "Cave-in":
            new['sack'][p] = 0
            new['out'][p] = True
        new['digging'] = False
        _pass_turn(new)
    elif action == "Dig":
        new['digs'][p] += 1
        new['digging'] = True
    else:  # Leave
        gold = new['sack'][p]
        new['banked'][p] += gold
        new['sack'][p] = 0
        new['out'][p] = True
        new['rewards'][p] = float(gold)
        _pass_turn(new)
    return new


def get_rewards(state: State) -> list[float]:
    return list(state['rewards'])


def get_observations(state: State) -> list[Observation]:
    return [copy.deepcopy(state) for _ in range(N)]
