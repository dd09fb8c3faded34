# Code world model of 'hex', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

ROLES = ("red", "blue")
ROWS = "abcdefghi"
N = 9
NB = []
for _r in range(N):
    for _c in range(N):
        NB.append(tuple((_r + dr) * N + _c + dc
                        for dr, dc in ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, 1), (1, -1))
                        if 0 <= _r + dr < N and 0 <= _c + dc < N))
# edge bits per colour: bit0 = first edge, bit1 = second edge
EDGE = [[0] * 81, [0] * 81]
for _i in range(81):
    _r, _c = divmod(_i, N)
    EDGE[0][_i] = (1 if _r == 0 else 0) | (2 if _r == N - 1 else 0)   # red: rows a..i
    EDGE[1][_i] = (1 if _c == 0 else 0) | (2 if _c == N - 1 else 0)   # blue: cols 1..9
SQN = ["%s %d" % (ROWS[i // N], i % N + 1) for i in range(81)]
PLACE_T = ["(place %s)" % SQN[i] for i in range(81)]
PLACE_I = {t: i for i, t in enumerate(PLACE_T)}
CELL_T = [[None, "(cell %s red)" % SQN[i], "(cell %s blue)" % SQN[i]] for i in range(81)]


def _place(cells, labs, n, ctrl, empty, i):
    """Place ctrl's stone at i; returns new (cells, labs, n, ctrl, empty, winner)."""
    col = ctrl + 1
    k = n + 1                      # label = current step fluent
    cells = list(cells)
    labs = list(labs)
    merge = {labs[j] for j in NB[i] if cells[j] == col}
    cells[i] = col
    labs[i] = k
    edge = EDGE[ctrl]
    e = edge[i]
    if merge:
        for j in range(81):
            if labs[j] in merge and cells[j] == col:
                labs[j] = k
                e |= edge[j]
    win = ctrl if e == 3 else -1
    return cells, labs, n + 1, 1 - ctrl, empty - 1, win


def _make(cells, labs, n, ctrl, empty, win):
    while win < 0 and empty == 1:  # a single legal move is made at once
        i = cells.index(0)
        cells, labs, n, ctrl, empty, win = _place(cells, labs, n, ctrl, empty, i)
    return {"cells": cells, "labs": labs, "n": n, "ctrl": ctrl, "empty": empty,
            "win": win, "cur": -4 if (win >= 0 or empty == 0) else ctrl}


INITIAL_STATE: State = _make([0] * 81, [0] * 81, 0, 0, 81, -1)


def get_current_player(state: State) -> int:
    return state["cur"]


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return ROLES[player_id]


def get_legal_actions(state: State) -> list[Action]:
    if state["cur"] < 0:
        return []
    cells = state["cells"]
    return [PLACE_T[i] for i in range(81) if not cells[i]]


def apply_action(state: State, action: Action) -> State:
    i = PLACE_I.get(action)
    if state["cur"] < 0 or i is None or state["cells"][i]:
        raise ValueError("illegal action: %r" % (action,))
    return _make(*_place(state["cells"], state["labs"], state["n"], state["ctrl"],
                         state["empty"], i))


def get_rewards(state: State) -> list[float]:
    if state["cur"] != -4:
        return [0.0, 0.0]
    w = state["win"]
    return [100.0 if w == 0 else 0.0, 100.0 if w == 1 else 0.0]


def get_observations(state: State) -> list[Observation]:
    cells, labs, n = state["cells"], state["labs"], state["n"]
    facts = []
    for i in range(81):
        if cells[i]:
            facts.append(CELL_T[i][cells[i]])
            facts.append("(connected %d %s)" % (labs[i], SQN[i]))
    for k in range(1, n + 1):
        facts.append("(owner %d %s)" % (k, ROLES[(k - 1) % 2]))
    facts.append("(control %s)" % ROLES[state["ctrl"]])
    facts.append("(step %d)" % (n + 1))
    facts.sort()
    return [{"step": n, "true": list(facts), "pending": {}} for _ in range(2)]
