_G4_SIZE = 6
_G4_LEN = 4


def _g4_make_lines():
    lines = []
    for r in range(_G4_SIZE):
        for c in range(_G4_SIZE):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                er = r + dr * (_G4_LEN - 1)
                ec = c + dc * (_G4_LEN - 1)
                if 0 <= er < _G4_SIZE and 0 <= ec < _G4_SIZE:
                    lines.append(tuple((r + dr * k) * _G4_SIZE + (c + dc * k)
                                       for k in range(_G4_LEN)))
    by_cell = [[] for _ in range(_G4_SIZE * _G4_SIZE)]
    for li, line in enumerate(lines):
        for cell in line:
            by_cell[cell].append(li)
    return lines, by_cell


_G4_LINES, _G4_BY_CELL = _g4_make_lines()
# value of extending my own (opponent-free) line that already holds k of my marks
_G4_ATTACK = (1.0, 3.0, 9.0, 0.0, 0.0)
# value of spoiling an opponent (me-free) line that holds k opponent marks
_G4_DEFEND = (0.0, 2.0, 6.0, 0.0, 0.0)


def policy_prior(state, player_id):
    board = state["board"]
    p = player_id if player_id in (0, 1) else state.get("current_player", 0)
    if p not in (0, 1):
        return {}
    me = "x" if p == 0 else "o"
    op = "o" if p == 0 else "x"
    size = _G4_SIZE
    flat = [board[r][c] for r in range(size) for c in range(size)]
    empties = [i for i in range(size * size) if flat[i] == "."]
    if not empties:
        return {}

    lines = _G4_LINES
    by_cell = _G4_BY_CELL
    nl = len(lines)
    mine = [0] * nl
    theirs = [0] * nl
    for li in range(nl):
        a = b = 0
        for cell in lines[li]:
            v = flat[cell]
            if v == me:
                a += 1
            elif v == op:
                b += 1
        mine[li] = a
        theirs[li] = b

    def act(i):
        return "%s(%d,%d)" % (me, i // size, i % size)

    win_now = set()
    must_block = set()
    for i in empties:
        for li in by_cell[i]:
            if mine[li] == 3 and theirs[li] == 0:
                win_now.add(i)
            elif theirs[li] == 3 and mine[li] == 0:
                must_block.add(i)

    if win_now:
        return {act(i): (1000.0 if i in win_now else 0.001) for i in empties}
    if must_block:
        return {act(i): (1000.0 if i in must_block else 0.001) for i in empties}

    out = {}
    for i in empties:
        s = 1.0
        my_next = set()
        op_next = set()
        for li in by_cell[i]:
            a = mine[li]
            b = theirs[li]
            if b == 0:
                s += _G4_ATTACK[a]
                if a == 2:
                    for cell in lines[li]:
                        if cell != i and flat[cell] == ".":
                            my_next.add(cell)
            if a == 0:
                s += _G4_DEFEND[b]
                if b == 2:
                    for cell in lines[li]:
                        if cell != i and flat[cell] == ".":
                            op_next.add(cell)
        if len(my_next) >= 2:
            s += 1000.0      # two separate winning threats: opponent cannot stop both
        elif my_next:
            s += 5.0         # forcing move
        if len(op_next) >= 2:
            s += 80.0        # take away the opponent's double-threat square
        elif op_next:
            s += 3.0
        out[act(i)] = s * s
    return out
