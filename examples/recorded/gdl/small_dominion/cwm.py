# Code world model of 'small_dominion', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

import random
from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

ROLES = ("duke", "earl")
CARDS = ("copper", "silver", "estate", "duchy")
COPPER, SILVER, ESTATE, DUCHY = 0, 1, 2, 3
VALUE = (1, 2, 0, 0)
POINTS = (0, 0, 1, 4)
COST = (0, 2, 1, 3)
BUY_T = ["(buy %s)" % c for c in CARDS]
BUY_I = {t: k for k, t in enumerate(BUY_T)}
CARD_I = {c: k for k, c in enumerate(CARDS)}
TABLE_T = [["(table %d %s)" % (x, c) for x in range(31)] for c in CARDS]

_DEALS = {}   # (player, decksize) -> list of deal texts
DEAL_I = {}   # deal text -> (player, a, b, c, hand percept)


def _deals(p, x):
    lst = _DEALS.get((p, x))
    if lst is None:
        lst = []
        for a in range(x + 1):
            for b in range(x + 1):
                if b == a:
                    continue
                for c in range(x + 1):
                    if c != a and c != b:
                        t = "(deal %s %d %d %d)" % (ROLES[p], a, b, c)
                        lst.append(t)
                        DEAL_I[t] = (p, a, b, c, "(hand %d %d %d)" % (a, b, c))
        _DEALS[p, x] = lst
    return lst


def _buys(m, table):
    out = [BUY_T[COPPER]]
    for k in (SILVER, ESTATE, DUCHY):
        if m >= COST[k] and table[k] != 0:
            out.append(BUY_T[k])
    return out


def _terminal(table):
    return table[DUCHY] == 0 or table[COPPER] == 0 or (table[ESTATE] == 0 and table[SILVER] == 0)


_DECK0 = [COPPER, COPPER, COPPER, COPPER, ESTATE, ESTATE]
INITIAL_STATE: State = {"n": 0, "ctrl": -1, "decks": [list(_DECK0), list(_DECK0)],
                        "vic": [2, 2], "table": [30, 5, 10, 5], "m": 0, "pend": None,
                        "cur": -1, "h": [[], []]}


def get_current_player(state: State) -> int:
    return state["cur"]


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return ROLES[player_id]


def _dealt(state):
    return 0 if state["ctrl"] == -1 else 1 - state["ctrl"]


def get_legal_actions(state: State) -> list[Action]:
    cur = state["cur"]
    if cur == -1:
        d = _dealt(state)
        return list(_deals(d, len(state["decks"][d]) - 1))
    if cur >= 0:
        return _buys(state["m"], state["table"])
    return []


def apply_action(state: State, action: Action) -> State:
    cur = state["cur"]
    if cur >= 0:
        if action not in _buys(state["m"], state["table"]):
            raise ValueError("illegal action: %r" % (action,))
        new = dict(state)
        new["pend"] = action
        new["cur"] = -1
        return new
    if cur != -1:
        raise ValueError("game is over")
    d = _dealt(state)
    decks = state["decks"]
    info = DEAL_I.get(action)
    if info is None:
        _deals(d, len(decks[d]) - 1)
        info = DEAL_I.get(action)
    if info is None or info[0] != d or max(info[1:4]) >= len(decks[d]):
        raise ValueError("illegal action: %r" % (action,))
    _, a, b, c, hand = info
    ctrl = state["ctrl"]
    table, vic = state["table"], state["vic"]
    h = state["h"]
    if ctrl == -1:
        ent = [["noop", [hand]], ["noop", []]]
    else:
        buy = state["pend"] or _buys(state["m"], table)[0]
        k = BUY_I[buy]
        decks = [list(decks[0]), list(decks[1])]
        decks[ctrl].append(k)
        vic = list(vic)
        vic[ctrl] += POINTS[k]
        table = list(table)
        table[k] -= 1
        t = TABLE_T[k][table[k]]
        ent = [None, None]
        ent[ctrl] = [buy, [t]]
        ent[d] = ["noop", sorted([hand, t])]
    dk = decks[d]
    m = VALUE[dk[a]] + VALUE[dk[b]] + VALUE[dk[c]]
    if _terminal(table):
        cur = -4
    else:
        cur = d if len(_buys(m, table)) > 1 else -1
    return {"n": state["n"] + 1, "ctrl": d, "decks": decks, "vic": vic, "table": table,
            "m": m, "pend": None, "cur": cur, "h": [h[0] + [ent[0]], h[1] + [ent[1]]]}


def get_rewards(state: State) -> list[float]:
    if state["cur"] != -4:
        return [0.0, 0.0]
    a, b = state["vic"]
    if a > b:
        return [100.0, 0.0]
    if b > a:
        return [0.0, 100.0]
    return [50.0, 50.0]


def get_observations(state: State) -> list[Observation]:
    obs = []
    for i in (0, 1):
        pend = state["pend"] if state["ctrl"] == i else None
        obs.append({"role": ROLES[i], "step": state["n"],
                    "history": [[e[0], list(e[1])] for e in state["h"][i]],
                    "pending": {ROLES[i]: pend} if pend is not None else {}})
    return obs


def _bought(percepts):
    for t in percepts:
        if t.startswith("(table "):
            return CARD_I[t[1:-1].split()[-1]]
    return COPPER


def _sample_deal(o, deck, cost):
    x = len(deck)
    for _ in range(2000):
        a, b, c = random.sample(range(x), 3)
        if VALUE[deck[a]] + VALUE[deck[b]] + VALUE[deck[c]] >= cost:
            return a, b, c
    ok = [(a, b, c) for a in range(x) for b in range(x) for c in range(x)
          if a != b and a != c and b != c
          and VALUE[deck[a]] + VALUE[deck[b]] + VALUE[deck[c]] >= cost]
    return random.choice(ok) if ok else tuple(random.sample(range(x), 3))


def resample_history(obs_action_history, player_id):
    last = obs_action_history[-1][0]
    H, nf = last["history"], last["step"]
    P, O = player_id, 1 - player_id
    state, actions = INITIAL_STATE, []
    while not (state["n"] == nf and state["cur"] == P):
        n, cur = state["n"], state["cur"]
        if cur == -4 or n > nf:
            break
        if cur == P:
            a = H[n][0]
        elif cur == O:
            a = BUY_T[_bought(H[n][1])]
        elif _dealt(state) == P:
            hand = next(t for t in H[n][1] if t.startswith("(hand "))
            a = "(deal %s %s)" % (ROLES[P], hand[6:-1])
        else:
            cost = COST[_bought(H[n + 1][1])] if n + 1 < nf else 0
            a = "(deal %s %d %d %d)" % ((ROLES[O],) + tuple(_sample_deal(O, state["decks"][O], cost)))
        actions.append(a)
        state = apply_action(state, a)
    return actions
