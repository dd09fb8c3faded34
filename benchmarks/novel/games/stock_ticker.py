"""Stock ticker: two traders buy and sell one share a day on a lopsided random price.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

from ggp.core.protocol import GameMetadata

PARAMETERS = {"cash": 20, "price": 10, "days": 6,
              "moves": {"Up 2": 0.35, "Flat": 0.4, "Down 3": 0.25}}
CASH, PRICE, DAYS, MOVES = (PARAMETERS[k] for k in ("cash", "price", "days", "moves"))
STEP = {"Up 2": 2, "Flat": 0, "Down 3": -3}

RULES = f"""Stock ticker. Two traders each start with {CASH} cash and no shares; one share costs
{PRICE} at the start. The game lasts {DAYS} days. Each day trader 0 and then trader 1 choose
"Buy" (pay the current price for one share; only with at least that much cash), "Sell"
(get the current price for one share; only with a share) or "Hold". Both see each other's
trades. Then chance moves the price: "Up 2" (+2) with probability 0.35, "Flat" (no change)
with probability 0.4, "Down 3" (-3) with probability 0.25; the price never goes below 1.
After the price move of day {DAYS} the game ends and each trader's reward is its cash plus its
shares times the final price, minus the {CASH} it started with (0 on every earlier move).
The traders do not play against each other: each only wants its own result high (not
zero-sum). Both see the whole state: the day (1..{DAYS}), the price, both traders' cash and
shares, and whose turn it is ("chance" when the price is about to move).
Player names: player 0 is "trader 0", player 1 is "trader 1" ("chance" for chance,
"terminal" at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=-float(CASH), max_utility=130.0,
                        zero_sum=False, outcome="payoff", perfect_information=True,
                        chance=True)

INITIAL_STATE = {"day": 1, "price": PRICE, "cash": [CASH, CASH], "shares": [0, 0], "turn": 0,
                 "over": False, "rewards": [0.0, 0.0]}


def get_current_player(state):
    if state["over"]:
        return -4
    return -1 if state["turn"] == "chance" else state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"trader {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        return list(MOVES)
    actions = ["Hold"]
    if state["cash"][player] >= state["price"]:
        actions.append("Buy")
    if state["shares"][player] > 0:
        actions.append("Sell")
    return actions


def get_chance_outcomes(state):
    return list(MOVES.items())


def apply_action(state, action):
    if action in MOVES:
        price = max(1, state["price"] + STEP[action])
        over = state["day"] == DAYS
        rewards = [float(state["cash"][p] + state["shares"][p] * price - CASH)
                   for p in range(2)] if over else [0.0, 0.0]
        return {**state, "price": price, "day": state["day"] + (not over), "turn": 0,
                "over": over, "rewards": rewards}
    me = state["turn"]
    cash, shares = list(state["cash"]), list(state["shares"])
    if action == "Buy":
        cash[me] -= state["price"]
        shares[me] += 1
    elif action == "Sell":
        cash[me] += state["price"]
        shares[me] -= 1
    return {**state, "cash": cash, "shares": shares, "turn": 1 if me == 0 else "chance",
            "rewards": [0.0, 0.0]}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [dict(state), dict(state)]
