"""Agram: a four-player trick-taking game where only the last trick counts.

Rules follow the real game as summarised in ``shared/research/cards_ismcts.md`` §1.1
(the thesis' Ludii version reverses the rank order; ``rank_order="repo_reversed"``
reproduces that file's order for replication).
"""

from __future__ import annotations

import random

from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata, player_name
from ggp.games._cards import SUITS, interleave_deal, rank, sample_hands, suit

PARAMETERS = {"rank_order": "real"}

RULES = """\
Agram, for four players (numbered 0 to 3).
Cards: a 35-card deck with the ranks A, 10, 9, 8, 7, 6, 5, 4, 3 in the four suits clubs (C),
diamonds (D), hearts (H) and spades (S), except that there is no ace of spades. A card is
written rank then suit, e.g. "10H", "AC", "3S". Within a suit the order from high to low is
A, 10, 9, 8, 7, 6, 5, 4, 3 (so the 10 of spades is the highest spade). There are no trumps.
Deal: the deck is shuffled and dealt one card at a time, player 0 first, then 1, 2, 3 and
around again, until each player holds 6 cards. Each deal step is a chance move written
"Deal <card>" (the card goes to the next player in turn). The 11 cards left over are put
aside face down: nobody ever sees them.
Play: six tricks. Player 0 leads the first trick by playing any card from their hand. Then
the other players, going round in order 0, 1, 2, 3 from the leader, each play one card: a
player who holds a card of the suit that was led must play a card of that suit; a player
who holds none may play any card. A move is written "Play <card>". The highest card of
the suit that was led wins the trick (cards of other suits never win), and its winner
leads the next trick. Every played card is seen by everyone.
End: after the sixth trick the game ends. The winner of the sixth trick wins the game and
receives a reward of 1; the other three players receive 0. Earlier tricks are worth nothing.
Each player sees their own hand, every card played so far (who played it, trick by
trick) and whose turn it is; nobody sees another player's hand or the unused cards.
"""

METADATA = GameMetadata(
    num_players=4,
    min_utility=0.0,
    max_utility=1.0,
    zero_sum=False,
    outcome="win_loss_draw",
    perfect_information=False,
    chance=True,
    source="seed 001 (thesis card games); shared/research/cards_ismcts.md §1.1",
)

HAND_SIZE = 6
NUM_PLAYERS = 4


class Agram:
    """The Agram world model (see ``RULES``)."""

    RULES = RULES

    def __init__(self, rank_order: str = "real") -> None:
        if rank_order not in ("real", "repo_reversed"):
            raise ValueError("rank_order must be 'real' or 'repo_reversed'")
        ranks = ["A", "10", "9", "8", "7", "6", "5", "4", "3"]
        self.order = ranks if rank_order == "real" else ranks[::-1]
        self.deck = [r + s for s in SUITS for r in ranks if r + s != "AS"]
        self.INITIAL_STATE = {
            "deck": sorted(self.deck),
            "hands": [[] for _ in range(NUM_PLAYERS)],
            "tricks": [],  # completed tricks: {"leader": p, "cards": [c0, c1, ...]}
            "trick": {"leader": 0, "cards": []},
            "winner": None,
            "rewards": [0.0] * NUM_PLAYERS,
        }

    # -- protocol ----------------------------------------------------------
    def get_current_player(self, state):
        if state["winner"] is not None:
            return TERMINAL
        if sum(len(h) for h in state["hands"]) + _played(state) < HAND_SIZE * NUM_PLAYERS:
            return CHANCE
        trick = state["trick"]
        return (trick["leader"] + len(trick["cards"])) % NUM_PLAYERS

    def get_player_name(self, player_id):
        return player_name(player_id)

    def get_legal_actions(self, state):
        player = self.get_current_player(state)
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [f"Deal {c}" for c in state["deck"]]
        return [f"Play {c}" for c in self._playable(state, player)]

    def apply_action(self, state, action):
        kind, card = action.split(" ")
        new = {
            "deck": list(state["deck"]),
            "hands": [list(h) for h in state["hands"]],
            "tricks": list(state["tricks"]),
            "trick": {"leader": state["trick"]["leader"], "cards": list(state["trick"]["cards"])},
            "winner": None,
            "rewards": [0.0] * NUM_PLAYERS,
        }
        if kind == "Deal":
            receiver = sum(len(h) for h in new["hands"]) % NUM_PLAYERS
            new["deck"].remove(card)
            new["hands"][receiver].append(card)
            new["hands"][receiver].sort()
            return new
        player = self.get_current_player(state)
        if card not in self._playable(state, player):
            raise ValueError(f"player {player} cannot play {card}")
        new["hands"][player].remove(card)
        new["trick"]["cards"].append(card)
        if len(new["trick"]["cards"]) == NUM_PLAYERS:
            winner = self._trick_winner(new["trick"])
            new["tricks"].append(new["trick"])
            new["trick"] = {"leader": winner, "cards": []}
            if len(new["tricks"]) == HAND_SIZE:
                new["winner"] = winner
                new["rewards"][winner] = 1.0
        return new

    def get_rewards(self, state):
        return list(state["rewards"])

    def get_observations(self, state):
        public = {
            "tricks": state["tricks"],
            "trick": state["trick"],
            "current_player": self.get_current_player(state),
            "winner": state["winner"],
        }
        return [{"player": p, "hand": state["hands"][p], **public} for p in range(NUM_PLAYERS)]

    def resample_history(self, obs_action_history, player_id):
        """A deal consistent with the player's view, uniform over such deals (see
        ``_cards.sample_hands``), followed by the public card plays."""
        rng = random.Random(random.getrandbits(64))  # follows random.seed()
        last = obs_action_history[-1][0]
        plays = _public_plays(last)
        my_played = [c for p, c in plays if p == player_id]
        dealt_mine = sorted(last["hand"] + my_played)
        seen = set(dealt_mine) | {c for _, c in plays}
        pool = [c for c in self.deck if c not in seen]
        needs, void = {}, {p: set() for p in range(NUM_PLAYERS)}
        for p in range(NUM_PLAYERS):
            if p != player_id:
                needs[p] = HAND_SIZE - sum(1 for q, _ in plays if q == p)
        for trick in last["tricks"] + [last["trick"]]:
            led = suit(trick["cards"][0]) if trick["cards"] else None
            for i, card in enumerate(trick["cards"][1:], start=1):
                if suit(card) != led:
                    void[(trick["leader"] + i) % NUM_PLAYERS].add(led)
        hidden = sample_hands(pool, needs, lambda p, c: suit(c) not in void[p], rng)
        hands = {player_id: dealt_mine}
        for p in needs:
            hands[p] = hidden[p] + [c for q, c in plays if q == p]
        deal = interleave_deal(hands, NUM_PLAYERS, rng=rng)
        return [f"Deal {c}" for c in deal] + [f"Play {c}" for _, c in plays]

    # -- helpers -----------------------------------------------------------
    def _playable(self, state, player):
        hand = state["hands"][player]
        cards = state["trick"]["cards"]
        if cards:
            follow = [c for c in hand if suit(c) == suit(cards[0])]
            if follow:
                return follow
        return list(hand)

    def _trick_winner(self, trick):
        led = suit(trick["cards"][0])
        best = min(
            (i for i, c in enumerate(trick["cards"]) if suit(c) == led),
            key=lambda i: self.order.index(rank(trick["cards"][i])),
        )
        return (trick["leader"] + best) % NUM_PLAYERS


def _played(state) -> int:
    return sum(len(t["cards"]) for t in state["tricks"]) + len(state["trick"]["cards"])


def _public_plays(observation) -> list[tuple[int, str]]:
    """Every (player, card) played so far, in order, from an observation."""
    plays = []
    for trick in observation["tricks"] + [observation["trick"]]:
        for i, card in enumerate(trick["cards"]):
            plays.append(((trick["leader"] + i) % NUM_PLAYERS, card))
    return plays


def make(rank_order: str = "real") -> Agram:
    return Agram(rank_order)
