# Code world model of 'small_dominion', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

import copy
import random
from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

ROLES = ["duke", "earl", "random"]
PLAYERS = ["duke", "earl"]
CARDS = ["copper", "silver", "estate", "duchy"]
VALUE = {"copper": 1, "silver": 2, "estate": 0, "duchy": 0}
POINTS = {"estate": 1, "duchy": 4, "copper": 0, "silver": 0}
COST = {"copper": 0, "silver": 2, "estate": 1, "duchy": 3}


def _initial_true():
    t = ["(control random)", "(table 10 estate)", "(table 5 duchy)",
         "(table 30 copper)", "(table 5 silver)"]
    for p in PLAYERS:
        t += [f"(deck {p} {i} {c})" for i, c in enumerate(["copper"] * 4 + ["estate"] * 2)]
        t += [f"(decksize {p} 5)", f"(victory {p} 2)"]
    return sorted(t)


INITIAL_STATE: State = {"history": {"duke": [], "earl": []}, "pending": {}, "step": 0,
                        "true": _initial_true()}


def _parse(true):
    g = {"control": set(), "deck": {}, "decksize": {}, "victory": {}, "money": {}, "table": []}
    for f in true:
        t = f[1:-1].split() if f.startswith("(") else [f]
        k = t[0]
        if k == "control":
            g["control"].add(t[1])
        elif k == "deck":
            g["deck"].setdefault(t[1], {})[int(t[2])] = t[3]
        elif k in ("decksize", "victory", "money"):
            g[k][t[1]] = int(t[2])
        elif k == "table":
            g["table"].append((int(t[1]), t[2]))
    return g


def _deal_targets(g):
    if "random" in g["control"]:
        return ["duke"] if "duke" in g["decksize"] else []
    return [p for p in PLAYERS if p not in g["control"] and p in g["decksize"]]


def _triples(n):
    r = range(n + 1)
    return [(a, b, c) for a in r for b in r if b != a for c in r if c != a and c != b]


def _legal(g, role):
    if role == "random":
        return [f"(deal {p} {a} {b} {c})" for p in _deal_targets(g)
                for a, b, c in _triples(g["decksize"][p])]
    if role not in g["control"]:
        return ["noop"]
    acts = ["(buy copper)"]
    m = g["money"].get(role)
    if m is not None:
        for card in CARDS:
            if COST[card] <= m and any(y != 0 and c == card for y, c in g["table"]):
                if f"(buy {card})" not in acts:
                    acts.append(f"(buy {card})")
    return acts


def _num_legal(g, role):
    if role == "random":
        return sum((n + 1) * n * (n - 1) for n in (g["decksize"][p] for p in _deal_targets(g)))
    return len(_legal(g, role))


def _buys(joint):
    return {r: a[5:-1] for r, a in joint.items() if a.startswith("(buy ")}


def _deal(joint):
    a = joint.get("random", "")
    if a.startswith("(deal "):
        t = a[1:-1].split()
        return t[1], int(t[2]), int(t[3]), int(t[4])
    return None


def _next(g, joint):
    ctrl, buys, deal, out = g["control"], _buys(joint), _deal(joint), set()
    if deal:
        p, *idx = deal
        cards = [g["deck"].get(p, {}).get(i) for i in idx]
        if None not in cards:
            out.add(f"(money {p} {sum(VALUE[c] for c in cards)})")
    for p, d in g["deck"].items():
        out |= {f"(deck {p} {i} {c})" for i, c in d.items()}
    for p, n in g["decksize"].items():
        if p in buys:
            out.add(f"(deck {p} {n + 1} {buys[p]})")
        out.add(f"(decksize {p} {n + 1 if p in ctrl else n})")
    for p, v in g["victory"].items():
        if p not in ctrl:
            out.add(f"(victory {p} {v})")
        if p in buys:
            out.add(f"(victory {p} {v + POINTS[buys[p]]})")
    for x, card in g["table"]:
        if "random" in ctrl:
            out.add(f"(table {x} {card})")
        for bought in buys.values():
            if bought != card:
                out.add(f"(table {x} {card})")
            elif x >= 1:
                out.add(f"(table {x - 1} {card})")
    for c in ctrl:
        out.add(f"(control {'earl' if c == 'duke' else 'duke'})")
    return sorted(out)


def _percepts(g, joint, role):
    ps, deal = set(), _deal(joint)
    if deal and deal[0] == role:
        ps.add(f"(hand {deal[1]} {deal[2]} {deal[3]})")
    for card in _buys(joint).values():
        ps |= {f"(table {y - 1} {card})" for y, c in g["table"] if c == card and y >= 1}
    return sorted(ps)


def _terminal(g):
    zero = {c for y, c in g["table"] if y == 0}
    return "duchy" in zero or "copper" in zero or {"estate", "silver"} <= zero


def _goal(g, p):
    x, best = g["victory"].get(p), 0
    if x is None:
        return 0
    for q, y in g["victory"].items():
        if q != p:
            best = max(best, 100 if x > y else 50 if x == y else 0)
    return best


def _chooser(g, pending):
    for i, role in enumerate(ROLES):
        if role not in pending and _num_legal(g, role) > 1:
            return -1 if role == "random" else i
    return None


def _settle(true, step, pending, history):
    """Apply joint moves while no role is left to choose."""
    for _ in range(10000):
        g = _parse(true)
        if _terminal(g) or _chooser(g, pending) is not None:
            break
        joint = dict(pending)
        for role in ROLES:
            if role not in joint and _num_legal(g, role) == 1:
                joint[role] = _legal(g, role)[0]
        history = {p: history[p] + [[joint.get(p, "noop"), _percepts(g, joint, p)]]
                   for p in PLAYERS}
        true, step, pending = _next(g, joint), step + 1, {}
    return {"history": history, "pending": pending, "step": step, "true": list(true)}


def get_current_player(state: State) -> int:
    g = _parse(state["true"])
    if _terminal(g):
        return -4
    c = _chooser(g, state["pending"])
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
    return [] if p == -4 else _legal(_parse(state["true"]), _role_of(p))


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    legal = get_legal_actions(state)
    return [(a, 1.0 / len(legal)) for a in legal]


def apply_action(state: State, action: Action) -> State:
    p = get_current_player(state)
    if p == -4:
        raise ValueError("game is over")
    state = copy.deepcopy(state)
    pending = dict(state["pending"])
    pending[_role_of(p)] = action
    return _settle(state["true"], state["step"], pending, state["history"])


def get_rewards(state: State) -> list[float]:
    g = _parse(state["true"])
    if state["pending"] or not _terminal(g):
        return [0.0, 0.0]
    return [float(_goal(g, p)) for p in PLAYERS]


def get_observations(state: State) -> list[Observation]:
    pend = state["pending"]
    return [{"role": p, "step": state["step"], "history": copy.deepcopy(state["history"][p]),
             "pending": {p: pend[p]} if p in pend else {}} for p in PLAYERS]


def _bought(percepts):
    """The buy revealed by a table percept, or None."""
    for q in percepts:
        if q.startswith("(table "):
            return f"(buy {q[1:-1].split()[2]})"
    return None


def _resample_deal(state, hist, s, me):
    g = _parse(state["true"])
    p = _deal_targets(g)[0]
    if p == me:  # own hands are known
        for q in hist[s][1]:
            if q.startswith("(hand "):
                return f"(deal {me} {q[6:-1]})"
    # opponent: pick a hand that pays for the card it buys next step
    b = _bought(hist[s + 1][1]) if s + 1 < len(hist) else None
    need = COST.get(b[5:-1], 0) if b else 0
    deck, all_t = g["deck"][p], _triples(g["decksize"][p])
    cands = [t for t in all_t if sum(VALUE[deck[i]] for i in t) >= need] or all_t
    a, b2, c = random.choice(cands)
    return f"(deal {p} {a} {b2} {c})"


def resample_history(obs_action_history, player_id: int) -> list[Action]:
    last = obs_action_history[-1][0]
    hist, T = last["history"], last["step"]
    me = PLAYERS[player_id]
    state, actions = copy.deepcopy(INITIAL_STATE), []
    for _ in range(100000):
        cp, s = get_current_player(state), state["step"]
        if cp == -4 or s > T or s >= len(hist) or (s == T and cp == player_id):
            break
        move, percepts = hist[s]
        if cp == player_id:
            a = move
        elif cp == -1:
            a = _resample_deal(state, hist, s, me)
        else:
            a = _bought(percepts) or "(buy copper)"
        actions.append(a)
        state = apply_action(state, a)
    return actions
