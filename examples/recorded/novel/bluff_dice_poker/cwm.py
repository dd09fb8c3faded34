# Code world model of 'bluff_dice_poker', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy
import random

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

NUM_PLAYERS = 2
ROLLS = [f"Roll {k}" for k in range(1, 7)]

INITIAL_STATE: State = {"dice": [[], []], "bets": [], "rewards": [0.0, 0.0]}


def _rolling(state: State) -> bool:
    return len(state["dice"][0]) < 2 or len(state["dice"][1]) < 2


def _is_terminal(bets: list) -> bool:
    return bool(bets) and (bets[-1] in ("Fold", "Call") or bets == ["Check", "Check"])


def _is_showdown(state: State) -> bool:
    bets = state["bets"]
    return _is_terminal(bets) and bets[-1] != "Fold"


def get_current_player(state: State) -> int:
    if _rolling(state):
        return -1
    bets = state["bets"]
    if _is_terminal(bets):
        return -4
    return 0 if len(bets) % 2 == 0 else 1


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"player {player_id}"


def get_legal_actions(state: State) -> list[Action]:
    player = get_current_player(state)
    if player == -1:
        return list(ROLLS)
    if player == -4:
        return []
    bets = state["bets"]
    if bets and bets[-1] == "Bet":
        return ["Call", "Fold"]
    return ["Bet", "Check"]


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    return [(a, 1.0 / 6.0) for a in ROLLS]


def _contributions(bets: list) -> list[int]:
    contrib = [1, 1]
    for i, b in enumerate(bets):
        if b in ("Bet", "Call"):
            contrib[i % 2] += 2
    return contrib


def apply_action(state: State, action: Action) -> State:
    new = copy.deepcopy(state)
    new["rewards"] = [0.0, 0.0]
    player = get_current_player(state)
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r}")
    if player == -1:
        k = int(action.split()[1])
        who = 0 if len(new["dice"][0]) < 2 else 1
        new["dice"][who].append(k)
        return new
    new["bets"].append(action)
    bets = new["bets"]
    if _is_terminal(bets):
        contrib = _contributions(bets)
        if action == "Fold":
            folder = (len(bets) - 1) % 2
            winner = 1 - folder
            new["rewards"][folder] = float(-contrib[folder])
            new["rewards"][winner] = float(contrib[folder])
        else:
            t0, t1 = sum(new["dice"][0]), sum(new["dice"][1])
            if t0 > t1:
                new["rewards"] = [float(contrib[1]), float(-contrib[1])]
            elif t1 > t0:
                new["rewards"] = [float(-contrib[0]), float(contrib[0])]
    return new


def get_rewards(state: State) -> list[float]:
    return list(state["rewards"])


def get_observations(state: State) -> list[Observation]:
    showdown = copy.deepcopy(state["dice"]) if _is_showdown(state) else None
    return [{"my_dice": list(state["dice"][p]),
             "bets": list(state["bets"]),
             "showdown": copy.deepcopy(showdown)} for p in range(NUM_PLAYERS)]


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int,
                     last_is_terminal: bool) -> list[Action]:
    last_obs = obs_action_history[-1][0]
    own = list(last_obs["my_dice"])
    if last_obs.get("showdown"):
        dice = [list(d) for d in last_obs["showdown"]]
    else:
        other = [random.randint(1, 6), random.randint(1, 6)]
        dice = [own, other] if player_id == 0 else [other, own]
    actions = [f"Roll {d}" for d in dice[0]] + [f"Roll {d}" for d in dice[1]]
    actions += list(last_obs["bets"])
    return actions
