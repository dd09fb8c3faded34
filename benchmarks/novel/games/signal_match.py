"""Signal match: a common-interest game where one player must describe three colours with
two signals.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

import random

from ggp.core.protocol import GameMetadata

PARAMETERS = {"colors": {"Red": 0.5, "Green": 0.3, "Blue": 0.2}, "signals": ["A", "B"]}
COLORS, SIGNALS = PARAMETERS["colors"], PARAMETERS["signals"]

RULES = """Signal match. Two players on the same side. First chance draws a hidden colour:
"Color Red" with probability 0.5, "Color Green" with probability 0.3, "Color Blue" with
probability 0.2. Only player 0 (the signaller) sees it. Player 0 sends one of two signals,
"Signal A" or "Signal B" (the signals have no fixed meaning). Then player 1 (the receiver),
who sees the signal but not the colour, names a colour: "Name Red", "Name Green" or
"Name Blue". If the name is the hidden colour both players get +1, otherwise both get 0;
rewards come with the name, which ends the game. Player 0 observes the colour, its signal
and the name; player 1 observes the signal, its name and, at the end, the colour.
Observations are dicts with keys "color", "signal" and "name" (null when unknown).
Player names: player 0 is "signaller", player 1 is "receiver" ("chance" for chance,
"terminal" at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=0.0, max_utility=1.0, zero_sum=False,
                        outcome="payoff", perfect_information=False, chance=True)

INITIAL_STATE = {"color": None, "signal": None, "name": None, "rewards": [0.0, 0.0]}


def get_current_player(state):
    if state["color"] is None:
        return -1
    if state["signal"] is None:
        return 0
    return 1 if state["name"] is None else -4


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal", 0: "signaller", 1: "receiver"}[player_id]


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -1:
        return [f"Color {c}" for c in COLORS]
    if player == 0:
        return [f"Signal {s}" for s in SIGNALS]
    return [f"Name {c}" for c in COLORS] if player == 1 else []


def get_chance_outcomes(state):
    return [(f"Color {c}", p) for c, p in COLORS.items()]


def apply_action(state, action):
    kind, word = action.split()
    if kind == "Color":
        return {**state, "color": word}
    if kind == "Signal":
        return {**state, "signal": word}
    score = 1.0 if word == state["color"] else 0.0
    return {**state, "name": word, "rewards": [score, score]}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    over = state["name"] is not None
    return [{"color": state["color"], "signal": state["signal"], "name": state["name"]},
            {"color": state["color"] if over else None, "signal": state["signal"],
             "name": state["name"]}]


def resample_history(history, player_id, last_is_terminal=False):
    """The receiver cannot tell the colour before the end: drawn from the prior."""
    obs = history[-1][0]
    color = obs["color"] or random.choices(list(COLORS), weights=list(COLORS.values()))[0]
    actions = [f"Color {color}"]
    if obs["signal"]:
        actions.append(f"Signal {obs['signal']}")
    if obs["name"]:
        actions.append(f"Name {obs['name']}")
    return actions
