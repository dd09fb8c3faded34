"""98 ("Ninety-Eight"): four players push a shared running total towards 98.

Rules as in ``shared/research/cards_ismcts.md`` §1.3 (the thesis' 52-card version).
"""

from __future__ import annotations

import random

from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata, player_name
from ggp.games._cards import SUITS, interleave_deal, rank

PARAMETERS = {"turn_cap": 30}
#: Bounds of the numeric parameters (checked before make() runs; see ggp.core.registry).
PARAMETER_RANGES = {"turn_cap": (1, 10_000)}

RULES = """\
98 (Ninety-Eight), for four players (numbered 0 to 3).
Cards: a standard 52-card deck, ranks A, 2-10, J, Q, K in clubs (C), diamonds (D), hearts
(H) and spades (S), written rank then suit, e.g. "AS", "10D", "QH".
Deal: the shuffled deck is dealt one card at a time (chance moves written "Deal <card>"),
player 0 first, then 1, 2, 3 and around again, until everyone holds 4 private cards. The
other 36 cards form a face-down stock.
Play: there is a public running total that starts at 0. Players take turns in the order
0, 1, 2, 3, 0, ... On your turn you play one card from your hand face up ("Play <card>")
and the total changes: an ace adds 1, a 2 to 9 adds its value, a 10 subtracts 10 (the total
may become negative), a jack or queen adds nothing, and a king sets the total to exactly
98. Then, if the stock is not empty, you draw its top card into your hand (a chance move
written "Draw <card>"; only you see the card).
End: if the total is above 98 right after your play, you lose and the game ends at once;
the other three players share the win. If the game reaches its turn cap (30 plays by
default) without anyone going over 98, the player who made the last of those plays loses
instead.
Rewards at the end: 0 for the loser and 1 for each of the other players.
Each player sees their own hand, the running total, every card played so far with who
played it, and how many cards are left in the stock.
"""

METADATA = GameMetadata(
    num_players=4,
    min_utility=0.0,
    max_utility=1.0,
    zero_sum=False,
    outcome="win_loss_draw",
    perfect_information=False,
    chance=True,
    source="seed 001 (thesis card games); shared/research/cards_ismcts.md §1.3",
)

NUM_PLAYERS, HAND_SIZE = 4, 4
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [r + s for s in SUITS for r in RANKS]


def _new_total(total: int, card: str) -> int:
    r = rank(card)
    if r == "K":
        return 98
    if r == "10":
        return total - 10
    if r in ("J", "Q"):
        return total
    return total + (1 if r == "A" else int(r))


class NinetyEight:
    """The 98 world model (see ``RULES``)."""

    RULES = RULES

    def __init__(self, turn_cap: int = 30) -> None:
        if turn_cap < 1:
            raise ValueError("turn_cap must be at least 1")
        self.turn_cap = turn_cap
        self.INITIAL_STATE = {
            "stock": sorted(DECK),
            "hands": [[] for _ in range(NUM_PLAYERS)],
            "total": 0,
            "plays": [],  # [player, card] in order
            "to_draw": None,  # the player who must draw next (chance), if any
            "loser": None,
            "rewards": [0.0] * NUM_PLAYERS,
        }

    def get_current_player(self, state):
        if state["loser"] is not None:
            return TERMINAL
        dealt = sum(len(h) for h in state["hands"]) + len(state["plays"])
        if dealt < NUM_PLAYERS * HAND_SIZE or state["to_draw"] is not None:
            return CHANCE
        return len(state["plays"]) % NUM_PLAYERS

    def get_player_name(self, player_id):
        return player_name(player_id)

    def get_legal_actions(self, state):
        player = self.get_current_player(state)
        if player == TERMINAL:
            return []
        if player == CHANCE:
            verb = "Draw" if state["to_draw"] is not None else "Deal"
            return [f"{verb} {c}" for c in state["stock"]]
        return [f"Play {c}" for c in state["hands"][player]]

    def apply_action(self, state, action):
        verb, card = action.split(" ")
        new = {
            "stock": list(state["stock"]),
            "hands": [list(h) for h in state["hands"]],
            "total": state["total"],
            "plays": [list(p) for p in state["plays"]],
            "to_draw": None,
            "loser": None,
            "rewards": [0.0] * NUM_PLAYERS,
        }
        if verb in ("Deal", "Draw"):
            receiver = (state["to_draw"] if verb == "Draw"
                        else sum(len(h) for h in state["hands"]) % NUM_PLAYERS)
            new["stock"].remove(card)
            new["hands"][receiver] = sorted(new["hands"][receiver] + [card])
            return new
        player = self.get_current_player(state)
        if card not in state["hands"][player]:
            raise ValueError(f"player {player} does not hold {card}")
        new["hands"][player].remove(card)
        new["plays"].append([player, card])
        new["total"] = _new_total(state["total"], card)
        if new["total"] > 98 or len(new["plays"]) >= self.turn_cap:
            new["loser"] = player
            new["rewards"] = [0.0 if p == player else 1.0 for p in range(NUM_PLAYERS)]
        elif new["stock"]:
            new["to_draw"] = player
        return new

    def get_rewards(self, state):
        return list(state["rewards"])

    def get_observations(self, state):
        public = {
            "total": state["total"],
            "plays": state["plays"],
            "stock_size": len(state["stock"]),
            "current_player": self.get_current_player(state),
            "loser": state["loser"],
        }
        return [{"player": p, "hand": state["hands"][p], **public} for p in range(NUM_PLAYERS)]

    def resample_history(self, obs_action_history, player_id):
        """Uniform over deals and draws consistent with the player's view.

        Each opponent's plays are assigned to hand slots it could have held them in
        (its 4 dealt cards and the draws before the play); at every play exactly four
        slots are free, so choosing one uniformly at each play is uniform over all
        consistent assignments. The remaining slots get unseen cards uniformly.
        """
        rng = random.Random(random.getrandbits(64))  # follows random.seed()
        plays = [tuple(p) for p in obs_action_history[-1][0]["plays"]]
        mine = self._own_cards(obs_action_history, player_id)
        seen = set(mine["dealt"]) | set(mine["draws"]) | {c for _, c in plays}
        unseen = [c for c in DECK if c not in seen]
        rng.shuffle(unseen)
        slots = {player_id: (mine["dealt"], mine["draws"])}
        draws_after = self._draw_flags(len(plays))
        for q in range(NUM_PLAYERS):
            if q != player_id:
                slots[q] = self._opponent_slots(q, plays, draws_after, unseen, rng)
        deal = interleave_deal({q: s[0] for q, s in slots.items()}, NUM_PLAYERS)
        actions = [f"Deal {c}" for c in deal]
        used = {q: 0 for q in range(NUM_PLAYERS)}
        for i, (q, card) in enumerate(plays):
            actions.append(f"Play {card}")
            if draws_after[i]:
                actions.append(f"Draw {slots[q][1][used[q]]}")
                used[q] += 1
        return actions

    # -- helpers ---------------------------------------------------------------
    def _draw_flags(self, num_plays: int) -> list[bool]:
        stock = len(DECK) - NUM_PLAYERS * HAND_SIZE
        flags = []
        for _ in range(num_plays):
            flags.append(stock > 0)
            stock -= stock > 0
        return flags

    @staticmethod
    def _own_cards(history, player_id) -> dict[str, list[str]]:
        """The player's dealt cards and its draws, read off its own hands."""
        dealt = list(history[0][0]["hand"])
        draws = []
        for (obs, action), (nxt, _) in zip(history, history[1:]):
            kept = set(obs["hand"]) - {action.split(" ")[1]}
            draws += [c for c in nxt["hand"] if c not in kept]
        return {"dealt": dealt, "draws": draws}

    @staticmethod
    def _opponent_slots(q, plays, draws_after, unseen, rng):
        """Dealt cards and draws of opponent ``q`` consistent with its public plays."""
        dealt = [None] * HAND_SIZE
        draws: list = []
        free = [("dealt", i) for i in range(HAND_SIZE)]
        for i, (player, card) in enumerate(plays):
            if player == q:
                where, index = free.pop(rng.randrange(len(free)))
                (dealt if where == "dealt" else draws)[index] = card
                if draws_after[i]:
                    draws.append(None)
                    free.append(("draw", len(draws) - 1))
        dealt = [c if c is not None else unseen.pop() for c in dealt]
        draws = [c if c is not None else unseen.pop() for c in draws]
        return dealt, draws


def make(turn_cap: int = 30) -> NinetyEight:
    return NinetyEight(turn_cap)
