"""Is generalized tic-tac-toe (an m,n,k-game) a forced win for the first player, and how fast?

An exact proof search for the question behind the tic-tac-toe row of docs/strength.md:
does the first player (X) force a win within D plies, from the empty board or after given
moves? It answers the same question the MCTS-solver asks, with the one piece of game
knowledge that makes 6x6 boards tractable in pure Python, exact for every m,n,k-game: a
player who leaves an immediate win of the opponent open loses, so when the opponent
threatens to complete a line the mover's only moves worth searching are the blocks (two
threats: the mover is lost), and a player with a line to complete wins. Everything else is
full-width AND/OR search with a transposition table. Before searching, the script checks
its line rules against ggp's reference game (``generalized_tic_tac_toe``) on random
games, so the proof is about the game the agents play.

    python experiments/vs_llm/mnk_first_player_win.py                # 6x6, 4 in a row
    python experiments/vs_llm/mnk_first_player_win.py --after "x(2,2) o(3,3)" --plies 9
    python experiments/vs_llm/mnk_first_player_win.py --rows 5 --cols 5 --plies 11
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator


class Board:
    """Bitboard lines of an m,n,k-game (cell r*cols+c)."""

    def __init__(self, rows: int, cols: int, k: int) -> None:
        self.rows, self.cols, self.k = rows, cols, k
        self.full = (1 << rows * cols) - 1
        self.lines = []
        for r in range(rows):
            for c in range(cols):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(r + i * dr, c + i * dc) for i in range(k)]
                    if all(0 <= a < rows and 0 <= b < cols for a, b in cells):
                        self.lines.append(sum(1 << a * cols + b for a, b in cells))
        self.cell_lines = [[line for line in self.lines if line >> i & 1]
                           for i in range(rows * cols)]

    def completes(self, mine: int) -> bool:
        return any(line & mine == line for line in self.lines)

    def threats(self, mine: int, theirs: int) -> int:
        """The empty cells where ``mine`` completes a line with one more stone."""
        empty, out = self.full & ~(mine | theirs), 0
        for line in self.lines:
            rest = line & ~mine
            if not line & theirs and rest and not rest & (rest - 1) and rest & empty:
                out |= rest
        return out

    def score(self, mine: int, theirs: int, cell: int) -> int:
        """Move ordering: lines through ``cell`` still open, weighted by stones in them."""
        total = 0
        for line in self.cell_lines[cell]:
            if not line & theirs:
                total += 1 + 3 * bin(line & mine).count("1") ** 2
            if not line & mine:
                total += 1 + 2 * bin(line & theirs).count("1") ** 2
        return total


def cells(bits: int) -> Iterator[int]:
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


class Prover:
    """``wins(att, dfn, att_to_move, plies)``: the attacker completes a line within
    ``plies`` plies whatever the defender does (and the defender completes none first)."""

    def __init__(self, board: Board) -> None:
        self.board, self.table, self.nodes = board, {}, 0

    def wins(self, att: int, dfn: int, att_to_move: bool, plies: int) -> bool:
        key = (att, dfn, att_to_move, plies)
        if key not in self.table:
            self.nodes += 1
            self.table[key] = self._wins(att, dfn, att_to_move, plies)
        return self.table[key]

    def _wins(self, att: int, dfn: int, att_to_move: bool, plies: int) -> bool:
        board = self.board
        empty = board.full & ~(att | dfn)
        if plies <= 0 or not empty:
            return False
        mover_threats = board.threats(att, dfn) if att_to_move else board.threats(dfn, att)
        if mover_threats:  # the mover completes a line now
            return att_to_move
        other = board.threats(dfn, att) if att_to_move else board.threats(att, dfn)
        if other & (other - 1):  # two threats: only one can be blocked, the other
            return not att_to_move and plies >= 2  # completes next ply, if in the horizon
        if att_to_move:
            moves = (list(cells(other)) if other else
                     sorted(cells(empty), key=lambda i: -board.score(att, dfn, i)))
            return any(self.wins(att | 1 << i, dfn, False, plies - 1) for i in moves)
        moves = list(cells(other)) if other else list(cells(empty))
        return all(self.wins(att, dfn | 1 << i, True, plies - 1) for i in moves)


def check_rules(board: Board, games: int, seed: int) -> None:
    """Random games on ggp's reference game: the bitboard says who completed a line,
    and when, exactly as the reference does."""
    from ggp.core.protocol import TERMINAL
    from ggp.core.registry import make_game

    model = make_game(f"generalized_tic_tac_toe(rows={board.rows},cols={board.cols},k={board.k})")
    rng = random.Random(seed)
    for _ in range(games):
        state, stones, mover = model.initial_state(), [0, 0], 0
        while model.current_player(state) != TERMINAL:
            mover = model.current_player(state)
            action = rng.choice(model.legal_actions(state))
            stones[mover] |= 1 << cell_of(action, board.cols)
            state = model.apply(state, action)
            done = board.completes(stones[mover]) or not board.full & ~(stones[0] | stones[1])
            if done != (model.current_player(state) == TERMINAL):
                raise SystemExit(f"error: the line rules disagree with ggp's game at {action}")
        winner = [p for p in (0, 1) if model.rewards(state)[p] > 0]
        if winner != [p for p in (0, 1) if board.completes(stones[p])]:
            raise SystemExit("error: the line rules name a different winner than ggp's game")


def cell_of(action: str, cols: int) -> int:
    row, col = action[action.index("(") + 1:-1].split(",")
    return int(row) * cols + int(col)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=6)
    parser.add_argument("--cols", type=int, default=6)
    parser.add_argument("--k", type=int, default=4)
    parser.add_argument("--after", default="", help="moves played first, e.g. 'x(2,2) o(3,3)'")
    parser.add_argument("--plies", type=int, default=11, help="deepest search (plies from the position)")
    parser.add_argument("--check-games", type=int, default=200)
    args = parser.parse_args(argv)
    board = Board(args.rows, args.cols, args.k)
    check_rules(board, args.check_games, seed=0)
    print(f"line rules agree with ggp's generalized_tic_tac_toe on {args.check_games} random games")
    stones, moves = [0, 0], args.after.split()
    for i, move in enumerate(moves):
        stones[i % 2] |= 1 << cell_of(move, args.cols)
    x_to_move = len(moves) % 2 == 0
    # the first player completes a line only on its own plies
    for plies in range(1 if x_to_move else 2, args.plies + 1, 2):
        prover, started = Prover(board), time.perf_counter()
        won = prover.wins(stones[0], stones[1], x_to_move, plies)
        print(f"{args.rows}x{args.cols}, {args.k} in a row, after [{args.after}]: the first "
              f"player forces a win within {plies} plies: {'yes' if won else 'no'} "
              f"({prover.nodes:,} positions, {time.perf_counter() - started:.1f} s)", flush=True)
        if won:
            return 0
    return 1


if __name__ == "__main__":
    sys.exit(main())
