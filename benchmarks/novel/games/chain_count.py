"""Chain count: four players count up to 31; adding three twice in a row is forbidden.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

from ggp.core.protocol import GameMetadata

PARAMETERS = {"players": 4, "limit": 31}
N, LIMIT = PARAMETERS["players"], PARAMETERS["limit"]

RULES = f"""Chain count. {N} players (0 to {N - 1}) share a count that starts at 0 and take turns
in order 0, 1, 2, 3, 0, ... On a turn a player adds 1, 2 or 3 to the count ("Add 1",
"Add 2", "Add 3"), but never goes above {LIMIT}, and may not add 3 if the previous player
added 3. The player who brings the count to exactly {LIMIT} loses: it gets -{N - 1} and every
other player +1, and the game ends. Rewards come only on the last move. Everybody sees the
whole state: the count, whose turn it is and what the previous player added (0 at the
start).
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=N, min_utility=-(N - 1.0), max_utility=1.0, zero_sum=True,
                        outcome="payoff", perfect_information=True)

INITIAL_STATE = {"count": 0, "turn": 0, "last": 0, "rewards": [0.0] * N}


def get_current_player(state):
    return -4 if state["count"] == LIMIT else state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    if state["count"] == LIMIT:
        return []
    return [f"Add {k}" for k in (1, 2, 3)
            if state["count"] + k <= LIMIT and not (k == 3 and state["last"] == 3)]


def apply_action(state, action):
    k = int(action.split()[1])
    count, me = state["count"] + k, state["turn"]
    rewards = [0.0] * N
    if count == LIMIT:
        rewards = [1.0] * N
        rewards[me] = -(N - 1.0)
    return {"count": count, "turn": (me + 1) % N, "last": k, "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [dict(state) for _ in range(N)]
