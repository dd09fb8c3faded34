# Code world model of 'stock_ticker', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

START_CASH = 20
DAYS = 6
MOVES = [("Up 2", 0.35, 2), ("Flat", 0.4, 0), ("Down 3", 0.25, -3)]

INITIAL_STATE: State = {'cash': [START_CASH, START_CASH], 'day': 1, 'over': False, 'price': 10,
                        'rewards': [0.0, 0.0], 'shares': [0, 0], 'turn': 0}


def get_current_player(state: State) -> int:
    if state['over']:
        return -4
    return -1 if state['turn'] == 'chance' else state['turn']


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"trader {player_id}"


def get_legal_actions(state: State) -> list[Action]:
    p = get_current_player(state)
    if p == -4:
        return []
    if p == -1:
        return [name for name, _, _ in MOVES]
    actions = []
    if state['cash'][p] >= state['price']:
        actions.append("Buy")
    if state['shares'][p] > 0:
        actions.append("Sell")
    actions.append("Hold")
    return actions


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    if get_current_player(state) != -1:
        return []
    return [(name, prob) for name, prob, _ in MOVES]


def apply_action(state: State, action: Action) -> State:
    new = copy.deepcopy(state)
    new['rewards'] = [0.0, 0.0]
    if new['turn'] == 'chance':
        delta = next(d for name, _, d in MOVES if name == action)
        new['price'] = max(1, new['price'] + delta)
        new['turn'] = 0
        if new['day'] >= DAYS:
            new['over'] = True
            new['rewards'] = [float(new['cash'][i] + new['shares'][i] * new['price'] - START_CASH)
                              for i in range(2)]
        else:
            new['day'] += 1
        return new
    p = new['turn']
    if action == "Buy":
        new['cash'][p] -= new['price']
        new['shares'][p] += 1
    elif action == "Sell":
        new['cash'][p] += new['price']
        new['shares'][p] -= 1
    new['turn'] = 1 if p == 0 else 'chance'
    return new


def get_rewards(state: State) -> list[float]:
    return list(state['rewards'])


def get_observations(state: State) -> list[Observation]:
    return [copy.deepcopy(state) for _ in range(2)]
