"""Stone mill: a long take-away game that scores every time the pile hits a multiple of ten.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

from ggp.core.protocol import GameMetadata

PARAMETERS = {"stones": 360, "mark": 10, "last_bonus": 2}
STONES, MARK, BONUS = PARAMETERS["stones"], PARAMETERS["mark"], PARAMETERS["last_bonus"]

RULES = f"""Stone mill. Two players share one pile of {STONES} stones and alternate turns, player
0 first. On a turn a player takes 1 or 2 stones ("Take 1", "Take 2"; never more than are
left). A player whose take leaves the pile at a multiple of {MARK} (including 0) scores one
point; the player who takes the last stone scores {BONUS} more points. When the pile is
empty the game ends: the player with more points wins (+1, the other -1), and equal points
are a draw (0 and 0). Rewards come only on the last move. Both players see the whole
state: the pile, both scores and whose turn it is.
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=True)

INITIAL_STATE = {"pile": STONES, "points": [0, 0], "turn": 0, "rewards": [0.0, 0.0]}


def get_current_player(state):
    return -4 if state["pile"] == 0 else state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    return [f"Take {k}" for k in (1, 2) if k <= state["pile"]]


def apply_action(state, action):
    me = state["turn"]
    pile = state["pile"] - int(action.split()[1])
    points = list(state["points"])
    if pile % MARK == 0:
        points[me] += 1
    rewards = [0.0, 0.0]
    if pile == 0:
        points[me] += BONUS
        if points[0] != points[1]:
            rewards = [1.0, -1.0] if points[0] > points[1] else [-1.0, 1.0]
    return {"pile": pile, "points": points, "turn": 1 - me, "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [dict(state), dict(state)]
