# Code world model of 'hex', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

ROLES = ["red", "blue"]
ROWS = "abcdefghi"
COLS = range(1, 10)
MAX_SUCC = 81  # (succ 81 82) is the last succ fact
ADJ = {(0, 1), (0, -1), (1, 0), (-1, 0), (-1, 1), (1, -1)}

INITIAL_STATE: State = {"pending": {}, "step": 0, "true": ["(control red)", "(step 1)"]}


def _parse(true):
    """Split fluents into cells, connected facts, owners, step and control."""
    cells, conn, owners, step, control = set(), [], set(), None, []
    for f in true:
        t = f[1:-1].split() if f.startswith("(") else [f]
        if t[0] == "cell":
            cells.add((t[1], int(t[2]), t[3]))
        elif t[0] == "connected":
            conn.append((int(t[1]), t[2], int(t[3])))
        elif t[0] == "owner":
            owners.add((int(t[1]), t[2]))
        elif t[0] == "step":
            step = int(t[1])
        elif t[0] == "control":
            control.append(t[1])
    return cells, conn, owners, step, control


def _other(role):
    return "blue" if role == "red" else "red"


def _adj(x, y, m, n):
    return (ROWS.index(m) - ROWS.index(x), n - y) in ADJ


def _legal(true, role):
    cells, _, _, _, control = _parse(true)
    acts = []
    if role in control:
        occ = {(r, c) for r, c, _ in cells}
        acts += [f"(place {r} {c})" for r in ROWS for c in COLS if (r, c) not in occ]
    if _other(role) in control:
        acts.append("noop")
    return acts


def _next(true, moves):
    """Apply a joint move (role -> action) following the next rules."""
    cells, conn, owners, step, control = _parse(true)
    out = {f"(cell {r} {c} {ro})" for r, c, ro in cells}
    places = []
    for role, a in moves.items():
        if a.startswith("(place "):
            _, r, c = a[1:-1].split()
            places.append((role, r, int(c)))
            out.add(f"(cell {r} {c} {role})")
    if step is not None and 1 <= step <= MAX_SUCC:
        out.add(f"(step {step + 1})")
    out |= {f"(owner {k} {ro})" for k, ro in owners}
    if step is not None:
        out |= {f"(owner {step} {ro})" for ro in control}
    # groups of the mover adjacent to the placed stone
    transfer = {e for e, m, n in conn for ro, x, y in places
                if (e, ro) in owners and _adj(x, y, m, n)}
    if step is not None:
        out |= {f"(connected {step} {x} {y})" for _, x, y in places}
        out |= {f"(connected {step} {m} {n})" for e, m, n in conn if e in transfer}
    out |= {f"(connected {e} {m} {n})" for e, m, n in conn if e not in transfer}
    out |= {f"(control {_other(ro)})" for ro in control}
    return sorted(out)


def _paths(true):
    """(redpath, bluepath)."""
    _, conn, owners, _, _ = _parse(true)
    groups = {}
    for k, m, n in conn:
        rs, cs = groups.setdefault(k, (set(), set()))
        rs.add(m)
        cs.add(n)
    red = any((k, "red") in owners and "a" in rs and "i" in rs
              for k, (rs, cs) in groups.items())
    blue = any((k, "blue") in owners and 1 in cs and 9 in cs
               for k, (rs, cs) in groups.items())
    return red, blue


def _terminal(true):
    return any(_paths(true))


def _chooser(true, pending):
    """Index of the first role (in order) still to choose with >1 legal moves, else None."""
    for i, role in enumerate(ROLES):
        if role not in pending and len(_legal(true, role)) > 1:
            return i
    return None


def _settle(true, step, pending):
    """Apply joint moves while no role has a choice left; return the resulting state."""
    for _ in range(1000):
        if _terminal(true) or _chooser(true, pending) is not None:
            break
        moves = dict(pending)
        for role in ROLES:
            if role not in moves:
                legal = _legal(true, role)
                if len(legal) == 1:
                    moves[role] = legal[0]
        true, step, pending = _next(true, moves), step + 1, {}
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
    red, blue = _paths(true)
    return [100.0 if red else 0.0, 100.0 if blue else 0.0]


def get_observations(state: State) -> list[Observation]:
    pend = state["pending"]
    return [{"pending": {r: pend[r]} if r in pend else {},
             "step": state["step"], "true": list(state["true"])} for r in ROLES]
