"""Square claim: place stones on an 11x11 board and score every 2x2 square of your own.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

from ggp.core.protocol import GameMetadata

PARAMETERS = {"size": 11, "placements": 30}
SIZE, PLACEMENTS = PARAMETERS["size"], PARAMETERS["placements"]

RULES = f"""Square claim. Two players and an empty {SIZE}x{SIZE} board; cells are (row, column)
with rows and columns numbered 0 to {SIZE - 1}. Players alternate, player 0 first; on a turn a
player puts one of its stones on any empty cell (action "Place r,c", for example
"Place 3,10"). A player scores one point for every 2x2 block of four cells, all holding
its own stones, that its new stone completes (one stone can complete up to four blocks).
After {PLACEMENTS} stones in total the game ends: more points wins (+1, the other -1), equal
points are a draw (0 and 0). Rewards come only on the last move. Both players see the whole
state: the board as {SIZE} strings of {SIZE} characters ('.' empty, '0' and '1' the players'
stones), both scores, whose turn it is and the number of stones placed.
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=True)

INITIAL_STATE = {"board": ["." * SIZE] * SIZE, "points": [0, 0], "turn": 0, "placed": 0,
                 "rewards": [0.0, 0.0]}


def get_current_player(state):
    return -4 if state["placed"] == PLACEMENTS else state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    if state["placed"] == PLACEMENTS:
        return []
    return [f"Place {r},{c}" for r in range(SIZE) for c in range(SIZE)
            if state["board"][r][c] == "."]


def apply_action(state, action):
    r, c = (int(x) for x in action.split()[1].split(","))
    me = state["turn"]
    board = list(state["board"])
    board[r] = board[r][:c] + str(me) + board[r][c + 1:]
    new = 0
    for top in (r - 1, r):
        for left in (c - 1, c):
            if 0 <= top < SIZE - 1 and 0 <= left < SIZE - 1 and all(
                    board[top + i][left + j] == str(me) for i in (0, 1) for j in (0, 1)):
                new += 1
    points = list(state["points"])
    points[me] += new
    placed = state["placed"] + 1
    rewards = [0.0, 0.0]
    if placed == PLACEMENTS and points[0] != points[1]:
        rewards = [1.0, -1.0] if points[0] > points[1] else [-1.0, 1.0]
    return {"board": board, "points": points, "turn": 1 - me, "placed": placed,
            "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [dict(state), dict(state)]
