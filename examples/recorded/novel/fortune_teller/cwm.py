# Code world model of 'fortune_teller', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy
import random

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

NUM_PLAYERS = 2
SIDES = ["Sun", "Moon"]
PROBS = {"Sun": 0.7, "Moon": 0.3}
NAMES = {0: "teller", 1: "guesser", -1: "chance", -4: "terminal"}

INITIAL_STATE: State = {"coin": None, "guess": None, "rewards": [0.0, 0.0], "said": None}


def get_current_player(state: State) -> int:
    if state["coin"] is None:
        return -1
    if state["said"] is None:
        return 0
    if state["guess"] is None:
        return 1
    return -4


def get_player_name(player_id: int) -> str:
    return NAMES.get(player_id, f"player {player_id}")


def get_legal_actions(state: State) -> list[Action]:
    verb = {-1: "Toss", 0: "Say", 1: "Guess"}.get(get_current_player(state))
    return [f"{verb} {s}" for s in SIDES] if verb else []


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    return [(f"Toss {s}", PROBS[s]) for s in SIDES]


def apply_action(state: State, action: Action) -> State:
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r}")
    p = get_current_player(state)
    side = action.split()[1]
    new = copy.deepcopy(state)
    new["rewards"] = [0.0, 0.0]
    if p == -1:
        new["coin"] = side
    elif p == 0:
        new["said"] = side
    else:
        new["guess"] = side
        new["rewards"] = [-1.0, 1.0] if side == new["coin"] else [1.0, -1.0]
    return new


def get_rewards(state: State) -> list[float]:
    return [float(r) for r in state["rewards"]]


def get_observations(state: State) -> list[Observation]:
    over = state["guess"] is not None
    teller = {"coin": state["coin"], "announcement": state["said"], "guess": state["guess"]}
    guesser = {"coin": state["coin"] if over else None, "announcement": state["said"],
               "guess": state["guess"]}
    return [teller, guesser]


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int) -> list[Action]:
    last = obs_action_history[-1][0]
    coin = last.get("coin")
    if coin is None:  # hidden from the guesser until the end
        coin = random.choices(SIDES, weights=[PROBS[s] for s in SIDES])[0]
    actions = [f"Toss {coin}"]
    if last.get("announcement") is not None:
        actions.append(f"Say {last['announcement']}")
    if last.get("guess") is not None:
        actions.append(f"Guess {last['guess']}")
    return actions
