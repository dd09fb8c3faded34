"""Bluff dice poker: two hidden dice each, one round of betting, the higher sum wins.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

import random

from ggp.core.protocol import GameMetadata

PARAMETERS = {"ante": 1, "bet": 2}
ANTE, BET = PARAMETERS["ante"], PARAMETERS["bet"]

RULES = f"""Bluff dice poker. Two players each put an ante of {ANTE} chip in the pot. Chance
rolls two six-sided dice for player 0 and then two for player 1 (four chance actions
"Roll k", k from 1 to 6, equally likely); each player sees only its own two dice. Then one
betting round: player 0 says "Bet" (adds {BET} chips) or "Check". After a bet, player 1
says "Call" (adds {BET} chips) or "Fold". After a check, player 1 says "Bet" or "Check";
after player 1's bet, player 0 says "Call" or "Fold". A fold ends the game: the folder
loses what it put in and the other player wins it. Check-check or a called bet leads to
a showdown: the higher total of two dice wins the other player's chips; equal totals are
a tie (0 and 0). Rewards are the chips won or lost (for example +{ANTE + BET} and -{ANTE + BET} after a
called bet), given on the last move. Each player observes its own dice (in the order
rolled), the betting actions so far (a list of action strings) and, after a showdown, both
players' dice as [[player 0's dice], [player 1's dice]] (null otherwise).
Observation keys: "my_dice", "bets", "showdown".
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=-(ANTE + BET), max_utility=ANTE + BET,
                        zero_sum=True, outcome="payoff", perfect_information=False,
                        chance=True)

INITIAL_STATE = {"dice": [], "bets": [], "over": False, "showdown": False,
                 "rewards": [0.0, 0.0]}

NEXT = {(): (0, ["Bet", "Check"]), ("Bet",): (1, ["Call", "Fold"]),
        ("Check",): (1, ["Bet", "Check"]), ("Check", "Bet"): (0, ["Call", "Fold"])}


def get_current_player(state):
    if state["over"]:
        return -4
    if len(state["dice"]) < 4:
        return -1
    return NEXT[tuple(state["bets"])][0]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        return [f"Roll {k}" for k in range(1, 7)]
    return list(NEXT[tuple(state["bets"])][1])


def apply_action(state, action):
    if action.startswith("Roll"):
        return {**state, "dice": state["dice"] + [int(action.split()[1])]}
    player = get_current_player(state)
    bets = state["bets"] + [action]
    if tuple(bets) in NEXT:
        return {**state, "bets": bets, "rewards": [0.0, 0.0]}
    put = [ANTE, ANTE]  # what each player has in the pot
    if "Bet" in bets:
        bettor = bets.index("Bet") % 2
        put[bettor] += BET
        if bets[-1] == "Call":
            put[1 - bettor] += BET
    if action == "Fold":
        rewards = [0.0, 0.0]
        rewards[player], rewards[1 - player] = -float(put[player]), float(put[player])
        return {**state, "bets": bets, "over": True, "rewards": rewards}
    totals = [sum(state["dice"][:2]), sum(state["dice"][2:])]
    stake = float(put[0])
    rewards = [0.0, 0.0] if totals[0] == totals[1] else \
        [stake, -stake] if totals[0] > totals[1] else [-stake, stake]
    return {**state, "bets": bets, "over": True, "showdown": True, "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    dice = state["dice"]
    shown = [dice[:2], dice[2:]] if state["showdown"] else None
    return [{"my_dice": dice[2 * p:2 * p + 2], "bets": state["bets"], "showdown": shown}
            for p in range(2)]


def resample_history(history, player_id, last_is_terminal=False):
    """The opponent's dice are hidden until a showdown: drawn uniformly."""
    obs = history[-1][0]
    if obs["showdown"] is not None:
        dice = obs["showdown"][0] + obs["showdown"][1]
    else:
        other = [random.randint(1, 6), random.randint(1, 6)]
        dice = obs["my_dice"] + other if player_id == 0 else other + obs["my_dice"]
    return [f"Roll {d}" for d in dice] + list(obs["bets"])
