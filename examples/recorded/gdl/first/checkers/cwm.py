# Code world model of 'checkers', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

ROLES = ["red", "black"]
FILES = "abcdefgh"
OWNER = {"wp": "red", "wk": "red", "bp": "black", "bk": "black"}


def _initial_true():
    t = []
    for sq in ("a1 a3 a4 a5 a7 b2 b4 b5 b6 b8 c1 c3 c4 c5 c7 d2 d4 d5 d6 d8 "
               "e1 e3 e4 e5 e7 f2 f4 f5 f6 f8 g1 g3 g4 g5 g7 h2 h4 h5 h6 h8").split():
        t.append(f"(cell {sq[0]} {sq[1]} b)")
    for sq in "a2 b1 c2 d1 e2 f1 g2 h1 b3 d3 f3 h3".split():
        t.append(f"(cell {sq[0]} {sq[1]} wp)")
    for sq in "a8 c8 e8 g8 h7 f7 d7 b7 a6 c6 e6 g6".split():
        t.append(f"(cell {sq[0]} {sq[1]} bp)")
    t += ["(control red)", "(step 1)", "(piece_count red 12)", "(piece_count black 12)"]
    return sorted(t)


INITIAL_STATE: State = {"pending": {}, "step": 0, "true": _initial_true()}


def _other(r):
    return "black" if r == "red" else "red"


def _valid(x, y):
    return 0 <= x < 8 and 1 <= y <= 8 and (x + y) % 2 == 0


def _parse(true):
    """board {(file index, rank): piece}, control set, step, piece counts."""
    g = {"board": {}, "control": set(), "step": None, "count": {}}
    for f in true:
        t = f[1:-1].split()
        if t[0] == "cell":
            g["board"][(FILES.index(t[1]), int(t[2]))] = t[3]
        elif t[0] == "control":
            g["control"].add(t[1])
        elif t[0] == "step":
            g["step"] = int(t[1])
        elif t[0] == "piece_count":
            g["count"][t[1]] = int(t[2])
    return g


def _sq(s):
    return f"{FILES[s[0]]} {s[1]}"


def _dirs(p):
    dys = [1] if p == "wp" else [-1] if p == "bp" else [1, -1]
    return [(dx, dy) for dx in (1, -1) for dy in dys]


def _jumps(board, r, p, cur):
    """Landing squares of single capturing jumps from cur (current board)."""
    res = []
    if not _valid(*cur):
        return res
    for dx, dy in _dirs(p):
        mid, land = (cur[0] + dx, cur[1] + dy), (cur[0] + 2 * dx, cur[1] + 2 * dy)
        if board.get(land) == "b" and OWNER.get(board.get(mid)) == _other(r):
            res.append(land)
    return res


def _moves(g, r):
    board, acts = g["board"], []
    for src, p in sorted(board.items()):
        if OWNER.get(p) != r or not _valid(*src):
            continue
        for dx, dy in _dirs(p):  # simple steps
            t = (src[0] + dx, src[1] + dy)
            if board.get(t) == "b":
                acts.append(f"(move {p} {_sq(src)} {_sq(t)})")
        for l1 in _jumps(board, r, p, src):
            acts.append(f"(move {p} {_sq(src)} {_sq(l1)})")
            for l2 in _jumps(board, r, p, l1):
                if l2 == src:
                    continue
                acts.append(f"(doublejump {p} {_sq(src)} {_sq(l1)} {_sq(l2)})")
                for l3 in _jumps(board, r, p, l2):
                    if l3 != l1:
                        acts.append(f"(triplejump {p} {_sq(src)} {_sq(l1)} {_sq(l2)} {_sq(l3)})")
    return list(dict.fromkeys(acts))


def _legal(g, r):
    acts = _moves(g, r) if r in g["control"] else []
    if _other(r) in g["control"]:
        acts.append("noop")
    return acts


def _path(a):
    t = a[1:-1].split()
    pts = [(FILES.index(t[i]), int(t[i + 1])) for i in range(2, len(t), 2)]
    return t[0], t[1], pts


def _next(g, joint):
    board, out = g["board"], set()
    new = {}
    removed = set()
    movers = {}
    for r, a in joint.items():
        if a == "noop":
            continue
        kind, p, pts = _path(a)
        movers[r] = kind, pts
        src, dst = pts[0], pts[-1]
        removed |= {src, dst}
        new[src] = "b"
        for a1, a2 in zip(pts, pts[1:]):  # captured squares
            if abs(a2[0] - a1[0]) == 2 and _valid(*a1):
                mid = ((a1[0] + a2[0]) // 2, (a1[1] + a2[1]) // 2)
                if OWNER.get(board.get(mid)) == _other(r):
                    removed.add(mid)
                    new[mid] = "b"
        if r == "red" and dst[1] == 8 and (p == "wp" or kind == "triplejump"):
            p = "wk"
        elif r == "black" and dst[1] == 1 and (p == "bp" or kind == "triplejump"):
            p = "bk"
        new[dst] = p
    for s, p in board.items():
        if movers and _valid(*s) and s not in removed:
            out.add(f"(cell {_sq(s)} {p})")
    out |= {f"(cell {_sq(s)} {p})" for s, p in new.items()}
    for c in g["control"]:
        out.add(f"(control {_other(c)})")
    if g["step"] is not None and g["step"] < 201:
        out.add(f"(step {g['step'] + 1})")
    for r, (kind, pts) in movers.items():
        o = _other(r)
        if r in g["count"]:
            out.add(f"(piece_count {r} {g['count'][r]})")
        if o in g["count"]:
            n = g["count"][o]
            if kind == "move":
                d = 1 if abs(pts[1][0] - pts[0][0]) == 2 else 0
            else:
                d = 2 if kind == "doublejump" else 3
            if n - d >= 0 and (d == 0 or n <= 12):
                out.add(f"(piece_count {o} {n - d})")
    return sorted(out)


def _terminal(g):
    if g["step"] == 102 or 0 in g["count"].values():
        return True
    return any(not _moves(g, r) for r in g["control"])


def _chooser(g, pending):
    for i, r in enumerate(ROLES):
        if r not in pending and len(_legal(g, r)) > 1:
            return i
    return None


def _settle(true, step, pending):
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
        true, step, pending = _next(g, joint), step + 1, {}
    return {"pending": pending, "step": step, "true": list(true)}


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
    pending = dict(state["pending"])
    pending[ROLES[p]] = action
    return _settle(list(state["true"]), state["step"], pending)


def get_rewards(state: State) -> list[float]:
    g = _parse(state["true"])
    if state["pending"] or not _terminal(g):
        return [0.0, 0.0]
    rc, bc = g["count"].get("red"), g["count"].get("black")
    if rc is None or bc is None:
        return [0.0, 0.0]
    if rc > bc:
        return [100.0, 0.0]
    if bc > rc:
        return [0.0, 100.0]
    return [50.0, 50.0]


def get_observations(state: State) -> list[Observation]:
    pend = state["pending"]
    return [{"pending": {r: pend[r]} if r in pend else {},
             "step": state["step"], "true": list(state["true"])} for r in ROLES]
