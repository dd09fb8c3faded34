"""Tic-tac-toe on a 3×3 board (action names match OpenSpiel's ``tic_tac_toe``)."""

from __future__ import annotations

from ggp.core.protocol import TERMINAL, GameMetadata, player_name

RULES = """\
Tic-tac-toe. Two players take turns on an empty 3x3 grid; player 0 marks "x" and moves
first, player 1 marks "o". On your turn you write your mark in any empty cell. Cells are
named by (row, column) with rows and columns numbered 0..2 from the top-left corner, and a
move is written as the mark followed by the cell, e.g. "x(1,2)" or "o(0,0)".
The first player to have three of their marks in one row, one column or one of the two
diagonals wins and the game ends at once. If all nine cells are filled and nobody has three
in a line, the game is a draw.
Rewards are given only when the game ends: +1 to the winner and -1 to the loser, 0 to both
on a draw. Both players see the whole board at all times.
"""

METADATA = GameMetadata(
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    zero_sum=True,
    outcome="win_loss_draw",
    perfect_information=True,
    chance=False,
    openspiel="tic_tac_toe",
    source="seed 000 App. H",
)

MARKS = ("x", "o")
LINES = tuple(
    [[(r, c) for c in range(3)] for r in range(3)]
    + [[(r, c) for r in range(3)] for c in range(3)]
    + [[(i, i) for i in range(3)], [(i, 2 - i) for i in range(3)]]
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
    return player_name(player_id, MARKS)


# Move names and their (player, row, column), built once, and for each cell the lines
# through it: a search spent most of its time in this module formatting and parsing move
# strings and testing all eight lines with generators after every move.
CELLS = tuple((r, c) for r in range(3) for c in range(3))
ACTION_NAMES = tuple(tuple(f"{mark}({r},{c})" for r, c in CELLS) for mark in MARKS)
_PARSED = {name: (p, r, c) for p, names in enumerate(ACTION_NAMES)
           for name, (r, c) in zip(names, CELLS)}
_LINES_THROUGH = {cell: tuple(tuple(other for other in line if other != cell)
                              for line in LINES if cell in line)
                  for cell in CELLS}


def get_legal_actions(state):
    player = state["current_player"]
    if player == TERMINAL:
        return []
    names = ACTION_NAMES[player]
    board = state["board"]
    return [names[i] for i, (r, c) in enumerate(CELLS) if board[r][c] == "."]


def apply_action(state, action):
    player = state["current_player"]
    parsed = _PARSED.get(action)
    if parsed is None or parsed[0] != player:
        raise ValueError(f"illegal action {action!r} for player {player}")
    _, r, c = parsed
    if state["board"][r][c] != ".":
        raise ValueError(f"cell ({r},{c}) is taken")
    mark = MARKS[player]
    board = [row[:] for row in state["board"]]
    board[r][c] = mark
    new = {"board": board, "current_player": 1 - player, "winner": None, "rewards": [0.0, 0.0]}
    for (r1, c1), (r2, c2) in _LINES_THROUGH[r, c]:
        if board[r1][c1] == mark and board[r2][c2] == mark:
            new["winner"] = player
            new["current_player"] = TERMINAL
            new["rewards"] = [1.0, -1.0] if player == 0 else [-1.0, 1.0]
            return new
    if "." not in board[0] and "." not in board[1] and "." not in board[2]:
        new["current_player"] = TERMINAL
    return new


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [state, state]
