import math as _qp_math

# --- precomputed board geometry (cell index = row * 4 + column) -------------------
_QP_QUADS = {"top-left": 0, "top-right": 1, "bottom-left": 2, "bottom-right": 3}


def _qp_quad_of(i):
    r, c = divmod(i, 4)
    return (0 if r < 2 else 2) + (0 if c < 2 else 1)


_QP_Q = [_qp_quad_of(_i) for _i in range(16)]
_QP_NB4 = []   # orthogonal neighbours
_QP_NB5 = []   # orthogonal neighbours + the cell itself ("Stay")
for _i in range(16):
    _r, _c = divmod(_i, 4)
    _n = []
    for _dr, _dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        _rr, _cc = _r + _dr, _c + _dc
        if 0 <= _rr < 4 and 0 <= _cc < 4:
            _n.append(_rr * 4 + _cc)
    _QP_NB4.append(tuple(_n))
    _QP_NB5.append(tuple(_n) + (_i,))
_QP_DIST = [[abs(a // 4 - b // 4) + abs(a % 4 - b % 4) for b in range(16)] for a in range(16)]
# value of ending my move at distance d from the opponent (d=1 risk is handled separately)
_QP_POSF = [0.0, 0.3, 1.0, 0.6, 0.3, 0.2, 0.1]
_QP_CACHE = {}


def _qp_propagate(b):
    """One move of an opponent picking uniformly among its legal moves."""
    nb = [0.0] * 16
    for o in range(16):
        p = b[o]
        if p > 0.0:
            ns = _QP_NB5[o]
            share = p / len(ns)
            for n in ns:
                nb[n] += share
    return nb


def _qp_restrict(b, q, excl):
    """Keep only cells of quadrant q (other than excl), renormalised."""
    out = [0.0] * 16
    tot = 0.0
    for i in range(16):
        if _QP_Q[i] == q and i != excl:
            v = b[i]
            out[i] = v
            tot += v
    if tot <= 0.0:
        cells = [i for i in range(16) if _QP_Q[i] == q and i != excl]
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

    # Only what player_id observes: own cell, own moves, opponent quadrant history, move count.
    pos = state["positions"][player_id]
    my_moves = state["moves"][player_id]
    opp_hist = state["quadrant_history"][1 - player_id]
    made = state["moves_made"]

    key = (player_id, made, pos[0], pos[1], tuple(my_moves), tuple(opp_hist))
    hit = _QP_CACHE.get(key)
    if hit is not None:
        return dict(hit)

    opp = 1 - player_id

    # Reconstruct my own path from my current cell and my moves.
    r, c = pos
    path = [r * 4 + c]
    for a in reversed(my_moves):
        dr, dc = STEPS[a]
        r, c = r - dr, c - dc
        path.append(r * 4 + c)
    path.reverse()

    # Belief about the opponent's cell (Bayesian filter over its quadrant history).
    default_q = 3 if opp == 1 else 0
    cur_q = _QP_QUADS.get(opp_hist[0], default_q) if opp_hist else default_q
    b = _qp_restrict([1.0] * 16, cur_q, path[0])
    k = 0
    j = 0
    last_path = len(path) - 1
    for t in range(made):
        if t % 2 == player_id:
            k += 1
            b = _qp_restrict(b, cur_q, path[min(k, last_path)])
        else:
            j += 1
            if j < len(opp_hist):
                cur_q = _QP_QUADS.get(opp_hist[j], cur_q)
            b = _qp_restrict(_qp_propagate(b), cur_q, path[min(k, last_path)])

    # The opponent's belief about me (it sees only my quadrant history).
    ob = _qp_restrict([1.0] * 16, _QP_Q[path[0]], -1)
    for kk in range(1, len(path)):
        ob = _qp_restrict(_qp_propagate(ob), _QP_Q[path[kk]], -1)
    obp = _qp_propagate(ob)

    me = path[-1]
    last = made + 1 >= MAX_MOVES
    restricted = {}
    weights = {}
    for a in legal:
        dr, dc = STEPS[a]
        tc = (pos[0] + dr) * 4 + (pos[1] + dc)
        win = 0.0 if a == "Stay" or tc == me else b[tc]
        danger = 0.0
        posv = 0.0
        if not last:
            qt = _QP_Q[tc]
            bp = restricted.get(qt)
            if bp is None:
                bp = _qp_restrict(obp, qt, -1)
                restricted[qt] = bp
            bc = bp[tc]
            if bc > 0.0:
                for o in _QP_NB4[tc]:
                    po = b[o]
                    if po <= 0.0:
                        continue
                    s = 0.0
                    for n in _QP_NB4[o]:
                        s += bp[n]
                    m = 1.0 - bp[o]
                    if s <= 0.0 or m <= 0.0:
                        continue
                    attack = min(1.0, 0.35 + s / m)
                    danger += po * attack * bc / s
            row = _QP_DIST[tc]
            for o in range(16):
                po = b[o]
                if po > 0.0 and o != tc:
                    posv += po * _QP_POSF[row[o]]
        score = win - 1.1 * danger + 0.15 * posv
        weights[a] = max(0.01, _qp_math.exp(5.0 * score))

    if len(_QP_CACHE) > 200000:
        _QP_CACHE.clear()
    _QP_CACHE[key] = weights
    return dict(weights)
