# Code world model of 'backgammon', made by ggp synth (answers from the exchange backend, model exchange).
# Node 1: training accuracy 1.0000. See metadata.json.

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

# compact ids for the move log (3 ints per joint move) and their percept texts
R_TEXT = [NOOP] + ROLLS_ALL
R_ID = {t: i for i, t in enumerate(R_TEXT)}
R_DID = ["(did random %s)" % t for t in R_TEXT]
P_TEXT = [[NOOP, DISCARD] + list(ACT[r]) for r in range(2)]
P_ID = [{t: i for i, t in enumerate(P_TEXT[r])} for r in range(2)]
P_DID = [["(did %s %s)" % (ROLES[r], t) for t in P_TEXT[r]] for r in range(2)]


def _legal(pts, r, dice):
    own, opp = pts[r], pts[1 - r]
    srcs = [0] if own[0] else [s for s in range(1, 25) if own[s]]
    can_out = not any(own[s] for s in range(19))
    tx = TXT[r]
    out = []
    for i in range(4):
        p = dice[i]
        if not p:
            continue
        row = tx[i]
        for s in srcs:
            t = s + p
            if t >= 25:
                if not can_out:
                    continue
                t = 25
            elif opp[25 - t] >= 2:
                continue
            out.append(row[s][t])
    return out


def _joint(pts, dice, ctrl, rolls, n, log, move, roll):
    """Apply the controller's move together with random's roll (or noop)."""
    r = ctrl
    if move == DISCARD:
        dice = [0, 0, 0, 0]
    else:
        i, s, t = ACT[r][move]
        own, opp = list(pts[r]), list(pts[1 - r])
        own[s] -= 1
        own[t] += 1
        if t < 25 and opp[25 - t] == 1:  # hit a lone opponent piece
            opp[25 - t] = 0
            opp[0] += 1
        pts = [own, opp] if r == 0 else [opp, own]
        dice = list(dice)
        dice[i] = 0
    if roll is not None:
        a, b = ROLL_I[roll]
        dice = [a, b, a, b] if a == b else [a, b, 0, 0]
        rolls += 1
        ctrl = 1 - r
    ids = [R_ID[roll or NOOP], 0, 0]
    ids[1 + r] = P_ID[r][move]
    return pts, dice, ctrl, rolls, n + 1, log + ids


def _settle(pts, dice, ctrl, rolls, n, log):
    """State after a joint move; steps with a forced move and no roll are applied at once."""
    while True:
        st = {"pts": pts, "dice": dice, "ctrl": ctrl, "rolls": rolls, "n": n,
              "pend": None, "log": log}
        if pts[0][25] >= 15 or pts[1][25] >= 15 or rolls >= MAX_ROLLS:
            st.update(cur=-4, legal=[])
            return st
        legal = _legal(pts, ctrl, dice) or [DISCARD]
        last = legal[0] == DISCARD or sum(1 for d in dice if d) <= 1
        if last:  # random rolls first (role order), then the player moves
            st.update(cur=-1, legal=legal)
            return st
        if len(legal) > 1:
            st.update(cur=ctrl, legal=legal)
            return st
        pts, dice, ctrl, rolls, n, log = _joint(pts, dice, ctrl, rolls, n, log, legal[0], None)


def _start():
    red = [0] * 26
    for p, c in ((1, 2), (12, 5), (17, 3), (19, 5)):
        red[p] = c
    return {"pts": [red, list(red)], "dice": [0, 0, 0, 0], "ctrl": -1, "rolls": 0, "n": 0,
            "pend": None, "log": [], "cur": -1, "legal": []}


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
    args = (state["pts"], state["dice"], state["ctrl"], state["rolls"], state["n"],
            state["log"])
    if cur == -1 and state["ctrl"] == -1:          # opening roll decides control
        ab = ROLL_I.get(action)
        if ab is None or ab[0] == ab[1]:
            raise ValueError("illegal action: %r" % (action,))
        a, b = ab
        return _settle(state["pts"], [a, b, 0, 0], 0 if a > b else 1, 1, 1,
                       state["log"] + [R_ID[action], 0, 0])
    if cur == -1:                                   # roll in a last-move step
        if action not in ROLL_I:
            raise ValueError("illegal action: %r" % (action,))
        if len(state["legal"]) > 1:
            new = dict(state)
            new["pend"] = action
            new["cur"] = state["ctrl"]
            return new
        return _settle(*_joint(*args, state["legal"][0], action))
    if cur >= 0 and action in state["legal"]:
        return _settle(*_joint(*args, action, state["pend"]))
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
    for k in range(0, len(log), 3):
        ri, a0, a1 = log[k], log[k + 1], log[k + 2]
        per = sorted([R_DID[ri], P_DID[0][a0], P_DID[1][a1]])
        h[0].append([P_TEXT[0][a0], per])
        h[1].append([P_TEXT[1][a1], list(per)])
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
