MARKS = ("x", "o")
LINES = (
    [(0, 0), (0, 1), (0, 2)], [(1, 0), (1, 1), (1, 2)], [(2, 0), (2, 1), (2, 2)],
    [(0, 0), (1, 0), (2, 0)], [(0, 1), (1, 1), (2, 1)], [(0, 2), (1, 2), (2, 2)],
    [(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)],
)

INITIAL_STATE = {
    "board": [[".", ".", "."], [".", ".", "."], [".", ".", "."]],
    "current_player": 0,
    "winner": None,
    "rewards": [0.0, 0.0],
}


def get_current_player(state):
    return state["current_player"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal", 0: "x", 1: "o"}.get(player_id, "")


def get_legal_actions(state):
    if state["current_player"] == -4:
        return []
    mark = MARKS[state["current_player"]]
    return [f"{mark}({r},{c})" for r in range(3) for c in range(3)
            if state["board"][r][c] == "."]


def has_line(board, mark):
    return any(all(board[r][c] == mark for r, c in line) for line in LINES)


def apply_action(state, action):
    player = state["current_player"]
    mark = MARKS[player]
    r, c = (int(x) for x in action[2:-1].split(","))
    board = [row[:] for row in state["board"]]
    board[r][c] = mark
    new = {"board": board, "current_player": 1 - player, "winner": None,
           "rewards": [0.0, 0.0]}
    if has_line(board, mark):
        new["winner"] = player
        new["rewards"] = [1.0, -1.0] if player == 0 else [-1.0, 1.0]
    elif all(cell != "." for row in board for cell in row):
        new["current_player"] = -4
    return new


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [state, state]