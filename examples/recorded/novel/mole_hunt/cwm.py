# Code world model of 'mole_hunt', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy
import random

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

HOLES = 5
ROUNDS = 6

INITIAL_STATE: State = {'hits': 0, 'pending': None, 'rewards': [0.0, 0.0], 'rounds': []}


def _is_terminal(state: State) -> bool:
    return len(state['rounds']) >= ROUNDS


def get_current_player(state: State) -> int:
    if _is_terminal(state):
        return -4
    return 0 if state['pending'] is None else 1


def get_player_name(player_id: int) -> str:
    return {0: "mole", 1: "whacker", -1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def _hide_options(rounds: list) -> list[int]:
    last = rounds[-1][0] if rounds else None
    return [h for h in range(1, HOLES + 1) if h != last]


def get_legal_actions(state: State) -> list[Action]:
    if _is_terminal(state):
        return []
    if state['pending'] is None:
        return [f"Hide {h}" for h in _hide_options(state['rounds'])]
    return [f"Whack {h}" for h in range(1, HOLES + 1)]


def apply_action(state: State, action: Action) -> State:
    new = copy.deepcopy(state)
    new['rewards'] = [0.0, 0.0]
    hole = int(action.split()[1])
    if new['pending'] is None:
        new['pending'] = hole
        return new
    hidden = new['pending']
    new['rounds'].append([hidden, hole])
    if hidden == hole:
        new['hits'] += 1
    new['pending'] = None
    if _is_terminal(new):
        new['rewards'] = [-1.0, 1.0] if new['hits'] >= 2 else [1.0, -1.0]
    return new


def get_rewards(state: State) -> list[float]:
    return list(state['rewards'])


def get_observations(state: State) -> list[Observation]:
    base = {'hits': state['hits'], 'rounds': copy.deepcopy(state['rounds'])}
    return [dict(copy.deepcopy(base), my_pending=state['pending']),
            dict(copy.deepcopy(base), my_pending=None)]


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int) -> list[Action]:
    last_obs = obs_action_history[-1][0]
    rounds = last_obs['rounds']
    actions = []
    for hidden, whacked in rounds:
        actions += [f"Hide {hidden}", f"Whack {whacked}"]
    if len(rounds) >= ROUNDS:
        return actions
    if player_id == 1:
        # The mole's pending hide is unknown to the whacker: pick a legal one.
        actions.append(f"Hide {random.choice(_hide_options(rounds))}")
    elif last_obs.get('my_pending') is not None:
        actions.append(f"Hide {last_obs['my_pending']}")
    return actions
