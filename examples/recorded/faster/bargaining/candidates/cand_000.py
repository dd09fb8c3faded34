# Code world model of 'bargaining' (faster version with identical behaviour).

import copy
import random
import re
from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

CHANCE, TERMINAL = -1, -4
MAX_OFFERS = 10

INITIAL_STATE: State = {
    "agreed": False, "current_player": CHANCE, "discount_factor": 1.0, "ended": False,
    "move_number": 0, "next_player": 0, "offers": [], "pool": None,
    "rewards": [0.0, 0.0], "values": None,
}

_OFFER_RE = re.compile(r"Offer: Book: (\d+), Hat: (\d+), Basketball: (\d+)")
_DEAL_RE = re.compile(r"Deal pool (\d+),(\d+),(\d+); player 0 values (\d+),(\d+),(\d+); "
                      r"player 1 values (\d+),(\d+),(\d+)")


def _csv(xs) -> str:
    return ",".join(str(x) for x in xs)


def _deal_str(pool, v0, v1) -> str:
    return f"Deal pool {_csv(pool)}; player 0 values {_csv(v0)}; player 1 values {_csv(v1)}"


def _offer_str(q) -> str:
    return f"Offer: Book: {q[0]}, Hat: {q[1]}, Basketball: {q[2]}"


def _value_vectors(pool):
    """All valuations (0..10 each) making the pool worth exactly 10."""
    B, H, K = pool
    out = []
    for b in range(11):
        for h in range(11):
            rest = 10 - b * B - h * H
            if rest >= 0 and rest % K == 0 and rest // K <= 10:
                out.append((b, h, rest // K))
    return out


def _all_deals():
    deals = []
    for B in range(1, 6):
        for H in range(1, 6):
            for K in range(1, 6):
                if not 5 <= B + H + K <= 7:
                    continue
                pool = (B, H, K)
                vecs = _value_vectors(pool)
                for v0 in vecs:
                    for v1 in vecs:
                        if any(a == 0 and b == 0 for a, b in zip(v0, v1)):
                            continue  # a kind worthless to both
                        if not any(a > 0 and b > 0 for a, b in zip(v0, v1)):
                            continue  # no kind valued by both
                        deals.append((pool, v0, v1))
    return deals


_DEALS = _all_deals()
_DEAL_ACTIONS = [_deal_str(*d) for d in _DEALS]
_DEAL_SET = set(_DEAL_ACTIONS)

# Precomputed tables.
_DEAL_PARSED = {a: d for a, d in zip(_DEAL_ACTIONS, _DEALS)}
_CHANCE_P = 1.0 / len(_DEAL_ACTIONS)
_CHANCE_OUTCOMES = [(a, _CHANCE_P) for a in _DEAL_ACTIONS]

_OFFER_PARSED = {}
for _b in range(11):
    for _h in range(11):
        for _k in range(11):
            _OFFER_PARSED[_offer_str((_b, _h, _k))] = (_b, _h, _k)
del _b, _h, _k

_LEGAL_CACHE = {}  # tuple(pool) -> (without Agree, with Agree)

_KNOWN_KEYS = frozenset(INITIAL_STATE)


def _offers_for_pool(pool):
    key = tuple(pool)
    entry = _LEGAL_CACHE.get(key)
    if entry is None:
        B, H, K = pool
        base = [_offer_str((b, h, k))
                for b in range(B + 1) for h in range(H + 1) for k in range(K + 1)]
        entry = (base, ["Agree"] + base)
        _LEGAL_CACHE[key] = entry
    return entry


def get_current_player(state: State) -> int:
    if state["agreed"] or state["ended"] or len(state["offers"]) >= MAX_OFFERS:
        return TERMINAL
    return state["current_player"]


def get_player_name(player_id: int) -> str:
    if player_id == CHANCE:
        return "chance"
    if player_id == TERMINAL:
        return "terminal"
    return f"player {player_id}"


def get_legal_actions(state: State) -> list[Action]:
    player = get_current_player(state)
    if player == TERMINAL:
        return []
    if player == CHANCE:
        return list(_DEAL_ACTIONS)
    base, with_agree = _offers_for_pool(state["pool"])
    if state["offers"]:
        return list(with_agree)
    return list(base)


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    return list(_CHANCE_OUTCOMES)


def _copy_values(values):
    if values is None:
        return None
    return [v[:] for v in values]


def apply_action(state: State, action: Action) -> State:
    player = get_current_player(state)
    if player == TERMINAL:
        raise ValueError("the game is over")
    s = dict(state)
    if s.keys() != _KNOWN_KEYS:
        for k in s:
            if k not in _KNOWN_KEYS:
                s[k] = copy.deepcopy(s[k])
    offers = state["offers"]
    if player == CHANCE:
        d = _DEAL_PARSED.get(action)
        if d is None:
            _DEAL_RE.fullmatch(action)
            raise ValueError(f"illegal deal {action!r}")
        pool, v0, v1 = d
        s["pool"] = list(pool)
        s["values"] = [list(v0), list(v1)]
        s["current_player"] = 0
        s["offers"] = [o[:] for o in offers]
        s["rewards"] = state["rewards"][:]
    elif action == "Agree":
        if not offers:
            raise ValueError("no offer to agree to")
        pool = state["pool"]
        values = state["values"]
        offer = offers[-1]
        proposer = (len(offers) - 1) % 2
        rewards = [0.0, 0.0]
        for p in (0, 1):
            got = offer if p == proposer else [t - q for t, q in zip(pool, offer)]
            rewards[p] = float(sum(v * g for v, g in zip(values[p], got)))
        s["offers"] = [o[:] for o in offers]
        s["pool"] = pool[:] if pool is not None else None
        s["values"] = _copy_values(values)
        s["rewards"], s["agreed"], s["current_player"] = rewards, True, TERMINAL
    else:
        q = _OFFER_PARSED.get(action)
        if q is None:
            m = _OFFER_RE.fullmatch(action)
            q = [int(x) for x in m.groups()] if m else None
        else:
            q = list(q)
        pool = state["pool"]
        if q is None or any(x > t for x, t in zip(q, pool)):
            raise ValueError(f"illegal action {action!r}")
        new_offers = [o[:] for o in offers]
        new_offers.append(q)
        s["offers"] = new_offers
        s["pool"] = pool[:]
        s["values"] = _copy_values(state["values"])
        s["rewards"] = state["rewards"][:]
        s["current_player"] = TERMINAL if len(new_offers) >= MAX_OFFERS else 1 - player
    s["move_number"] = state["move_number"] + 1
    return s


def get_rewards(state: State) -> list[float]:
    return [float(r) for r in state["rewards"]]


def get_observations(state: State) -> list[Observation]:
    cur = get_current_player(state)
    agreed = state["agreed"]
    ended = state["ended"]
    values = state["values"]
    offers = state["offers"]
    pool = state["pool"]
    obs = []
    for p in (0, 1):
        obs.append({
            "agreed": agreed,
            "current_player": cur,
            "ended": ended,
            "my_values": None if values is None else list(values[p]),
            "offers": [{"proposer": i % 2, "quantities": list(q)}
                       for i, q in enumerate(offers)],
            "player": p,
            "pool": None if pool is None else list(pool),
        })
    return obs


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int) -> list[Action]:
    last = obs_action_history[-1][0]
    pool, mine = list(last["pool"]), list(last["my_values"])
    # Only the opponent's valuation is hidden: sample uniformly among consistent deals.
    candidates = [d for d in _DEALS if list(d[0]) == pool and list(d[1 + player_id]) == mine]
    if candidates:
        deal = random.choice(candidates)
        actions = [_deal_str(*deal)]
    else:  # should not happen; fall back to a mirrored valuation
        actions = [_deal_str(pool, mine, mine)]
    actions += [_offer_str(o["quantities"]) for o in last["offers"]]
    if last.get("agreed"):
        actions.append("Agree")
    return actions