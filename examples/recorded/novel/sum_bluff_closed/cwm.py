# Code world model of 'sum_bluff', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

import random
from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

FACES = (1, 2, 3, 4)
MIN_CLAIM, MAX_CLAIM = 2, 8
INITIAL_STATE: State = {"dice": [], "moves": []}


def _is_over(state: State) -> bool:
    return bool(state["moves"]) and state["moves"][-1] == "Challenge"


def _last_claim(moves: list) -> int:
    claims = [int(m.split()[1]) for m in moves if m.startswith("Claim ")]
    return claims[-1] if claims else MIN_CLAIM - 1


def get_current_player(state: State) -> int:
    if len(state["dice"]) < 2:
        return -1
    if _is_over(state):
        return -4
    return len(state["moves"]) % 2


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
        return [f"Roll {f}" for f in FACES]
    moves = state["moves"]
    actions = [f"Claim {c}" for c in range(_last_claim(moves) + 1, MAX_CLAIM + 1)]
    if moves:
        actions.append("Challenge")
    return actions


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    if get_current_player(state) != -1:
        return []
    return [(f"Roll {f}", 1.0 / len(FACES)) for f in FACES]


def apply_action(state: State, action: Action) -> State:
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r} in state {state!r}")
    new = {"dice": list(state["dice"]), "moves": list(state["moves"])}
    if get_current_player(state) == -1:
        new["dice"].append(int(action.split()[1]))
    else:
        new["moves"].append(action)
    return new


def get_rewards(state: State) -> list[float]:
    if get_current_player(state) != -4:
        return [0.0, 0.0]
    moves = state["moves"]
    claimer = (len(moves) - 2) % 2
    claimer_wins = sum(state["dice"]) >= _last_claim(moves)
    rewards = [0.0, 0.0]
    rewards[claimer] = 1.0 if claimer_wins else -1.0
    rewards[1 - claimer] = -rewards[claimer]
    return rewards


def get_observations(state: State) -> list[Observation]:
    over = _is_over(state)
    dice = state["dice"]
    return [{"my_die": dice[p] if p < len(dice) else None,
             "moves": list(state["moves"]),
             "dice": list(dice) if over else None} for p in range(2)]


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int,
                     last_is_terminal: bool) -> list[Action]:
    last_obs = obs_action_history[-1][0]
    my_die = next(o["my_die"] for o, _ in obs_action_history if o.get("my_die") is not None)
    revealed = next((o["dice"] for o, _ in obs_action_history if o.get("dice")), None)
    dice = [0, 0]
    dice[player_id] = my_die
    # the opponent's die: revealed at the end, otherwise any face is consistent
    dice[1 - player_id] = revealed[1 - player_id] if revealed else random.choice(FACES)
    return [f"Roll {d}" for d in dice] + list(last_obs["moves"])
