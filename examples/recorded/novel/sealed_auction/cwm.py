# Code world model of 'sealed_auction', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy
import random

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

N = 3
BUDGET = 10
LOT_VALUES = [6, 4, 8]

INITIAL_STATE: State = {'bids': [], 'coins': [BUDGET] * N, 'results': [],
                        'rewards': [0.0] * N, 'score': [0] * N}


def _is_terminal(state: State) -> bool:
    return len(state['results']) >= len(LOT_VALUES)


def get_current_player(state: State) -> int:
    return -4 if _is_terminal(state) else len(state['bids'])


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"player {player_id}"


def get_legal_actions(state: State) -> list[Action]:
    if _is_terminal(state):
        return []
    p = len(state['bids'])
    return [f"Bid {b}" for b in range(state['coins'][p] + 1)]


def apply_action(state: State, action: Action) -> State:
    new = copy.deepcopy(state)
    new['rewards'] = [0.0] * N
    new['bids'].append(int(action.split()[1]))
    if len(new['bids']) < N:
        return new
    # All bids in: resolve the lot.
    bids = new['bids']
    lot = len(new['results'])
    top = max(bids)
    winner = bids.index(top) if bids.count(top) == 1 else None
    if winner is not None:
        new['coins'][winner] -= top
        new['score'][winner] += LOT_VALUES[lot] - top
    new['results'].append({'bids': list(bids), 'winner': winner})
    new['bids'] = []
    if _is_terminal(new):
        new['rewards'] = [float(s) for s in new['score']]
    return new


def get_rewards(state: State) -> list[float]:
    return list(state['rewards'])


def get_observations(state: State) -> list[Observation]:
    bids = state['bids']
    return [{'lot': len(state['results']),
             'my_coins': state['coins'][p],
             'my_pending_bid': bids[p] if p < len(bids) else None,
             'results': copy.deepcopy(state['results'])}
            for p in range(N)]


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int) -> list[Action]:
    last_obs = obs_action_history[-1][0]
    state = copy.deepcopy(INITIAL_STATE)
    actions: list[Action] = []
    # Finished lots are public: replay their bids exactly.
    for res in last_obs['results']:
        for b in res['bids']:
            a = f"Bid {b}"
            actions.append(a)
            state = apply_action(state, a)
    if _is_terminal(state):
        return actions
    # Hidden bids of earlier players on the current lot: random affordable ones.
    for p in range(player_id):
        a = f"Bid {random.randint(0, state['coins'][p])}"
        actions.append(a)
        state = apply_action(state, a)
    pending = last_obs.get('my_pending_bid')
    if pending is not None and len(state['bids']) == player_id:
        actions.append(f"Bid {pending}")
    return actions
