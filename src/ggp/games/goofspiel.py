"""Imperfect-information Goofspiel (seed 004 App. B.2; OpenSpiel ``goofspiel(imp_info=True)``).

Two players bid with cards 1..N for point cards 1..N. Bids are never revealed; only who won
each round is public. The simultaneous bids are sequentialized: player 0 bids, then player
1 bids without seeing player 0's pending bid. As in OpenSpiel, the last round (one card
left in each hand) is played automatically, so a game has 2(N-1) decisions.

Action names: bids are ``"Bid k"`` (OpenSpiel ``"[Pp]Bid: k"``, action id k-1); the chance
move that turns over the next point card (random order only) is ``"Point card k"``
(OpenSpiel ``"Deal k"``, action id k-1).
"""

from __future__ import annotations

import random
from functools import cache

from ggp.core.errors import BeliefError
from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata, player_name

PARAMETERS = {"num_cards": 5, "points_order": "random", "returns_type": "win_loss"}
#: Bounds of the numeric parameters (checked before make() runs; see ggp.core.registry).
PARAMETER_RANGES = {"num_cards": (2, 100)}

POINTS_ORDERS = ("random", "descending", "ascending")
RETURNS_TYPES = ("win_loss", "point_difference", "total_points")
TIE = "tie"

_ORDER_TEXT = {
    "random": "The point cards are shuffled: at the start of each round the next point card is "
    "drawn uniformly at random from the point cards not yet used and turned face up.",
    "descending": "The point cards are turned face up in descending order: N first, then "
    "N-1, and so on down to 1 (there is no randomness in this game).",
    "ascending": "The point cards are turned face up in ascending order: 1 first, then 2, and "
    "so on up to N (there is no randomness in this game).",
}
_RETURNS_TEXT = {
    "win_loss": "The player with more points wins and gets +1, the other gets -1; equal "
    "points is a draw and both get 0.",
    "point_difference": "Each player gets its own points minus the average of both players' "
    "points, that is half the difference between its points and the opponent's (as in "
    "OpenSpiel).",
    "total_points": "Each player gets its own points (the game is not zero-sum).",
}

RULES_TEMPLATE = """\
Imperfect-information Goofspiel with {n} cards. Two players (player 0 and player 1) each hold
the cards 1, 2, ..., {n} in hand. A separate set of point cards, also valued 1..{n}, is used
one card per round, so the game has {n} rounds. {order}

Each round both players bid one card from their hand for the face-up point card. Bidding is
simultaneous; here player 0 chooses first and player 1 chooses next without learning player
0's choice. A bid is written "Bid k" for the card of value k, and a bid card is used up
(it leaves the hand for good). The higher bid wins the round and its bidder scores points
equal to the point card's value. If both bids are equal, nobody scores and the point card is
discarded. Bids are never shown to the other player: after a round both players learn only
who won it (player 0, player 1, or a tie) and the scores. When each player has a single card
left, the last round is played automatically with those cards and the last point card.
{chance_line}
The game ends after round {n}. {returns} Rewards are given only at the end.
Each player always knows its own hand, its own past bids, the point cards turned over so
far, who won each past round and both scores.
"""


def _metadata(num_cards: int, points_order: str, returns_type: str) -> GameMetadata:
    total = num_cards * (num_cards + 1) // 2
    low, high = {"win_loss": (-1.0, 1.0), "point_difference": (-total / 2, total / 2),
                 "total_points": (0.0, total)}[returns_type]
    return GameMetadata(
        num_players=2,
        min_utility=float(low),
        max_utility=float(high),
        zero_sum=returns_type != "total_points",
        outcome="win_loss_draw" if returns_type == "win_loss" else "payoff",
        perfect_information=False,
        chance=points_order == "random",
        simultaneous=True,
        openspiel=(f"goofspiel(imp_info=True,num_cards={num_cards},"
                   f"points_order={points_order},returns_type={returns_type})"),
        source="seed 004 App. B.2; OpenSpiel goofspiel(imp_info=True)",
    )


METADATA = _metadata(**PARAMETERS)


class Goofspiel:
    """The world-model namespace of one Goofspiel variant (see :func:`make`)."""

    def __init__(self, num_cards: int, points_order: str, returns_type: str) -> None:
        self.num_cards = num_cards
        self.points_order = points_order
        self.returns_type = returns_type
        self.METADATA = _metadata(num_cards, points_order, returns_type)
        self.RULES = RULES_TEMPLATE.format(
            n=num_cards,
            order=_ORDER_TEXT[points_order],
            returns=_RETURNS_TEXT[returns_type],
            chance_line=('The chance move that turns over a point card is written "Point '
                         'card k".' if points_order == "random" else ""),
        )
        cards = list(range(1, num_cards + 1))
        state = {
            "hands": [cards[:], cards[:]],
            "point_deck": cards[:],  # point cards not yet turned over
            "point_cards": [],  # point cards turned over, in order (last = current round)
            "bids": [[], []],  # completed rounds' bids
            "pending_bid": None,  # player 0's bid in the current round, hidden from player 1
            "winners": [],  # per completed round: 0, 1 or "tie"
            "points": [0, 0],
            "current_player": CHANCE,
            "rewards": [0.0, 0.0],
        }
        self.INITIAL_STATE = self._start_round(state)

    # ------------------------------------------------------------------ protocol
    def get_current_player(self, state: dict) -> int:
        return state["current_player"]

    def get_player_name(self, player_id: int) -> str:
        return player_name(player_id)

    def get_legal_actions(self, state: dict) -> list[str]:
        player = state["current_player"]
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [f"Point card {k}" for k in state["point_deck"]]
        return [f"Bid {k}" for k in state["hands"][player]]

    def get_chance_outcomes(self, state: dict) -> list[tuple[str, float]]:
        actions = self.get_legal_actions(state) if state["current_player"] == CHANCE else []
        return [(a, 1.0 / len(actions)) for a in actions]

    def apply_action(self, state: dict, action: str) -> dict:
        if action not in self.get_legal_actions(state):
            raise ValueError(f"illegal action {action!r}; legal: {self.get_legal_actions(state)}")
        new = _copy(state)
        new["rewards"] = [0.0, 0.0]
        card = int(action.rsplit(" ", 1)[1])
        player = state["current_player"]
        if player == CHANCE:
            new["point_deck"].remove(card)
            new["point_cards"].append(card)
            new["current_player"] = 0
            return new
        new["hands"][player].remove(card)
        if player == 0:
            new["pending_bid"] = card
            new["current_player"] = 1
            return new
        self._finish_round(new, new["pending_bid"], card)
        if len(new["hands"][0]) == 1:  # the last round is forced
            new["point_cards"].append(new["point_deck"].pop())
            self._finish_round(new, new["hands"][0].pop(), new["hands"][1].pop())
            new["current_player"] = TERMINAL
            new["rewards"] = self._returns(new["points"])
            return new
        return self._start_round(new)

    def get_rewards(self, state: dict) -> list[float]:
        return list(state["rewards"])

    def get_observations(self, state: dict) -> list[dict]:
        return [self._observation(state, p) for p in (0, 1)]

    # ------------------------------------------------------------------ inference
    def resample_history(
        self,
        obs_action_history: list,
        player_id: int,
        last_is_terminal: bool = False,
        rng: random.Random | None = None,
    ) -> list[str]:
        """A full action sequence consistent with ``player_id``'s observations.

        The only hidden information is the opponent's bids; the point cards are public.
        Every consistent history has the same chance probability, so the result is uniform
        over the opponent bid sequences that agree with the public round winners (and, for
        player 1 deciding now, over player 0's pending bid): exact counting by dynamic
        programming over the set of used opponent cards, then sampling forward. With
        ``last_is_terminal`` the last observation is of the terminal state and the whole
        game is returned. ``rng`` makes the sample reproducible.
        """
        obs = obs_action_history[-1][0]
        my_bids = list(obs["my_bids"])
        winners = obs["round_winners"]
        opponent = 1 - player_id
        relations = []  # per round: the opponent bid must be "<", ">" or "=" my bid, or free
        for mine, winner in zip(my_bids, winners):
            rel = "=" if winner == TIE else ("<" if winner == player_id else ">")
            relations.append((rel, mine))
        if not last_is_terminal and player_id == 1:
            relations.append(("free", 0))  # player 0's pending bid
        rng = rng or random.Random(random.getrandbits(64))  # follows random.seed()
        opp_bids = _sample_sequence(self.num_cards, relations, rng)
        bids = [None, None]
        bids[player_id], bids[opponent] = my_bids, opp_bids
        actions = []
        played_rounds = self.num_cards - 1 if last_is_terminal else len(obs["point_cards"])
        for r in range(played_rounds):
            if self.points_order == "random":
                actions.append(f"Point card {obs['point_cards'][r]}")
            for p in (0, 1):
                if r < len(bids[p]):
                    actions.append(f"Bid {bids[p][r]}")
        return actions

    # ------------------------------------------------------------------ helpers
    def _start_round(self, state: dict) -> dict:
        if self.points_order == "random":
            state["current_player"] = CHANCE
        else:
            deck = state["point_deck"]
            card = max(deck) if self.points_order == "descending" else min(deck)
            deck.remove(card)
            state["point_cards"].append(card)
            state["current_player"] = 0
        return state

    @staticmethod
    def _finish_round(state: dict, bid0: int, bid1: int) -> None:
        value = state["point_cards"][-1]
        state["bids"][0].append(bid0)
        state["bids"][1].append(bid1)
        state["pending_bid"] = None
        if bid0 == bid1:
            state["winners"].append(TIE)
        else:
            winner = 0 if bid0 > bid1 else 1
            state["winners"].append(winner)
            state["points"][winner] += value

    def _returns(self, points: list[int]) -> list[float]:
        p0, p1 = points
        if self.returns_type == "win_loss":
            sign = (p0 > p1) - (p0 < p1)
            return [float(sign), float(-sign)]
        if self.returns_type == "point_difference":
            return [(p0 - p1) / 2, (p1 - p0) / 2]
        return [float(p0), float(p1)]

    @staticmethod
    def _observation(state: dict, player: int) -> dict:
        my_bids = list(state["bids"][player])
        if player == 0 and state["pending_bid"] is not None:
            my_bids.append(state["pending_bid"])
        in_round = len(state["point_cards"]) > len(state["winners"])
        return {
            "player": player,
            "hand": sorted(state["hands"][player]),
            "my_bids": my_bids,
            "point_cards": list(state["point_cards"]),
            "current_point_card": state["point_cards"][-1] if in_round else None,
            "remaining_point_cards": sorted(state["point_deck"]),
            "round_winners": list(state["winners"]),
            "points": list(state["points"]),
        }


def _copy(state: dict) -> dict:
    return {k: [v[:] for v in val] if k in ("hands", "bids") else
            (val[:] if isinstance(val, list) else val) for k, val in state.items()}


def _sample_sequence(n: int, relations: list[tuple[str, int]], rng: random.Random) -> list[int]:
    """A uniformly random sequence of distinct cards from 1..n, one per relation, where the
    card of round r satisfies ``card <rel_r> mine_r`` (rel in "<", ">", "=", "free")."""

    def allowed(card: int, rel: str, mine: int) -> bool:
        return (rel == "free" or (rel == "<" and card < mine) or (rel == ">" and card > mine)
                or (rel == "=" and card == mine))

    @cache
    def completions(used: int) -> int:
        r = used.bit_count()
        if r == len(relations):
            return 1
        rel, mine = relations[r]
        return sum(completions(used | 1 << c) for c in range(1, n + 1)
                   if not used >> c & 1 and allowed(c, rel, mine))

    if completions(0) == 0:
        raise BeliefError("no opponent bids are consistent with the observed round winners")
    used, sequence = 0, []
    for rel, mine in relations:
        options = [c for c in range(1, n + 1) if not used >> c & 1 and allowed(c, rel, mine)]
        weights = [completions(used | 1 << c) for c in options]
        card = rng.choices(options, weights=weights)[0]
        sequence.append(card)
        used |= 1 << card
    return sequence


def make(num_cards: int = 5, points_order: str = "random",
         returns_type: str = "win_loss") -> Goofspiel:
    """A Goofspiel variant. Raises ``ValueError`` on bad parameters."""
    if not isinstance(num_cards, int) or num_cards < 2:
        raise ValueError(f"num_cards must be an integer of at least 2, got {num_cards!r}")
    if points_order not in POINTS_ORDERS:
        raise ValueError(f"points_order must be one of {', '.join(POINTS_ORDERS)}")
    if returns_type not in RETURNS_TYPES:
        raise ValueError(f"returns_type must be one of {', '.join(RETURNS_TYPES)}")
    return Goofspiel(num_cards, points_order, returns_type)
