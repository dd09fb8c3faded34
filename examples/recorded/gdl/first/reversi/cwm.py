# Code world model of 'reversi', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

ROLES = ["black", "red"]
IDX = range(1, 9)
DIRS = [(0, 1), (0, -1), (1, 0), (-1, 0), (-1, 1), (1, 1), (1, -1), (-1, -1)]

INITIAL_STATE: State = {"pending": {}, "step": 0,
                        "true": ["(cell 4 4 black)", "(cell 4 5 red)", "(cell 5 4 red)",
                                 "(cell 5 5 black)", "(control black)"]}


def _other(role):
    return "red" if role == "black" else "black"


def _parse(true):
    """board {(x, y): color} and list of roles in control."""
    board, control = {}, []
    for f in true:
        t = f[1:-1].split()
        if t[0] == "cell":
            board[(int(t[1]), int(t[2]))] = t[3]
        elif t[0] == "control":
            control.append(t[1])
    return board, control


def _flips(board, color, x, y):
    """Opponent cells flanked (flipped) when `color` plays at (x, y)."""
    opp, res = _other(color), []
    for dx, dy in DIRS:
        run, cx, cy = [], x + dx, y + dy
        while 1 <= cx <= 8 and 1 <= cy <= 8 and board.get((cx, cy)) == opp:
            run.append((cx, cy))
            cx, cy = cx + dx, cy + dy
        if run and 1 <= cx <= 8 and 1 <= cy <= 8 and board.get((cx, cy)) == color:
            res += run
    return res


def _moves(board, color):
    return [(x, y) for x in IDX for y in IDX
            if (x, y) not in board and _flips(board, color, x, y)]


def _legal(true, role):
    board, control = _parse(true)
    moves = _moves(board, role)
    acts = [f"(move {x} {y})" for x, y in moves] if role in control else []
    if _other(role) in control or not moves:
        acts.append("noop")
    return acts


def _next(true, joint):
    board, control = _parse(true)
    new = dict(board)
    for role, a in joint.items():
        if a.startswith("(move "):
            _, x, y = a[1:-1].split()
            x, y = int(x), int(y)
            for c in _flips(board, role, x, y):
                new[c] = role
            new[(x, y)] = role
    out = {f"(cell {x} {y} {c})" for (x, y), c in new.items()}
    out |= {f"(control {_other(r)})" for r in control}
    return sorted(out)


def _terminal(true):
    board, _ = _parse(true)
    return not _moves(board, "black") and not _moves(board, "red")


def _chooser(true, pending):
    """First role in order, not yet pending, with more than one legal move."""
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
    board, _ = _parse(true)
    b = sum(1 for c in board.values() if c == "black")
    r = sum(1 for c in board.values() if c == "red")
    if b > r:
        return [100.0, 0.0]
    if r > b:
        return [0.0, 100.0]
    return [50.0, 50.0]


def get_observations(state: State) -> list[Observation]:
    pend = state["pending"]
    return [{"pending": {r: pend[r]} if r in pend else {},
             "step": state["step"], "true": list(state["true"])} for r in ROLES]
