"""Generalized chess, variant "army5x5a" (seed 000 App. H.5).

The appendix gives the board (5x5, rows A-E from the top, columns 1-5 from the left), the
three piece kinds and their move offsets, the notation ("A2_to_C2", "PASS") and the goal
(capture the enemy general). It does not give the starting position, how player 1 reads the
offsets, or a length limit, so this model fixes them (stated in ``RULES``): player 0 starts
at the top and uses the offsets as (row step down, column step right); player 1 starts at
the bottom with the same army turned half a turn and uses the offsets with both signs
flipped; the game is a draw after 100 plies without a captured general.
"""

from __future__ import annotations

from ggp.core.protocol import TERMINAL, GameMetadata, player_name

SIZE = 5
ROWS = "ABCDE"
MAX_PLIES = 100
OFFSETS = {  # as listed in the appendix, for player 0: (row change, column change)
    "X": ((1, 0), (-1, 0), (0, 1), (0, -1), (0, -2), (0, 2)),  # general
    "I": ((1, 0), (2, 0), (1, -1), (1, 1), (-1, 0)),  # infantry
    "V": ((0, 3), (1, 2), (2, 1), (3, 0)),  # cavalry
}
START = (
    "V.X.V",
    ".III.",
    ".....",
    ".iii.",
    "v.x.v",
)

RULES = f"""\
Generalized chess, variant army5x5a, for two players on a 5x5 board. Rows are labelled A to
E from top to bottom and columns 1 to 5 from left to right, so a square is named like "C4".
Each player has an army of three kinds of pieces: the general (symbol X), infantry (I) and
cavalry (V). Player 0's pieces are upper-case (X, I, V) and player 1's are lower-case
(x, i, v). Empty squares are shown as ".".

Starting position (row A at the top):
  A: {START[0]}
  B: {START[1]}
  C: {START[2]}
  D: {START[3]}
  E: {START[4]}
Player 0 moves first; then the players alternate.

Moves. A piece jumps directly from its square to a target square given by one of its move
offsets (dr, dc): dr rows down (towards E) and dc columns to the right (towards 5); other
pieces in between do not block it. The offsets are, for player 0:
  general  X: (1,0) (-1,0) (0,1) (0,-1) (0,-2) (0,2)
  infantry I: (1,0) (2,0) (1,-1) (1,1) (-1,0)
  cavalry  V: (0,3) (1,2) (2,1) (3,0)
Player 1 uses the same offsets with both signs flipped (its army faces the other way): for
example its infantry moves one or two rows up, diagonally one row up, or one row down, and
its cavalry jumps up and to the left. A move must end on the board and not on a square
holding one of the mover's own pieces. Moving onto an enemy piece captures it (it is removed
from the board). A move is written start square, "_to_", target square, e.g. "A2_to_C2".
Instead of moving, a player may always pass its turn with "PASS".

End. Capturing the enemy general wins at once: the winner gets +1 and the loser -1. If
{MAX_PLIES} turns in total (moves and passes of both players) have been played without a
general being captured, the game is a draw and both get 0. Both players see the whole
board at all times.
"""

METADATA = GameMetadata(
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    zero_sum=True,
    outcome="win_loss_draw",
    perfect_information=True,
    chance=False,
    openspiel=None,
    source="seed 000 App. H.5 (start position, player 1's offsets and ply limit fixed here)",
)

INITIAL_STATE = {
    "board": [list(row) for row in START],
    "current_player": 0,
    "ply": 0,
    "winner": None,
    "rewards": [0.0, 0.0],
}


def get_current_player(state):
    return state["current_player"]


def get_player_name(player_id):
    return player_name(player_id)


def get_legal_actions(state):
    player = state["current_player"]
    if player == TERMINAL:
        return []
    board = state["board"]
    sign = 1 if player == 0 else -1
    actions = []
    for r in range(SIZE):
        for c in range(SIZE):
            piece = board[r][c]
            if piece == "." or _owner(piece) != player:
                continue
            for dr, dc in OFFSETS[piece.upper()]:
                tr, tc = r + sign * dr, c + sign * dc
                if 0 <= tr < SIZE and 0 <= tc < SIZE and _owner(board[tr][tc]) != player:
                    actions.append(f"{_square(r, c)}_to_{_square(tr, tc)}")
    return actions + ["PASS"]


def apply_action(state, action):
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r}")
    player = state["current_player"]
    board = [row[:] for row in state["board"]]
    new = {"board": board, "current_player": 1 - player, "ply": state["ply"] + 1,
           "winner": None, "rewards": [0.0, 0.0]}
    if action != "PASS":
        (r, c), (tr, tc) = (_parse(s) for s in action.split("_to_"))
        captured = board[tr][tc]
        board[tr][tc], board[r][c] = board[r][c], "."
        if captured.upper() == "X":
            new["winner"] = player
            new["current_player"] = TERMINAL
            new["rewards"] = [1.0, -1.0] if player == 0 else [-1.0, 1.0]
            return new
    if new["ply"] >= MAX_PLIES:
        new["current_player"] = TERMINAL
    return new


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [state, state]


def _owner(piece):
    """0 for upper-case pieces, 1 for lower-case, None for an empty square."""
    if piece == ".":
        return None
    return 0 if piece.isupper() else 1


def _square(r, c):
    return f"{ROWS[r]}{c + 1}"


def _parse(square):
    return ROWS.index(square[0]), int(square[1:]) - 1
