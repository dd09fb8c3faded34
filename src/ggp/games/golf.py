"""Golf, the three-player draw-and-discard variant of the thesis card games.

Rules as in ``shared/research/cards_ismcts.md`` §1.2 (with the Ludii file's draw bug fixed:
every turn draws the next stock card).
"""

from __future__ import annotations

import random

from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata, player_name
from ggp.games._cards import SUITS, interleave_deal, rank

PARAMETERS = {"drawn_card_public": True, "discards_public": False}

RULES = """\
Golf, for three players (numbered 0 to 2). Low score wins.
Cards: a standard 52-card deck, ranks A, 2-10, J, Q, K in clubs (C), diamonds (D), hearts
(H) and spades (S), written rank then suit, e.g. "KH", "7C". Card values: ace 1, 2 to 10
their number, jack 10, queen 10, king 0.
Deal: the shuffled deck is dealt one card at a time (chance moves "Deal <card>"), player 0
first, then 1, 2 and around again, until everyone has 4 cards in 4 face-down slots
numbered 0-3. You know your own 4 cards; the others do not. The remaining 40 cards form
the stock.
Turn (players 0, 1, 2, 0, ...): first the top stock card is drawn into your fifth slot
(a chance move "Draw <card>"); with the standard settings everyone sees the drawn card.
Then you discard one of your five cards ("Discard <card>"): either the card just drawn,
or one of your four slot cards, in which case the drawn card takes that card's slot.
Discarded cards leave the game. Opponents see which slot you discarded from, but (with the
standard settings) not which card it was, unless it was the card just drawn.
End: after 40 turns the stock is empty and the game ends (player 0 has had 14 turns,
players 1 and 2 13 each). Your score is the total value of your 4 slot cards. Players are
ranked by score, lowest first; the best rank is worth 1, the middle 0.5 and the worst 0,
and tied players share the average of the values of the ranks they tie for. These values
are the rewards at the end of the game.
Each player sees its own slot cards, its drawn card, the public record of every turn
(who drew what when draws are public, and which slot each player discarded from, with the
card when it is public), and the number of cards left in the stock.
"""

METADATA = GameMetadata(
    num_players=3,
    min_utility=0.0,
    max_utility=1.0,
    zero_sum=False,
    outcome="payoff",
    perfect_information=False,
    chance=True,
    source="seed 001 (thesis card games); shared/research/cards_ismcts.md §1.2",
)

NUM_PLAYERS, HAND_SIZE, TURNS = 3, 4, 40
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
DECK = [r + s for s in SUITS for r in RANKS]


def card_value(card: str) -> int:
    r = rank(card)
    return {"A": 1, "J": 10, "Q": 10, "K": 0}.get(r, int(r) if r.isdigit() else 0)


def rank_utilities(scores: list[int]) -> list[float]:
    """Lowest score best: rank values 1, 0.5, 0; ties share the average."""
    values = [1.0, 0.5, 0.0]
    order = sorted(range(len(scores)), key=lambda p: scores[p])
    result = [0.0] * len(scores)
    for p in range(len(scores)):
        tied = [i for i, q in enumerate(order) if scores[q] == scores[p]]
        result[p] = sum(values[i] for i in tied) / len(tied)
    return result


class Golf:
    """The Golf world model (see ``RULES``)."""

    RULES = RULES

    def __init__(self, drawn_card_public: bool = True, discards_public: bool = False) -> None:
        self.drawn_public = drawn_card_public
        self.discards_public = discards_public
        self.INITIAL_STATE = {
            "stock": sorted(DECK),
            "slots": [[] for _ in range(NUM_PLAYERS)],
            "drawn": None,
            "turn": 0,
            "log": [],  # per finished turn: {"player", "drew", "slot", "discarded"}
            "rewards": [0.0] * NUM_PLAYERS,
        }

    def get_current_player(self, state):
        if state["turn"] >= TURNS:
            return TERMINAL
        if sum(len(s) for s in state["slots"]) < NUM_PLAYERS * HAND_SIZE:
            return CHANCE
        return CHANCE if state["drawn"] is None else state["turn"] % NUM_PLAYERS

    def get_player_name(self, player_id):
        return player_name(player_id)

    def get_legal_actions(self, state):
        player = self.get_current_player(state)
        if player == TERMINAL:
            return []
        if player == CHANCE:
            dealing = sum(len(s) for s in state["slots"]) < NUM_PLAYERS * HAND_SIZE
            return [f"{'Deal' if dealing else 'Draw'} {c}" for c in state["stock"]]
        return [f"Discard {c}" for c in state["slots"][player] + [state["drawn"]]]

    def apply_action(self, state, action):
        verb, card = action.split(" ")
        new = {
            "stock": list(state["stock"]),
            "slots": [list(s) for s in state["slots"]],
            "drawn": state["drawn"],
            "turn": state["turn"],
            "log": list(state["log"]),
            "rewards": [0.0] * NUM_PLAYERS,
        }
        if verb == "Deal":
            new["stock"].remove(card)
            new["slots"][sum(len(s) for s in state["slots"]) % NUM_PLAYERS].append(card)
            return new
        if verb == "Draw":
            new["stock"].remove(card)
            new["drawn"] = card
            return new
        player = state["turn"] % NUM_PLAYERS
        hand = new["slots"][player]
        if card == state["drawn"]:
            slot = HAND_SIZE
        elif card in hand:
            slot = hand.index(card)
            hand[slot] = state["drawn"]
        else:
            raise ValueError(f"player {player} cannot discard {card}")
        new["log"].append({"player": player, "drew": state["drawn"], "slot": slot,
                           "discarded": card})
        new["drawn"] = None
        new["turn"] += 1
        if new["turn"] == TURNS:
            scores = [sum(card_value(c) for c in s) for s in new["slots"]]
            new["rewards"] = rank_utilities(scores)
        return new

    def get_rewards(self, state):
        return list(state["rewards"])

    def get_observations(self, state):
        return [self._observe(state, p) for p in range(NUM_PLAYERS)]

    def _observe(self, state, p):
        log = []
        for entry in state["log"]:
            own = entry["player"] == p
            shown = own or self.discards_public or (entry["slot"] == HAND_SIZE and self.drawn_public)
            log.append({
                "player": entry["player"],
                "drew": entry["drew"] if own or self.drawn_public else None,
                "slot": entry["slot"],
                "discarded": entry["discarded"] if shown else None,
            })
        mover = self.get_current_player(state)
        drawn = state["drawn"] if (mover == p or self.drawn_public) else None
        return {
            "player": p,
            "slots": state["slots"][p],
            "drawn": drawn,
            "current_player": mover,
            "log": log,
            "stock_size": len(state["stock"]),
        }

    def resample_history(self, obs_action_history, player_id):
        """Uniform over the unseen cards placed in every position the player cannot see.

        Every hidden card (an opponent's dealt card, a private draw) is a variable; the
        public log fixes the ones it shows and says which variable each discard removed.
        The remaining variables get distinct unseen cards uniformly at random; any such
        assignment is consistent, because discards are unconstrained.
        """
        rng = random.Random(random.getrandbits(64))  # follows random.seed()
        obs = obs_action_history[-1][0]
        own_dealt = obs_action_history[0][0]["slots"]  # untouched before its first turn
        variables: dict[str, str | None] = {}
        slots = {q: [f"d{q}{i}" for i in range(HAND_SIZE)] for q in range(NUM_PLAYERS)}
        for i, card in enumerate(own_dealt):
            variables[f"d{player_id}{i}"] = card
        events = []  # (player, drawn variable, discarded variable)
        for t, entry in enumerate(obs["log"] + [self._current_entry(obs)]):
            q = entry["player"]
            drawn_var = f"t{t}"
            variables[drawn_var] = entry["drew"]
            if entry.get("slot") is None:
                events.append((q, drawn_var, None))
                break
            if entry["slot"] == HAND_SIZE:
                gone = drawn_var
            else:
                gone = slots[q][entry["slot"]]
                slots[q][entry["slot"]] = drawn_var
            if entry["discarded"] is not None:
                variables[gone] = entry["discarded"]
            events.append((q, drawn_var, gone))
        for q in range(NUM_PLAYERS):
            for i in range(HAND_SIZE):
                variables.setdefault(f"d{q}{i}", None)
        seen = {c for c in variables.values() if c is not None}
        unseen = [c for c in DECK if c not in seen]
        rng.shuffle(unseen)
        for name, value in variables.items():
            if value is None:
                variables[name] = unseen.pop()
        hands = {q: [variables[f"d{q}{i}"] for i in range(HAND_SIZE)] for q in range(NUM_PLAYERS)}
        # Deal order is slot order, so slot i of each player is the i-th card it received.
        actions = [f"Deal {c}" for c in interleave_deal(hands, NUM_PLAYERS)]
        for q, drawn_var, gone in events:
            actions.append(f"Draw {variables[drawn_var]}")
            if gone is not None:
                actions.append(f"Discard {variables[gone]}")
        return actions

    def _current_entry(self, obs):
        return {"player": obs["player"], "drew": obs["drawn"], "slot": None, "discarded": None}


def make(drawn_card_public: bool = True, discards_public: bool = False) -> Golf:
    return Golf(drawn_card_public, discards_public)
