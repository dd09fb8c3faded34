"""Connect four on 6 rows × 7 columns (action names match OpenSpiel's ``connect_four``)."""

from __future__ import annotations

from ggp.core.protocol import TERMINAL, GameMetadata, player_name

RULES = """\
Connect four. Two players share an upright grid of 6 rows and 7 columns that starts empty.
Player 0 plays the mark "x" and moves first; player 1 plays "o"; turns alternate.
On your turn you pick a column that still has an empty cell and drop your mark into it: the
mark falls to the lowest empty cell of that column. A move is written as your mark followed
by the column index, columns numbered 0..6 from left to right: "x3" drops an x into the
middle column, "o0" drops an o into the leftmost column. A full column cannot be chosen.
In the state, "board" lists the rows from the top row (index 0) to the bottom row
(index 5); each row is a list of 7 cells holding ".", "x" or "o". Marks fill a column from
row 5 upwards.
As soon as a player has four of their marks in a straight line (horizontal, vertical or
either diagonal) that player wins and the game ends. If all 42 cells are filled without such
a line, the game is a draw.
Rewards come only at the end: +1 to the winner and -1 to the loser, 0 to both on a draw.
Both players see the whole board at all times.
"""

METADATA = GameMetadata(
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    zero_sum=True,
    outcome="win_loss_draw",
    perfect_information=True,
    chance=False,
    openspiel="connect_four",
    source="seed 000 App. H.2",
)

ROWS, COLS, K = 6, 7, 4  # the win check below is written for K = 4
MARKS = ("x", "o")
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))

INITIAL_STATE = {
    "board": [["."] * COLS for _ in range(ROWS)],
    "current_player": 0,
    "winner": None,
    "rewards": [0.0, 0.0],
}


def get_current_player(state):
    return state["current_player"]


def get_player_name(player_id):
    return player_name(player_id, MARKS)


# Action names and their (player, column), built once: formatting the legal moves and
# checking a move against them (f-strings, a list scan) was half of a search's time here.
ACTION_NAMES = tuple(tuple(f"{mark}{c}" for c in range(COLS)) for mark in MARKS)
_PARSED = {name: (p, c) for p, names in enumerate(ACTION_NAMES) for c, name in enumerate(names)}


def _windows(row, col):
    """Every line of K cells through (row, col) that stays on the board, given as its K - 1
    other cells. A dropped mark is the top of its column, so of the vertical lines only the
    one going down from it can be complete."""
    windows = []
    for dr, dc in DIRECTIONS:
        for k in range(K):  # the new mark is the k-th cell of the line
            if (dr, dc) == (1, 0) and k:
                continue
            cells = [(row + (i - k) * dr, col + (i - k) * dc) for i in range(K)]
            if all(0 <= r < ROWS and 0 <= c < COLS for r, c in cells):
                windows.append(tuple(cell for i, cell in enumerate(cells) if i != k))
    return tuple(windows)


# The win check after a drop tries these windows and stops at the first foreign cell of
# each (measured faster than counting outwards along the four directions).
_WINDOWS = {(r, c): _windows(r, c) for r in range(ROWS) for c in range(COLS)}


# The legal moves of each player by the top row's cells (a column is open while its top
# cell is empty), filled in as top rows are met: a lookup and a copy cost about half of
# building the list.
_LEGAL = ({}, {})


def get_legal_actions(state):
    player = state["current_player"]
    if player == TERMINAL:
        return []
    top = tuple(state["board"][0])
    legal = _LEGAL[player].get(top)
    if legal is None:
        legal = [ACTION_NAMES[player][c] for c in range(COLS) if top[c] == "."]
        _LEGAL[player][top] = legal
    return legal[:]


def apply_action(state, action):
    player = state["current_player"]
    owner, col = _PARSED.get(action, _UNKNOWN)
    board = state["board"]
    if owner != player or board[0][col] != ".":
        raise ValueError(f"illegal action {action!r} for player {player}")
    row = ROWS - 1
    while board[row][col] != ".":
        row -= 1
    board = [r[:] for r in board]
    board[row][col] = MARKS[player]
    if _makes_line(board, row, col):
        rewards = [1.0, -1.0] if player == 0 else [-1.0, 1.0]
        return {"board": board, "current_player": TERMINAL, "winner": player,
                "rewards": rewards}
    return {"board": board, "current_player": TERMINAL if "." not in board[0] else 1 - player,
            "winner": None, "rewards": [0.0, 0.0]}


_UNKNOWN = (None, 0)


def _makes_line(board, row, col):
    """Whether the mark at (row, col) is part of K or more equal marks in a line (each
    window holds the K - 1 = 3 other cells of a line)."""
    mark = board[row][col]
    for (r1, c1), (r2, c2), (r3, c3) in _WINDOWS[row, col]:
        if board[r1][c1] == mark and board[r2][c2] == mark and board[r3][c3] == mark:
            return True
    return False


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [state, state]
