# Code world model of 'amazons_8x8', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

ROLES = ("white", "black")
DIRS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))


def _sq(x, y):
    return (x - 1) * 8 + (y - 1)


XY = [(i // 8 + 1, i % 8 + 1) for i in range(64)]
RAYS = []
for _x, _y in XY:
    _rs = []
    for _dx, _dy in DIRS:
        _r = []
        _cx, _cy = _x + _dx, _y + _dy
        while 1 <= _cx <= 8 and 1 <= _cy <= 8:
            _r.append(_sq(_cx, _cy))
            _cx += _dx
            _cy += _dy
        if _r:
            _rs.append(tuple(_r))
    RAYS.append(tuple(_rs))
MOVE_T = [["(move %d %d %d %d)" % (XY[s] + XY[t]) for t in range(64)] for s in range(64)]
FIRE_T = ["(fire %d %d)" % XY[t] for t in range(64)]
ACT = {}
for _s in range(64):
    for _t in range(64):
        ACT[MOVE_T[_s][_t]] = (0, _s, _t)
    ACT[FIRE_T[_s]] = (1, -1, _s)
CELL_T = [["(cell %d %d %s)" % (XY[i] + (k,)) for k in ("white", "black", "arrow")]
          for i in range(64)]
JM_T = ["(justmoved %d %d)" % XY[i] for i in range(64)]
TURN_T = [["(turn %s %s)" % (r, p) for p in ("move", "fire")] for r in ROLES]


def _legal(pieces, arrows, turn, phase, jm):
    occ = pieces[0] | pieces[1] | arrows
    out = []
    if phase == 0:
        bits = pieces[turn]
        while bits:
            low = bits & -bits
            s = low.bit_length() - 1
            bits ^= low
            row = MOVE_T[s]
            for ray in RAYS[s]:
                for t in ray:
                    if occ >> t & 1:
                        break
                    out.append(row[t])
    else:
        for ray in RAYS[jm]:
            for t in ray:
                if occ >> t & 1:
                    break
                out.append(FIRE_T[t])
    return out


def _apply(pieces, arrows, turn, phase, jm, n, action):
    kind, s, t = ACT[action]
    if kind == 0:
        pieces = list(pieces)
        pieces[turn] = pieces[turn] & ~(1 << s) | (1 << t)
        return pieces, arrows, turn, 1, t, n + 1
    return pieces, arrows | (1 << t), 1 - turn, 0, -1, n + 1


def _make(pieces, arrows, turn, phase, jm, n):
    while True:
        legal = _legal(pieces, arrows, turn, phase, jm)
        if len(legal) != 1:
            break
        pieces, arrows, turn, phase, jm, n = _apply(pieces, arrows, turn, phase, jm, n,
                                                    legal[0])
    return {"pieces": list(pieces), "arrows": arrows, "turn": turn, "phase": phase,
            "jm": jm, "n": n, "cur": turn if legal else -4, "legal": legal}


INITIAL_STATE: State = _make(
    [sum(1 << _sq(x, y) for x, y in ((1, 3), (3, 1), (6, 1), (8, 3))),
     sum(1 << _sq(x, y) for x, y in ((1, 6), (3, 8), (6, 8), (8, 6)))],
    0, 0, 0, -1, 0)


def get_current_player(state: State) -> int:
    return state["cur"]


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return ROLES[player_id]


def get_legal_actions(state: State) -> list[Action]:
    return list(state["legal"])


def apply_action(state: State, action: Action) -> State:
    if state["cur"] < 0 or action not in state["legal"]:
        raise ValueError("illegal action: %r" % (action,))
    return _make(*_apply(state["pieces"], state["arrows"], state["turn"], state["phase"],
                         state["jm"], state["n"], action))


def get_rewards(state: State) -> list[float]:
    if state["cur"] != -4:
        return [0.0, 0.0]
    r = [100.0, 100.0]
    r[state["turn"]] = 0.0
    return r


def get_observations(state: State) -> list[Observation]:
    facts = []
    for k, bits in enumerate((state["pieces"][0], state["pieces"][1], state["arrows"])):
        while bits:
            low = bits & -bits
            facts.append(CELL_T[low.bit_length() - 1][k])
            bits ^= low
    if state["phase"] == 1:
        facts.append(JM_T[state["jm"]])
    facts.append(TURN_T[state["turn"]][state["phase"]])
    facts.sort()
    return [{"step": state["n"], "true": list(facts), "pending": {}} for _ in range(2)]
