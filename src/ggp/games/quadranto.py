"""Quadranto: a hide-and-catch game on a 4 × 4 grid (seed 000 App. H.8).

Each player always knows its own cell but only the *quadrant* of its opponent. Where the
seed's text is silent we fixed: players alternate with player 0 first; a step off the grid
is not a legal move; "Stay" counts as one of the 20 moves.
"""

from __future__ import annotations

import random
from typing import Any

from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata, player_name

RULES = """\
Quadranto. Two players hide and hunt on a 4x4 grid. Cells are (row, column) with rows 0..3
from the top and columns 0..3 from the left. The grid is cut into four 2x2 quadrants:
"top-left" (rows 0-1, columns 0-1), "top-right" (rows 0-1, columns 2-3), "bottom-left"
(rows 2-3, columns 0-1) and "bottom-right" (rows 2-3, columns 2-3).
Setup (chance): first player 0 is put on one of the 4 cells of the top-left quadrant, each
with probability 1/4 (chance action "Place player 0 at (r,c)"); then player 1 is put on one
of the 4 cells of the bottom-right quadrant, each with probability 1/4 (chance action
"Place player 1 at (r,c)").
Play: the players then alternate turns, player 0 first. On its turn a player either steps
one cell "Up" (row - 1), "Down" (row + 1), "Left" (column - 1) or "Right" (column + 1), or
plays "Stay" and remains where it is. A step that would leave the grid is not allowed.
If a step lands on the cell where the opponent stands, the moving player catches the
opponent: it wins (+1), the opponent loses (-1), and the game ends at once.
Every turn (a step or "Stay") counts as one move. If 20 moves have been made in total
(10 by each player) without a catch, the game ends in a draw and both get 0. Rewards are
given only when the game ends.
What a player sees: its own cell, the quadrant (not the cell) of the opponent, the number
of moves made so far and whose turn it is. A player remembers everything it has seen: the
observation also lists its own past actions ("my_moves") and the opponent's quadrant at the
start and after each of the opponent's moves ("opponent_quadrant_history"). A player never
sees which action the opponent chose. When the game ends with a catch, both players see
the cell where it happened ("caught_at") and the winner.
The state holds both cells ("positions", [row, column] per player), "moves_made", each
player's own actions ("moves"), each player's quadrant at the start and after each of its
moves ("quadrant_history"), "current_player", "winner", "caught_at" and "rewards".
"""

METADATA = GameMetadata(
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    zero_sum=True,
    outcome="win_loss_draw",
    perfect_information=False,
    chance=True,
    openspiel=None,
    source="seed 000 App. H.8",
)

SIZE = 4
MAX_MOVES = 20
STEPS = {"Up": (-1, 0), "Down": (1, 0), "Left": (0, -1), "Right": (0, 1), "Stay": (0, 0)}
QUADRANTS = {(0, 0): "top-left", (0, 1): "top-right", (1, 0): "bottom-left",
             (1, 1): "bottom-right"}
START_CELLS = ([[0, 0], [0, 1], [1, 0], [1, 1]], [[2, 2], [2, 3], [3, 2], [3, 3]])

INITIAL_STATE: dict[str, Any] = {
    "positions": [None, None],
    "current_player": CHANCE,
    "moves_made": 0,
    "moves": [[], []],
    "quadrant_history": [[], []],
    "winner": None,
    "caught_at": None,
    "rewards": [0.0, 0.0],
}


def quadrant(cell: list[int]) -> str:
    """The name of the quadrant holding ``cell``."""
    return QUADRANTS[(cell[0] // 2, cell[1] // 2)]


def _placing(state) -> int:
    """The player the chance node is placing (0, then 1)."""
    return 0 if state["positions"][0] is None else 1


def _step(cell, action):
    dr, dc = STEPS[action]
    return [cell[0] + dr, cell[1] + dc]


def _on_grid(cell) -> bool:
    return 0 <= cell[0] < SIZE and 0 <= cell[1] < SIZE


def moves_from(cell: list[int]) -> list[str]:
    """The legal actions of a player standing on ``cell``."""
    return [a for a in STEPS if _on_grid(_step(cell, a))]


def get_current_player(state):
    return state["current_player"]


def get_player_name(player_id):
    return player_name(player_id, ("player 0", "player 1"))


def get_legal_actions(state):
    player = state["current_player"]
    if player == TERMINAL:
        return []
    if player == CHANCE:
        who = _placing(state)
        return [f"Place player {who} at ({r},{c})" for r, c in START_CELLS[who]]
    return moves_from(state["positions"][player])


def get_chance_outcomes(state):
    actions = get_legal_actions(state)
    return [(a, 1.0 / len(actions)) for a in actions]


def apply_action(state, action):
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r} in this state")
    new = {
        "positions": [p if p is None else list(p) for p in state["positions"]],
        "current_player": state["current_player"],
        "moves_made": state["moves_made"],
        "moves": [list(m) for m in state["moves"]],
        "quadrant_history": [list(q) for q in state["quadrant_history"]],
        "winner": None,
        "caught_at": None,
        "rewards": [0.0, 0.0],
    }
    if state["current_player"] == CHANCE:
        who = _placing(state)
        cell = [int(action[-4]), int(action[-2])]
        new["positions"][who] = cell
        new["quadrant_history"][who].append(quadrant(cell))
        new["current_player"] = CHANCE if who == 0 else 0
        return new
    player = state["current_player"]
    cell = _step(state["positions"][player], action)
    new["positions"][player] = cell
    new["moves"][player].append(action)
    new["quadrant_history"][player].append(quadrant(cell))
    new["moves_made"] += 1
    new["current_player"] = 1 - player
    if cell == state["positions"][1 - player]:  # "Stay" never lands on the opponent
        new["winner"], new["caught_at"] = player, cell
        new["current_player"] = TERMINAL
        new["rewards"] = [1.0, -1.0] if player == 0 else [-1.0, 1.0]
    elif new["moves_made"] >= MAX_MOVES:
        new["current_player"] = TERMINAL
    return new


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [_observation(state, p) for p in (0, 1)]


def _observation(state, player):
    opponent_quadrants = state["quadrant_history"][1 - player]
    return {
        "player": player,
        "position": state["positions"][player] and list(state["positions"][player]),
        "opponent_quadrant": opponent_quadrants[-1] if opponent_quadrants else None,
        "opponent_quadrant_history": list(opponent_quadrants),
        "my_moves": list(state["moves"][player]),
        "moves_made": state["moves_made"],
        "current_player": state["current_player"],
        "winner": state["winner"],
        "caught_at": state["caught_at"] and list(state["caught_at"]),
    }


# ------------------------------------------------------------------------- inference
def resample_history(obs_action_history, player_id, last_is_terminal=False):
    """A full action list (chance placements included) consistent with the player's view.

    Samples exactly from the posterior over the opponent's start cell and moves when chance
    places the opponent uniformly and the opponent picks uniformly among its legal actions
    (forward filtering over the opponent's cell, then backward sampling). With
    ``last_is_terminal`` the last observation is the player's view of the final state.
    """
    me, opp = player_id, 1 - player_id
    last = obs_action_history[-1][0]
    start = _start_cell(last)
    n = last["moves_made"]
    opp_quadrants = last["opponent_quadrant_history"]
    catch_at_end = last_is_terminal and last["caught_at"] is not None
    # beliefs[i]: weight of each opponent cell after i moves; own[i]: own cell then.
    own, beliefs = [start], [{tuple(c): 1.0 for c in START_CELLS[opp]}]
    my_moves = iter(last["my_moves"])
    for m in range(n):
        final = catch_at_end and m == n - 1
        belief, mine = beliefs[-1], own[-1]
        if m % 2 == me:
            mine = _step(mine, next(my_moves))
            # Only a catching last move may land on the opponent.
            belief = {x: w for x, w in belief.items() if (list(x) == mine) == final}
        else:
            seen = opp_quadrants[m // 2 + 1]
            belief = {}
            for x, w in beliefs[-1].items():
                options = moves_from(list(x))
                for a in options:
                    y = _step(list(x), a)
                    catches = y == mine and a != "Stay"
                    if catches == final and quadrant(y) == seen:
                        belief[tuple(y)] = belief.get(tuple(y), 0.0) + w / len(options)
        if not belief:
            raise ValueError("no history is consistent with these observations")
        own.append(mine)
        beliefs.append(belief)
    opp_start, opp_moves = _sample_backwards(beliefs, me, n, random)
    starts = [start, opp_start] if me == 0 else [opp_start, start]
    actions = [f"Place player {p} at ({r},{c})" for p, (r, c) in enumerate(starts)]
    mine, theirs = iter(last["my_moves"]), iter(opp_moves)
    return actions + [next(mine) if m % 2 == me else next(theirs) for m in range(n)]


def _start_cell(observation):
    """The player's own start cell: its current cell with its own moves undone."""
    cell = observation["position"]
    for action in reversed(observation["my_moves"]):
        dr, dc = STEPS[action]
        cell = [cell[0] - dr, cell[1] - dc]
    return cell


def _sample_backwards(beliefs, me, n, rng):
    """Draw the opponent's final cell, then its moves backwards; returns (start, moves)."""
    cells, weights = zip(*beliefs[n].items())
    x = rng.choices(cells, weights)[0]
    moves = []
    for m in range(n - 1, -1, -1):
        if m % 2 == me:
            continue
        options = [(prev, a) for prev in beliefs[m] for a in moves_from(list(prev))
                   if tuple(_step(list(prev), a)) == x]
        probs = [beliefs[m][prev] / len(moves_from(list(prev))) for prev, _ in options]
        x, action = rng.choices(options, probs)[0]
        moves.append(action)
    return list(x), moves[::-1]
