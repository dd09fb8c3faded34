# Code world model of 'backgammon' (optimised version; same behaviour as the original).

import random
from itertools import compress
from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

ROLES = ("red", "black")
NOOP, DISCARD = "noop", "discard_dice"
MAX_ROLLS = 100


def _label(r, rel):
    if rel == 0:
        return "bar"
    if rel == 25:
        return "out"
    return str(rel if r == 0 else 25 - rel)


# Relative points per role: 0 = bar, 1..24 along the role's direction, 25 = out.
# TXT[r][die][s][t]: move text; ACT[r][text] = (die, s, t)
TXT = [[[[None] * 26 for _ in range(25)] for _ in range(4)] for _ in range(2)]
ACT = [{}, {}]
for _r in range(2):
    for _i in range(4):
        for _s in range(25):
            for _t in range(_s + 1, 26):
                _x = "(move %d %s %s)" % (_i + 1, _label(_r, _s), _label(_r, _t))
                TXT[_r][_i][_s][_t] = _x
                ACT[_r][_x] = (_i, _s, _t)
ROLL_T = [[None] * 7 for _ in range(7)]
ROLL_I = {}
for _a in range(1, 7):
    for _b in range(1, 7):
        ROLL_T[_a][_b] = "(roll_dice %d %d)" % (_a, _b)
        ROLL_I[ROLL_T[_a][_b]] = (_a, _b)
ROLLS_INIT = [ROLL_T[a][b] for a in range(1, 7) for b in range(1, 7) if a != b]
ROLLS_ALL = [ROLL_T[a][b] for a in range(1, 7) for b in range(1, 7)]

# compact ids for the move log (3 chars per joint move) and their percept texts
R_TEXT = [NOOP] + ROLLS_ALL
R_ID = {t: i for i, t in enumerate(R_TEXT)}
R_DID = ["(did random %s)" % t for t in R_TEXT]
P_TEXT = [[NOOP, DISCARD] + list(ACT[r]) for r in range(2)]
P_ID = [{t: i for i, t in enumerate(P_TEXT[r])} for r in range(2)]
P_DID = [["(did %s %s)" % (ROLES[r], t) for t in P_TEXT[r]] for r in range(2)]

# MV[r][i][p][s]: text of moving from s with die index i of value p
MV = [[[None] * 7 for _ in range(4)] for _ in range(2)]
for _r in range(2):
    for _i in range(4):
        for _p in range(1, 7):
            MV[_r][_i][_p] = [TXT[_r][_i][_s][min(_s + _p, 25)] for _s in range(25)]

# INFO[r][text] = (die index, s, t, hit index or 0, log piece, log piece with noop roll)
INFO = [{}, {}]
for _r in range(2):
    _pid = P_ID[_r]
    for _x, (_i, _s, _t) in ACT[_r].items():
        _c = chr(_pid[_x])
        _pc = (_c + "\x00") if _r == 0 else ("\x00" + _c)
        INFO[_r][_x] = (_i, _s, _t, (25 - _t) if _t < 25 else 0, _pc, "\x00" + _pc)
DPC = [chr(P_ID[0][DISCARD]) + "\x00", "\x00" + chr(P_ID[1][DISCARD])]
DPCN = ["\x00" + DPC[0], "\x00" + DPC[1]]
RCH = {t: chr(R_ID[t]) for t in ROLLS_ALL}
OPEN_CH = {t: chr(R_ID[t]) + "\x00\x00" for t in ROLLS_ALL}
ROLL_D = {}
for _a in range(1, 7):
    for _b in range(1, 7):
        ROLL_D[ROLL_T[_a][_b]] = [_a, _b, _a, _b] if _a == _b else [_a, _b, 0, 0]
R25 = range(25)
PAD_OUT = [0] * 6
PAD_BLK = [2] * 6


def _legal(pts, r, dice):
    own = pts[r]
    opp = pts[1 - r]
    mv = MV[r]
    out = []
    if own[0]:
        for i in (0, 1, 2, 3):
            p = dice[i]
            if p and opp[25 - p] < 2:
                out.append(mv[i][p][0])
        return out
    srcs = list(compress(R25, own))
    if not srcs:
        return out
    if srcs[0] >= 19:
        blk = opp[25:0:-1] + PAD_OUT
    else:
        blk = opp[25:0:-1] + PAD_BLK
    pp = 0
    ok = None
    for i in (0, 1, 2, 3):
        p = dice[i]
        if p:
            if p != pp:
                pp = p
                ok = [s for s in srcs if blk[s + p] < 2]
            if ok:
                row = mv[i][p]
                out += [row[s] for s in ok]
    return out


def _run(pts, dice, r, rolls, n, log, move, roll):
    """Apply the joint move (move, roll) if any, then settle forced moves."""
    while True:
        if move is not None:
            if move == DISCARD:
                dice = [0, 0, 0, 0]
                pc = DPC[r]
                pcn = DPCN[r]
            else:
                i, s, t, h, pc, pcn = INFO[r][move]
                if r == 0:
                    own = pts[0][:]
                    opp = pts[1]
                else:
                    own = pts[1][:]
                    opp = pts[0]
                own[s] -= 1
                own[t] += 1
                if h and opp[h] == 1:  # hit a lone opponent piece
                    opp = opp[:]
                    opp[h] = 0
                    opp[0] += 1
                pts = [own, opp] if r == 0 else [opp, own]
                if roll is None:
                    dice = dice[:]
                    dice[i] = 0
            n += 1
            if roll is None:
                log = log + pcn
            else:
                dice = ROLL_D[roll][:]
                rolls += 1
                log = log + (RCH[roll] + pc)
                r = 1 - r
                roll = None
        if pts[0][25] >= 15 or pts[1][25] >= 15 or rolls >= MAX_ROLLS:
            return {"pts": pts, "dice": dice, "ctrl": r, "rolls": rolls, "n": n,
                    "pend": None, "log": log, "cur": -4, "legal": []}
        legal = _legal(pts, r, dice)
        if not legal:
            return {"pts": pts, "dice": dice, "ctrl": r, "rolls": rolls, "n": n,
                    "pend": None, "log": log, "cur": -1, "legal": [DISCARD]}
        if dice.count(0) >= 3:
            return {"pts": pts, "dice": dice, "ctrl": r, "rolls": rolls, "n": n,
                    "pend": None, "log": log, "cur": -1, "legal": legal}
        if len(legal) > 1:
            return {"pts": pts, "dice": dice, "ctrl": r, "rolls": rolls, "n": n,
                    "pend": None, "log": log, "cur": r, "legal": legal}
        move = legal[0]


def _start():
    red = [0] * 26
    for p, c in ((1, 2), (12, 5), (17, 3), (19, 5)):
        red[p] = c
    return {"pts": [red, list(red)], "dice": [0, 0, 0, 0], "ctrl": -1, "rolls": 0, "n": 0,
            "pend": None, "log": "", "cur": -1, "legal": []}


INITIAL_STATE: State = _start()


def get_current_player(state: State) -> int:
    return state["cur"]


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return ROLES[player_id]


def get_legal_actions(state: State) -> list[Action]:
    cur = state["cur"]
    if cur == -1:
        return list(ROLLS_INIT if state["ctrl"] == -1 else ROLLS_ALL)
    return list(state["legal"]) if cur >= 0 else []


def apply_action(state: State, action: Action) -> State:
    cur = state["cur"]
    if cur == -1:
        ctrl = state["ctrl"]
        if ctrl == -1:                              # opening roll decides control
            ab = ROLL_I.get(action)
            if ab is None or ab[0] == ab[1]:
                raise ValueError("illegal action: %r" % (action,))
            a, b = ab
            return _run(state["pts"], [a, b, 0, 0], 0 if a > b else 1, 1, 1,
                        state["log"] + OPEN_CH[action], None, None)
        if action not in ROLL_I:                    # roll in a last-move step
            raise ValueError("illegal action: %r" % (action,))
        legal = state["legal"]
        if len(legal) > 1:
            new = dict(state)
            new["pend"] = action
            new["cur"] = ctrl
            return new
        return _run(state["pts"], state["dice"], ctrl, state["rolls"], state["n"],
                    state["log"], legal[0], action)
    if cur >= 0 and action in state["legal"]:
        return _run(state["pts"], state["dice"], state["ctrl"], state["rolls"], state["n"],
                    state["log"], action, state["pend"])
    raise ValueError("illegal action: %r" % (action,))


def get_rewards(state: State) -> list[float]:
    if state["cur"] != -4:
        return [0.0, 0.0]
    ro, bo = state["pts"][0][25], state["pts"][1][25]
    if ro >= 15:
        return [100.0, 0.0]
    if bo >= 15:
        return [0.0, 100.0]
    if ro > bo:
        return [75.0, 25.0]
    if bo > ro:
        return [25.0, 75.0]
    return [50.0, 50.0]


def _histories(log):
    h = [[], []]
    h0, h1 = h
    P0, P1 = P_TEXT
    D0, D1 = P_DID
    for k in range(0, len(log), 3):
        ri, a0, a1 = ord(log[k]), ord(log[k + 1]), ord(log[k + 2])
        per = sorted([R_DID[ri], D0[a0], D1[a1]])
        h0.append([P0[a0], per])
        h1.append([P1[a1], list(per)])
    return h


def get_observations(state: State) -> list[Observation]:
    h = _histories(state["log"])
    return [{"role": ROLES[i], "step": state["n"], "history": h[i], "pending": {}}
            for i in (0, 1)]


def _did(percepts, who):
    pre = "(did %s " % who
    for t in percepts:
        if t.startswith(pre):
            return t[len(pre):-1]
    return NOOP


def resample_history(obs_action_history, player_id):
    """Nothing is hidden: replay the moves read from the percepts."""
    last = obs_action_history[-1][0]
    H, nf = last["history"], last["step"]
    state, actions = INITIAL_STATE, []
    while not (state["n"] == nf and state["cur"] == player_id):
        n, cur = state["n"], state["cur"]
        if cur == -4 or n > nf:
            break
        if n < nf:
            a = _did(H[n][1], "random" if cur == -1 else ROLES[cur])
        else:  # roll still pending at the final step: unseen by the player
            a = random.choice(get_legal_actions(state))
        actions.append(a)
        state = apply_action(state, a)
    return actions