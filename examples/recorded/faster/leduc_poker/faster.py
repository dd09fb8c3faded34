# A faster model of 'leduc_poker', made by ggp synth --faster (answers from the exchange backend, model exchange).
# Candidate 0: 2.59x the original's playouts/s, agrees on 1040 of 1040 replayed games. See report.json.

# Faster code world model of 'leduc_poker' (same behaviour as the original).

import random
from typing import Any

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

DECK = ["Js", "Jh", "Qs", "Qh", "Ks", "Kh"]
RANK = {"J": 0, "Q": 1, "K": 2}
RAISE_AMOUNT = {1: 2, 2: 4}
MAX_RAISES = 2

_DEAL_PAIRS = [(c, "Deal " + c) for c in DECK]

INITIAL_STATE: State = {
    "betting": [[], []],
    "contributions": [1, 1],
    "current_player": -1,
    "private_cards": [None, None],
    "public_card": None,
    "raises": 0,
    "rewards": [0.0, 0.0],
    "round": 1,
    "showdown": False,
}


def get_current_player(state: State) -> int:
    return state["current_player"]


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"player {player_id}"


def _remaining_cards(state: State) -> list[str]:
    used = set(c for c in state["private_cards"] if c is not None)
    if state["public_card"] is not None:
        used.add(state["public_card"])
    return [c for c in DECK if c not in used]


_CHANCE_CACHE: dict = {}


def _chance_actions(state: State) -> list[Action]:
    pc = state["private_cards"]
    pub = state["public_card"]
    try:
        key = (tuple(pc), pub)
        cached = _CHANCE_CACHE.get(key)
    except TypeError:
        key = None
        cached = None
    if cached is None:
        used = set(c for c in pc if c is not None)
        if pub is not None:
            used.add(pub)
        cached = [d for c, d in _DEAL_PAIRS if c not in used]
        if key is not None:
            _CHANCE_CACHE[key] = cached
    return cached


def get_legal_actions(state: State) -> list[Action]:
    p = state["current_player"]
    if p == -4:
        return []
    if p == -1:
        return list(_chance_actions(state))
    c = state["contributions"]
    if state["raises"] < MAX_RAISES:
        if c[1 - p] > c[p]:
            return ["Call", "Raise", "Fold"]
        return ["Call", "Raise"]
    if c[1 - p] > c[p]:
        return ["Call", "Fold"]
    return ["Call"]


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    outcomes = get_legal_actions(state)
    if not outcomes:
        return []
    pr = 1.0 / len(outcomes)
    return [(a, pr) for a in outcomes]


def _showdown_rewards(cards: list[str], public: str, contributions: list[int]) -> list[float]:
    def strength(card):
        # pair beats everything; otherwise rank decides
        return (1 if card[0] == public[0] else 0, RANK[card[0]])
    s0, s1 = strength(cards[0]), strength(cards[1])
    if s0 == s1:
        return [0.0, 0.0]
    winner = 0 if s0 > s1 else 1
    loser = 1 - winner
    rewards = [0.0, 0.0]
    rewards[winner] = float(contributions[loser])
    rewards[loser] = -float(contributions[loser])
    return rewards


def apply_action(state: State, action: Action) -> State:
    p = state["current_player"]
    if p == -4:
        raise ValueError("game is over")
    s = dict(state)
    s["betting"] = [[x[:] for x in h] for h in state["betting"]]
    s["contributions"] = list(state["contributions"])
    pc = s["private_cards"] = list(state["private_cards"])
    s["rewards"] = list(state["rewards"])
    if p == -1:  # chance deal
        card = action[5:]
        if pc[0] is None:
            pc[0] = card
        elif pc[1] is None:
            pc[1] = card
            s["current_player"] = 0
        else:
            s["public_card"] = card
            s["round"] = 2
            s["raises"] = 0
            s["current_player"] = 0
        return s
    # legality check (same as `action in get_legal_actions(state)`)
    if action == "Call":
        pass
    elif action == "Raise":
        if not (state["raises"] < MAX_RAISES):
            raise ValueError(f"illegal action {action!r}")
    elif action == "Fold":
        oc = state["contributions"]
        if not (oc[1 - p] > oc[p]):
            raise ValueError(f"illegal action {action!r}")
    else:
        raise ValueError(f"illegal action {action!r}")
    rnd = s["round"]
    o = 1 - p
    c = s["contributions"]
    hist = s["betting"][rnd - 1]
    first = len(hist) == 0
    hist.append([p, action])
    if action == "Fold":
        r = [0.0, 0.0]
        r[p] = -float(c[p])
        r[o] = float(c[p])
        s["rewards"] = r
        s["current_player"] = -4
    elif action == "Raise":
        c[p] = c[o] + RAISE_AMOUNT[rnd]
        s["raises"] += 1
        s["current_player"] = o
    else:  # Call
        c[p] = c[o]
        if first:
            s["current_player"] = o
        elif rnd == 1:
            s["current_player"] = -1  # deal the public card
        else:
            s["showdown"] = True
            s["current_player"] = -4
            s["rewards"] = _showdown_rewards(pc, s["public_card"], c)
    return s


def get_rewards(state: State) -> list[float]:
    return [float(r) for r in state["rewards"]]


def get_observations(state: State) -> list[Observation]:
    betting = state["betting"]
    pc = state["private_cards"]
    contributions = state["contributions"]
    cur = state["current_player"]
    public = state["public_card"]
    rnd = state["round"]
    showdown = state["showdown"]
    out = []
    for i in range(2):
        out.append({
            "betting": [[x[:] for x in h] for h in betting],
            "contributions": list(contributions),
            "current_player": cur,
            "my_card": pc[i],
            "player": i,
            "public_card": public,
            "round": rnd,
            "showdown_cards": list(pc) if showdown else None,
        })
    return out


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int) -> list[Action]:
    obs = obs_action_history[-1][0]
    mine = obs["my_card"]
    public = obs["public_card"]
    if obs.get("showdown_cards"):
        cards = list(obs["showdown_cards"])
    else:
        pool = [c for c in DECK if c != mine and c != public]
        cards = [None, None]
        cards[player_id] = mine
        cards[1 - player_id] = random.choice(pool)
    actions = ["Deal " + cards[0], "Deal " + cards[1]]
    actions += [a for _, a in obs["betting"][0]]
    if public is not None:
        actions.append("Deal " + public)
        actions += [a for _, a in obs["betting"][1]]
    return actions
