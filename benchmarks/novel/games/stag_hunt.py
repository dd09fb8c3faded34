"""Stag hunt rounds: five rounds of a secret stag-or-hare choice; payoffs are not zero-sum.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

import random

from ggp.core.protocol import GameMetadata

PARAMETERS = {"rounds": 5, "both_stag": 4, "lone_hare": 3, "both_hare": 2, "lone_stag": 0}
ROUNDS = PARAMETERS["rounds"]
PAY = {("Stag", "Stag"): (4, 4), ("Stag", "Hare"): (0, 3), ("Hare", "Stag"): (3, 0),
       ("Hare", "Hare"): (2, 2)}

RULES = f"""Stag hunt rounds. Two hunters play {ROUNDS} rounds. In each round both choose "Stag"
or "Hare" in secret: player 0 first, then player 1 without knowing player 0's choice. Then
both choices are revealed and each player gets this round's reward: both Stag: 4 each;
both Hare: 2 each; one Stag and one Hare: the Stag hunter gets 0 and the Hare hunter 3. The
reward is given on player 1's move that ends the round (0 on every other move). Each
player's score is its total over the rounds and each wants only its own score to be high
(not zero-sum). Each player observes the finished rounds as [choice of player 0, choice of
player 1] and its own pending choice (player 0 while player 1 chooses; else null).
Observation keys: "rounds", "my_pending" (null when none).
Player names: player 0 is "hunter 0", player 1 is "hunter 1" ("chance" for chance,
"terminal" at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=0.0, max_utility=4.0 * ROUNDS,
                        zero_sum=False, outcome="payoff", perfect_information=False,
                        simultaneous=True)

INITIAL_STATE = {"rounds": [], "pending": None, "rewards": [0.0, 0.0]}


def get_current_player(state):
    if len(state["rounds"]) == ROUNDS:
        return -4
    return 0 if state["pending"] is None else 1


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"hunter {player_id}")


def get_legal_actions(state):
    return [] if len(state["rounds"]) == ROUNDS else ["Stag", "Hare"]


def apply_action(state, action):
    if state["pending"] is None:
        return {**state, "pending": action, "rewards": [0.0, 0.0]}
    pair = (state["pending"], action)
    return {"rounds": state["rounds"] + [list(pair)], "pending": None,
            "rewards": [float(x) for x in PAY[pair]]}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [{"rounds": state["rounds"], "my_pending": state["pending"] if p == 0 else None}
            for p in range(2)]


def resample_history(history, player_id, last_is_terminal=False):
    """Finished rounds are public; player 0's pending choice (hidden from player 1 while
    it chooses) is drawn uniformly."""
    obs = history[-1][0]
    actions = [choice for pair in obs["rounds"] for choice in pair]
    if player_id == 1 and not last_is_terminal:
        actions.append(random.choice(["Stag", "Hare"]))
    return actions
