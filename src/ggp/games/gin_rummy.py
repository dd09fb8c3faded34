"""Gin rummy (seed 000 App. H.7) with the semantics of OpenSpiel's ``gin_rummy``.

Action names are OpenSpiel's without the ``"Player: p Action: "`` prefix: a card such as
``"Jc"`` (discard, knock discard or lay-off), ``"Draw upcard"``, ``"Draw stock"``,
``"Pass"``, ``"Knock"`` and melds such as ``"7c8c9cTc"`` or ``"AsAcAh"``. Chance actions
are ``"Deal As"``: the first ``hand_size`` go to player 0, the next ``hand_size`` to player
1, the next one is the first upcard, and every later one is the card a player draws from
the stock.

Where OpenSpiel's behaviour differs from the usual table rules (and from the seed's rules
text) we follow OpenSpiel and say so in ``RULES``: equal deadwood after a knock scores 0
(no undercut), the defender lays off before melding and at most two cards on each end of a
run, the 11-card deadwood used for knocking breaks ties between meld arrangements in a
fixed order, and a hand also ends (drawn) after 50 upcard draws or when both players in a
row take the upcard and throw it straight back.

``PARAMETERS`` are OpenSpiel's: ``oklahoma``, ``knock_card``, ``gin_bonus``,
``undercut_bonus``, ``num_ranks``, ``num_suits`` and ``hand_size``.
"""

from __future__ import annotations

import random
from functools import lru_cache
from types import SimpleNamespace

from ggp.core.errors import BeliefError
from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata, player_name

PARAMETERS = {"oklahoma": False, "knock_card": 10, "gin_bonus": 25, "undercut_bonus": 25,
              "num_ranks": 13, "num_suits": 4, "hand_size": 10}
#: Bounds of the numeric parameters (checked before make() runs; see ggp.core.registry).
PARAMETER_RANGES = {"knock_card": (0, 10), "gin_bonus": (0, 1000), "undercut_bonus": (0, 1000),
                    "num_ranks": (1, 13), "num_suits": (1, 4), "hand_size": (1, 10)}

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "scdh"
WALL_STOCK_SIZE = 2
MAX_UPCARD_DRAWS = 50  # the 50th "Draw upcard" of the Draw phase ends the hand (a draw)
MAX_DEADWOOD = 98  # OpenSpiel's bound, used to make every meld legal for the defender

PLAYER_ACTIONS = ("Draw upcard", "Draw stock", "Pass", "Knock")

_RULES = """\
Gin rummy for two players (player 0 and player 1) with a deck of {num_cards} cards.

Cards. A card is written rank then suit: ranks {ranks} (A lowest, K highest), suits
{suits} (spades, clubs, diamonds, hearts), e.g. "As", "Tc", "Kh". Card values: A = 1,
2..9 their number, T, J, Q, K = 10.
Melds. A set is 3 or 4 cards of the same rank. A run is 3 or more cards of one suit in
consecutive ranks (A is low only: A-2-3 is a run, Q-K-A is not). A single meld action names
a set of 3 or 4 or a run of 3, 4 or 5 cards, written as its cards in order: sets by suit
(s, c, d, h), runs by rank, e.g. "7s7c7h", "4h5h6h7h". A longer run is declared as two
melds. An arrangement is a choice of melds that share no card; the cards outside it are
deadwood, and the deadwood count is the sum of their values. A hand's deadwood is the
smallest deadwood count over all arrangements.
Deadwood of an 11-card hand (just after drawing): take the arrangement that melds the
largest total value, then leave out the highest-ranked deadwood card (the one you would
discard). If several arrangements meld the same largest total, the first in this order is
used: list the melds of the hand as (1) for each rank holding all four cards, from A up:
the four-card set, then the set without its third card, then the set without its second
card (cards in suit order s, c, d, h), (2) for each rank holding three or four cards, from
A up: its first three cards, then (with four) its last three, (3) runs of 5, then runs of
4, then runs of 3, each group ordered by suit then by lowest rank;
arrangements are compared by the positions of their melds in this list, smallest first.
(This is how knock legality below is computed; it is rarely different from simply the best
deadwood after the best discard.)

Deal (chance). The deck is shuffled; chance deals {hand_size} cards to player 0, then
{hand_size} to player 1, then turns one card face up: the upcard. The rest is the face-down
stock. Each chance action "Deal X" names the next card taken from the shuffled deck, every
remaining card being equally likely. {knock_text}
First turn. Player 0 may take the upcard ("Draw upcard") or "Pass". If player 0 passes,
player 1 may take it or pass. If both pass, player 0 must "Draw stock". Taking the first
upcard starts that player's discard phase as below.
Turns. Otherwise the players alternate turns, each in two phases:
  Draw phase: "Draw upcard" (take the upcard into your hand) or "Draw stock" (take the top
  card of the stock; the upcard is then buried in the discard pile and can never be taken
  again). Only the top discard, the upcard, can ever be taken.
  Discard phase (you hold {hand_size_plus} cards): discard any card of your hand by naming
  it, e.g. "4c" (it becomes the new upcard, even the card you just took), or "Knock" if the
  deadwood of your {hand_size_plus}-card hand is at most the knock card (and a knock discard
  as below exists; with 10-card hands it always does).
Knocking. After "Knock" the knocker first discards a card (to the discard pile, not as an
upcard) and may only pick a card that leaves a hand whose deadwood is at most the knock
card. Then the knocker declares melds one action at a time; only melds that belong to an
arrangement of the remaining cards with deadwood at most the knock card may be declared.
"Pass" ends the declaration and is allowed only once the undeclared cards are worth at most
the knock card in total. The knocker's deadwood is the value of its undeclared cards; 0
deadwood is gin. From the knock on, the knocker's hand is face up.
Laying off. Then the other player (the defender) lays off cards from its hand one at a time
by naming them, or "Pass" to stop (no lay-offs at all after gin). A card can be laid off if
it is the fourth card of one of the knocker's 3-card sets, or the next card beyond either
end of one of the knocker's runs as declared. Once a card has been laid off right next to
a run's end, the card beyond it may be laid off too, but nothing further: at most two
lay-offs per end of a run. 4-card sets take nothing, and the knocker never lays off.
After that "Pass", the defender declares any melds from its remaining hand one at a time
and ends with "Pass". The defender's deadwood is the value of its cards neither laid off
nor declared.
Scoring (only at the end). Let k and d be the knocker's and defender's deadwood. The
knocker scores d - k, plus {gin_bonus} for gin (k = 0). If that is negative (an
undercut), the knocker loses {undercut_bonus} more. Equal deadwood scores 0 (a tie is not
an undercut here). The defender gets the opposite amount (zero-sum).
Wall and other draws. When a discard leaves exactly 2 cards in the stock, the next player
is at the wall: "Pass" ends the hand as a draw, or "Knock" (only if the player's hand plus
the upcard has 11-card deadwood at most the knock card) takes the upcard and knocks as
above. The hand is also a draw (0 to both) at once when the {max_upcard}th "Draw upcard" of
the game is made (taking the first upcard on the first turn does not count; the 50th draw
itself does not take the card), or when a player takes the upcard and discards that same
card on the turn right after the opponent did exactly that.
State and observations. The state holds "phase" (Deal, FirstUpcard, Draw, Discard, Knock,
Layoff, Wall, GameOver), "current_player", "hands", "stock" (undealt cards, unordered),
"upcard", "discard_pile" (oldest first), "knock_card", "deadwood" (per player: the hand's
deadwood, after a knock the value of the undeclared cards) and the bookkeeping of the rules
above. A player sees its own hand, its dealt hand and deadwood, the first upcard, the
upcard, the discard pile, the stock size, the opponent's hand size, the cards the opponent
took from the upcard and still holds, the declared melds and lay-offs, every action so far
("history"; a stock draw shows the card only to the player who drew it), and the opponent's
whole hand once the opponent has knocked or the game is over.
"""


class GinRummy:
    """One Gin rummy variant; its methods are the world-model protocol functions."""

    def __init__(self, oklahoma=False, knock_card=10, gin_bonus=25, undercut_bonus=25,
                 num_ranks=13, num_suits=4, hand_size=10):
        _validate(oklahoma, knock_card, gin_bonus, undercut_bonus, num_ranks, num_suits,
                  hand_size)
        self.oklahoma, self.knock_card = oklahoma, knock_card
        self.gin_bonus, self.undercut_bonus = gin_bonus, undercut_bonus
        self.num_ranks, self.num_suits, self.hand_size = num_ranks, num_suits, hand_size
        self.cards = Cards(num_ranks, num_suits, hand_size)
        self.RULES = self._rules()
        self.METADATA = self._metadata()
        self.INITIAL_STATE = {
            "phase": "Deal",
            "current_player": CHANCE,
            "stock": list(self.cards.names),
            "hands": [[], []],
            "dealt": [[], []],
            "first_upcard": None,
            "upcard": None,
            "prev_upcard": None,
            "discard_pile": [],
            "knock_card": knock_card,
            "deadwood": [0, 0],
            "drawing_player": None,
            "passed_first_upcard": [False, False],
            "repeated_move": False,
            "upcard_draws": 0,
            "known_cards": [[], []],
            "knocked": [False, False],
            "melds": [[], []],
            "layoffs": [],
            "finished_layoffs": False,
            "history": [],
            "rewards": [0.0, 0.0],
        }

    # ------------------------------------------------------------------ protocol
    @staticmethod
    def get_current_player(state):
        return state["current_player"]

    @staticmethod
    def get_player_name(player_id):
        return player_name(player_id)

    def get_legal_actions(self, state):
        player, phase = state["current_player"], state["phase"]
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [f"Deal {c}" for c in state["stock"]]
        hand = state["hands"][player]
        if phase == "FirstUpcard":
            if all(state["passed_first_upcard"]):
                return ["Draw stock"]
            return ["Draw upcard", "Pass"]
        if phase == "Draw":
            return ["Draw upcard", "Draw stock"]
        if phase == "Discard":
            knock = ["Knock"] if self._can_knock(hand, state) else []
            return list(hand) + knock
        if phase == "Knock":
            if len(hand) == self.hand_size + 1:
                return self.cards.legal_discards(hand, state["knock_card"])
            melds = self.cards.legal_melds(hand, state["knock_card"])
            return melds + (["Pass"] if self.cards.value(hand) <= state["knock_card"] else [])
        if phase == "Layoff":
            if not state["finished_layoffs"]:
                targets = self.cards.layoff_cards(state["melds"][1 - player], state["layoffs"])
                return ["Pass"] + [c for c in hand if c in targets]
            return ["Pass"] + self.cards.legal_melds(hand, MAX_DEADWOOD)
        if phase == "Wall":
            knock = self._can_knock(hand + [state["upcard"]], state)
            return ["Pass"] + (["Knock"] if knock else [])
        raise ValueError(f"unknown phase {phase!r}")

    def _can_knock(self, cards, state):
        """OpenSpiel's test (11-card deadwood <= knock card), plus a legal knock discard.
        The second part never matters with hands of 10; with hand sizes like 2, 5 or 8 a
        hand of 3-card melds only would leave OpenSpiel with no legal action."""
        knock_card = state["knock_card"]
        return (self.cards.deadwood(cards) <= knock_card
                and bool(self.cards.legal_discards(cards, knock_card)))

    def get_chance_outcomes(self, state):
        if state["current_player"] != CHANCE:
            return []
        p = 1.0 / len(state["stock"])
        return [(f"Deal {c}", p) for c in state["stock"]]

    def apply_action(self, state, action):
        player = state["current_player"]
        if action not in self.get_legal_actions(state):
            raise ValueError(f"illegal action {action!r} for {self.get_player_name(player)} "
                             f"in phase {state['phase']}")
        new = _copy(state)
        if player == CHANCE:
            self._deal(new, action.removeprefix("Deal "))
            return new
        new["history"].append({"player": player, "action": action})
        handler = {"FirstUpcard": self._first_upcard, "Draw": self._draw,
                   "Discard": self._discard, "Knock": self._knock, "Layoff": self._layoff,
                   "Wall": self._wall}[state["phase"]]
        handler(new, player, action)
        return new

    @staticmethod
    def get_rewards(state):
        return list(state["rewards"])

    def get_observations(self, state):
        return [self._observation(state, p) for p in (0, 1)]

    # ------------------------------------------------------------------ rules
    def _deal(self, state, card):
        state["stock"].remove(card)
        dealt = [len(d) for d in state["dealt"]]
        if dealt[1] < self.hand_size:
            seat = 0 if dealt[0] < self.hand_size else 1
            _add(state["dealt"][seat], card, self.cards)
            _add(state["hands"][seat], card, self.cards)
            return
        if state["first_upcard"] is None:
            state["first_upcard"] = state["upcard"] = card
            state["deadwood"] = [self.cards.deadwood(h) for h in state["hands"]]
            if self.oklahoma:
                value = self.cards.value([card])
                state["knock_card"] = 0 if value == 1 else value  # an ace: play for gin
            state["phase"], state["current_player"] = "FirstUpcard", 0
            return
        player = state["drawing_player"]
        _add(state["hands"][player], card, self.cards)
        entry = dict(state["history"][-1])
        entry["card"] = card
        state["history"][-1] = entry
        state["deadwood"][player] = self.cards.deadwood(state["hands"][player])
        state["drawing_player"] = None
        state["phase"], state["current_player"] = "Discard", player

    def _first_upcard(self, state, player, action):
        if action == "Draw upcard":
            self._take_upcard(state, player)
        elif action == "Draw stock":
            self._draw_stock(state, player)
        else:
            state["passed_first_upcard"][player] = True
            state["current_player"] = 1 - player

    def _draw(self, state, player, action):
        if action == "Draw stock":
            self._draw_stock(state, player)
            return
        state["upcard_draws"] += 1
        if state["upcard_draws"] == MAX_UPCARD_DRAWS:
            _game_over(state)
            return
        self._take_upcard(state, player)

    def _take_upcard(self, state, player):
        card = state["upcard"]
        state["history"][-1]["card"] = card
        state["prev_upcard"], state["upcard"] = card, None
        _add(state["hands"][player], card, self.cards)
        _add(state["known_cards"][player], card, self.cards)
        state["deadwood"][player] = self.cards.deadwood(state["hands"][player])
        state["phase"] = "Discard"

    def _draw_stock(self, state, player):
        state["prev_upcard"] = state["upcard"]
        if state["upcard"] is not None:
            state["discard_pile"].append(state["upcard"])
        state["upcard"] = None
        state["history"][-1]["card"] = None  # filled in by the chance move
        state["drawing_player"] = player
        state["phase"], state["current_player"] = "Deal", CHANCE

    def _discard(self, state, player, action):
        if action == "Knock":
            state["knocked"][player] = True
            state["deadwood"] = [self.cards.value(h) for h in state["hands"]]
            state["phase"] = "Knock"
            return
        self._remove(state, player, [action])
        state["deadwood"][player] = self.cards.deadwood(state["hands"][player])
        state["upcard"] = action
        state["current_player"] = 1 - player
        if action == state["prev_upcard"]:  # took the upcard and threw it straight back
            if state["repeated_move"]:
                _game_over(state)
                return
            state["repeated_move"] = True
        else:
            state["repeated_move"] = False
        state["phase"] = "Wall" if len(state["stock"]) == WALL_STOCK_SIZE else "Draw"

    def _knock(self, state, player, action):
        if len(state["hands"][player]) == self.hand_size + 1:
            self._remove(state, player, [action])
            state["discard_pile"].append(action)
        elif action == "Pass":
            if state["deadwood"][player] == 0:
                state["finished_layoffs"] = True  # no lay-offs on gin
            state["phase"], state["current_player"] = "Layoff", 1 - player
        else:
            self._declare(state, player, action)

    def _layoff(self, state, player, action):
        if action == "Pass":
            if state["finished_layoffs"]:
                self._score(state)
            state["finished_layoffs"] = True
        elif not state["finished_layoffs"]:
            self._remove(state, player, [action])
            state["layoffs"].append(action)
        else:
            self._declare(state, player, action)

    def _wall(self, state, player, action):
        if action == "Pass":
            _game_over(state)
            return
        state["history"][-1]["card"] = state["upcard"]
        _add(state["hands"][player], state["upcard"], self.cards)
        _add(state["known_cards"][player], state["upcard"], self.cards)
        state["upcard"] = None
        state["knocked"][player] = True
        state["deadwood"] = [self.cards.value(h) for h in state["hands"]]
        state["phase"] = "Knock"

    def _declare(self, state, player, meld):
        state["melds"][player].append(meld)
        self._remove(state, player, _split(meld))

    def _remove(self, state, player, cards):
        for key in ("hands", "known_cards"):
            state[key][player] = [c for c in state[key][player] if c not in cards]
        if state["phase"] in ("Knock", "Layoff"):
            state["deadwood"][player] = self.cards.value(state["hands"][player])

    def _score(self, state):
        knocker = state["knocked"].index(True)
        k, d = state["deadwood"][knocker], state["deadwood"][1 - knocker]
        score = d - k + (self.gin_bonus if k == 0 else 0)
        if score < 0:
            score -= self.undercut_bonus
        _game_over(state)
        state["rewards"][knocker], state["rewards"][1 - knocker] = float(score), float(-score)

    # ------------------------------------------------------------------ observations
    def _observation(self, state, player):
        opp = 1 - player
        over = state["phase"] == "GameOver"
        history = []
        for entry in state["history"]:
            entry = dict(entry)  # observations never share dicts with the state
            if entry["player"] == opp and entry["action"] == "Draw stock":
                entry["card"] = None
            history.append(entry)
        return {
            "player": player,
            "phase": state["phase"],
            "current_player": state["current_player"],
            "knock_card": state["knock_card"],
            "hand": list(state["hands"][player]),
            "deadwood": state["deadwood"][player],
            "dealt_hand": list(state["dealt"][player]),
            "first_upcard": state["first_upcard"],
            "upcard": state["upcard"],
            "discard_pile": list(state["discard_pile"]),
            "stock_size": len(state["stock"]),
            "opponent_hand_size": len(state["hands"][opp]),
            "opponent_known_cards": list(state["known_cards"][opp]),
            "opponent_hand": (list(state["hands"][opp])
                              if state["knocked"][opp] or over else None),
            "melds": [list(m) for m in state["melds"]],
            "layoffs": list(state["layoffs"]),
            "history": history,
        }

    # ------------------------------------------------------------------ inference
    def resample_history(self, obs_action_history, player_id, last_is_terminal=False,
                         rng=None):
        """A full action list (chance included) consistent with ``player_id``'s view.

        Distribution: uniform over every complete chance history (the order of the deal
        and each stock draw) that reproduces the player's observations, with the players'
        recorded actions fixed. All chance histories of equal length are equally likely
        a priori, so this is the exact posterior when the opponent's choices are not
        weighed (as if it chose without regard to its hidden cards).

        Hidden: the order of the player's own dealt cards, the opponent's dealt hand and
        the opponent's stock draws. Let the opponent's hand have ``hand_size`` deal slots
        plus one slot per stock draw. Every card the opponent put out (discards, melds,
        lay-offs) or showed (its hand once revealed) that it did not take from the upcard
        must sit in a deal slot or in a stock-draw slot drawn before it was put out. These
        constrained cards are placed in time order, each uniformly among the free slots it
        may use; the allowed sets are nested, so every valid placement has the same chance
        of being drawn. Free slots get unseen cards uniformly at random.

        The last observation holds the whole history (perfect recall), so only it is read;
        ``last_is_terminal`` is accepted for the protocol and changes nothing.
        """
        rng = rng or random.Random(random.getrandbits(64))  # follows random.seed()
        obs = obs_action_history[-1][0]
        if obs["first_upcard"] is None:
            raise BeliefError("the deal is not finished; there is no decision to resample")
        opp = 1 - player_id
        known = set(obs["dealt_hand"]) | {obs["first_upcard"]}
        known |= {e["card"] for e in obs["history"]
                  if e["player"] == player_id and e["action"] == "Draw stock"}
        constrained, draws_before, taken = [], [], set()
        draws = 0
        for entry in obs["history"]:
            if entry["player"] != opp:
                continue
            if entry["action"] == "Draw stock":
                draws += 1
            elif entry.get("card") is not None:  # took the upcard (also a knock at the wall)
                taken.add(entry["card"])
            elif entry["action"] not in PLAYER_ACTIONS:
                for card in _split(entry["action"]):
                    if card in taken:
                        taken.discard(card)
                    else:
                        constrained.append(card)
                        draws_before.append(draws)
        for card in obs["opponent_hand"] or []:
            if card not in taken:
                constrained.append(card)
                draws_before.append(draws)

        slots = [None] * (self.hand_size + draws)  # deal slots, then stock draws in order
        for card, limit in zip(constrained, draws_before):
            free = [i for i in range(self.hand_size + limit) if slots[i] is None]
            if not free:
                raise BeliefError(f"no deal explains the opponent holding {card}")
            slots[rng.choice(free)] = card
        unseen = [c for c in self.cards.names if c not in known and c not in constrained]
        empty = [i for i, c in enumerate(slots) if c is None]
        if obs["opponent_hand"] is not None and empty:
            raise BeliefError("the revealed hand does not account for every opponent card")
        for i, card in zip(empty, rng.sample(unseen, len(empty))):
            slots[i] = card

        mine = rng.sample(obs["dealt_hand"], len(obs["dealt_hand"]))
        theirs = slots[:self.hand_size]
        deal = mine + theirs if player_id == 0 else theirs + mine
        actions = [f"Deal {c}" for c in deal + [obs["first_upcard"]]]
        opp_draws = iter(slots[self.hand_size:])
        for entry in obs["history"]:
            actions.append(entry["action"])
            if entry["action"] == "Draw stock":
                card = entry["card"] if entry["player"] == player_id else next(opp_draws)
                if card is not None:  # None: the draw is still pending (never at a decision)
                    actions.append(f"Deal {card}")
        return actions

    # ------------------------------------------------------------------ text
    def _rules(self):
        if self.oklahoma:
            knock_text = ("The knock card is the value of the first upcard (10 for T, J, "
                          "Q, K; an ace makes it 0, so only gin may knock).")
        else:
            knock_text = f"The knock card is {self.knock_card}."
        return _RULES.format(
            num_cards=self.num_ranks * self.num_suits,
            ranks=", ".join(RANK_CHARS[:self.num_ranks]),
            suits=", ".join(SUIT_CHARS[:self.num_suits]),
            hand_size=self.hand_size, hand_size_plus=self.hand_size + 1,
            knock_text=knock_text, gin_bonus=self.gin_bonus,
            undercut_bonus=self.undercut_bonus, max_upcard=MAX_UPCARD_DRAWS)

    def _metadata(self):
        knock = 10 if self.oklahoma else self.knock_card
        # The best knock is gin against a defender holding only 10-point cards that it
        # does not declare; the worst undercut costs the knock card plus the bonus.
        bound = float(max(10 * self.hand_size + self.gin_bonus, knock + self.undercut_bonus))
        params = dict(oklahoma=self.oklahoma, knock_card=self.knock_card,
                      gin_bonus=self.gin_bonus, undercut_bonus=self.undercut_bonus,
                      num_ranks=self.num_ranks, num_suits=self.num_suits,
                      hand_size=self.hand_size)
        changed = [f"{k}={str(v).lower()}" for k, v in params.items() if PARAMETERS[k] != v]
        return GameMetadata(
            num_players=2,
            min_utility=-bound,
            max_utility=bound,
            zero_sum=True,
            outcome="payoff",
            perfect_information=False,
            chance=True,
            openspiel="gin_rummy" + (f"({','.join(changed)})" if changed else ""),
            source="seed 000 App. H.7; OpenSpiel gin_rummy",
            extra=params,
        )


class Cards:
    """Card names, values and the meld computations, for one deck size.

    Cards are numbered like OpenSpiel's: ``suit * num_ranks + rank``. Results are cached
    on the (sorted) hand, since the same hands recur along a game and across a search.
    """

    def __init__(self, num_ranks: int, num_suits: int, hand_size: int) -> None:
        self.num_ranks, self.num_suits, self.hand_size = num_ranks, num_suits, hand_size
        self.names = [RANK_CHARS[r] + SUIT_CHARS[s] for s in range(num_suits)
                      for r in range(num_ranks)]
        self.index = {name: i for i, name in enumerate(self.names)}
        self._best = lru_cache(maxsize=200_000)(self._best_arrangement)
        self._melds = lru_cache(maxsize=200_000)(self._melds_of)
        self._deadwood = lru_cache(maxsize=200_000)(self._deadwood_of)
        self._values = [min(10, i % num_ranks + 1) for i in range(num_ranks * num_suits)]

    def value(self, cards: list[str]) -> int:
        return sum(min(10, self.index[c] % self.num_ranks + 1) for c in cards)

    def _ints(self, cards) -> tuple[int, ...]:
        return tuple(sorted(self.index[c] for c in cards))

    def deadwood(self, cards: list[str]) -> int:
        """The hand's deadwood; for a ``hand_size + 1`` hand, OpenSpiel's 11-card rule
        (best-valued arrangement, first in meld order, minus the highest-ranked card)."""
        return self._deadwood(self._ints(cards))

    def _deadwood_of(self, hand: tuple[int, ...]) -> int:
        _, group = self._best(hand)
        used = {c for meld in group for c in meld}
        left = [c for c in hand if c not in used]
        total = sum(self._values[c] for c in left)
        if len(hand) == self.hand_size + 1 and left:
            total -= self._values[max(left, key=lambda c: (c % self.num_ranks, c))]
        return total

    def legal_discards(self, cards: list[str], knock_card: int) -> list[str]:
        """The knocker's discards that leave deadwood at most ``knock_card``."""
        return [c for c in cards if self.deadwood([x for x in cards if x != c]) <= knock_card]

    def legal_melds(self, cards: list[str], knock_card: int) -> list[str]:
        """Melds of the hand that belong to an arrangement with deadwood <= knock_card."""
        hand = self._ints(cards)
        need = sum(self._values[c] for c in hand) - knock_card
        legal = []
        for meld in self._melds(hand):
            rest = tuple(c for c in hand if c not in meld)
            if sum(self._values[c] for c in meld) + self._best(rest)[0] >= need:
                legal.append(meld)
        return sorted({self.meld_name(m) for m in legal})

    def layoff_cards(self, knocker_melds: list[str], layoffs: list[str]) -> set[str]:
        """Cards that may be laid off on the knocker's melds (OpenSpiel's rule: the fourth
        card of a 3-card set; a run's end cards, one step past a card already laid off
        directly next to the knocker's run)."""
        result, laid = set(), {self.index[c] for c in layoffs}
        for name in knocker_melds:
            meld = sorted(self.index[c] for c in _split(name))
            ranks = {c % self.num_ranks for c in meld}
            if len(ranks) == 1:
                if len(meld) == 3:
                    suits = {c // self.num_ranks for c in meld}
                    missing = min(set(range(4)) - suits)
                    if missing < self.num_suits:
                        result.add(self.names[missing * self.num_ranks + meld[0] % self.num_ranks])
                continue
            ends = self._run_ends(meld)
            extended = meld + [c for c in ends if c in laid]
            result |= {self.names[c] for c in self._run_ends(extended)}
        return result

    def _run_ends(self, run: list[int]) -> list[int]:
        low, high = min(run), max(run)
        ends = []
        if low % self.num_ranks > 0:
            ends.append(low - 1)
        if high % self.num_ranks < self.num_ranks - 1:
            ends.append(high + 1)
        return ends

    def meld_name(self, meld: tuple[int, ...]) -> str:
        return "".join(self.names[c] for c in sorted(meld, key=lambda c: (c % self.num_ranks, c)))

    def _melds_of(self, hand: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Every meld in ``hand`` (sets of 3-4, runs of 3-5), in OpenSpiel's order."""
        rank = lambda c: c % self.num_ranks  # noqa: E731
        by_rank = sorted(hand, key=lambda c: (rank(c), c))
        melds = []
        for i in range(len(by_rank) - 3):
            a, b, c, d = by_rank[i:i + 4]
            if rank(a) == rank(d):
                melds += [(a, b, c, d), (a, b, d), (a, c, d)]
        for i in range(len(by_rank) - 2):
            if rank(by_rank[i]) == rank(by_rank[i + 2]):
                melds.append(tuple(by_rank[i:i + 3]))
        by_suit = sorted(hand)  # suit, then rank
        for length in (5, 4, 3):
            for i in range(len(by_suit) - length + 1):
                low, high = by_suit[i], by_suit[i + length - 1]
                if high - low == length - 1 and low // self.num_ranks == high // self.num_ranks:
                    melds.append(tuple(by_suit[i:i + length]))
        return melds

    def _best_arrangement(self, hand: tuple[int, ...]) -> tuple[int, tuple]:
        """(melded value, melds) of the arrangement melding the most value; ties go to the
        arrangement whose meld positions (in :meth:`_melds_of` order) come first."""
        melds = self._melds_of(hand)
        masks = [sum(1 << c for c in m) for m in melds]
        values = [sum(self._values[c] for c in m) for m in melds]
        best = [0, ()]

        def search(start, used, value, chosen):
            if value > best[0]:
                best[0], best[1] = value, chosen
            for i in range(start, len(melds)):
                if not masks[i] & used:
                    search(i + 1, used | masks[i], value + values[i], chosen + (i,))

        search(0, 0, 0, ())
        return best[0], tuple(melds[i] for i in best[1])


def _split(meld: str) -> list[str]:
    return [meld[i:i + 2] for i in range(0, len(meld), 2)]


def _add(cards: list[str], card: str, deck: Cards) -> None:
    cards.append(card)
    cards.sort(key=deck.index.__getitem__)


def _game_over(state):
    state["phase"], state["current_player"] = "GameOver", TERMINAL


def _copy(state):
    new = dict(state)
    for key in ("stock", "discard_pile", "layoffs", "history"):
        new[key] = list(state[key])
    for key in ("hands", "dealt", "known_cards", "melds"):
        new[key] = [list(x) for x in state[key]]
    for key in ("deadwood", "passed_first_upcard", "knocked"):
        new[key] = list(state[key])
    new["rewards"] = [0.0, 0.0]
    return new


def _validate(oklahoma, knock_card, gin_bonus, undercut_bonus, num_ranks, num_suits,
              hand_size):
    if not isinstance(oklahoma, bool):
        raise ValueError(f"oklahoma must be true or false, not {oklahoma!r}")
    ints = dict(knock_card=knock_card, gin_bonus=gin_bonus, undercut_bonus=undercut_bonus,
                num_ranks=num_ranks, num_suits=num_suits, hand_size=hand_size)
    for key, value in ints.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{key} must be a whole number >= 0, not {value!r}")
    if knock_card > 10:
        raise ValueError("knock_card must be between 0 and 10")
    if not (1 <= num_ranks <= 13 and 1 <= num_suits <= 4 and 1 <= hand_size <= 10):
        raise ValueError("need 1 <= num_ranks <= 13, 1 <= num_suits <= 4, 1 <= hand_size <= 10")
    if num_ranks * num_suits < 2 * hand_size + WALL_STOCK_SIZE + 1:
        raise ValueError("the deck must hold both hands, the upcard and a stock of 2")


def make(**params) -> SimpleNamespace:
    """The Gin rummy world model for the given parameters (see ``PARAMETERS``)."""
    game = GinRummy(**{**PARAMETERS, **params})
    return SimpleNamespace(
        RULES=game.RULES, METADATA=game.METADATA, INITIAL_STATE=game.INITIAL_STATE,
        get_current_player=game.get_current_player, get_player_name=game.get_player_name,
        get_legal_actions=game.get_legal_actions, get_chance_outcomes=game.get_chance_outcomes,
        apply_action=game.apply_action, get_rewards=game.get_rewards,
        get_observations=game.get_observations, resample_history=game.resample_history,
    )


METADATA = GinRummy().METADATA
