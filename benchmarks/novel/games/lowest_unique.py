"""Lowest unique number: three players secretly pick numbers from 1 to 120.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

import random

from ggp.core.protocol import GameMetadata

PARAMETERS = {"highest": 120}
HIGHEST = PARAMETERS["highest"]

RULES = f"""Lowest unique number. Three players (0, 1, 2) each pick a whole number from 1 to
{HIGHEST} in secret: player 0 first, then player 1, then player 2, each without knowing the
earlier picks (actions "Pick 1" .. "Pick {HIGHEST}"). Then all picks are revealed and the game
ends. A number is unique when exactly one player picked it. The player with the lowest
unique number wins: it gets reward +2 and each other player -1. If no number is unique
(for example all three picked the same number), every player gets 0. Rewards are given on
the last pick. Each player observes its own pick (null before it picks) and, once the game
is over, the list of all three picks (null before).
Observation keys: "my_pick", "all_picks".
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=3, min_utility=-1.0, max_utility=2.0, zero_sum=True,
                        outcome="payoff", perfect_information=False, simultaneous=True)

INITIAL_STATE = {"picks": [], "rewards": [0.0, 0.0, 0.0]}


def get_current_player(state):
    return -4 if len(state["picks"]) == 3 else len(state["picks"])


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    if len(state["picks"]) == 3:
        return []
    return [f"Pick {k}" for k in range(1, HIGHEST + 1)]


def apply_action(state, action):
    picks = state["picks"] + [int(action.split()[1])]
    rewards = [0.0, 0.0, 0.0]
    if len(picks) == 3:
        unique = [n for n in picks if picks.count(n) == 1]
        if unique:
            winner = picks.index(min(unique))
            rewards = [2.0 if p == winner else -1.0 for p in range(3)]
    return {"picks": picks, "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    done = len(state["picks"]) == 3
    return [{"my_pick": state["picks"][p] if p < len(state["picks"]) else None,
             "all_picks": state["picks"] if done else None} for p in range(3)]


def resample_history(history, player_id, last_is_terminal=False):
    """Earlier players' picks are hidden until the end: drawn uniformly."""
    obs = history[-1][0]
    if obs["all_picks"] is not None:
        return [f"Pick {n}" for n in obs["all_picks"]]
    return [f"Pick {random.randint(1, HIGHEST)}" for _ in range(player_id)]
