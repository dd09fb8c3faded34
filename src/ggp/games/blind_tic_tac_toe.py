"""Blind tic-tac-toe (seed 003 §17.3, a GDL-II game), sequentialized.

The GDL-II game has three roles, white, black and random, moving concurrently every round.
This model maps it onto the world-model protocol as follows (see docs/games.md):

* one GDL round (``white: (mark M N)``, ``black: (mark J K)``, ``random: (tiebreak W)``)
  becomes player 0's action ``"mark(M,N)"``, then player 1's action ``"mark(J,K)"``, then,
  only when both chose the same blank cell, the chance action ``"tiebreak(x)"`` or
  ``"tiebreak(o)"`` (probability 1/2 each). GDL's random move changes nothing in any other
  round, so dropping it there leaves every state, percept and outcome distribution intact;
* the GDL percept ``ok`` is the ``"ok"`` flag of the player's attempt in its observation
  (``true`` exactly when ``(sees R ok)`` holds for that round);
* GDL goals 100 / 50 / 0 become rewards +1 / 0 / -1 (reward = (goal - 50) / 50).
"""

from __future__ import annotations

import random
from functools import cache, lru_cache

from ggp.core.errors import BeliefError
from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata, player_name

ROLES = ("white", "black")
MARKS = ("x", "o")
CELLS = tuple((m, n) for m in (1, 2, 3) for n in (1, 2, 3))
LINES = tuple(
    [[(m, n) for n in (1, 2, 3)] for m in (1, 2, 3)]
    + [[(m, n) for m in (1, 2, 3)] for n in (1, 2, 3)]
    + [[(1, 1), (2, 2), (3, 3)], [(1, 3), (2, 2), (3, 1)]]
)

RULES = """\
Blind tic-tac-toe for two players, white (player 0, marks "x") and black (player 1, marks
"o"), on a 3x3 grid whose cells are (M,N) with M and N in 1..3 (M the row from the top, N
the column from the left). All cells start blank.

Rounds. In every round both players try to mark a cell at the same time; here white
chooses first and black chooses next without learning white's choice. A try is written
"mark(M,N)". A player may try any cell it has not tried before in this game, even a cell
that is in fact already marked (players do not see the board). Then:
- a try at a blank cell that the other player did not also try this round succeeds: the
  cell gets the player's mark;
- if both players try the same blank cell, a fair coin decides who gets it: the chance move
  "tiebreak(x)" gives it to white, "tiebreak(o)" to black (probability 1/2 each);
- a try at a cell that is already marked (by anyone) has no effect.

What players see. After each round a player perceives only "ok" or nothing: "ok" exactly
when its try marked the cell for it this round (so also when it won the coin toss). It
never sees the opponent's tries, and it is not told whether a coin was tossed. A player's
observation lists its own tries in order, each with whether it got "ok".

End. The game ends after a round in which a line (row, column or diagonal) of three equal
marks exists, or when no blank cell is left. White wins (+1, black -1) if there is a line of
x's and no line of o's; black wins (+1, white -1) if there is a line of o's and no line of
x's; otherwise (both players completed a line in the same round, or the board is full
without a line) it is a draw and both get 0. Rewards are given only at the end.
"""

METADATA = GameMetadata(
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    zero_sum=True,
    outcome="win_loss_draw",
    perfect_information=False,
    chance=True,
    simultaneous=True,
    openspiel=None,
    source="seed 003 §17.3 (GDL-II Blind Tic-Tac-Toe)",
)

INITIAL_STATE = {
    "board": [["b"] * 3 for _ in range(3)],  # "b" blank (as in the GDL), "x" or "o"
    "tries": [[], []],  # per player: {"cell": "mark(M,N)", "ok": bool}, one per round
    "pending": [None, None],  # this round's tries, until the round is resolved
    "current_player": 0,
    "rewards": [0.0, 0.0],
}


def get_current_player(state):
    return state["current_player"]


def get_player_name(player_id):
    return player_name(player_id, ROLES)


def get_legal_actions(state):
    player = state["current_player"]
    if player == TERMINAL:
        return []
    if player == CHANCE:
        return ["tiebreak(x)", "tiebreak(o)"]
    tried = {t["cell"] for t in state["tries"][player]}
    return [_name(c) for c in CELLS if _name(c) not in tried]


def get_chance_outcomes(state):
    if state["current_player"] != CHANCE:
        return []
    return [("tiebreak(x)", 0.5), ("tiebreak(o)", 0.5)]


def apply_action(state, action):
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r}; legal: {get_legal_actions(state)}")
    player = state["current_player"]
    new = {
        "board": [row[:] for row in state["board"]],
        "tries": [t[:] for t in state["tries"]],
        "pending": state["pending"][:],
        "current_player": player,
        "rewards": [0.0, 0.0],
    }
    if player == 0:
        new["pending"][0] = action
        new["current_player"] = 1
        return new
    if player == 1:
        new["pending"][1] = action
        white, black = (_cell(a) for a in new["pending"])
        if white == black and _at(new["board"], white) == "b":
            new["current_player"] = CHANCE
            return new
        _resolve(new, None)
        return new
    _resolve(new, action[-2])  # "x" or "o"
    return new


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [_observation(state, p) for p in (0, 1)]


# ---------------------------------------------------------------------- rules helpers
def _name(cell):
    return f"mark({cell[0]},{cell[1]})"


def _cell(action):
    return int(action[5]), int(action[7])


def _at(board, cell):
    return board[cell[0] - 1][cell[1] - 1]


def _round(board, white, black, coin):
    """The GDL ``next``/``sees`` rules for one round: (new board, [white ok, black ok]).
    ``coin`` is the tiebreak winner's mark, used only when both tried the same cell."""
    new = [list(row) for row in board]
    ok = [False, False]
    for player, cell in ((0, white), (1, black)):
        if _at(board, cell) == "b" and (white != black or coin == MARKS[player]):
            new[cell[0] - 1][cell[1] - 1] = MARKS[player]
            ok[player] = True
    return new, ok


def _line(board, mark):
    return any(all(_at(board, c) == mark for c in line) for line in LINES)


def _is_over(board):
    return _line(board, "x") or _line(board, "o") or all(
        _at(board, c) != "b" for c in CELLS)


def _resolve(state, coin):
    white, black = state["pending"]
    board, ok = _round(state["board"], _cell(white), _cell(black), coin)
    state["board"] = board
    state["tries"][0].append({"cell": white, "ok": ok[0]})
    state["tries"][1].append({"cell": black, "ok": ok[1]})
    state["pending"] = [None, None]
    state["current_player"] = 0
    if _is_over(board):
        state["current_player"] = TERMINAL
        x, o = _line(board, "x"), _line(board, "o")
        score = float(x and not o) - float(o and not x)
        state["rewards"] = [score, -score]


def _observation(state, player):
    tries = [dict(t) for t in state["tries"][player]]
    return {
        "role": ROLES[player],
        "mark": MARKS[player],
        "round": len(tries) + 1,
        "my_tries": tries,
        "my_pending_try": state["pending"][player],
        "my_marks": [t["cell"] for t in tries if t["ok"]],
    }


# ---------------------------------------------------------------------- inference
def resample_history(obs_action_history, player_id, last_is_terminal=False, rng=None):
    """A full action sequence consistent with ``player_id``'s percepts.

    Hidden: the opponent's tries, the coin tosses and (for black deciding now) white's
    pending try. The sample is exact: histories are weighted by their chance probability
    (1/2 per coin toss) and count 1 per opponent move, i.e. uniform over consistent
    histories up to the coin tosses. Completions are counted by dynamic programming over
    (round, board, cells the opponent tried) and sampled forward.
    """
    rng = rng or random.Random(random.getrandbits(64))  # follows random.seed()
    obs = obs_action_history[-1][0]
    mine = tuple((_cell(t["cell"]), t["ok"]) for t in obs["my_tries"])
    pending = player_id == 1 and not last_is_terminal
    count = _completion_counter(mine, player_id, pending, last_is_terminal)
    start = tuple(tuple(row) for row in INITIAL_STATE["board"])
    if count(0, start, frozenset()) == 0:
        raise BeliefError("no opponent tries are consistent with the percepts")
    actions, board, tried = [], start, frozenset()
    for r, (my_cell, _) in enumerate(mine):
        options = [(w * count(r + 1, nb, tried | {c}), c, coin, nb)
                   for c, coin, nb, w in _branches(board, tried, mine[r], player_id,
                                                   _final(r, mine, last_is_terminal))]
        _, cell, coin, board = rng.choices(options, weights=[o[0] for o in options])[0]
        tried = tried | {cell}
        pair = (my_cell, cell) if player_id == 0 else (cell, my_cell)
        actions += [_name(pair[0]), _name(pair[1])]
        if coin:
            actions.append(f"tiebreak({coin})")
    if pending:
        actions.append(_name(rng.choice([c for c in CELLS if c not in tried])))
    return actions


def _final(r, mine, last_is_terminal):
    """Whether round r must end the game (True), must not (False)."""
    return last_is_terminal and r == len(mine) - 1


def _branches(board, opp_tried, my_round, player, must_end):
    """(opponent cell, coin or None, new board, chance weight) for each way round
    ``my_round`` = (my cell, my ok) can have gone, consistent with my percept."""
    my_cell, my_ok = my_round
    result = []
    for cell in CELLS:
        if cell in opp_tried:
            continue
        collide = cell == my_cell and _at(board, cell) == "b"
        for coin, weight in ((("x", 0.5), ("o", 0.5)) if collide else ((None, 1.0),)):
            white, black = (my_cell, cell) if player == 0 else (cell, my_cell)
            new, ok = _round(board, white, black, coin)
            new = tuple(tuple(row) for row in new)
            if ok[player] == my_ok and _is_over(new) == must_end:
                result.append((cell, coin, new, weight))
    return result


@lru_cache(maxsize=64)  # repeated sampling from one information set reuses the counts
def _completion_counter(mine, player, pending, last_is_terminal):
    @cache
    def count(r, board, opp_tried):
        if r == len(mine):
            return (9 - len(opp_tried)) if pending else 1
        return sum(w * count(r + 1, nb, opp_tried | {c})
                   for c, _, nb, w in _branches(board, opp_tried, mine[r], player,
                                                _final(r, mine, last_is_terminal)))
    return count
