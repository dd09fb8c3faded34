"""Connect four on 6 rows × 7 columns (action names match OpenSpiel's ``connect_four``)."""

from __future__ import annotations

from ggp.core.protocol import TERMINAL, GameMetadata

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

ROWS, COLS, K = 6, 7, 4
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
    return {-1: "chance", -4: "terminal", 0: "x", 1: "o"}.get(player_id, "")


# Action names and their (player, column), built once: formatting the legal moves and
# checking a move against them (f-strings, a list scan) was half of a search's time here.
ACTION_NAMES = tuple(tuple(f"{mark}{c}" for c in range(COLS)) for mark in MARKS)
_PARSED = {name: (p, c) for p, names in enumerate(ACTION_NAMES) for c, name in enumerate(names)}
# For each cell, every line of K cells through it that stays on the board, given as its
# K - 1 other cells: the win check after a drop tries these windows and stops at the first
# foreign cell of each (measured faster than counting outwards along the four directions).
_WINDOWS = {
    (r, c): tuple(
        tuple((r + (i - k) * dr, c + (i - k) * dc) for i in range(K) if i != k)
        for dr, dc in DIRECTIONS
        for k in range(K)
        if all(0 <= r + (i - k) * dr < ROWS and 0 <= c + (i - k) * dc < COLS for i in range(K))
    )
    for r in range(ROWS)
    for c in range(COLS)
}


def get_legal_actions(state):
    player = state["current_player"]
    if player == TERMINAL:
        return []
    names = ACTION_NAMES[player]
    top_row = state["board"][0]
    return [names[c] for c in range(COLS) if top_row[c] == "."]


def apply_action(state, action):
    player = state["current_player"]
    owner, col = _PARSED.get(action, (None, 0))
    board = state["board"]
    if owner != player or board[0][col] != ".":
        raise ValueError(f"illegal action {action!r} for player {player}")
    mark = MARKS[player]
    row = ROWS - 1
    while board[row][col] != ".":
        row -= 1
    board = [r[:] for r in board]
    board[row][col] = mark
    new = {"board": board, "current_player": 1 - player, "winner": None, "rewards": [0.0, 0.0]}
    if _makes_line(board, row, col):
        new["winner"] = player
        new["current_player"] = TERMINAL
        new["rewards"] = [1.0, -1.0] if player == 0 else [-1.0, 1.0]
    elif "." not in board[0]:
        new["current_player"] = TERMINAL
    return new


def _makes_line(board, row, col):
    """Whether the mark at (row, col) is part of K or more equal marks in a line."""
    mark = board[row][col]
    for others in _WINDOWS[row, col]:
        for r, c in others:
            if board[r][c] != mark:
                break
        else:
            return True
    return False


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [state, state]
