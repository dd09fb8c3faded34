# Code world model of 'color_code', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy
import itertools
import random

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

NUM_PLAYERS = 2
LETTERS = "RGB"
LENGTH = 3
MAX_GUESSES = 8
CODES = ["".join(c) for c in itertools.product(LETTERS, repeat=LENGTH)]

INITIAL_STATE: State = {"code": None, "guesses": [], "rewards": [0.0, 0.0]}


def _score(code: str, guess: str) -> int:
    return sum(1 for a, b in zip(code, guess) if a == b)


def _is_over(state: State) -> bool:
    g = state["guesses"]
    return bool(g) and (g[-1][2] == LENGTH or len(g) >= MAX_GUESSES)


def get_current_player(state: State) -> int:
    if state["code"] is None:
        return -1
    if _is_over(state):
        return -4
    return len(state["guesses"]) % NUM_PLAYERS


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"player {player_id}"


def get_legal_actions(state: State) -> list[Action]:
    p = get_current_player(state)
    if p == -1:
        return [f"Code {c}" for c in CODES]
    if p == -4:
        return []
    return [f"Guess {c}" for c in CODES]


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    return [(f"Code {c}", 1.0 / len(CODES)) for c in CODES]


def apply_action(state: State, action: Action) -> State:
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r}")
    p = get_current_player(state)
    new = copy.deepcopy(state)
    new["rewards"] = [0.0, 0.0]
    word = action.split()[1]
    if p == -1:
        new["code"] = word
        return new
    score = _score(new["code"], word)
    new["guesses"].append([p, word, score])
    if score == LENGTH:
        new["rewards"][p] = 1.0
        new["rewards"][1 - p] = -1.0
    return new


def get_rewards(state: State) -> list[float]:
    return [float(r) for r in state["rewards"]]


def get_observations(state: State) -> list[Observation]:
    return [{"guesses": copy.deepcopy(state["guesses"])} for _ in range(NUM_PLAYERS)]


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int) -> list[Action]:
    guesses = obs_action_history[-1][0]["guesses"]
    candidates = [c for c in CODES if all(_score(c, g) == s for _, g, s in guesses)]
    code = random.choice(candidates)
    return [f"Code {code}"] + [f"Guess {g}" for _, g, _ in guesses]
