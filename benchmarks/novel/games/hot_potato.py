"""Hot potato: five players pass a potato whose chance of bursting grows with every pass.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

from ggp.core.protocol import GameMetadata

PARAMETERS = {"players": 5, "fuse": 10}
N, FUSE = PARAMETERS["players"], PARAMETERS["fuse"]
PASSES = {"Left": 1, "Right": -1, "Across": 2}

RULES = f"""Hot potato. {N} players (0 to {N - 1}) sit in a circle; player 0 holds the potato.
The holder must pass it: "Left" to the next player (number + 1), "Right" to the previous one
(number - 1), or "Across" to the player two seats on (number + 2), always counting around
the circle (after {N - 1} comes 0). After the k-th pass of the game, chance decides whether the
potato bursts in the hands of the player who just received it: "Burst" with probability
k/{FUSE} and "Safe" with probability 1 - k/{FUSE} (so the {FUSE}th pass always bursts). On a
burst the game ends: the player holding it gets -{N - 1} and every other player +1. On "Safe"
the new holder passes next. Rewards come only on the last move. Everybody sees the whole
state: the holder, the number of passes so far and whether a pass awaits chance.
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=N, min_utility=-(N - 1.0), max_utility=1.0, zero_sum=True,
                        outcome="payoff", perfect_information=True, chance=True)

INITIAL_STATE = {"holder": 0, "passes": 0, "waiting": False, "burst": False,
                 "rewards": [0.0] * N}


def get_current_player(state):
    if state["burst"]:
        return -4
    return -1 if state["waiting"] else state["holder"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -1:
        return [action for action, _ in get_chance_outcomes(state)]
    return [] if player == -4 else list(PASSES)


def get_chance_outcomes(state):
    burst = state["passes"] / FUSE
    return [(a, p) for a, p in (("Burst", burst), ("Safe", 1 - burst)) if p > 0]


def apply_action(state, action):
    if action in PASSES:
        return {**state, "holder": (state["holder"] + PASSES[action]) % N,
                "passes": state["passes"] + 1, "waiting": True, "rewards": [0.0] * N}
    if action == "Safe":
        return {**state, "waiting": False}
    rewards = [1.0] * N
    rewards[state["holder"]] = -(N - 1.0)
    return {**state, "waiting": False, "burst": True, "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [dict(state) for _ in range(N)]
