"""Ember duel: two players secretly commit embers from a small stock over three rounds.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

import random

from ggp.core.protocol import GameMetadata

PARAMETERS = {"embers": 5, "rounds": 3}
EMBERS, ROUNDS = PARAMETERS["embers"], PARAMETERS["rounds"]

RULES = f"""Ember duel. Two players (player 0 and player 1) each start with {EMBERS} embers.
The game has {ROUNDS} rounds. In each round both players secretly commit some of the embers
they still have: player 0 chooses first, then player 1 chooses without knowing player 0's
choice (actions "Commit 0", "Commit 1", ... up to the embers the player has left). Then
both commitments are revealed and spent (they are lost whatever happens). The higher
commitment wins the round; equal commitments mean nobody wins it. After round {ROUNDS} the
player who won more rounds gets reward +1 and the other -1; equal counts are a draw (0 and
0). Rewards are given on the last move only; every other reward is 0. Each player observes
the round number, its own embers left, its own pending commitment (player 0 while player 1
is choosing), and the public list of finished rounds as [commit of player 0, commit of
player 1, winner] where winner is 0, 1 or null, plus the rounds won by each player.
Observation keys: "round" (1 to 3; it stays 3 after the last round), "my_embers",
"my_pending" (null when none), "rounds", "wins".
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=False,
                        simultaneous=True)

INITIAL_STATE = {"embers": [EMBERS, EMBERS], "pending": None, "rounds": [], "wins": [0, 0],
                 "rewards": [0.0, 0.0]}


def get_current_player(state):
    if len(state["rounds"]) == ROUNDS:
        return -4
    return 0 if state["pending"] is None else 1


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player < 0:
        return []
    return [f"Commit {k}" for k in range(state["embers"][player] + 1)]


def apply_action(state, action):
    amount = int(action.split()[1])
    if state["pending"] is None:
        return {**state, "pending": amount, "rewards": [0.0, 0.0]}
    first = state["pending"]
    winner = 0 if first > amount else 1 if amount > first else None
    wins = list(state["wins"])
    if winner is not None:
        wins[winner] += 1
    rounds = state["rounds"] + [[first, amount, winner]]
    rewards = [0.0, 0.0]
    if len(rounds) == ROUNDS and wins[0] != wins[1]:
        rewards = [1.0, -1.0] if wins[0] > wins[1] else [-1.0, 1.0]
    return {"embers": [state["embers"][0] - first, state["embers"][1] - amount],
            "pending": None, "rounds": rounds, "wins": wins, "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [{"round": min(len(state["rounds"]) + 1, ROUNDS), "my_embers": state["embers"][p],
             "my_pending": state["pending"] if p == 0 else None,
             "rounds": state["rounds"], "wins": state["wins"]} for p in (0, 1)]


def resample_history(history, player_id, last_is_terminal=False):
    """Finished rounds are public; only player 0's pending commitment is hidden (from
    player 1, while it chooses): drawn uniformly from what player 0 could commit."""
    obs = history[-1][0]
    actions = [f"Commit {c}" for first, second, _ in obs["rounds"] for c in (first, second)]
    if player_id == 1 and not last_is_terminal:
        left = EMBERS - sum(first for first, _, _ in obs["rounds"])
        actions.append(f"Commit {random.randint(0, left)}")
    return actions
