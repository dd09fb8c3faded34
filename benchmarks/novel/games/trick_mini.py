"""Trick mini: three players, nine cards, three tricks, follow suit.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

import random

from ggp.core.protocol import GameMetadata

PARAMETERS = {"suits": "abc", "ranks": 3}
SUITS, RANKS = PARAMETERS["suits"], PARAMETERS["ranks"]
DECK = [f"{s}{r}" for s in SUITS for r in range(1, RANKS + 1)]

RULES = f"""Trick mini. Three players (0, 1, 2) and nine cards named by a suit letter (a, b,
c) and a rank (1, 2, 3): {", ".join(DECK)}. Chance deals the cards one at a time: the first
three go to player 0, the next three to player 1, the last three to player 2 (chance
action "Deal a2" and so on; every card not yet dealt is equally likely). Each player sees
only its own hand. Then three tricks are played. Player 0 leads the first trick; in a
trick the leader plays any card of its hand, then the next players in order 0, 1, 2
(starting after the leader and wrapping around) each play one card. A player who holds a
card of the suit that was led must play a card of that suit; otherwise it may play any
card (action "Play b3" and so on). The highest rank of the led suit wins the trick, and
the winner leads the next trick. At the end each player's reward is the number of tricks
it won minus 1 (so the rewards sum to 0), given on the last card. Each player observes its
own hand (sorted), the cards played in the current trick as [player, card], the finished
tricks as {{"plays": [[player, card], ...], "winner": player}}, and the tricks won by each
player.
Observation keys: "hand", "trick", "done", "won".
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=3, min_utility=-1.0, max_utility=2.0, zero_sum=True,
                        outcome="payoff", perfect_information=False, chance=True)

INITIAL_STATE = {"hands": [[], [], []], "trick": [], "done": [], "won": [0, 0, 0],
                 "rewards": [0.0, 0.0, 0.0]}


def _dealt(state):
    return sum(len(h) for h in state["hands"]) + sum(len(t["plays"]) for t in state["done"]) \
        + len(state["trick"])


def get_current_player(state):
    if len(state["done"]) == 3:
        return -4
    if _dealt(state) < 9:
        return -1
    leader = state["done"][-1]["winner"] if state["done"] else 0
    return (leader + len(state["trick"])) % 3


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        dealt = {c for h in state["hands"] for c in h}
        return [f"Deal {c}" for c in DECK if c not in dealt]
    hand = state["hands"][player]
    if state["trick"]:
        suit = state["trick"][0][1][0]
        follow = [c for c in hand if c[0] == suit]
        hand = follow or hand
    return [f"Play {c}" for c in sorted(hand)]


def apply_action(state, action):
    card = action.split()[1]
    hands = [list(h) for h in state["hands"]]
    if action.startswith("Deal"):
        hands[_dealt(state) // 3].append(card)
        return {**state, "hands": hands}
    player = get_current_player(state)
    hands[player].remove(card)
    trick = state["trick"] + [[player, card]]
    if len(trick) < 3:
        return {**state, "hands": hands, "trick": trick, "rewards": [0.0, 0.0, 0.0]}
    suit = trick[0][1][0]
    winner = max((p for p, c in trick if c[0] == suit),
                 key=lambda p: next(int(c[1:]) for q, c in trick if q == p))
    won = list(state["won"])
    won[winner] += 1
    done = state["done"] + [{"plays": trick, "winner": winner}]
    rewards = [float(w - 1) for w in won] if len(done) == 3 else [0.0, 0.0, 0.0]
    return {"hands": hands, "trick": [], "done": done, "won": won, "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [{"hand": sorted(state["hands"][p]), "trick": state["trick"],
             "done": state["done"], "won": state["won"]} for p in range(3)]


def resample_history(history, player_id, last_is_terminal=False):
    """Every play is public; hidden is how the cards nobody has played yet are split
    between the two other players. A split is drawn uniformly from those that respect
    what each player still holds in number and every suit it showed it lacked (a player
    who did not follow suit holds no card of the suit led)."""
    obs = history[-1][0]
    plays = [pc for t in obs["done"] for pc in t["plays"]] + obs["trick"]
    played = {p: [c for q, c in plays if q == p] for p in range(3)}
    voids = {p: set() for p in range(3)}
    for trick in [t["plays"] for t in obs["done"]] + [obs["trick"]]:
        for p, card in trick[1:]:
            if card[0] != trick[0][1][0]:
                voids[p].add(trick[0][1][0])
    others = [p for p in range(3) if p != player_id]
    known = set(obs["hand"]) | {c for _, c in plays}
    unknown = [c for c in DECK if c not in known]
    size = {p: 3 - len(played[p]) for p in others}
    splits = []
    for first in _combinations(unknown, size[others[0]]):
        second = [c for c in unknown if c not in first]
        if all(c[0] not in voids[others[0]] for c in first) and \
                all(c[0] not in voids[others[1]] for c in second):
            splits.append((first, second))
    first, second = random.choice(splits)
    hands = {player_id: list(obs["hand"]), others[0]: list(first), others[1]: list(second)}
    deal = [c for p in range(3) for c in hands[p] + played[p]]
    return [f"Deal {c}" for c in deal] + [f"Play {c}" for _, c in plays]


def _combinations(items, k):
    import itertools

    return [list(c) for c in itertools.combinations(items, k)]
