import math as _qd_math

# Cell index = row * 4 + column.
_QD_QNAME = {"top-left": 0, "top-right": 1, "bottom-left": 2, "bottom-right": 3}


def _qd_quad_index(i):
    r, c = divmod(i, 4)
    return (0 if r < 2 else 2) + (0 if c < 2 else 1)


_QD_Q = [_qd_quad_index(_i) for _i in range(16)]
_QD_NB4 = []   # orthogonal neighbours of each cell
_QD_NB5 = []   # neighbours plus the cell itself (Stay)
for _i in range(16):
    _r, _c = divmod(_i, 4)
    _lst = []
    for _dr, _dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        _rr, _cc = _r + _dr, _c + _dc
        if 0 <= _rr < 4 and 0 <= _cc < 4:
            _lst.append(_rr * 4 + _cc)
    _QD_NB4.append(tuple(_lst))
    _QD_NB5.append(tuple(_lst) + (_i,))
_QD_DIST = [[abs(a // 4 - b // 4) + abs(a % 4 - b % 4) for b in range(16)] for a in range(16)]
# Positional value of ending my move at Manhattan distance d from the opponent:
# distance 2 is the ideal "threatening but safe" distance (risk at distance 1 is scored apart).
_QD_POSF = [0.0, 0.3, 1.0, 0.6, 0.3, 0.2, 0.1]
_QD_CACHE = {}


def _qd_spread(b):
    """Opponent makes one move, uniformly among its legal moves (incl. Stay)."""
    nb = [0.0] * 16
    for o in range(16):
        p = b[o]
        if p > 0.0:
            ns = _QD_NB5[o]
            share = p / len(ns)
            for n in ns:
                nb[n] += share
    return nb


def _qd_condition(b, q, excl):
    """Condition a cell distribution on 'in quadrant q' and 'not on cell excl'."""
    out = [0.0] * 16
    tot = 0.0
    for i in range(16):
        if _QD_Q[i] == q and i != excl:
            v = b[i]
            out[i] = v
            tot += v
    if tot <= 0.0:
        cells = [i for i in range(16) if _QD_Q[i] == q and i != excl]
        if cells:
            u = 1.0 / len(cells)
            for i in cells:
                out[i] = u
        return out
    inv = 1.0 / tot
    for i in range(16):
        if out[i]:
            out[i] *= inv
    return out


def policy_prior(state, player_id):
    legal = get_legal_actions(state)
    if not legal:
        return {}
    if player_id not in (0, 1) or state.get("current_player") != player_id:
        return {a: 1.0 for a in legal}

    # Observable data only: my cell, my moves, the opponent's quadrant history, move count.
    pos = state["positions"][player_id]
    my_moves = state["moves"][player_id]
    opp_hist = state["quadrant_history"][1 - player_id]
    made = state["moves_made"]

    key = (player_id, made, pos[0], pos[1], tuple(my_moves), tuple(opp_hist))
    cached = _QD_CACHE.get(key)
    if cached is not None:
        return dict(cached)

    opp = 1 - player_id

    # My own path, rebuilt backwards from my current cell.
    r, c = pos
    path = [r * 4 + c]
    for a in reversed(my_moves):
        dr, dc = STEPS[a]
        r, c = r - dr, c - dc
        path.append(r * 4 + c)
    path.reverse()
    last_k = len(path) - 1

    # Filter: where can the opponent be? (it never shares my cell: that would be a catch)
    default_q = 3 if opp == 1 else 0
    cur_q = _QD_QNAME.get(opp_hist[0], default_q) if opp_hist else default_q
    b = _qd_condition([1.0] * 16, cur_q, path[0])
    k = 0
    j = 0
    for t in range(made):
        if t % 2 == player_id:           # my move
            k += 1
            b = _qd_condition(b, cur_q, path[min(k, last_k)])
        else:                            # opponent's move
            j += 1
            if j < len(opp_hist):
                cur_q = _QD_QNAME.get(opp_hist[j], cur_q)
            b = _qd_condition(_qd_spread(b), cur_q, path[min(k, last_k)])

    # What the opponent can infer about my cell (it only sees my quadrants).
    ob = _qd_condition([1.0] * 16, _QD_Q[path[0]], -1)
    for kk in range(1, len(path)):
        ob = _qd_condition(_qd_spread(ob), _QD_Q[path[kk]], -1)
    ob_next = _qd_spread(ob)

    me = path[-1]
    final_move = made + 1 >= MAX_MOVES   # no reply after this move
    by_quad = {}
    weights = {}
    for a in legal:
        dr, dc = STEPS[a]
        tc = (pos[0] + dr) * 4 + (pos[1] + dc)
        win = 0.0 if (a == "Stay" or tc == me) else b[tc]
        danger = 0.0
        posv = 0.0
        if not final_move:
            qt = _QD_Q[tc]
            bp = by_quad.get(qt)
            if bp is None:
                bp = _qd_condition(ob_next, qt, -1)
                by_quad[qt] = bp
            bc = bp[tc]
            if bc > 0.0:
                for o in _QD_NB4[tc]:
                    po = b[o]                # opponent adjacent to my new cell (and not caught)
                    if po <= 0.0:
                        continue
                    s = 0.0
                    for n in _QD_NB4[o]:
                        s += bp[n]
                    m = 1.0 - bp[o]
                    if s <= 0.0 or m <= 0.0:
                        continue
                    attack = min(1.0, 0.35 + s / m)   # how eagerly it lunges
                    danger += po * attack * bc / s    # chance it picks my cell
            row = _QD_DIST[tc]
            for o in range(16):
                po = b[o]
                if po > 0.0 and o != tc:
                    posv += po * _QD_POSF[row[o]]
        score = win - 1.1 * danger + 0.15 * posv
        weights[a] = max(0.01, _qd_math.exp(5.0 * score))

    if len(_QD_CACHE) > 200000:
        _QD_CACHE.clear()
    _QD_CACHE[key] = weights
    return dict(weights)
