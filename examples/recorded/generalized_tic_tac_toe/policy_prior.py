_GTT_N = 6
_GTT_K = 4


def _gtt_build_windows():
    windows = []
    for r in range(_GTT_N):
        for c in range(_GTT_N):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                er, ec = r + dr * (_GTT_K - 1), c + dc * (_GTT_K - 1)
                if 0 <= er < _GTT_N and 0 <= ec < _GTT_N:
                    windows.append(tuple((r + dr * i) * _GTT_N + (c + dc * i)
                                         for i in range(_GTT_K)))
    cell_windows = [[] for _ in range(_GTT_N * _GTT_N)]
    for wi, w in enumerate(windows):
        for cell in w:
            cell_windows[cell].append(wi)
    return windows, cell_windows


_GTT_WINDOWS, _GTT_CELL_WINDOWS = _gtt_build_windows()
_GTT_MY_W = (1.0, 3.0, 9.0, 0.0)
_GTT_OP_W = (0.0, 2.0, 6.0, 0.0)


def policy_prior(state, player_id):
    board = state["board"]
    p = player_id if player_id in (0, 1) else state.get("current_player", 0)
    if p not in (0, 1):
        return {}
    me = "x" if p == 0 else "o"
    op = "o" if p == 0 else "x"
    n = _GTT_N
    flat = [board[r][c] for r in range(n) for c in range(n)]
    empties = [i for i in range(n * n) if flat[i] == "."]
    if not empties:
        return {}

    windows = _GTT_WINDOWS
    cw = _GTT_CELL_WINDOWS
    nw = len(windows)
    mc = [0] * nw
    oc = [0] * nw
    for wi in range(nw):
        a = b = 0
        for cell in windows[wi]:
            v = flat[cell]
            if v == me:
                a += 1
            elif v == op:
                b += 1
        mc[wi] = a
        oc[wi] = b

    def name(i):
        return "%s(%d,%d)" % (me, i // n, i % n)

    my_win = set()
    op_win = set()
    for i in empties:
        for wi in cw[i]:
            if mc[wi] == 3 and oc[wi] == 0:
                my_win.add(i)
            elif oc[wi] == 3 and mc[wi] == 0:
                op_win.add(i)

    # 1. Win at once.
    if my_win:
        return {name(i): (1000.0 if i in my_win else 0.001) for i in empties}
    # 2. Block the opponent's immediate win.
    if op_win:
        return {name(i): (1000.0 if i in op_win else 0.001) for i in empties}

    # 3. Positional scoring with fork detection.
    result = {}
    for i in empties:
        s = 1.0
        my_threats = set()
        op_threats = set()
        for wi in cw[i]:
            a = mc[wi]
            b = oc[wi]
            if b == 0:
                s += _GTT_MY_W[a]
                if a == 2:
                    for cell in windows[wi]:
                        if cell != i and flat[cell] == ".":
                            my_threats.add(cell)
            if a == 0:
                s += _GTT_OP_W[b]
                if b == 2:
                    for cell in windows[wi]:
                        if cell != i and flat[cell] == ".":
                            op_threats.add(cell)
        if len(my_threats) >= 2:
            s += 1000.0          # double threat: wins next move
        elif my_threats:
            s += 5.0             # forcing single threat
        if len(op_threats) >= 2:
            s += 80.0            # occupy the opponent's fork point
        elif op_threats:
            s += 3.0
        result[name(i)] = s * s
    return result
