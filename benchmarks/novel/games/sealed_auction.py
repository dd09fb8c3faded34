"""Sealed auction: three bidders with fixed budgets bid secretly for three lots.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

import random

from ggp.core.protocol import GameMetadata

PARAMETERS = {"budget": 10, "lots": [6, 4, 8]}
BUDGET, LOTS = PARAMETERS["budget"], PARAMETERS["lots"]

RULES = f"""Sealed auction. Three players (0, 1, 2) each have a budget of {BUDGET} coins.
Three lots are sold one after the other; their values are {LOTS[0]}, {LOTS[1]} and {LOTS[2]}
(in that order) and are the same for everybody. For each lot, the players bid in secret:
player 0, then player 1, then player 2, each without knowing the earlier bids of this lot
(actions "Bid 0" .. "Bid B" where B is the coins the player has left). Then the bids are
revealed. The single highest bidder wins the lot and pays its bid; if two or more players
share the highest bid, nobody gets the lot and nobody pays. When all lots are sold, each
player's reward is the total value of the lots it won minus the coins it paid (so a player
who wins nothing scores 0). Rewards are given on the last bid only; every other reward is 0.
Each player observes its own coins left, its own pending bid of the current lot (if it has
already bid), the index of the current lot (0, 1, 2; 3 at the end), and the public results
of finished lots as {{"bids": [b0, b1, b2], "winner": player or null}}. This is not a
zero-sum game.
Observation keys: "my_coins", "lot", "my_pending_bid" (null when none), "results".
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=3, min_utility=-6.0, max_utility=15.0, zero_sum=False,
                        outcome="payoff", perfect_information=False, simultaneous=True)

INITIAL_STATE = {"coins": [BUDGET] * 3, "bids": [], "results": [], "score": [0, 0, 0],
                 "rewards": [0.0, 0.0, 0.0]}


def get_current_player(state):
    return -4 if len(state["results"]) == len(LOTS) else len(state["bids"])


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    return [] if player < 0 else [f"Bid {k}" for k in range(state["coins"][player] + 1)]


def apply_action(state, action):
    bids = state["bids"] + [int(action.split()[1])]
    if len(bids) < 3:
        return {**state, "bids": bids, "rewards": [0.0, 0.0, 0.0]}
    lot = LOTS[len(state["results"])]
    top = max(bids)
    winner = bids.index(top) if bids.count(top) == 1 else None
    coins, score = list(state["coins"]), list(state["score"])
    if winner is not None:
        coins[winner] -= top
        score[winner] += lot - top
    results = state["results"] + [{"bids": bids, "winner": winner}]
    done = len(results) == len(LOTS)
    return {"coins": coins, "bids": [], "results": results, "score": score,
            "rewards": [float(s) for s in score] if done else [0.0, 0.0, 0.0]}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [{"my_coins": state["coins"][p], "lot": len(state["results"]),
             "my_pending_bid": state["bids"][p] if p < len(state["bids"]) else None,
             "results": state["results"]} for p in range(3)]


def resample_history(history, player_id, last_is_terminal=False):
    """Finished lots are public; the pending bids of the earlier bidders of the current
    lot are drawn uniformly from what each could bid."""
    obs = history[-1][0]
    actions = [f"Bid {b}" for result in obs["results"] for b in result["bids"]]
    if not last_is_terminal:
        for other in range(player_id):
            paid = sum(r["bids"][other] for r in obs["results"] if r["winner"] == other)
            actions.append(f"Bid {random.randint(0, BUDGET - paid)}")
    return actions
