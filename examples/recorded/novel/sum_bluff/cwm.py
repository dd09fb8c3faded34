# Code world model of 'sum_bluff', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy
import random

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

SIDES = 4
MIN_CLAIM, MAX_CLAIM = 2, 8

INITIAL_STATE: State = {'dice': [], 'moves': [], 'over': False, 'rewards': [0.0, 0.0]}


def get_current_player(state: State) -> int:
    if state['over']:
        return -4
    if len(state['dice']) < 2:
        return -1
    return len(state['moves']) % 2


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"player {player_id}"


def _last_claim(moves: list[str]) -> int | None:
    claims = [int(m.split()[1]) for m in moves if m.startswith("Claim")]
    return claims[-1] if claims else None


def get_legal_actions(state: State) -> list[Action]:
    p = get_current_player(state)
    if p == -4:
        return []
    if p == -1:
        return [f"Roll {v}" for v in range(1, SIDES + 1)]
    last = _last_claim(state['moves'])
    low = MIN_CLAIM if last is None else last + 1
    actions = [f"Claim {c}" for c in range(low, MAX_CLAIM + 1)]
    if last is not None:
        actions.append("Challenge")
    return actions


def apply_action(state: State, action: Action) -> State:
    new = copy.deepcopy(state)
    new['rewards'] = [0.0, 0.0]
    if action.startswith("Roll"):
        new['dice'].append(int(action.split()[1]))
        return new
    challenger = len(new['moves']) % 2
    if action == "Challenge":
        claim = _last_claim(new['moves'])
        new['moves'].append(action)
        new['over'] = True
        claimer_wins = sum(new['dice']) >= claim
        winner = 1 - challenger if claimer_wins else challenger
        new['rewards'] = [1.0 if i == winner else -1.0 for i in range(2)]
    else:
        new['moves'].append(action)
    return new


def get_rewards(state: State) -> list[float]:
    return list(state['rewards'])


def get_observations(state: State) -> list[Observation]:
    dice = state['dice']
    return [{'dice': list(dice) if state['over'] else None,
             'moves': list(state['moves']),
             'my_die': dice[i] if i < len(dice) else None}
            for i in range(2)]


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int) -> list[Action]:
    last = obs_action_history[-1][0]
    if last.get('dice') is not None:
        dice = list(last['dice'])
    else:
        dice = [random.randint(1, SIDES), random.randint(1, SIDES)]
        if last.get('my_die') is not None:
            dice[player_id] = last['my_die']
    actions = [f"Roll {d}" for d in dice]
    actions.extend(last.get('moves', []))
    return actions
