# Code world model of 'signal_match', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy
import random

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

COLORS = [("Red", 0.5), ("Green", 0.3), ("Blue", 0.2)]

INITIAL_STATE: State = {'color': None, 'name': None, 'rewards': [0.0, 0.0], 'signal': None}


def get_current_player(state: State) -> int:
    if state['color'] is None:
        return -1
    if state['signal'] is None:
        return 0
    if state['name'] is None:
        return 1
    return -4


def get_player_name(player_id: int) -> str:
    return {0: "signaller", 1: "receiver", -1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state: State) -> list[Action]:
    p = get_current_player(state)
    if p == -1:
        return [f"Color {c}" for c, _ in COLORS]
    if p == 0:
        return ["Signal A", "Signal B"]
    if p == 1:
        return [f"Name {c}" for c, _ in COLORS]
    return []


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    if get_current_player(state) != -1:
        return []
    return [(f"Color {c}", p) for c, p in COLORS]


def apply_action(state: State, action: Action) -> State:
    new = copy.deepcopy(state)
    kind, value = action.split()
    new['rewards'] = [0.0, 0.0]
    if kind == "Color":
        new['color'] = value
    elif kind == "Signal":
        new['signal'] = value
    else:
        new['name'] = value
        r = 1.0 if value == new['color'] else 0.0
        new['rewards'] = [r, r]
    return new


def get_rewards(state: State) -> list[float]:
    return list(state['rewards'])


def get_observations(state: State) -> list[Observation]:
    full = {'color': state['color'], 'name': state['name'], 'signal': state['signal']}
    receiver = dict(full)
    if state['name'] is None:
        receiver['color'] = None
    return [full, receiver]


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int) -> list[Action]:
    last = obs_action_history[-1][0]
    color = last.get('color')
    if color is None:
        # Hidden from the receiver: sample from the prior.
        color = random.choices([c for c, _ in COLORS], weights=[p for _, p in COLORS])[0]
    actions = [f"Color {color}"]
    if last.get('signal') is not None:
        actions.append(f"Signal {last['signal']}")
    if last.get('name') is not None:
        actions.append(f"Name {last['name']}")
    return actions
