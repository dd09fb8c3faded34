# Code world model of 'signal_match', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

import random
from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

COLOR_PROBS = {"Red": 0.5, "Green": 0.3, "Blue": 0.2}
SIGNALS = ("A", "B")
INITIAL_STATE: State = {"color": None, "signal": None, "name": None}

# per mover: state field, action prefix, choices
_STEPS = {-1: ("color", "Color ", tuple(COLOR_PROBS)),
          0: ("signal", "Signal ", SIGNALS),
          1: ("name", "Name ", tuple(COLOR_PROBS))}


def get_current_player(state: State) -> int:
    for p in (-1, 0, 1):
        if state[_STEPS[p][0]] is None:
            return p
    return -4


def get_player_name(player_id: int) -> str:
    return {0: "signaller", 1: "receiver", -1: "chance", -4: "terminal"}.get(player_id, str(player_id))


def get_legal_actions(state: State) -> list[Action]:
    p = get_current_player(state)
    if p == -4:
        return []
    _, prefix, choices = _STEPS[p]
    return [prefix + c for c in choices]


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    if get_current_player(state) != -1:
        return []
    return [("Color " + c, p) for c, p in COLOR_PROBS.items()]


def apply_action(state: State, action: Action) -> State:
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r} in state {state!r}")
    field, prefix, _ = _STEPS[get_current_player(state)]
    new = dict(state)
    new[field] = action[len(prefix):]
    return new


def get_rewards(state: State) -> list[float]:
    if get_current_player(state) == -4 and state["name"] == state["color"]:
        return [1.0, 1.0]
    return [0.0, 0.0]


def get_observations(state: State) -> list[Observation]:
    over = get_current_player(state) == -4
    signaller = {"color": state["color"], "signal": state["signal"], "name": state["name"]}
    receiver = {"color": state["color"] if over else None, "signal": state["signal"],
                "name": state["name"]}
    return [signaller, receiver]


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int,
                     last_is_terminal: bool) -> list[Action]:
    known = {"color": None, "signal": None, "name": None}
    for obs, act in obs_action_history:
        for key in known:
            if obs and obs.get(key) is not None:
                known[key] = obs[key]
        for p in (0, 1):  # own actions fix their fields
            field, prefix, _ = _STEPS[p]
            if act is not None and act.startswith(prefix):
                known[field] = act[len(prefix):]
    if known["color"] is None:  # hidden from the receiver: draw from the prior
        known["color"] = random.choices(list(COLOR_PROBS), weights=list(COLOR_PROBS.values()))[0]
    full = ["Color " + known["color"],
            "Signal " + (known["signal"] or SIGNALS[0]),
            "Name " + (known["name"] or "Red")]
    if last_is_terminal:
        return full
    return full[:1] if player_id == 0 else full[:2]
