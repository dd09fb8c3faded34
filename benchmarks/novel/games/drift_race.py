"""Drift race: three boats row steadily or sail on an uneven wind down a long river.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

from ggp.core.protocol import GameMetadata

PARAMETERS = {"river": 80, "max_turns": 400, "wind": {"Wind 0": 0.4, "Wind 2": 0.4, "Wind 5": 0.2}}
RIVER, MAX_TURNS, WIND = PARAMETERS["river"], PARAMETERS["max_turns"], PARAMETERS["wind"]

RULES = f"""Drift race. Three boats (players 0, 1, 2) start at mile 0 of a river; the finish
is mile {RIVER}. Players take turns in order 0, 1, 2, 0, ... On its turn a player chooses
"Row" (move 1 mile) or "Sail". After "Sail" chance sets the wind: "Wind 0" (no move) with
probability 0.4, "Wind 2" (2 miles) with probability 0.4, "Wind 5" (5 miles) with
probability 0.2; the boat moves that far. The first boat to reach mile {RIVER} or beyond wins:
it gets +2 and each other boat -1, and the game ends. If {MAX_TURNS} turns were taken without a
winner (a turn is a Row, or a Sail with its wind), the game ends with 0 for everybody.
Rewards come only on the last move. Everybody sees the whole state: the miles of the three
boats, whose turn it is, the number of turns taken and whether a sail awaits the wind.
Player names: player 0 is "boat 0", player 1 is "boat 1", player 2 is "boat 2" ("chance"
for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=3, min_utility=-1.0, max_utility=2.0, zero_sum=True,
                        outcome="payoff", perfect_information=True, chance=True)

INITIAL_STATE = {"miles": [0, 0, 0], "turn": 0, "turns": 0, "sailing": False, "over": False,
                 "rewards": [0.0, 0.0, 0.0]}


def get_current_player(state):
    if state["over"]:
        return -4
    return -1 if state["sailing"] else state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"boat {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    return [] if player == -4 else list(WIND) if player == -1 else ["Row", "Sail"]


def get_chance_outcomes(state):
    return list(WIND.items())


def apply_action(state, action):
    if action == "Sail":
        return {**state, "sailing": True, "rewards": [0.0, 0.0, 0.0]}
    me = state["turn"]
    miles = list(state["miles"])
    miles[me] += 1 if action == "Row" else int(action.split()[1])
    turns = state["turns"] + 1
    rewards, over = [0.0, 0.0, 0.0], turns == MAX_TURNS
    if miles[me] >= RIVER:
        over, rewards = True, [2.0 if p == me else -1.0 for p in range(3)]
    return {"miles": miles, "turn": (me + 1) % 3, "turns": turns, "sailing": False,
            "over": over, "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [dict(state) for _ in range(3)]
