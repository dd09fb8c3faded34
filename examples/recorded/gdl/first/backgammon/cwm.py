# Code world model of 'backgammon', made by ggp synth (answers from the exchange backend, model exchange).
# Node 1: training accuracy 0.9995. See metadata.json.

import functools
import random
from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

ROLES = ["random", "red", "black"]
PLAYERS = ["red", "black"]
ROLLS = tuple(f"(roll_dice {a} {b})" for a in range(1, 7) for b in range(1, 7))
FIRST_ROLLS = tuple(f"(roll_dice {a} {b})" for a in range(1, 7) for b in range(1, 7) if a != b)


def _initial_true():
    init = {("1", "red"): 2, ("6", "black"): 5, ("8", "black"): 3, ("12", "red"): 5,
            ("13", "black"): 5, ("17", "red"): 3, ("19", "red"): 5, ("24", "black"): 2}
    pts = ["bar", "out"] + [str(i) for i in range(1, 25)]
    t = [f"(board_point {p} {init.get((p, r), 0)} {r})" for p in pts for r in PLAYERS]
    return sorted(t + ["(control random)", "(step 0)"])


INITIAL_STATE: State = {"history": {"red": [], "black": []}, "pending": {}, "step": 0,
                        "true": _initial_true()}


def _other(r):
    return "black" if r == "red" else "red"


def _split(a):
    return a[1:-1].split() if a.startswith("(") else [a]


def _parse(true):
    g = {"board": {}, "control": set(), "dice": {}, "step": None}
    for f in true:
        t = _split(f)
        if t[0] == "board_point":
            g["board"][(t[1], t[3])] = int(t[2])
        elif t[0] == "control":
            g["control"].add(t[1])
        elif t[0] == "die":
            g["dice"][int(t[1])] = int(t[2])
        elif t[0] == "step":
            g["step"] = int(t[1])
    return g


def _succ(r, p):
    if p == "out":
        return "out"
    if r == "red":
        return "1" if p == "bar" else "out" if p == "24" else str(int(p) + 1)
    return "24" if p == "bar" else "out" if p == "1" else str(int(p) - 1)


def _further(r, p, pips):
    for _ in range(pips):
        p = _succ(r, p)
    return p


def _out_of_home(r, p):
    if p == "bar":
        return True
    if p == "out":
        return False
    return int(p) <= 18 if r == "red" else int(p) >= 7


def _piece_moves(g, r):
    b, o = g["board"], _other(r)
    if b.get(("bar", r), 0) != 0:
        sources = ["bar"]  # pieces on the bar must enter first
    elif b.get(("bar", r)) == 0:
        sources = [p for (p, rr), n in sorted(b.items()) if rr == r and n != 0 and p != "out"]
    else:
        sources = []
    home = not any(n != 0 and _out_of_home(r, p) for (p, rr), n in b.items() if rr == r)
    acts = []
    for i, pips in sorted(g["dice"].items()):
        for frm in sources:
            to = _further(r, frm, pips)
            ok = home if to == "out" else (to, o) in b and b[(to, o)] < 2
            if ok:
                acts.append(f"(move {i} {frm} {to})")
    return list(dict.fromkeys(acts))


def _legal(g, role, pm):
    """pm: piece moves of each player (computed once per state)."""
    if role == "random":
        if "random" in g["control"]:
            return FIRST_ROLLS
        last = len(g["dice"]) < 2 or any(r in g["control"] and not pm[r] for r in PLAYERS)
        return ROLLS if last else ("noop",)
    if role not in g["control"]:
        return ("noop",)
    return tuple(pm[role]) or ("discard_dice",)


def _terminal(g):
    outs = [g["board"].get(("out", r)) for r in PLAYERS]
    return 15 in outs or g["step"] == 100


@functools.lru_cache(maxsize=16384)
def _analyze(true_t):
    """Cached, read-only analysis of a state's fluents."""
    g = _parse(true_t)
    pm = {r: (_piece_moves(g, r) if r in g["control"] else []) for r in PLAYERS}
    legal = {r: _legal(g, r, pm) for r in ROLES}
    last = "random" not in g["control"] and legal["random"] is ROLLS
    return g, legal, _terminal(g), last


def _next(g, joint, last):
    b, changes, moves = g["board"], {}, []
    for r in PLAYERS:
        t = _split(joint.get(r, "noop"))
        if t[0] == "move":
            moves.append((r, int(t[1]), t[2], t[3]))
    for r, _, frm, to in moves:
        o = _other(r)
        if b.get((frm, r), 0) >= 1:
            changes.setdefault((frm, r), []).append(b[(frm, r)] - 1)
        if (to, r) in b and b[(to, r)] < 15:
            changes.setdefault((to, r), []).append(b[(to, r)] + 1)
        if to != "out" and b.get((to, o)) == 1:  # capture a blot
            changes.setdefault((to, o), []).append(0)
            if ("bar", o) in b and b[("bar", o)] < 15:
                changes.setdefault(("bar", o), []).append(b[("bar", o)] + 1)
    out = set()
    for (p, r), n in b.items():
        for v in changes.get((p, r), [n]):
            out.add(f"(board_point {p} {v} {r})")
    rt = _split(joint.get("random", "noop"))
    roll = rt[0] == "roll_dice"
    d1 = d2 = 0
    if roll:
        d1, d2 = int(rt[1]), int(rt[2])
        out |= {f"(die 1 {d1})", f"(die 2 {d2})"}
        if d1 == d2:
            out |= {f"(die 3 {d1})", f"(die 4 {d1})"}
    for i, pips in g["dice"].items():  # unused dice stay
        if any(mi != i for _, mi, _, _ in moves):
            out.add(f"(die {i} {pips})")
    for c in g["control"]:
        if c == "random":
            if roll and d1 != d2:
                out.add(f"(control {'red' if d1 > d2 else 'black'})")
        elif last:
            out.add(f"(control {_other(c)})")
        else:
            out.add(f"(control {c})")
    if g["step"] is not None:
        if not roll:
            out.add(f"(step {g['step']})")
        elif g["step"] < 100:
            out.add(f"(step {g['step'] + 1})")
    return sorted(out)


def _goals(g):
    outs = {r: g["board"].get(("out", r)) for r in PLAYERS}
    wins = 15 in outs.values()
    timeout = g["step"] == 100 and not wins
    res = []
    for r in PLAYERS:
        n, m = outs[r], outs[_other(r)]
        vals = [0.0]
        if n == 15:
            vals.append(100.0)
        if n is not None and m is not None:
            if timeout and n > m:
                vals.append(75.0)
            if (wins or timeout) and n == m:
                vals.append(50.0)
            if timeout and m > n:
                vals.append(25.0)
        res.append(max(vals))
    return res


def _chooser(legal, pending):
    for r in ROLES:
        if r not in pending and len(legal[r]) > 1:
            return -1 if r == "random" else PLAYERS.index(r)
    return None


def _settle(true, step, pending, history):
    history = {p: list(h) for p, h in history.items()}
    for _ in range(10000):
        g, legal, term, last = _analyze(tuple(true))
        if term or _chooser(legal, pending) is not None:
            break
        joint = dict(pending)
        for r in ROLES:
            if r not in joint and len(legal[r]) == 1:
                joint[r] = legal[r][0]
        percepts = sorted(f"(did {r} {m})" for r, m in joint.items())
        for p in PLAYERS:
            history[p].append([joint.get(p, "noop"), list(percepts)])
        true, step, pending = _next(g, joint, last), step + 1, {}
    return {"history": history, "pending": pending, "step": step, "true": list(true)}


def get_current_player(state: State) -> int:
    _, legal, term, _ = _analyze(tuple(state["true"]))
    if term:
        return -4
    c = _chooser(legal, state["pending"])
    return -4 if c is None else c


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return PLAYERS[player_id]


def _role_of(p):
    return "random" if p == -1 else PLAYERS[p]


def get_legal_actions(state: State) -> list[Action]:
    p = get_current_player(state)
    return [] if p == -4 else list(_analyze(tuple(state["true"]))[1][_role_of(p)])


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    legal = get_legal_actions(state)
    return [(a, 1.0 / len(legal)) for a in legal]


def apply_action(state: State, action: Action) -> State:
    p = get_current_player(state)
    if p == -4:
        raise ValueError("game is over")
    pending = dict(state["pending"])
    pending[_role_of(p)] = action
    return _settle(list(state["true"]), state["step"], pending, state["history"])


def get_rewards(state: State) -> list[float]:
    g, _, term, _ = _analyze(tuple(state["true"]))
    if state["pending"] or not term:
        return [0.0, 0.0]
    return _goals(g)


def get_observations(state: State) -> list[Observation]:
    pend = state["pending"]
    return [{"role": p, "step": state["step"],
             "history": [[m, list(ps)] for m, ps in state["history"][p]],
             "pending": {p: pend[p]} if p in pend else {}} for p in PLAYERS]


def _joint_from_percepts(percepts):
    joint = {}
    for q in percepts:
        if q.startswith("(did "):
            role, move = q[5:-1].split(" ", 1)
            joint[role] = move
    return joint


def resample_history(obs_action_history, player_id: int) -> list[Action]:
    """Everything is public: replay the joint moves read from the player's percepts."""
    last = obs_action_history[-1][0]
    hist, T = last["history"], last["step"]
    state, actions = INITIAL_STATE, []
    for _ in range(100000):
        cp, s = get_current_player(state), state["step"]
        if cp == -4 or s > T or (s == T and cp == player_id):
            break
        joint = _joint_from_percepts(hist[s][1]) if s < len(hist) else {}
        a = joint.get(_role_of(cp))
        if a is None:  # unseen, e.g. a roll chosen just before our turn
            a = random.choice(get_legal_actions(state))
        actions.append(a)
        state = apply_action(state, a)
    return actions
