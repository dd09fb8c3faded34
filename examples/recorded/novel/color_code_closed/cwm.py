# Code world model of 'color_code', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

import itertools
import random
from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

LETTERS = "RGB"
CODES = ["".join(p) for p in itertools.product(LETTERS, repeat=3)]
MAX_GUESSES = 8
INITIAL_STATE: State = {"code": None, "guesses": []}


def _score(guess: str, code: str) -> int:
    return sum(a == b for a, b in zip(guess, code))


def _is_over(state: State) -> bool:
    g = state["guesses"]
    return bool(g) and (g[-1][2] == 3 or len(g) >= MAX_GUESSES)


def get_current_player(state: State) -> int:
    if state["code"] is None:
        return -1
    if _is_over(state):
        return -4
    return len(state["guesses"]) % 2


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
    prefix = "Code " if p == -1 else "Guess "
    return [prefix + c for c in CODES]


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    if get_current_player(state) != -1:
        return []
    return [("Code " + c, 1.0 / len(CODES)) for c in CODES]


def apply_action(state: State, action: Action) -> State:
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r} in state {state!r}")
    p = get_current_player(state)
    guesses = [list(g) for g in state["guesses"]]
    word = action.split()[1]
    if p == -1:
        return {"code": word, "guesses": guesses}
    guesses.append([p, word, _score(word, state["code"])])
    return {"code": state["code"], "guesses": guesses}


def get_rewards(state: State) -> list[float]:
    if get_current_player(state) != -4:
        return [0.0, 0.0]
    last = state["guesses"][-1]
    if last[2] != 3:
        return [0.0, 0.0]  # draw after 8 guesses
    rewards = [-1.0, -1.0]
    rewards[last[0]] = 1.0
    return rewards


def get_observations(state: State) -> list[Observation]:
    return [{"guesses": [list(g) for g in state["guesses"]]} for _ in range(2)]


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int,
                     last_is_terminal: bool) -> list[Action]:
    guesses = obs_action_history[-1][0]["guesses"]
    # codes that agree with every feedback count seen
    fits = [c for c in CODES if all(_score(g, c) == n for _, g, n in guesses)]
    code = random.choice(fits or CODES)
    return ["Code " + code] + ["Guess " + g for _, g, _ in guesses]
