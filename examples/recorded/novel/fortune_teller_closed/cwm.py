# Code world model of 'fortune_teller', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

import random
from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

SIDES = ("Sun", "Moon")
COIN_PROBS = {"Sun": 0.7, "Moon": 0.3}
INITIAL_STATE: State = {"coin": None, "announcement": None, "guess": None}


def get_current_player(state: State) -> int:
    if state["coin"] is None:
        return -1
    if state["announcement"] is None:
        return 0
    if state["guess"] is None:
        return 1
    return -4


def get_player_name(player_id: int) -> str:
    return {0: "teller", 1: "guesser", -1: "chance", -4: "terminal"}.get(player_id, str(player_id))


_PREFIX = {-1: "Toss ", 0: "Say ", 1: "Guess "}
_FIELD = {-1: "coin", 0: "announcement", 1: "guess"}


def get_legal_actions(state: State) -> list[Action]:
    p = get_current_player(state)
    if p == -4:
        return []
    return [_PREFIX[p] + s for s in SIDES]


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    if get_current_player(state) != -1:
        return []
    return [("Toss " + s, COIN_PROBS[s]) for s in SIDES]


def apply_action(state: State, action: Action) -> State:
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r} in state {state!r}")
    p = get_current_player(state)
    new = dict(state)
    new[_FIELD[p]] = action[len(_PREFIX[p]):]
    return new


def get_rewards(state: State) -> list[float]:
    if get_current_player(state) != -4:
        return [0.0, 0.0]
    return [-1.0, 1.0] if state["guess"] == state["coin"] else [1.0, -1.0]


def get_observations(state: State) -> list[Observation]:
    over = get_current_player(state) == -4
    teller = {"coin": state["coin"], "announcement": state["announcement"],
              "guess": state["guess"] if over else None}
    guesser = {"coin": state["coin"] if over else None, "announcement": state["announcement"],
               "guess": state["guess"] if over else None}
    return [teller, guesser]


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int,
                     last_is_terminal: bool) -> list[Action]:
    known = {"coin": None, "announcement": None, "guess": None}
    # facts seen in observations
    for obs, _ in obs_action_history:
        for key in known:
            if obs and obs.get(key) is not None:
                known[key] = obs[key]
    # facts fixed by the player's own actions
    for _, act in obs_action_history:
        if act is None:
            continue
        for p, prefix in _PREFIX.items():
            if p >= 0 and act.startswith(prefix):
                known[_FIELD[p]] = act[len(prefix):]
    if known["coin"] is None:  # hidden from this player: draw from the prior
        known["coin"] = random.choices(SIDES, weights=[COIN_PROBS[s] for s in SIDES])[0]
    full = ["Toss " + known["coin"],
            "Say " + (known["announcement"] or "Sun"),
            "Guess " + (known["guess"] or "Sun")]
    if last_is_terminal:
        return full
    return full[:1] if player_id == 0 else full[:2]
