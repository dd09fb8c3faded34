"""Generalized tic-tac-toe: k in a row on a rows × cols board (seed 000 App. H.4).

The default 6 × 6 board with four in a row is the seed's game; it matches OpenSpiel's
``mnk(m=6,n=6,k=4)`` (OpenSpiel's ``m`` counts columns and ``n`` rows).
"""

from __future__ import annotations

from types import SimpleNamespace

from ggp.core.protocol import TERMINAL, GameMetadata, player_name

PARAMETERS = {"rows": 6, "cols": 6, "k": 4}
#: Bounds of the numeric parameters (checked before make() runs; see ggp.core.registry).
PARAMETER_RANGES = {"rows": (1, 30), "cols": (1, 30), "k": (1, 30)}

MARKS = ("x", "o")
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))

_RULES = """\
Generalized tic-tac-toe on a {rows}x{cols} grid, {k} in a row. Two players take turns on a
grid of {rows} rows and {cols} columns that starts empty. Player 0 marks "x" and moves
first; player 1 marks "o". On your turn you write your mark in any empty cell. Cells are
named (row, column), rows numbered 0..{last_row} from the top and columns 0..{last_col} from
the left, and a move is the mark followed by the cell: "x(2,3)" puts an x in row 2,
column 3; "o(0,0)" puts an o in the top-left corner.
In the state, "board" lists the rows from top to bottom, each a list of cells holding ".",
"x" or "o".
The first player to have {k} (or more) of their marks next to each other in one straight
line, horizontal, vertical or along either diagonal direction, wins and the game ends at
once. If every cell is filled and nobody has such a line, the game is a draw.
Rewards come only at the end: +1 to the winner and -1 to the loser, 0 to both on a draw.
Both players see the whole board at all times.
"""

RULES = _RULES.format(rows=6, cols=6, k=4, last_row=5, last_col=5)

METADATA = GameMetadata(
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    zero_sum=True,
    outcome="win_loss_draw",
    perfect_information=True,
    chance=False,
    openspiel="mnk(m=6,n=6,k=4)",
    source="seed 000 App. H.4",
)


def make(rows: int = 6, cols: int = 6, k: int = 4) -> SimpleNamespace:
    """The game on a ``rows`` × ``cols`` board where ``k`` in a line wins."""
    if not (isinstance(rows, int) and isinstance(cols, int) and isinstance(k, int)):
        raise ValueError("rows, cols and k must be integers")
    if rows < 1 or cols < 1 or not 1 <= k <= max(rows, cols):
        raise ValueError(f"need rows >= 1, cols >= 1 and 1 <= k <= max(rows, cols); got "
                         f"rows={rows}, cols={cols}, k={k}")

    def get_current_player(state):
        return state["current_player"]

    def get_player_name(player_id):
        return player_name(player_id, MARKS)

    def get_legal_actions(state):
        player = state["current_player"]
        if player == TERMINAL:
            return []
        board = state["board"]
        return [f"{MARKS[player]}({r},{c})" for r in range(rows) for c in range(cols)
                if board[r][c] == "."]

    def apply_action(state, action):
        player = state["current_player"]
        if player == TERMINAL or action not in get_legal_actions(state):
            raise ValueError(f"illegal action {action!r} for player {player}")
        r, c = (int(x) for x in action[2:-1].split(","))
        board = [row[:] for row in state["board"]]
        board[r][c] = MARKS[player]
        new = {"board": board, "current_player": 1 - player, "winner": None,
               "rewards": [0.0, 0.0]}
        if _line_length(board, r, c) >= k:
            new["winner"] = player
            new["current_player"] = TERMINAL
            new["rewards"] = [1.0, -1.0] if player == 0 else [-1.0, 1.0]
        elif all(cell != "." for row in board for cell in row):
            new["current_player"] = TERMINAL
        return new

    def _line_length(board, row, col):
        """The longest line of equal marks through (row, col)."""
        mark, best = board[row][col], 0
        for dr, dc in DIRECTIONS:
            count = 1
            for sign in (1, -1):
                r, c = row + sign * dr, col + sign * dc
                while 0 <= r < rows and 0 <= c < cols and board[r][c] == mark:
                    count += 1
                    r, c = r + sign * dr, c + sign * dc
            best = max(best, count)
        return best

    def get_rewards(state):
        return list(state["rewards"])

    def get_observations(state):
        return [state, state]

    default = (rows, cols, k) == (6, 6, 4)
    return SimpleNamespace(
        RULES=_RULES.format(rows=rows, cols=cols, k=k, last_row=rows - 1, last_col=cols - 1),
        METADATA=METADATA if default else GameMetadata(
            **{**METADATA.to_dict(), "openspiel": f"mnk(m={cols},n={rows},k={k})",
               "source": "seed 000 App. H.4 (other size)"}),
        INITIAL_STATE={"board": [["."] * cols for _ in range(rows)], "current_player": 0,
                       "winner": None, "rewards": [0.0, 0.0]},
        get_current_player=get_current_player,
        get_player_name=get_player_name,
        get_legal_actions=get_legal_actions,
        apply_action=apply_action,
        get_rewards=get_rewards,
        get_observations=get_observations,
    )
