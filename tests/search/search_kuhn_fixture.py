"""A compact Kuhn poker world model for the search tests (the reference game lives on
another branch). Cards 0 < 1 < 2; each player antes 1; actions "pass" / "bet"."""

from ggp.core.model import from_functions
from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata

METADATA = GameMetadata(num_players=2, min_utility=-2.0, max_utility=2.0, zero_sum=True,
                        outcome="payoff", perfect_information=False, chance=True)
ENDINGS = (["pass", "pass"], ["bet", "bet"], ["bet", "pass"], ["pass", "bet", "pass"],
           ["pass", "bet", "bet"])


def _current(s):
    if len(s["cards"]) < 2:
        return CHANCE
    if s["bets"] in ENDINGS:
        return TERMINAL
    return len(s["bets"]) % 2


def _legal(s):
    p = _current(s)
    if p == TERMINAL:
        return []
    if p == CHANCE:
        return [str(c) for c in range(3) if c not in s["cards"]]
    return ["pass", "bet"]


def _apply(s, a):
    if a not in _legal(s):
        raise ValueError(a)
    if len(s["cards"]) < 2:
        return {"cards": s["cards"] + [int(a)], "bets": []}
    return {"cards": s["cards"], "bets": s["bets"] + [a]}


def _rewards(s):
    b = s["bets"]
    if b not in ENDINGS:
        return [0.0, 0.0]
    if b[-1] == "pass" and "bet" in b:  # the player who passed last folded
        loser = (len(b) - 1) % 2
        return [-1.0, 1.0] if loser == 0 else [1.0, -1.0]
    stake = 2.0 if "bet" in b else 1.0
    winner = 0 if s["cards"][0] > s["cards"][1] else 1
    return [stake, -stake] if winner == 0 else [-stake, stake]


def _observations(s):
    return [{"card": s["cards"][p] if len(s["cards"]) > p else None, "bets": s["bets"]}
            for p in range(2)]


def kuhn_model():
    return from_functions(
        "kuhn_fixture", INITIAL_STATE={"cards": [], "bets": []}, METADATA=METADATA,
        get_current_player=_current, get_player_name=lambda p: f"p{p}",
        get_legal_actions=_legal, apply_action=_apply, get_rewards=_rewards,
        get_observations=_observations)
