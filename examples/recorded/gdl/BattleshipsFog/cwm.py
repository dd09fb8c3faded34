# Code world model of 'BattleshipsFog', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

import random
from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

ROLES = ("admiral", "commodore")
MAX_ROUND = 30


def _c(x, y):
    return (x - 1) * 4 + (y - 1)


CXY = [(c // 4 + 1, c % 4 + 1) for c in range(16)]
PAIRS = []  # ordered adjacent pairs of cells
for _a in range(16):
    for _b in range(16):
        (_x1, _y1), (_x2, _y2) = CXY[_a], CXY[_b]
        if abs(_x1 - _x2) + abs(_y1 - _y2) == 1:
            PAIRS.append((_a, _b))
NP = len(PAIRS)
PMASK = [(1 << a) | (1 << b) for a, b in PAIRS]
PAIR_S = ["%d %d %d %d" % (CXY[a] + CXY[b]) for a, b in PAIRS]

SETUP_T = ["(setup %s %s)" % (PAIR_S[a], PAIR_S[c]) for a in range(NP) for c in range(NP)]
SETUP_I = {t: divmod(i, NP) for i, t in enumerate(SETUP_T)}
DOSCAN_T, DOSCAN_I, DOSCAN_BY = [], {}, {}
for _a in range(NP):
    for _b in range(NP):
        if not PMASK[_a] & PMASK[_b]:
            _t = "(doscan %s %s)" % (PAIR_S[_a], PAIR_S[_b])
            DOSCAN_T.append(_t)
            DOSCAN_I[_t] = (_a, _b)
            DOSCAN_BY[_a, _b] = _t
FIRE_T = ["(fire %d %d)" % CXY[c] for c in range(16)]
FIRE_I = {t: c for c, t in enumerate(FIRE_T)}
MOVE_T = ["(move %s)" % PAIR_S[p] for p in range(NP)]
MOVES_FOR = [[MOVE_T[t] for t in range(NP) if PMASK[t] & PMASK[p]] for p in range(NP)]
PLAYER_LEGAL = [FIRE_T + MOVES_FOR[p] + ["scan"] for p in range(NP)]
PLAYER_LEGAL_SET = [frozenset(l) for l in PLAYER_LEGAL]
POSITION_T = [["(position %s %s)" % (r, PAIR_S[p]) for p in range(NP)] for r in ROLES]
POSITION_I = {t: p for r in range(2) for p, t in enumerate(POSITION_T[r])}
GHOST_T = ["(ghostship %s)" % PAIR_S[p] for p in range(NP)]
GHOST_I = {t: p for p, t in enumerate(GHOST_T)}
HEALTH_T = [["(health %s %d)" % (r, hp) for hp in range(3)] for r in ROLES]

INITIAL_STATE: State = {"n": 0, "pos": [-1, -1], "hp": [2, 2], "ctrl": 0, "pend": None,
                        "cur": -1, "h": [[], []]}


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
        return list(SETUP_T if state["n"] == 0 else DOSCAN_T)
    if cur >= 0:
        return list(PLAYER_LEGAL[state["pos"][cur]])
    return []


def _resolve(state, ga, gb):
    """Apply the pending controller move together with doscan (ga, gb)."""
    p = state["ctrl"]
    o = 1 - p
    a = state["pend"]
    pos = state["pos"]
    hp = list(state["hp"])
    per = [[], []]
    c = FIRE_I.get(a)
    if c is not None:
        if PMASK[pos[o]] >> c & 1:
            hp[o] -= 1
            t = HEALTH_T[o][hp[o]]
            per[0].append(t)
            per[1].append(t)
        per[o] += [GHOST_T[pos[p]], GHOST_T[ga], GHOST_T[gb]]
    elif a == "scan":
        per[p] += [GHOST_T[pos[o]], GHOST_T[ga], GHOST_T[gb]]
    ent = [None, None]
    ent[p] = [a, sorted(set(per[p]))]
    ent[o] = ["noop", sorted(set(per[o]))]
    n = state["n"] + 1
    h = [state["h"][0] + [ent[0]], state["h"][1] + [ent[1]]]
    term = hp[0] == 0 or hp[1] == 0 or n >= MAX_ROUND
    return {"n": n, "pos": pos, "hp": hp, "ctrl": o, "pend": None,
            "cur": -4 if term else o, "h": h}


def apply_action(state: State, action: Action) -> State:
    cur = state["cur"]
    if cur == -1 and state["n"] == 0:
        a, c = SETUP_I[action]
        h = [[["noop", [POSITION_T[0][a]]]], [["noop", [POSITION_T[1][c]]]]]
        return {"n": 1, "pos": [a, c], "hp": list(state["hp"]), "ctrl": 0, "pend": None,
                "cur": 0, "h": h}
    if cur == -1:
        ga, gb = DOSCAN_I[action]
        return _resolve(state, ga, gb)
    if cur >= 0 and action in PLAYER_LEGAL_SET[state["pos"][cur]]:
        new = dict(state)
        new["pend"] = action
        new["cur"] = -1
        return new
    raise ValueError("illegal action: %r" % (action,))


def get_rewards(state: State) -> list[float]:
    if state["cur"] != -4:
        return [0.0, 0.0]
    a, c = state["hp"]
    if a > c:
        return [100.0, 0.0]
    if c > a:
        return [0.0, 100.0]
    return [50.0, 50.0]


def get_observations(state: State) -> list[Observation]:
    obs = []
    for i in (0, 1):
        pend = state["pend"] if state["ctrl"] == i else None
        obs.append({"role": ROLES[i], "step": state["n"],
                    "history": [[e[0], list(e[1])] for e in state["h"][i]],
                    "pending": {ROLES[i]: pend} if pend is not None else {}})
    return obs


def _ghost_ok(g, p):
    """Can ghost set g be {real position p} plus two disjoint doscan pairs?"""
    if p not in g:
        return False
    rest = list(g - {p})
    if len(g) == 3:
        return not PMASK[rest[0]] & PMASK[rest[1]]
    if len(g) == 2:
        return not PMASK[rest[0]] & PMASK[p]
    return False


def _doscan_for(g, p):
    pair = list(g - {p}) if len(g) == 3 else [p, next(iter(g - {p}))]
    random.shuffle(pair)
    return DOSCAN_BY[pair[0], pair[1]]


def resample_history(obs_action_history, player_id):
    last = obs_action_history[-1][0]
    H, nf = last["history"], last["step"]
    P = player_id
    if nf == 0:
        return []
    own = POSITION_I[H[0][1][0]]
    own_mask = PMASK[own]
    steps = []  # (controller, move, ghost set, hit)
    for k in range(1, nf):
        mv, per = H[k][0], H[k][1]
        g = {GHOST_I[t] for t in per if t in GHOST_I}
        hit = any(t.startswith("(health ") for t in per)
        steps.append(((k - 1) % 2, mv, g, hit))
    cands = []
    for p in range(NP):
        ok = True
        for ctrl, mv, g, hit in steps:
            if ctrl == P:
                if mv in FIRE_I and hit != bool(PMASK[p] >> FIRE_I[mv] & 1):
                    ok = False
                elif mv == "scan" and not _ghost_ok(g, p):
                    ok = False
            elif g and not _ghost_ok(g, p):
                ok = False
            if not ok:
                break
        if ok:
            cands.append(p)
    opp = random.choice(cands or list(range(NP)))
    actions = [SETUP_T[own * NP + opp] if P == 0 else SETUP_T[opp * NP + own]]
    for ctrl, mv, g, hit in steps:
        if ctrl == P:
            a = mv
            d = _doscan_for(g, opp) if mv == "scan" and _ghost_ok(g, opp) \
                else random.choice(DOSCAN_T)
        elif g:
            cells = [c for c in range(16) if bool(own_mask >> c & 1) == hit]
            a = FIRE_T[random.choice(cells)]
            d = _doscan_for(g, opp) if _ghost_ok(g, opp) else random.choice(DOSCAN_T)
        else:
            a = random.choice(["scan"] + MOVES_FOR[opp])
            d = random.choice(DOSCAN_T)
        actions += [a, d]
    return actions
