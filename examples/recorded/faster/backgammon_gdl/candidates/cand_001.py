# Code world model of 'backgammon' (optimised version; same behaviour as the original).
# Board lists hold 28 ints per role: 0 = bar, 1..24 points, 25 = out (all in the role's
# own direction), 26 = bitmask of occupied own points (own coords, bits 1..24),
# 27 = bitmask of own blocks (>= 2 pieces) expressed in the opponent's coords.

import random
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

# MVB[r][i][p]: entering from the bar with die index i of value p
MVB = [[[None if _p == 0 else MV[_r][_i][_p][0] for _p in range(7)] for _i in range(4)]
       for _r in range(2)]

# TAB[r][i][p][chunk][mask8]: move texts (ascending source) for the sources whose bits
# are set in an 8-bit chunk of the source mask (chunk 0: points 1..8, 1: 9..16, 2: 17..24)
TAB = [[[None] * 7 for _ in range(4)] for _ in range(2)]
for _r in range(2):
    for _i in range(4):
        for _p in range(1, 7):
            _row = MV[_r][_i][_p]
            _chunks = []
            for _c in range(3):
                _base = 1 + 8 * _c
                _T = [None] * 256
                _T[0] = []
                for _m in range(1, 256):
                    _lb = _m & -_m
                    _T[_m] = [_row[_base + _lb.bit_length() - 1]] + _T[_m ^ _lb]
                _chunks.append(_T)
            TAB[_r][_i][_p] = _chunks

# INFO[r][text] = (die index, s, t, hit index or 0, s bit, s block bit, t bit, t block/hit bit,
#                  log piece, log piece with noop roll)
INFO = [{}, {}]
for _r in range(2):
    _pid = P_ID[_r]
    for _x, (_i, _s, _t) in ACT[_r].items():
        _ch = chr(_pid[_x])
        _pc = (_ch + "\x00") if _r == 0 else ("\x00" + _ch)
        _h = (25 - _t) if _t < 25 else 0
        INFO[_r][_x] = (_i, _s, _t, _h,
                        (1 << _s) if _s else 0,
                        (1 << (25 - _s)) if _s else 0,
                        (1 << _t) if _h else 0,
                        (1 << _h) if _h else 0,
                        _pc, "\x00" + _pc)
DPC = [chr(P_ID[0][DISCARD]) + "\x00", "\x00" + chr(P_ID[1][DISCARD])]
DPCN = ["\x00" + DPC[0], "\x00" + DPC[1]]
RCH = {t: chr(R_ID[t]) for t in ROLLS_ALL}
OPEN_CH = {t: chr(R_ID[t]) + "\x00\x00" for t in ROLLS_ALL}
ROLL_D = {}
for _a in range(1, 7):
    for _b in range(1, 7):
        ROLL_D[ROLL_T[_a][_b]] = [_a, _b, _a, _b] if _a == _b else [_a, _b, 0, 0]
M18 = 0
for _s in range(1, 19):
    M18 |= 1 << _s
HIGH = 0
for _s in range(25, 31):
    HIGH |= 1 << _s


def _run(pts, dice, r, rolls, n, log, move, roll):
    """Apply the joint move (move, roll) if any, then settle forced moves."""
    while True:
        if move is not None:
            if move == DISCARD:
                dice = [0, 0, 0, 0]
                pc = DPC[r]
                pcn = DPCN[r]
            else:
                i, s, t, h, sb, sbr, tb, hb, pc, pcn = INFO[r][move]
                if r:
                    own = pts[1][:]
                    opp = pts[0]
                else:
                    own = pts[0][:]
                    opp = pts[1]
                c = own[s] - 1
                own[s] = c
                if s:
                    if c == 0:
                        own[26] ^= sb
                    elif c == 1:
                        own[27] ^= sbr
                if h:
                    c = own[t] + 1
                    own[t] = c
                    if c == 1:
                        own[26] ^= tb
                    elif c == 2:
                        own[27] ^= hb
                    if opp[h] == 1:  # hit a lone opponent piece
                        opp = opp[:]
                        opp[h] = 0
                        opp[0] += 1
                        opp[26] ^= hb
                else:
                    own[25] += 1
                pts = [opp, own] if r else [own, opp]
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
        p0 = pts[0]
        p1 = pts[1]
        if p0[25] >= 15 or p1[25] >= 15 or rolls >= MAX_ROLLS:
            return {"pts": pts, "dice": dice, "ctrl": r, "rolls": rolls, "n": n,
                    "pend": None, "log": log, "cur": -4, "legal": []}
        if r:
            own = p1
            opp = p0
        else:
            own = p0
            opp = p1
        blk = opp[27]
        legal = []
        if own[0]:
            bar = MVB[r]
            for i in (0, 1, 2, 3):
                p = dice[i]
                if p and not (blk >> p) & 1:
                    legal.append(bar[i][p])
        else:
            occ = own[26]
            if occ & M18:
                blk |= HIGH
            tab = TAB[r]
            pp = 0
            a = b = c = 0
            for i in (0, 1, 2, 3):
                p = dice[i]
                if p:
                    if p != pp:
                        pp = p
                        m = (occ & ~(blk >> p)) >> 1
                        a = m & 255
                        b = (m >> 8) & 255
                        c = m >> 16
                    t3 = tab[i][p]
                    if a:
                        legal += t3[0][a]
                    if b:
                        legal += t3[1][b]
                    if c:
                        legal += t3[2][c]
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
    red = [0] * 28
    for p, c in ((1, 2), (12, 5), (17, 3), (19, 5)):
        red[p] = c
        red[26] |= 1 << p
        if c >= 2:
            red[27] |= 1 << (25 - p)
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
    if cur >= 0:
        if action in state["legal"]:
            return _run(state["pts"], state["dice"], state["ctrl"], state["rolls"],
                        state["n"], state["log"], action, state["pend"])
        raise ValueError("illegal action: %r" % (action,))
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