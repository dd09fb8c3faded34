# Code world model of 'lowest_unique', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy
import random

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

NUM_PLAYERS = 3
MAX_PICK = 120

INITIAL_STATE: State = {'picks': [], 'rewards': [0.0, 0.0, 0.0]}


def _is_terminal(state: State) -> bool:
    return len(state['picks']) >= NUM_PLAYERS


def get_current_player(state: State) -> int:
    return -4 if _is_terminal(state) else len(state['picks'])


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"player {player_id}"


def get_legal_actions(state: State) -> list[Action]:
    if _is_terminal(state):
        return []
    return [f"Pick {n}" for n in range(1, MAX_PICK + 1)]


def _final_rewards(picks: list[int]) -> list[float]:
    unique = [n for n in picks if picks.count(n) == 1]
    if not unique:
        return [0.0] * NUM_PLAYERS
    winner = picks.index(min(unique))
    return [2.0 if i == winner else -1.0 for i in range(NUM_PLAYERS)]


def apply_action(state: State, action: Action) -> State:
    new = copy.deepcopy(state)
    new['picks'].append(int(action.split()[1]))
    if _is_terminal(new):
        new['rewards'] = _final_rewards(new['picks'])
    else:
        new['rewards'] = [0.0] * NUM_PLAYERS
    return new


def get_rewards(state: State) -> list[float]:
    return list(state['rewards'])


def get_observations(state: State) -> list[Observation]:
    picks = state['picks']
    done = _is_terminal(state)
    return [{'all_picks': list(picks) if done else None,
             'my_pick': picks[i] if i < len(picks) else None}
            for i in range(NUM_PLAYERS)]


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int) -> list[Action]:
    last_obs = obs_action_history[-1][0]
    if last_obs.get('all_picks') is not None:
        # Game over: every pick is known.
        return [f"Pick {n}" for n in last_obs['all_picks']]
    # Earlier players' picks are hidden: choose them at random.
    actions = [f"Pick {random.randint(1, MAX_PICK)}" for _ in range(player_id)]
    own = [a for _, a in obs_action_history if a is not None]
    actions.extend(own)
    return actions
