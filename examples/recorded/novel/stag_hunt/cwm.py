# Code world model of 'stag_hunt', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy
import random

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

ROUNDS = 5
CHOICES = ["Stag", "Hare"]
PAYOFF = {("Stag", "Stag"): (4.0, 4.0), ("Hare", "Hare"): (2.0, 2.0),
          ("Stag", "Hare"): (0.0, 3.0), ("Hare", "Stag"): (3.0, 0.0)}

INITIAL_STATE: State = {'pending': None, 'rewards': [0.0, 0.0], 'rounds': []}


def _is_terminal(state: State) -> bool:
    return len(state['rounds']) >= ROUNDS


def get_current_player(state: State) -> int:
    if _is_terminal(state):
        return -4
    return 0 if state['pending'] is None else 1


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"hunter {player_id}"


def get_legal_actions(state: State) -> list[Action]:
    return [] if _is_terminal(state) else list(CHOICES)


def apply_action(state: State, action: Action) -> State:
    new = copy.deepcopy(state)
    if new['pending'] is None:
        new['pending'] = action
        new['rewards'] = [0.0, 0.0]
    else:
        pair = (new['pending'], action)
        new['rounds'].append(list(pair))
        new['pending'] = None
        new['rewards'] = list(PAYOFF[pair])
    return new


def get_rewards(state: State) -> list[float]:
    return list(state['rewards'])


def get_observations(state: State) -> list[Observation]:
    return [{'my_pending': state['pending'], 'rounds': copy.deepcopy(state['rounds'])},
            {'my_pending': None, 'rounds': copy.deepcopy(state['rounds'])}]


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int) -> list[Action]:
    last = obs_action_history[-1][0]
    rounds = last['rounds']
    actions = [a for pair in rounds for a in pair]
    if len(rounds) >= ROUNDS:
        return actions
    if player_id == 1:
        # Hunter 0's pending choice is hidden from hunter 1.
        actions.append(random.choice(CHOICES))
    elif last.get('my_pending') is not None:
        actions.append(last['my_pending'])
    return actions
