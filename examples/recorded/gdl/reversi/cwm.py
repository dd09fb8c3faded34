# Code world model of 'reversi', made by ggp synth (answers from the exchange backend, model exchange).
# Node 1: training accuracy 1.0000. See metadata.json.

from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

NAMES = ("black", "red")
FULL = (1 << 64) - 1
_COL1 = sum(1 << (x * 8) for x in range(8))        # y == 1
_COL8 = sum(1 << (x * 8 + 7) for x in range(8))    # y == 8
NOT_Y1 = FULL & ~_COL1
NOT_Y8 = FULL & ~_COL8
DIRS = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]

# shift amount and wrap mask per direction (bit = (x-1)*8 + (y-1))
SHIFTS_L, SHIFTS_R = [], []
for _dx, _dy in DIRS:
    _s = 8 * _dx + _dy
    _m = NOT_Y1 if _dy == 1 else (NOT_Y8 if _dy == -1 else FULL)
    (SHIFTS_L if _s > 0 else SHIFTS_R).append((abs(_s), _m))

# rays of single-bit masks from each square in each direction (length >= 2 only)
RAYS = []
for _i in range(64):
    _x, _y = divmod(_i, 8)
    _rays = []
    for _dx, _dy in DIRS:
        _r = []
        _cx, _cy = _x + _dx, _y + _dy
        while 0 <= _cx < 8 and 0 <= _cy < 8:
            _r.append(1 << (_cx * 8 + _cy))
            _cx += _dx
            _cy += _dy
        if len(_r) >= 2:
            _rays.append(tuple(_r))
    RAYS.append(tuple(_rays))

MOVE_TEXT = ["(move %d %d)" % (i // 8 + 1, i % 8 + 1) for i in range(64)]
MOVE_INDEX = {t: i for i, t in enumerate(MOVE_TEXT)}
CELL_TEXT = [["(cell %d %d %s)" % (i // 8 + 1, i % 8 + 1, n) for i in range(64)]
             for n in NAMES]
CONTROL_TEXT = ["(control %s)" % n for n in NAMES]


def _moves(P, O):
    """Bitboard of empty squares where the owner of P can move."""
    empty = FULL ^ (P | O)
    m = 0
    for s, mask in SHIFTS_L:
        om = O & mask
        t = (P << s) & om
        t |= (t << s) & om
        t |= (t << s) & om
        t |= (t << s) & om
        t |= (t << s) & om
        t |= (t << s) & om
        m |= (t << s) & mask & empty
    for s, mask in SHIFTS_R:
        om = O & mask
        t = (P >> s) & om
        t |= (t >> s) & om
        t |= (t >> s) & om
        t |= (t >> s) & om
        t |= (t >> s) & om
        t |= (t >> s) & om
        m |= (t >> s) & mask & empty
    return m


def _flips(sq, P, O):
    f = 0
    for ray in RAYS[sq]:
        acc = 0
        for b in ray:
            if O & b:
                acc |= b
            elif P & b:
                f |= acc
                break
            else:
                break
    return f


def _play(bb, p, sq):
    """Board after player p places at sq (bb = (black, red))."""
    P, O = (bb[0], bb[1]) if p == 0 else (bb[1], bb[0])
    f = _flips(sq, P, O)
    P |= f | (1 << sq)
    O &= ~f
    return (P, O) if p == 0 else (O, P)


def _make(bb, ctrl, step):
    """Build a state; forced single moves and passes are applied at once."""
    while True:
        P, O = (bb[0], bb[1]) if ctrl == 0 else (bb[1], bb[0])
        m = _moves(P, O)
        if m:
            if m & (m - 1):  # at least two moves: the controller chooses
                return {"b": bb[0], "r": bb[1], "c": ctrl, "s": step, "p": ctrl, "m": m}
            bb = _play(bb, ctrl, m.bit_length() - 1)  # exactly one move: forced
        elif not _moves(O, P):
            return {"b": bb[0], "r": bb[1], "c": ctrl, "s": step, "p": -4, "m": 0}
        # forced move or pass (noop, noop): control switches, step advances
        ctrl = 1 - ctrl
        step += 1


INITIAL_STATE: State = _make(((1 << 27) | (1 << 36), (1 << 28) | (1 << 35)), 0, 0)


def get_current_player(state: State) -> int:
    return state["p"]


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return NAMES[player_id]


def get_legal_actions(state: State) -> list[Action]:
    if state["p"] < 0:
        return []
    m = state["m"]
    out = []
    while m:
        low = m & -m
        out.append(MOVE_TEXT[low.bit_length() - 1])
        m ^= low
    return out


def apply_action(state: State, action: Action) -> State:
    p = state["p"]
    if p < 0:
        raise ValueError("game is over")
    sq = MOVE_INDEX.get(action)
    if sq is None or not (state["m"] >> sq) & 1:
        raise ValueError("illegal action: %r" % (action,))
    bb = _play((state["b"], state["r"]), p, sq)
    return _make(bb, 1 - state["c"], state["s"] + 1)


def get_rewards(state: State) -> list[float]:
    if state["p"] != -4:
        return [0.0, 0.0]
    nb = bin(state["b"]).count("1")
    nr = bin(state["r"]).count("1")
    if nb > nr:
        return [100.0, 0.0]
    if nr > nb:
        return [0.0, 100.0]
    return [50.0, 50.0]


def get_observations(state: State) -> list[Observation]:
    facts = []
    for color, bits in ((0, state["b"]), (1, state["r"])):
        texts = CELL_TEXT[color]
        while bits:
            low = bits & -bits
            facts.append(texts[low.bit_length() - 1])
            bits ^= low
    facts.append(CONTROL_TEXT[state["c"]])
    facts.sort()
    return [{"step": state["s"], "true": list(facts), "pending": {}} for _ in range(2)]
