# Code world model of 'checkers', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

ROLES = ("red", "black")
PNAME = ("b", "wp", "wk", "bp", "bk")
OWNER = (-1, 0, 0, 1, 1)
FILES = "abcdefgh"
MAX_N = 101                      # (step 102) is terminal; step fluent = n + 1

SQ = [(f, r) for f in range(8) for r in range(8)]      # index = f * 8 + r
VALID = [i for i, (f, r) in enumerate(SQ) if (f + r) % 2 == 1]
INVALID = [i for i, (f, r) in enumerate(SQ) if (f + r) % 2 == 0]
SQN = ["%s %d" % (FILES[f], r + 1) for f, r in SQ]
DIRS = ((-1, -1), (1, -1), (-1, 1), (1, 1))
NB = [[-1] * 4 for _ in range(64)]
JP = [[-1] * 4 for _ in range(64)]
for _i, (_f, _r) in enumerate(SQ):
    for _d, (_df, _dr) in enumerate(DIRS):
        if 0 <= _f + _df < 8 and 0 <= _r + _dr < 8:
            NB[_i][_d] = (_f + _df) * 8 + _r + _dr
        if 0 <= _f + 2 * _df < 8 and 0 <= _r + 2 * _dr < 8:
            JP[_i][_d] = (_f + 2 * _df) * 8 + _r + 2 * _dr
PIECE_DIRS = (None, (2, 3), (0, 1, 2, 3), (0, 1), (0, 1, 2, 3))

# move texts and their effects: ACT[text] = (piece, src, dst, captured cells)
ACT = {}
STEP_T = {}   # (piece, i, d) -> text
JUMP_T = {}   # (piece, i, d1[, d2[, d3]]) -> text


def _build():
    for c in (1, 2, 3, 4):
        ds = PIECE_DIRS[c]
        for i in VALID:
            for d in ds:
                j = NB[i][d]
                if j >= 0:
                    t = "(move %s %s %s)" % (PNAME[c], SQN[i], SQN[j])
                    STEP_T[c, i, d] = t
                    ACT[t] = (c, i, j, ())
                l1 = JP[i][d]
                if l1 < 0:
                    continue
                t = "(move %s %s %s)" % (PNAME[c], SQN[i], SQN[l1])
                JUMP_T[c, i, d] = t
                ACT[t] = (c, i, l1, (NB[i][d],))
                for d2 in ds:
                    l2 = JP[l1][d2]
                    if l2 < 0 or l2 == i:
                        continue
                    t = "(doublejump %s %s %s %s)" % (PNAME[c], SQN[i], SQN[l1], SQN[l2])
                    JUMP_T[c, i, d, d2] = t
                    ACT[t] = (c, i, l2, (NB[i][d], NB[l1][d2]))
                    for d3 in ds:
                        l3 = JP[l2][d3]
                        if l3 < 0 or l3 == l1:
                            continue
                        t = "(triplejump %s %s %s %s %s)" % (PNAME[c], SQN[i], SQN[l1],
                                                             SQN[l2], SQN[l3])
                        JUMP_T[c, i, d, d2, d3] = t
                        ACT[t] = (c, i, l3, (NB[i][d], NB[l1][d2], NB[l2][d3]))


_build()
CELL_T = [["(cell %s %s)" % (SQN[i], PNAME[c]) for c in range(5)] for i in range(64)]
CONTROL_T = ("(control red)", "(control black)")


def _legal(b, p):
    out = []
    o = 1 - p
    for i in VALID:
        c = b[i]
        if not c or OWNER[c] != p:
            continue
        ds = PIECE_DIRS[c]
        for d in ds:
            j = NB[i][d]
            if j < 0:
                continue
            v = b[j]
            if v == 0:
                out.append(STEP_T[c, i, d])
                continue
            l1 = JP[i][d]
            if OWNER[v] != o or l1 < 0 or b[l1]:
                continue
            out.append(JUMP_T[c, i, d])
            for d2 in ds:
                l2 = JP[l1][d2]
                if l2 < 0 or b[l2] or OWNER[b[NB[l1][d2]]] != o:
                    continue
                out.append(JUMP_T[c, i, d, d2])
                for d3 in ds:
                    l3 = JP[l2][d3]
                    if l3 < 0 or l3 == l1 or b[l3] or OWNER[b[NB[l2][d3]]] != o:
                        continue
                    out.append(JUMP_T[c, i, d, d2, d3])
    return out


def _apply(b, ctrl, n, cnt, action):
    c, src, dst, caps = ACT[action]
    b = list(b)
    b[src] = 0
    for k in caps:
        b[k] = 0
    if c == 1 and dst % 8 == 7:
        c = 2
    elif c == 3 and dst % 8 == 0:
        c = 4
    b[dst] = c
    if caps:
        cnt = list(cnt)
        cnt[1 - ctrl] -= len(caps)
    return b, 1 - ctrl, n + 1, cnt


def _advance(b, ctrl, n, cnt):
    """State at this point; forced (single-move) steps are applied at once."""
    while True:
        legal = []
        if cnt[0] > 0 and cnt[1] > 0 and n < MAX_N:
            legal = _legal(b, ctrl)
        if len(legal) == 1:
            b, ctrl, n, cnt = _apply(b, ctrl, n, cnt, legal[0])
            continue
        return {"board": b, "ctrl": ctrl, "n": n, "cnt": list(cnt),
                "cur": ctrl if legal else -4, "legal": legal}


def _initial_board():
    b = [0] * 64
    for i in VALID:
        r = i % 8
        if r <= 2:
            b[i] = 1
        elif r >= 5:
            b[i] = 3
    return b


INITIAL_STATE: State = _advance(_initial_board(), 0, 0, [12, 12])


def get_current_player(state: State) -> int:
    return state["cur"]


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return ROLES[player_id]


def get_legal_actions(state: State) -> list[Action]:
    return list(state["legal"])


def apply_action(state: State, action: Action) -> State:
    if state["cur"] < 0 or action not in state["legal"]:
        raise ValueError("illegal action: %r" % (action,))
    return _advance(*_apply(state["board"], state["ctrl"], state["n"], state["cnt"], action))


def get_rewards(state: State) -> list[float]:
    if state["cur"] != -4:
        return [0.0, 0.0]
    rc, bc = state["cnt"]
    if rc > bc:
        return [100.0, 0.0]
    if bc > rc:
        return [0.0, 100.0]
    return [50.0, 50.0]


def get_observations(state: State) -> list[Observation]:
    b, n = state["board"], state["n"]
    facts = [CELL_T[i][b[i]] for i in VALID]
    if n == 0:  # the initial light-square blanks vanish after the first move
        facts += [CELL_T[i][0] for i in INVALID]
    facts.append(CONTROL_T[state["ctrl"]])
    facts.append("(piece_count red %d)" % state["cnt"][0])
    facts.append("(piece_count black %d)" % state["cnt"][1])
    facts.append("(step %d)" % (n + 1))
    facts.sort()
    return [{"step": n, "true": list(facts), "pending": {}} for _ in range(2)]
