# Code world model of 'amazons_8x8', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

ROLES = ["white", "black"]
DIRS = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]

INITIAL_STATE: State = {"pending": {}, "step": 0, "true": [
    "(cell 1 3 white)", "(cell 1 6 black)", "(cell 3 1 white)", "(cell 3 8 black)",
    "(cell 6 1 white)", "(cell 6 8 black)", "(cell 8 3 white)", "(cell 8 6 black)",
    "(turn white move)"]}


def _other(role):
    return "black" if role == "white" else "white"


def _parse(true):
    """cells {(x, y): piece}, turns [(player, phase)], justmoved [(x, y)]."""
    cells, turns, jm = {}, [], []
    for f in true:
        t = f[1:-1].split()
        if t[0] == "cell":
            cells[(int(t[1]), int(t[2]))] = t[3]
        elif t[0] == "turn":
            turns.append((t[1], t[2]))
        elif t[0] == "justmoved":
            jm.append((int(t[1]), int(t[2])))
    return cells, turns, jm


def _reach(cells, x, y):
    """Squares reachable from (x, y) by queen slides over empty squares."""
    res = []
    for dx, dy in DIRS:
        cx, cy = x + dx, y + dy
        while 1 <= cx <= 8 and 1 <= cy <= 8 and (cx, cy) not in cells:
            res.append((cx, cy))
            cx, cy = cx + dx, cy + dy
    return res


def _legal(true, role):
    cells, turns, jm = _parse(true)
    acts = []
    for player, phase in turns:
        if player != role:
            if "noop" not in acts:
                acts.append("noop")
        elif phase == "move":
            for (x, y), piece in sorted(cells.items()):
                if piece == role:
                    acts += [f"(move {x} {y} {a} {b})" for a, b in _reach(cells, x, y)]
        elif phase == "fire":
            for x, y in jm:
                acts += [f"(fire {a} {b})" for a, b in _reach(cells, x, y)]
    return list(dict.fromkeys(acts))


def _next(true, joint):
    cells, turns, _ = _parse(true)
    out, vacated = set(), set()
    for role, a in joint.items():
        t = a[1:-1].split() if a.startswith("(") else [a]
        if t[0] == "move":
            x1, y1, x2, y2 = map(int, t[1:])
            vacated.add((x1, y1))
            out.add(f"(cell {x2} {y2} {role})")
            out.add(f"(justmoved {x2} {y2})")
        elif t[0] == "fire":
            out.add(f"(cell {t[1]} {t[2]} arrow)")
    out |= {f"(cell {x} {y} {p})" for (x, y), p in cells.items() if (x, y) not in vacated}
    for player, phase in turns:
        if phase == "move":
            out.add(f"(turn {player} fire)")
        elif phase == "fire":
            out.add(f"(turn {_other(player)} move)")
    return sorted(out)


def _terminal(true):
    _, turns, _ = _parse(true)
    return any(not _legal(true, p) for p, _ in turns)


def _chooser(true, pending):
    for i, role in enumerate(ROLES):
        if role not in pending and len(_legal(true, role)) > 1:
            return i
    return None


def _settle(true, step, pending):
    """Apply joint moves automatically while no role has a choice."""
    for _ in range(1000):
        if _terminal(true) or _chooser(true, pending) is not None:
            break
        joint = dict(pending)
        for role in ROLES:
            if role not in joint:
                legal = _legal(true, role)
                if len(legal) == 1:
                    joint[role] = legal[0]
        true, step, pending = _next(true, joint), step + 1, {}
    return {"pending": pending, "step": step, "true": list(true)}


def get_current_player(state: State) -> int:
    if _terminal(state["true"]):
        return -4
    i = _chooser(state["true"], state["pending"])
    return -4 if i is None else i


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return ROLES[player_id]


def get_legal_actions(state: State) -> list[Action]:
    p = get_current_player(state)
    return [] if p < 0 else _legal(state["true"], ROLES[p])


def apply_action(state: State, action: Action) -> State:
    p = get_current_player(state)
    if p < 0:
        raise ValueError("game is over")
    pending = dict(state["pending"])
    pending[ROLES[p]] = action
    return _settle(list(state["true"]), state["step"], pending)


def get_rewards(state: State) -> list[float]:
    true = state["true"]
    if state["pending"] or not _terminal(true):
        return [0.0, 0.0]
    _, turns, _ = _parse(true)
    res = []
    for role in ROLES:
        goals = [0.0]  # goal 0 when it is role's turn (or no rule holds)
        if any(p == _other(role) for p, _ in turns):
            goals.append(100.0)
        res.append(max(goals))
    return res


def get_observations(state: State) -> list[Observation]:
    pend = state["pending"]
    return [{"pending": {r: pend[r]} if r in pend else {},
             "step": state["step"], "true": list(state["true"])} for r in ROLES]
