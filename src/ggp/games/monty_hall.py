"""Monty Hall: one contestant against a randomly acting host (seed 001;
shared/research/cards_ismcts.md §1.6; docs/references.md names both)."""

from __future__ import annotations

import random

from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata, player_name

RULES = """\
Monty Hall. One player, the contestant, faces three closed doors numbered 0, 1 and 2.
Before play starts a car is hidden behind one door chosen at random, each door equally
likely, and goats are behind the other two; the contestant does not see where the car is.
First the contestant picks a door, written "pick(d)". The host, who knows where the car
is, then opens one of the two doors the contestant did not pick that has a goat behind
it; when both of them hide goats the host chooses between them at random. The contestant
sees which door was opened. Finally the contestant either keeps the picked door ("stay")
or changes to the one other door that is still closed ("switch"). The game ends: the
contestant scores 1 if the car is behind the final door and 0 otherwise, and the car is
then revealed. The hiding of the car and the host's choice are chance moves, written
"car(d)" and "open(d)".
"""

METADATA = GameMetadata(
    num_players=1,
    min_utility=0.0,
    max_utility=1.0,
    zero_sum=False,
    outcome="payoff",
    perfect_information=False,
    chance=True,
    source="seed 001 (Monty Hall); shared/research/cards_ismcts.md §1.6",
)

DOORS = (0, 1, 2)

INITIAL_STATE = {"car": None, "pick": None, "opened": None, "final": None, "reward": 0.0}


def get_current_player(state):
    if state["car"] is None:
        return CHANCE
    if state["pick"] is None:
        return 0
    if state["opened"] is None:
        return CHANCE
    if state["final"] is None:
        return 0
    return TERMINAL


def get_player_name(player_id):
    return player_name(player_id, ("contestant",))


def _host_doors(state):
    return [d for d in DOORS if d != state["pick"] and d != state["car"]]


def get_legal_actions(state):
    player = get_current_player(state)
    if player == TERMINAL:
        return []
    return [a for a, _ in get_chance_outcomes(state)] if player == CHANCE else _choices(state)


def _choices(state):
    if state["pick"] is None:
        return [f"pick({d})" for d in DOORS]
    return ["stay", "switch"]


def get_chance_outcomes(state):
    if state["car"] is None:
        return [(f"car({d})", 1 / 3) for d in DOORS]
    doors = _host_doors(state)
    return [(f"open({d})", 1 / len(doors)) for d in doors]


def apply_action(state, action):
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r}")
    new = dict(state, reward=0.0)
    if action in ("stay", "switch"):
        other = next(d for d in DOORS if d not in (state["pick"], state["opened"]))
        new["final"] = state["pick"] if action == "stay" else other
        new["reward"] = 1.0 if new["final"] == state["car"] else 0.0
    else:
        field = {"car": "car", "pick": "pick", "open": "opened"}[action.split("(")[0]]
        new[field] = int(action[-2])
    return new


def get_rewards(state):
    return [state["reward"]]


def get_observations(state):
    done = state["final"] is not None
    return [{
        "pick": state["pick"],
        "opened": state["opened"],
        "final": state["final"],
        "car": state["car"] if done else None,  # revealed only when the game is over
    }]


def resample_history(obs_action_history, player_id, last_is_terminal=False):
    """Ground-truth inference: the car's posterior given the pick and the opened door
    (behind the picked door with probability 1/3, behind the other closed door 2/3)."""
    obs = obs_action_history[-1][0]
    if obs["car"] is not None:
        car = obs["car"]
    elif obs["opened"] is None:
        car = random.choice(DOORS)
    else:
        other = next(d for d in DOORS if d not in (obs["pick"], obs["opened"]))
        car = obs["pick"] if random.random() < 1 / 3 else other
    actions = [f"car({car})"]
    if obs["pick"] is not None:
        actions += [f"pick({obs['pick']})", f"open({obs['opened']})"]
    if obs["final"] is not None:
        actions.append(obs_action_history[-2][1])  # the last entry is the terminal view
    return actions
