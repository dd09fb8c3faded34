# Code world model of 'stratego', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

import copy
import itertools
import random
from collections import defaultdict
from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

ROLES = ["red", "blue"]
PIECES = ["flag", "bomb", "spy", "marshal", "miner", "scout"]
IMMOBILE = {"flag", "bomb"}
ORDER = {"red": [(1, 1), (2, 1), (3, 1), (1, 2), (2, 2), (3, 2)],
         "blue": [(1, 5), (2, 5), (3, 5), (1, 6), (2, 6), (3, 6)]}
_B = {"spy": "flag spy bomb bomb marshal spy miner miner scout scout",
      "marshal": "flag marshal bomb bomb spy marshal miner marshal scout marshal",
      "miner": "flag miner bomb miner spy miner marshal marshal scout miner",
      "scout": "flag scout bomb bomb spy scout marshal marshal miner miner"}
BEATS = {}  # (attacker, defender) -> winner
for _a, _s in _B.items():
    _t = _s.split()
    for _i in range(0, len(_t), 2):
        BEATS[(_a, _t[_i])] = _t[_i + 1]


def _other(r):
    return "blue" if r == "red" else "red"


def _initial_true():
    t = [f"(cell {x} {y} b)" for x in (1, 2, 3) for y in (3, 4)]
    t += [f"(inpool {r} {p})" for r in ROLES for p in PIECES]
    return sorted(t + ["(step 1)", "(turn red)"])


INITIAL_STATE: State = {"history": {"red": [], "blue": []}, "pending": {}, "step": 0,
                        "true": _initial_true()}


def _adj(x, y):
    return [(a, b) for a, b in ((x, y + 1), (x, y - 1), (x + 1, y), (x - 1, y))
            if 1 <= a <= 3 and 1 <= b <= 6]


def _parse(true):
    g = {"cells": set(), "occ": set(), "pool": set(), "step": None, "turn": set(),
         "at": defaultdict(list)}
    for f in true:
        t = f[1:-1].split()
        if t[0] == "cell":
            g["cells"].add((int(t[1]), int(t[2]), t[3]))
            g["at"][(int(t[1]), int(t[2]))].append(t[3])
        elif t[0] == "occupied":
            g["occ"].add((int(t[1]), int(t[2]), t[3]))
        elif t[0] == "inpool":
            g["pool"].add((t[1], t[2]))
        elif t[0] == "step":
            g["step"] = int(t[1])
        elif t[0] == "turn":
            g["turn"].add(t[1])
    return g


def _playing(g):
    return g["step"] not in range(1, 7)


def _any_mobile(g, r):
    if not _playing(g):
        return False
    return any(p not in IMMOBILE and any((a, b, r) not in g["occ"] for a, b in _adj(x, y))
               for x, y, rr in g["occ"] if rr == r for p in g["at"][(x, y)])


def _any_flag(g, r):
    return any((x, y, r) in g["occ"] for x, y, p in g["cells"] if p == "flag")


def _legal(g, r):
    acts, occ, s = [], g["occ"], g["step"]
    if s in range(1, 7):
        x, y = ORDER[r][s - 1]
        acts += [f"(place {x} {y} {p})" for p in PIECES if (r, p) in g["pool"]]
    if _playing(g):
        if r in g["turn"]:
            for x, y, rr in sorted(occ):
                if rr != r:
                    continue
                here = g["at"][(x, y)]
                for p in here:
                    if p not in IMMOBILE:
                        acts += [f"(move {x} {y} {a} {b})" for a, b in _adj(x, y)
                                 if (a, b, r) not in occ]
                if "scout" in here:
                    for a, b in _adj(x, y):
                        if "b" in g["at"][(a, b)]:
                            acts += [f"(move {x} {y} {c} {d})" for c, d in _adj(a, b)
                                     if (c, d, r) not in occ]
            if not _any_mobile(g, r):
                acts.append("noop")
        else:
            acts.append("noop")
    return list(dict.fromkeys(acts))


def _split(a):
    return a[1:-1].split() if a.startswith("(") else [a]


def _next(g, joint):
    out, placed, moves = set(), set(), []
    occ, at = g["occ"], g["at"]
    for r, a in joint.items():
        t = _split(a)
        if t[0] == "place":
            placed.add((r, t[3]))
            out |= {f"(cell {t[1]} {t[2]} {t[3]})", f"(occupied {t[1]} {t[2]} {r})"}
        elif t[0] == "move":
            moves.append((r, *map(int, t[1:5])))
    out |= {f"(inpool {r} {p})" for r, p in g["pool"] if (r, p) not in placed}
    touched = {(m[1], m[2]) for m in moves} | {(m[3], m[4]) for m in moves}
    out |= {f"(cell {x} {y} {p})" for x, y, p in g["cells"] if (x, y) not in touched}
    out |= {f"(occupied {x} {y} {r})" for x, y, r in occ if (x, y) not in touched}
    for r, x0, y0, x, y in moves:
        out.add(f"(cell {x0} {y0} b)")
        if (x, y, _other(r)) not in occ:  # plain move
            out |= {f"(cell {x} {y} {p0})" for p0 in at[(x0, y0)]}
            if (x0, y0, r) in occ:
                out.add(f"(occupied {x} {y} {r})")
        for a, b, rd in occ:  # fight
            if (a, b) != (x, y) or rd == r:
                continue
            for p in at[(x, y)]:
                for p0 in at[(x0, y0)]:
                    w = BEATS.get((p0, p))
                    if p0 == p:
                        out.add(f"(cell {x} {y} b)")
                    elif w == p:
                        out |= {f"(cell {x} {y} {p})", f"(occupied {x} {y} {rd})"}
                    elif w == p0:
                        out |= {f"(cell {x} {y} {p0})", f"(occupied {x} {y} {r})"}
    out |= {f"(turn {_other(t)})" for t in g["turn"]}
    if g["step"] is not None and g["step"] < 51:
        out.add(f"(step {g['step'] + 1})")
    return sorted(out)


def _percepts(g, joint, r):
    ps = set()
    if r in joint:
        ps.add(f"(did {r} {joint[r]})")
    for r2, a in joint.items():
        t = _split(a)
        if t[0] != "move":
            continue
        x0, y0, x, y = map(int, t[1:5])
        if r2 != r:
            ps.add(f"(did {r2} {a})")
        else:  # attacker sees the defender
            if any((x, y, rd) in g["occ"] for rd in ROLES if rd != r):
                ps |= {f"(cell {x} {y} {p})" for p in g["at"][(x, y)]}
        if (x, y, r) in g["occ"]:  # defender sees the attacker
            ps |= {f"(cell {x0} {y0} {p})" for p in g["at"][(x0, y0)]}
    return sorted(ps)


def _terminal(g):
    if g["step"] == 51:
        return True
    if not _playing(g):
        return False
    if not all(_any_flag(g, r) for r in ROLES):
        return True
    return not _any_mobile(g, "red") and not _any_mobile(g, "blue")


def _goals(g):
    fr, fb = _any_flag(g, "red"), _any_flag(g, "blue")
    draw = fr and fb and (g["step"] == 51 or
                          (not _any_mobile(g, "red") and not _any_mobile(g, "blue")))
    res = []
    for own, opp in ((fr, fb), (fb, fr)):
        vals = [0]
        if not opp:
            vals.append(100)
        if draw:
            vals.append(50)
        res.append(float(max(vals)))
    return res


def _chooser(g, pending):
    for i, r in enumerate(ROLES):
        if r not in pending and len(_legal(g, r)) > 1:
            return i
    return None


def _settle(true, step, pending, history):
    for _ in range(1000):
        g = _parse(true)
        if _terminal(g) or _chooser(g, pending) is not None:
            break
        joint = dict(pending)
        for r in ROLES:
            if r not in joint:
                legal = _legal(g, r)
                if len(legal) == 1:
                    joint[r] = legal[0]
        history = {r: history[r] + [[joint.get(r, "noop"), _percepts(g, joint, r)]]
                   for r in ROLES}
        true, step, pending = _next(g, joint), step + 1, {}
    return {"history": history, "pending": pending, "step": step, "true": list(true)}


def get_current_player(state: State) -> int:
    g = _parse(state["true"])
    if _terminal(g):
        return -4
    c = _chooser(g, state["pending"])
    return -4 if c is None else c


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return ROLES[player_id]


def get_legal_actions(state: State) -> list[Action]:
    p = get_current_player(state)
    return [] if p < 0 else _legal(_parse(state["true"]), ROLES[p])


def apply_action(state: State, action: Action) -> State:
    p = get_current_player(state)
    if p < 0:
        raise ValueError("game is over")
    state = copy.deepcopy(state)
    pending = dict(state["pending"])
    pending[ROLES[p]] = action
    return _settle(state["true"], state["step"], pending, state["history"])


def get_rewards(state: State) -> list[float]:
    g = _parse(state["true"])
    if state["pending"] or not _terminal(g):
        return [0.0, 0.0]
    return _goals(g)


def get_observations(state: State) -> list[Observation]:
    pend = state["pending"]
    return [{"role": r, "step": state["step"], "history": copy.deepcopy(state["history"][r]),
             "pending": {r: pend[r]} if r in pend else {}} for r in ROLES]


# ---------------------------------------------------------------- inference

def _cell_seen(percepts, x, y):
    for q in percepts:
        t = _split(q)
        if t[0] == "cell" and int(t[1]) == x and int(t[2]) == y:
            return t[3]
    return None


def _opp_move(percepts, opp):
    pre = f"(did {opp} "
    for q in percepts:
        if q.startswith(pre + "(move "):
            return q[len(pre):-1]
    return None


def _constraints(hist, me, opp):
    """Replay the board with opponent pieces as tokens (placement slot index)."""
    board = {}  # (x, y) -> (role, piece for me / token for opponent)
    fixed, mobile, scouts, imm_sets, need_sets = {}, set(), set(), [], []

    def free(role):
        return [i for (x, y), (r, i) in board.items() if r == role and
                any(board.get(n, (None,))[0] != role for n in _adj(x, y))]

    for k in range(len(hist) + 1):
        if k >= 6 and not any(p not in IMMOBILE for p in free(me)):
            need_sets.append(free(opp))  # opponent must be able to move
        if k == len(hist):
            break
        move, percepts = hist[k]
        if k < 6:
            t = _split(move)
            if t[0] == "place":
                board[(int(t[1]), int(t[2]))] = (me, t[3])
            board[ORDER[opp][k]] = (opp, k)
            continue
        turn = "red" if k % 2 == 0 else "blue"
        mv = move if turn == me else _opp_move(percepts, opp)
        if turn == opp and mv is None:
            imm_sets.append(free(opp))
        if not mv or not mv.startswith("(move "):
            continue
        x0, y0, x, y = map(int, _split(mv)[1:5])
        if (x0, y0) not in board:
            continue
        _, a_id = board.pop((x0, y0))
        if turn == opp:
            mobile.add(a_id)
            if abs(x - x0) + abs(y - y0) != 1:
                scouts.add(a_id)
        target = board.get((x, y))
        if target is None:
            board[(x, y)] = (turn, a_id)
            continue
        d_id = target[1]
        if turn == me:
            a_p, d_p = a_id, _cell_seen(percepts, x, y)
            if d_p:
                fixed[d_id] = d_p
        else:
            a_p, d_p = _cell_seen(percepts, x0, y0), d_id
            if a_p:
                fixed[a_id] = a_p
        if a_p == d_p:
            del board[(x, y)]
        elif BEATS.get((a_p, d_p)) == a_p:
            board[(x, y)] = (turn, a_id)
    return fixed, mobile, scouts, imm_sets, need_sets


def _valid(perm, cons):
    fixed, mobile, scouts, imm_sets, need_sets = cons
    return (all(perm[t] == p for t, p in fixed.items())
            and all(perm[t] not in IMMOBILE for t in mobile)
            and all(perm[t] == "scout" for t in scouts)
            and all(all(perm[t] in IMMOBILE for t in s) for s in imm_sets)
            and all(any(perm[t] not in IMMOBILE for t in s) for s in need_sets))


def resample_history(obs_action_history, player_id: int) -> list[Action]:
    last = obs_action_history[-1][0]
    hist, T = last["history"], last["step"]
    me = ROLES[player_id]
    opp = _other(me)
    cons = _constraints(hist, me, opp)
    perms = [p for p in itertools.permutations(PIECES) if _valid(p, cons)]
    perm = random.choice(perms) if perms else tuple(random.sample(PIECES, 6))
    state, actions = copy.deepcopy(INITIAL_STATE), []
    for _ in range(10000):
        cp, s = get_current_player(state), state["step"]
        if cp == -4 or s > T or (s == T and cp == player_id):
            break
        if cp == player_id:
            a = hist[s][0]
        elif s < 6:
            x, y = ORDER[opp][s]
            a = f"(place {x} {y} {perm[s]})"
        else:
            a = (_opp_move(hist[s][1], opp) if s < len(hist) else None) or "noop"
        actions.append(a)
        state = apply_action(state, a)
    return actions
