# Code world model of 'stratego', made by ggp synth (answers from the exchange backend, model exchange).
# Node 1: training accuracy 1.0000. See metadata.json.

import json
import random
from itertools import permutations
from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

ROLES = ("red", "blue")
PNAMES = (None, "flag", "bomb", "spy", "marshal", "miner", "scout")
FLAG, BOMB, SPY, MARSHAL, MINER, SCOUT = 1, 2, 3, 4, 5, 6
NOOP = "noop"
SETUP_STEPS = 6      # observed steps 0..5 are placements
MAX_STEP = 50        # fluent (step 51) -> terminal


def _i(x, y):
    return (x - 1) * 6 + (y - 1)


XY = [(i // 6 + 1, i % 6 + 1) for i in range(18)]
ADJ = [tuple(_i(a, b) for a, b in ((x, y - 1), (x, y + 1), (x - 1, y), (x + 1, y))
             if 1 <= a <= 3 and 1 <= b <= 6) for x, y in XY]
SCOUT2 = [tuple((m, t) for m in ADJ[i] for t in ADJ[m] if t != i) for i in range(18)]
ORDER = (tuple(_i(x, y) for y in (1, 2) for x in (1, 2, 3)),
         tuple(_i(x, y) for y in (5, 6) for x in (1, 2, 3)))

PLACE_TEXT = [[None] + ["(place %d %d %s)" % (x, y, PNAMES[p]) for p in range(1, 7)]
              for x, y in XY]
MOVE_TEXT = [["(move %d %d %d %d)" % (XY[i] + XY[j]) for j in range(18)] for i in range(18)]
SEE = [[None] + ["(cell %d %d %s)" % (x, y, PNAMES[p]) for p in range(1, 7)] for x, y in XY]
PLACE_INFO = {PLACE_TEXT[i][p]: (i, p) for i in range(18) for p in range(1, 7)}
MOVE_INFO = {MOVE_TEXT[i][j]: (i, j) for i in range(18) for j in range(18)}
_ALL = [NOOP] + list(PLACE_INFO) + list(MOVE_INFO)
DID = [{a: "(did %s %s)" % (ROLES[r], a) for a in _ALL} for r in (0, 1)]
DID_MOVE_REV = [{DID[r][a]: a for a in MOVE_INFO} for r in (0, 1)]

# (attacker, defender) -> piece that remains on the target
BEATS = {
    (SPY, FLAG): SPY, (SPY, BOMB): BOMB, (SPY, MARSHAL): SPY, (SPY, MINER): MINER,
    (SPY, SCOUT): SCOUT,
    (MARSHAL, FLAG): MARSHAL, (MARSHAL, BOMB): BOMB, (MARSHAL, SPY): MARSHAL,
    (MARSHAL, MINER): MARSHAL, (MARSHAL, SCOUT): MARSHAL,
    (MINER, FLAG): MINER, (MINER, BOMB): MINER, (MINER, SPY): MINER,
    (MINER, MARSHAL): MARSHAL, (MINER, SCOUT): MINER,
    (SCOUT, FLAG): SCOUT, (SCOUT, BOMB): BOMB, (SCOUT, SPY): SCOUT,
    (SCOUT, MARSHAL): MARSHAL, (SCOUT, MINER): MINER,
}
# board value: 0 = blank, else owner * 8 + piece


def _moves(board, r):
    out = {}
    for i in range(18):
        v = board[i]
        if v and (v >> 3) == r and (v & 7) > BOMB:
            row = MOVE_TEXT[i]
            for j in ADJ[i]:
                w = board[j]
                if not w or (w >> 3) != r:
                    out[row[j]] = None
            if (v & 7) == SCOUT:
                for m, t in SCOUT2[i]:
                    if not board[m]:
                        w = board[t]
                        if not w or (w >> 3) != r:
                            out[row[t]] = None
    return list(out)


def _mobile(board, r):
    for i in range(18):
        v = board[i]
        if v and (v >> 3) == r and (v & 7) > BOMB:
            for j in ADJ[i]:
                w = board[j]
                if not w or (w >> 3) != r:
                    return True
    return False


def _step(board, pools, n, hists, joint):
    """Apply a joint move in place on board/pools; return the new histories."""
    if n < SETUP_STEPS:
        ents = []
        for r in (0, 1):
            a = joint[r]
            i, p = PLACE_INFO[a]
            board[i] = r * 8 + p
            pools[r] &= ~(1 << p)
            ents.append([a, [DID[r][a]]])
    else:
        t = n & 1
        o = 1 - t
        a = joint[t]
        if a == NOOP:
            ents = [[NOOP, [DID[0][NOOP]]], [NOOP, [DID[1][NOOP]]]]
        else:
            i, j = MOVE_INFO[a]
            d = DID[t][a]
            pt, po = [d], [DID[o][NOOP], d]
            v, w = board[i], board[j]
            if w:  # attack on an enemy piece
                pa, pd = v & 7, w & 7
                pt.append(SEE[j][pd])
                po.append(SEE[i][pa])
                if pa == pd:
                    board[j] = 0
                elif BEATS[pa, pd] == pa:
                    board[j] = v
            else:
                board[j] = v
            board[i] = 0
            pt.sort()
            po.sort()
            ents = [None, None]
            ents[t] = [a, pt]
            ents[o] = [NOOP, po]
    return [hists[0] + [ents[0]], hists[1] + [ents[1]]]


def _advance(board, pools, n, hists):
    """Build the state at step n, auto-applying steps where nobody has a choice."""
    while True:
        if n >= SETUP_STEPS:
            fr, fb = FLAG in board, (8 + FLAG) in board
            mob = (_mobile(board, 0), _mobile(board, 1))
            if not fr or not fb or not (mob[0] or mob[1]) or n >= MAX_STEP:
                draw = fr and fb
                rew = [100.0 if not fb else (50.0 if draw else 0.0),
                       100.0 if not fr else (50.0 if draw else 0.0)]
                return {"board": board, "pools": pools, "n": n, "pend": [None, None],
                        "cur": -4, "legals": [[], []], "h": hists, "rew": rew}
            t = n & 1
            legals = [[NOOP], [NOOP]]
            if mob[t]:
                legals[t] = _moves(board, t)
        else:
            legals = [[PLACE_TEXT[ORDER[r][n]][p] for p in range(1, 7) if pools[r] >> p & 1]
                      for r in (0, 1)]
        for r in (0, 1):
            if len(legals[r]) > 1:
                return {"board": board, "pools": pools, "n": n, "pend": [None, None],
                        "cur": r, "legals": legals, "h": hists, "rew": [0.0, 0.0]}
        hists = _step(board, pools, n, hists, [legals[0][0], legals[1][0]])
        n += 1


INITIAL_STATE: State = _advance([0] * 18, [126, 126], 0, [[], []])


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
    return list(state["legals"][cur]) if cur >= 0 else []


def apply_action(state: State, action: Action) -> State:
    cur = state["cur"]
    legals = state["legals"]
    if cur < 0 or action not in legals[cur]:
        raise ValueError("illegal action: %r" % (action,))
    pend = list(state["pend"])
    pend[cur] = action
    for r in range(cur + 1, 2):
        if pend[r] is None and len(legals[r]) > 1:
            new = dict(state)
            new["pend"] = pend
            new["cur"] = r
            return new
    joint = [pend[r] if pend[r] is not None else legals[r][0] for r in (0, 1)]
    board, pools, n = list(state["board"]), list(state["pools"]), state["n"]
    hists = _step(board, pools, n, state["h"], joint)
    return _advance(board, pools, n + 1, hists)


def get_rewards(state: State) -> list[float]:
    return list(state["rew"])


def get_observations(state: State) -> list[Observation]:
    obs = []
    for i in (0, 1):
        p = state["pend"][i]
        obs.append({"role": ROLES[i], "step": state["n"],
                    "history": [[e[0], list(e[1])] for e in state["h"][i]],
                    "pending": {ROLES[i]: p} if p is not None else {}})
    return obs


def _norm(x):
    return json.loads(json.dumps(x))


def _replay(perm, pid, H, nf, opp, ask_want, want):
    """Replay with the opponent's setup `perm`; actions list if consistent, else None."""
    o = 1 - pid
    state, actions, asks, checked = INITIAL_STATE, [], [], 0
    while True:
        cur, n = state["cur"], state["n"]
        if cur < 0 or n > nf:
            return None
        if n == nf and cur == pid:
            break
        if cur == pid:
            asks.append(n)
            a = H[n][0]
        elif n < SETUP_STEPS:
            a = PLACE_TEXT[ORDER[o][n]][perm[n]]
        else:
            a = opp.get(n, NOOP)
        if a not in state["legals"][cur]:
            return None
        actions.append(a)
        state = apply_action(state, a)
        h = state["h"][pid]
        while checked < len(h):
            if checked >= len(H):
                return None
            e, g = h[checked], H[checked]
            if e[0] != g[0] or list(e[1]) != list(g[1]):
                return None
            checked += 1
    if asks + [nf] != ask_want or _norm(get_observations(state)[pid]) != want:
        return None
    return actions


def resample_history(obs_action_history, player_id):
    last = obs_action_history[-1][0]
    H, nf = last["history"], last["step"]
    rev = DID_MOVE_REV[1 - player_id]
    opp = {}
    for s in range(SETUP_STEPS, nf):  # opponent's visible moves, else noop
        a = NOOP
        for p in H[s][1]:
            if p in rev:
                a = rev[p]
                break
        opp[s] = a
    ask_want = [ob["step"] for ob, _ in obs_action_history]
    want = _norm(last)
    perms = list(permutations(range(1, 7)))
    random.shuffle(perms)
    for perm in perms:
        res = _replay(perm, player_id, H, nf, opp, ask_want, want)
        if res is not None:
            return res
    return []
