"""Bottle Imp: a trick-taking game where winning below the price hands you the imp.

Rules as in ``shared/research/cards_ismcts.md`` §1.5: the official single-hand rules by
default, and ``variant="ludii_thesis"`` for the simplified Ludii version the thesis used.
"""

from __future__ import annotations

import random

from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata, player_name
from ggp.games._cards import interleave_deal, sample_hands

PARAMETERS = {"num_players": 4, "variant": "official"}
#: Bounds of the numeric parameters (checked before make() runs; see ggp.core.registry).
PARAMETER_RANGES = {"num_players": (3, 4)}

SUIT_CARDS = {
    "Y": [1, 2, 3, 5, 7, 9, 12, 15, 18, 22, 24, 27],
    "B": [4, 6, 8, 10, 13, 17, 21, 25, 28, 30, 32, 34],
    "R": [11, 14, 16, 20, 23, 26, 29, 31, 33, 35, 36, 37],
}
COINS = {1: 1, 2: 1, 3: 2, 4: 1, 5: 2, 6: 1, 7: 3, 8: 2, 9: 3, 10: 2, 11: 1, 12: 4, 13: 3,
         14: 1, 15: 4, 16: 2, 17: 3, 18: 5, 19: 0, 20: 2, 21: 4, 22: 5, 23: 3, 24: 6, 25: 4,
         26: 3, 27: 6, 28: 5, 29: 4, 30: 5, 31: 4, 32: 6, 33: 5, 34: 6, 35: 5, 36: 6, 37: 6}
SUIT_OF = {n: s for s, cards in SUIT_CARDS.items() for n in cards}
START_PRICE = 19
DECK = sorted(SUIT_OF)

RULES = """\
Bottle Imp (one hand), for 3 or 4 players numbered from 0.
Cards: 36 cards numbered 1 to 37 without 19, in three suits: yellow Y (1 2 3 5 7 9 12 15 18
22 24 27), blue B (4 6 8 10 13 17 21 25 28 30 32 34) and red R (11 14 16 20 23 26 29 31 33
35 36 37). A card is written number then suit, e.g. "7Y", "21B", "37R". Each card is worth
coins: 1:1 2:1 3:2 4:1 5:2 6:1 7:3 8:2 9:3 10:2 11:1 12:4 13:3 14:1 15:4 16:2 17:3 18:5
20:2 21:4 22:5 23:3 24:6 25:4 26:3 27:6 28:5 29:4 30:5 31:4 32:6 33:5 34:6 35:5 36:6 37:6.
The bottle starts on the price card 19, which belongs to nobody.
Deal: all 36 cards are dealt one at a time (chance moves "Deal <card>"), player 0 first
and round in order, so each of 4 players gets 9 cards (12 each with 3 players).
Imp's trick (official rules only): each player in turn, from player 0, puts one card face
down into the imp's trick ("Imp <card>"); nobody ever sees these cards.
Exchange (official rules only): each player in turn chooses one card for its left
neighbour (the next player number, "Left <card>") and then one for its right neighbour
(the previous player number, "Right <card>"). Nobody sees the others' choices; when all
have chosen, the cards change hands and each receiver sees what it got.
Tricks: player 0 leads the first trick with any card ("Play <card>"); the others follow in
order and must play a card of the led suit if they have one, otherwise any card. When
all have played: if every card in the trick is higher than the current price, the
highest card wins, whatever its suit. Otherwise the highest card that is lower than the
price wins; its player takes the bottle and that card becomes the new price (it stays
under the bottle and is not part of the trick), and the card that was the price before
goes back, as a won card, to the player who had played it (the start card 19 goes to
nobody). The trick's winner takes the other cards of the trick as won cards and leads
the next trick. Play continues until the hands are empty.
Scoring (official): every player scores the coins on its won cards, except the player
holding the bottle at the end, who scores nothing for its cards and instead loses the
coins of all the cards in the imp's trick. In the "ludii_thesis" variant there is no
imp's trick and no exchange, the winner of each trick scores the coins of all the cards
played to it (including one that became the price) and nobody pays a penalty.
The final scores are the rewards at the end. Each player sees its own hand, its own
imp card and exchange choices, the cards it received, every card played with who played
it, the current price, who holds the bottle and everyone's score so far.
"""

METADATA = GameMetadata(
    num_players=4,
    min_utility=-24.0,  # the bottle holder pays for at most four imp cards of 6 coins
    max_utility=126.0,
    zero_sum=False,
    outcome="payoff",
    perfect_information=False,
    chance=True,
    source="seed 001 (thesis card games); shared/research/cards_ismcts.md §1.5",
)


def name(card: int) -> str:
    return f"{card}{SUIT_OF[card]}"


def number(card: str) -> int:
    return int(card[:-1])


class BottleImp:
    """The Bottle Imp world model (see ``RULES``)."""

    RULES = RULES

    def __init__(self, num_players: int = 4, variant: str = "official") -> None:
        if num_players not in (3, 4):
            raise ValueError("num_players must be 3 or 4")
        if variant not in ("official", "ludii_thesis"):
            raise ValueError("variant must be 'official' or 'ludii_thesis'")
        self.n = num_players
        self.official = variant == "official"
        self.hand_size = len(DECK) // num_players
        self.METADATA = GameMetadata(**{**METADATA.to_dict(), "num_players": num_players})
        self.INITIAL_STATE = {
            "deck": [name(c) for c in DECK],
            "hands": [[] for _ in range(self.n)],
            "imp": [],          # imp's trick cards, by player order
            "passes": [],       # [left, right] per player, in order
            "tricks": [],       # {"leader", "cards", "winner", "price_after"}
            "trick": {"leader": 0, "cards": []},
            "price": START_PRICE,
            "price_owner": None,  # who played the current price card
            "holder": None,       # who holds the bottle
            "won": [[] for _ in range(self.n)],
            "scores": [0] * self.n,
            "rewards": [0.0] * self.n,
        }

    # -- phases ----------------------------------------------------------------
    def _phase(self, s) -> str:
        if s["deck"]:
            return "deal"
        if self.official and len(s["imp"]) < self.n:
            return "imp"
        if self.official and (len(s["passes"]) < self.n or len(s["passes"][-1]) < 2):
            return "pass"
        played = sum(len(t["cards"]) for t in s["tricks"])
        return "play" if played < self.n * self._tricks() else "over"

    def _tricks(self) -> int:
        return self.hand_size - 1 if self.official else self.hand_size

    def get_current_player(self, s):
        phase = self._phase(s)
        if phase == "deal":
            return CHANCE
        if phase == "over":
            return TERMINAL
        if phase == "imp":
            return len(s["imp"])
        if phase == "pass":
            if not s["passes"] or len(s["passes"][-1]) == 2:
                return len(s["passes"])
            return len(s["passes"]) - 1
        return (s["trick"]["leader"] + len(s["trick"]["cards"])) % self.n

    def get_player_name(self, player_id):
        return player_name(player_id)

    def get_legal_actions(self, s):
        player = self.get_current_player(s)
        phase = self._phase(s)
        if phase == "over":
            return []
        if phase == "deal":
            return [f"Deal {c}" for c in s["deck"]]
        if phase == "imp":
            return [f"Imp {c}" for c in s["hands"][player]]
        if phase == "pass":
            verb = "Left" if not s["passes"] or len(s["passes"][-1]) == 2 else "Right"
            return [f"{verb} {c}" for c in s["hands"][player]]
        return [f"Play {c}" for c in self._playable(s, player)]

    def _playable(self, s, player):
        hand = s["hands"][player]
        cards = s["trick"]["cards"]
        if cards:
            led = cards[0][-1]
            return [c for c in hand if c[-1] == led] or list(hand)
        return list(hand)

    # -- transitions -------------------------------------------------------------
    def apply_action(self, s, action):
        verb, card = action.split(" ")
        new = {k: (list(v) if isinstance(v, list) else v) for k, v in s.items()}
        new["hands"] = [list(h) for h in s["hands"]]
        new["passes"] = [list(p) for p in s["passes"]]
        new["won"] = [list(w) for w in s["won"]]
        new["trick"] = {"leader": s["trick"]["leader"], "cards": list(s["trick"]["cards"])}
        new["rewards"] = [0.0] * self.n
        player = self.get_current_player(s)
        if verb == "Deal":
            new["deck"].remove(card)
            receiver = sum(len(h) for h in s["hands"]) % self.n
            new["hands"][receiver] = sorted(new["hands"][receiver] + [card], key=number)
            return new
        if card not in s["hands"][player] or action not in self.get_legal_actions(s):
            raise ValueError(f"{action!r} is not legal for player {player}")
        new["hands"][player].remove(card)
        if verb == "Imp":
            new["imp"].append(card)
        elif verb == "Left":
            new["passes"].append([card])
        elif verb == "Right":
            new["passes"][-1].append(card)
            if len(new["passes"]) == self.n:
                self._exchange(new)
        else:
            new["trick"]["cards"].append(card)
            if len(new["trick"]["cards"]) == self.n:
                self._finish_trick(new)
        return new

    def _exchange(self, s) -> None:
        for q, (left, right) in enumerate(s["passes"]):
            s["hands"][(q + 1) % self.n].append(left)
            s["hands"][(q - 1) % self.n].append(right)
        s["hands"] = [sorted(h, key=number) for h in s["hands"]]

    def _finish_trick(self, s) -> None:
        trick = s["trick"]
        numbers = [number(c) for c in trick["cards"]]
        below = [i for i, x in enumerate(numbers) if x < s["price"]]
        best = max(below or range(self.n), key=lambda i: numbers[i])
        winner = (trick["leader"] + best) % self.n
        taken = list(trick["cards"])
        if below:
            if self.official:  # the new price card stays under the bottle
                if s["price_owner"] is not None:
                    s["won"][s["price_owner"]].append(name(s["price"]))
                taken.remove(trick["cards"][best])
            s["price"], s["price_owner"], s["holder"] = numbers[best], winner, winner
        s["won"][winner] += taken
        s["tricks"].append({"leader": trick["leader"], "cards": trick["cards"],
                            "winner": winner, "price_after": s["price"]})
        s["trick"] = {"leader": winner, "cards": []}
        s["scores"] = self._scores(s)
        if len(s["tricks"]) == self._tricks():
            final = list(s["scores"])
            if self.official and s["holder"] is not None:
                final[s["holder"]] = -sum(COINS[number(c)] for c in s["imp"])
            s["rewards"] = [float(x) for x in final]

    def _scores(self, s) -> list[int]:
        return [sum(COINS[number(c)] for c in won) for won in s["won"]]

    def get_rewards(self, s):
        return list(s["rewards"])

    def get_observations(self, s):
        exchanged = self.official and len(s["passes"]) == self.n and len(s["passes"][-1]) == 2
        public = {
            "tricks": s["tricks"], "trick": s["trick"], "price": s["price"],
            "holder": s["holder"], "scores": s["scores"],
            "current_player": self.get_current_player(s),
        }
        obs = []
        for p in range(self.n):
            obs.append({
                "player": p,
                "hand": s["hands"][p],
                "imp": s["imp"][p] if p < len(s["imp"]) else None,
                "passed": s["passes"][p] if p < len(s["passes"]) else [],
                "received": ([s["passes"][(p - 1) % self.n][0], s["passes"][(p + 1) % self.n][1]]
                             if exchanged else []),
                **public,
            })
        return obs

    # -- inference ----------------------------------------------------------------
    def resample_history(self, obs_action_history, player_id):
        """Uniform over deals, imp cards and exchanges consistent with the player's view.

        After the exchange, opponents' hands are dealt from the unseen cards subject to the
        suits they showed they lack, the imp cards are uniform among the rest, and each
        hidden exchange card is uniform among the receiver's cards not yet accounted for
        (the same number of choices whatever came before, so the result is uniform).
        """
        rng = random.Random(random.getrandbits(64))  # follows random.seed()
        first, last = obs_action_history[0][0], obs_action_history[-1][0]
        original = {player_id: list(first["hand"])}
        plays = self._public_plays(last)
        if not self.official:
            original.update(self._sample_hidden_hands(last, player_id, plays, {}, rng)[0])
            imps, passes = [], []
        elif last["received"]:
            original, imps, passes = self._sample_after_exchange(last, player_id, original,
                                                                 plays, rng)
        else:
            original, imps, passes = self._sample_before_exchange(last, player_id, original, rng)
        deal = interleave_deal(original, self.n, rng=rng)
        actions = [f"Deal {c}" for c in deal] + [f"Imp {c}" for c in imps]
        for left_right in passes:
            actions += [f"Left {left_right[0]}"] + ([f"Right {left_right[1]}"]
                                                    if len(left_right) > 1 else [])
        return actions + [f"Play {c}" for _, c in plays]

    def _public_plays(self, obs):
        plays = []
        for trick in obs["tricks"] + [obs["trick"]]:
            plays += [((trick["leader"] + i) % self.n, c) for i, c in enumerate(trick["cards"])]
        return plays

    def _voids(self, obs):
        void = {q: set() for q in range(self.n)}
        for trick in obs["tricks"] + [obs["trick"]]:
            for i, card in enumerate(trick["cards"][1:], start=1):
                if card[-1] != trick["cards"][0][-1]:
                    void[(trick["leader"] + i) % self.n].add(trick["cards"][0][-1])
        return void

    def _sample_hidden_hands(self, obs, me, plays, known, rng, spare=0):
        """Current-hand contents (played cards included) of every opponent."""
        void = self._voids(obs)
        held = {q: set(known.get(q, ())) | {c for p, c in plays if p == q}
                for q in range(self.n) if q != me}
        mine = set(obs["hand"]) | {c for p, c in plays if p == me}
        if obs.get("imp"):
            mine.add(obs["imp"])
        pool = [name(c) for c in DECK
                if name(c) not in mine and not any(name(c) in h for h in held.values())]
        size = self._tricks() if self.official else self.hand_size
        needs = {q: size - len(held[q]) for q in held}
        hidden = sample_hands(pool, needs, lambda q, c: c[-1] not in void[q], rng)
        hands = {q: sorted(held[q] | set(hidden[q]), key=number) for q in held}
        rest = [c for c in pool if not any(c in h for h in hidden.values())]
        return hands, rest

    def _sample_after_exchange(self, obs, me, original, plays, rng):
        n, left_of, right_of = self.n, (me + 1) % self.n, (me - 1) % self.n
        my_left, my_right = obs["passed"]
        from_right, from_left = obs["received"]  # sent by me-1 (its left) and me+1 (its right)
        known = {left_of: {my_left}, right_of: {my_right}}
        if left_of == right_of:
            known = {left_of: {my_left, my_right}}
        after, rest = self._sample_hidden_hands(obs, me, plays, known, rng)
        rng.shuffle(rest)
        imps = [obs["imp"] if q == me else rest.pop() for q in range(n)]
        passes = [[None, None] for _ in range(n)]
        passes[me] = [my_left, my_right]
        passes[right_of][0] = from_right
        passes[left_of][1] = from_left
        incoming = {q: set() for q in range(n)}
        for q in range(n):
            for side, target in ((0, (q + 1) % n), (1, (q - 1) % n)):
                if passes[q][side] is not None:
                    incoming[target].add(passes[q][side])
        for q in range(n):
            for side, target in ((0, (q + 1) % n), (1, (q - 1) % n)):
                if passes[q][side] is None:
                    options = [c for c in after[target] if c not in incoming[target]]
                    passes[q][side] = rng.choice(options)
                    incoming[target].add(passes[q][side])
        full = {**after, me: None}
        for q in range(n):
            if q != me:
                kept = set(full[q]) - incoming[q]
                original[q] = sorted(kept | {imps[q], *passes[q]}, key=number)
        return original, imps, passes

    def _sample_before_exchange(self, obs, me, original, rng):
        pool = [name(c) for c in DECK if name(c) not in original[me]]
        hands = sample_hands(pool, {q: self.hand_size for q in range(self.n) if q != me},
                             lambda q, c: True, rng)
        original.update(hands)
        exchanging = obs["imp"] is not None  # the imp phase is over for everyone
        imps = [obs["imp"] if q == me else rng.choice(original[q])
                for q in (range(self.n) if exchanging else range(me))]
        passes = []
        if exchanging:
            for q in range(me):
                passes.append(rng.sample([c for c in original[q] if c != imps[q]], 2))
            if obs["passed"]:
                passes.append(list(obs["passed"]))
        return original, imps, passes


def make(num_players: int = 4, variant: str = "official") -> BottleImp:
    return BottleImp(num_players, variant)
