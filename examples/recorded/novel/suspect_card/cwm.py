# Code world model of 'suspect_card', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy
import random

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

CARDS = [1, 2, 3, 4, 5]
MAX_TURNS = 10

INITIAL_STATE: State = {'dealt': [], 'log': [], 'over': False, 'rewards': [0.0, 0.0]}


def _hand(dealt: list[int], p: int) -> list[int]:
    return sorted(dealt[1 + 2 * p: 3 + 2 * p])


def _is_terminal(state: State) -> bool:
    return state['over'] or len(state['log']) >= MAX_TURNS


def get_current_player(state: State) -> int:
    if len(state['dealt']) < 5:
        return -1
    if _is_terminal(state):
        return -4
    return len(state['log']) % 2


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"player {player_id}"


def get_legal_actions(state: State) -> list[Action]:
    p = get_current_player(state)
    if p == -4:
        return []
    if p == -1:
        return [f"Deal {k}" for k in CARDS if k not in state['dealt']]
    own = _hand(state['dealt'], p)
    others = [k for k in CARDS if k not in own]
    return [f"Ask {k}" for k in others] + [f"Accuse {k}" for k in others]


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    if get_current_player(state) != -1:
        return []
    outs = get_legal_actions(state)
    return [(a, 1.0 / len(outs)) for a in outs]


def apply_action(state: State, action: Action) -> State:
    new = copy.deepcopy(state)
    new['rewards'] = [0.0, 0.0]
    kind, val = action.split()
    k = int(val)
    if kind == "Deal":
        new['dealt'].append(k)
        return new
    p = len(new['log']) % 2
    if kind == "Ask":
        answer = "yes" if k in _hand(new['dealt'], 1 - p) else "no"
        new['log'].append([p, action, answer])
    else:  # Accuse
        new['log'].append([p, action, None])
        new['over'] = True
        win = 1.0 if k == new['dealt'][0] else -1.0
        new['rewards'] = [win if i == p else -win for i in range(2)]
    return new


def get_rewards(state: State) -> list[float]:
    return list(state['rewards'])


def get_observations(state: State) -> list[Observation]:
    done = len(state['dealt']) >= 5 and _is_terminal(state)
    middle = state['dealt'][0] if done else None
    return [{'hand': _hand(state['dealt'], p), 'log': copy.deepcopy(state['log']),
             'middle': middle} for p in range(2)]


def _consistent(middle: int, opp: list[int], log: list, player_id: int) -> bool:
    for who, action, answer in log:
        kind, val = action.split()
        k = int(val)
        if who == player_id:
            if kind == "Ask" and (answer == "yes") != (k in opp):
                return False
        elif k in opp:
            # The opponent never asks about or accuses its own card.
            return False
    return True


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int,
                     last_is_terminal: bool = False) -> list[Action]:
    last = obs_action_history[-1][0]
    own = list(last['hand'])
    log = last['log']
    rest = [k for k in CARDS if k not in own]
    options = []
    for m in rest:
        if last.get('middle') is not None and m != last['middle']:
            continue
        opp = [k for k in rest if k != m]
        if _consistent(m, opp, log, player_id):
            options.append((m, opp))
    if not options:  # should not happen; fall back to any split
        options = [(m, [k for k in rest if k != m]) for m in rest]
    middle, opp = random.choice(options)
    own_cards, opp_cards = own[:], opp[:]
    random.shuffle(own_cards)
    random.shuffle(opp_cards)
    hands = [own_cards, opp_cards] if player_id == 0 else [opp_cards, own_cards]
    deals = [middle] + hands[0] + hands[1]
    return [f"Deal {k}" for k in deals] + [entry[1] for entry in log]
