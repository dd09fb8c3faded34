"""Hearts, one hand for four players, in two rule sets.

``rules="thesis"`` (the default) follows the thesis card games
(``shared/research/cards_ismcts.md`` §1.4): pass three cards to the next player, player 0
leads the first trick, hearts must be broken before they are led, the queen of spades does
not break them, 1 point per heart and 13 for the queen of spades, shooting the moon scores
+26 for the shooter and 0 for the others, everyone else scores minus its points.

``rules="openspiel"`` follows OpenSpiel 2.0.2's ``hearts`` with its default parameters, so
that it can be tested move for move against it: a chance move picks the pass direction (no
pass, left, across, right), the holder of the two of clubs leads it to the first trick, no
heart or queen of spades on the first trick while another card can be played, any heart or
the queen of spades breaks hearts, and the returns are 26 minus the points taken (a moon
shot leaves the shooter 26 and the others 0).
"""

from __future__ import annotations

import random

from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata, player_name
from ggp.games._cards import SUITS, interleave_deal, rank, sample_hands, suit

PARAMETERS = {"rules": "thesis"}

_COMMON_RULES = """\
Cards: a standard 52-card deck, ranks 2 (lowest) to 10, J, Q, K, A (highest) in clubs (C),
diamonds (D), hearts (H) and spades (S); a card is written rank then suit, e.g. "QS",
"10H", "2C".
Deal: the shuffled deck is dealt one card at a time (chance moves "Deal <card>"), player 0
first, then 1, 2, 3 and around again, 13 cards each.
"""

RULES = """\
Hearts (a single hand), for four players numbered 0 to 3.
""" + _COMMON_RULES + """\
Passing: each player in turn (0, then 1, 2, 3) chooses three cards from the hand it was
dealt, one move at a time ("Pass <card>"). Nobody sees the cards others choose. When all
four have chosen, each player's three cards go to the next player (0 to 1, 1 to 2, 2 to 3,
3 to 0); the receiver now sees them in its hand.
Play: 13 tricks. Player 0 leads the first trick. The leader plays any card ("Play <card>"),
except that a heart may not be led until hearts are broken, unless the leader holds
nothing but hearts. Hearts become broken when someone plays a heart on a trick whose led
suit is not hearts (the queen of spades does not break hearts, and leading a heart
because you hold only hearts does not break them either). The others follow in order
0-1-2-3 from the leader; a player who holds a card of the led suit must play one, anyone
else may play any card. The highest card of the led suit wins the trick; its winner
collects the trick's point cards and leads the next trick. All played cards are seen by
everyone, as are the point cards each player has collected.
Points: every heart is 1 point and the queen of spades 13 (26 in all).
End: after 13 tricks. If one player collected all 26 points ("shooting the moon") that
player scores +26 and everyone else 0; otherwise every player scores minus the points it
collected. The scores are the rewards at the end of the game.
Each player sees its own hand, the cards it passed and received, every card played (who
played it, trick by trick), whether hearts are broken, and the points collected so far.
"""

OPENSPIEL_RULES = """\
Hearts (a single hand, OpenSpiel's standard rules), for four players numbered 0 to 3.
Pass direction: first a chance move announces, each with probability 1/4, where passed
cards go: "No pass", "Pass left" (player p passes to p+1), "Pass across" (to p+2) or
"Pass right" (to p+3), player numbers counted modulo 4. Everyone sees it.
""" + _COMMON_RULES + """\
Passing (skipped when there is no pass): each player in turn (0, then 1, 2, 3) chooses
three cards from the hand it was dealt, one move at a time ("Pass <card>"). Nobody sees
the cards others choose. When all four have chosen, the cards move in the announced
direction and the receiver now sees them in its hand.
Play: 13 tricks. Whoever holds the two of clubs leads it ("Play 2C") to the first trick.
The others play in order 0-1-2-3 from the leader. A player who holds a card of the led
suit must play one. Otherwise, on the first trick, a heart or the queen of spades may
only be played by a player who holds nothing else. The leader of a later trick may not
lead a heart until hearts are broken, unless it holds nothing but hearts. Hearts become
broken as soon as any heart or the queen of spades has been played. The highest card of
the led suit wins the trick; its winner collects the trick's point cards and leads the
next trick. All played cards are seen by everyone, as are the point cards each player has
collected.
Points: every heart is 1 point and the queen of spades 13 (26 in all).
End: after 13 tricks. If one player collected all 26 points ("shooting the moon") that
player scores 26 and everyone else 0; otherwise every player scores 26 minus the points
it collected. The scores are the rewards at the end of the game.
Each player sees the pass direction, its own hand, the cards it passed and received,
every card played (who played it, trick by trick), whether hearts are broken, and the
points collected so far.
"""

METADATA = GameMetadata(
    num_players=4,
    min_utility=-26.0,
    max_utility=26.0,
    zero_sum=False,
    outcome="payoff",
    perfect_information=False,
    chance=True,
    source="seed 001 (thesis card games); shared/research/cards_ismcts.md §1.4",
)

OPENSPIEL_METADATA = GameMetadata(
    num_players=4,
    min_utility=0.0,
    max_utility=26.0,
    zero_sum=False,
    outcome="payoff",
    perfect_information=False,
    chance=True,
    openspiel="hearts",
    source="OpenSpiel 2.0.2 hearts (default parameters)",
)

N, HAND, PASS = 4, 13, 3
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
DECK = [r + s for s in SUITS for r in RANKS]
# OpenSpiel's pass directions, as the offset from passer to receiver.
DIRECTIONS = {"No pass": 0, "Pass left": 1, "Pass across": 2, "Pass right": 3}


def points(card: str) -> int:
    return 13 if card == "QS" else 1 if suit(card) == "H" else 0


class Hearts:
    """One rule set of Hearts as a world-model namespace (see the module docstring)."""

    def __init__(self, rules: str = "thesis"):
        if rules not in ("thesis", "openspiel"):
            raise ValueError(f"rules must be 'thesis' or 'openspiel', not {rules!r}")
        self.openspiel = rules == "openspiel"
        self.RULES = OPENSPIEL_RULES if self.openspiel else RULES
        self.METADATA = OPENSPIEL_METADATA if self.openspiel else METADATA
        self.INITIAL_STATE = {
            "deck": sorted(DECK),
            "hands": [[] for _ in range(N)],
            "passes": [[] for _ in range(N)],
            "tricks": [],
            "trick": {"leader": 0, "cards": []},
            "hearts_broken": False,
            "points": [0] * N,
            "rewards": [0.0] * N,
        }
        if self.openspiel:
            self.INITIAL_STATE["pass_dir"] = None  # chosen by the first chance move

    # -------------------------------------------------------------- phases
    def _offset(self, state) -> int:
        """How many seats along the passed cards travel (0: no passing)."""
        return state["pass_dir"] if self.openspiel else 1

    def _phase(self, state) -> str:
        # Called several times per move by every search and replay, so the cheapest tests
        # come first. In reachable states the deck is dealt out completely (52 = 4 x 13)
        # before anything else happens, and the pass phase ends with the exchange.
        tricks = state["tricks"]
        if tricks:
            return "play" if len(tricks) < HAND else "over"
        if self.openspiel and state["pass_dir"] is None:
            return "direction"
        if state["deck"]:
            return "deal"
        if self._offset(state) and _passed(state) < N * PASS:
            return "pass"
        return "play"

    def _player(self, state, phase: str) -> int:
        if phase in ("direction", "deal"):
            return CHANCE
        if phase == "pass":
            return _passed(state) // PASS
        if phase == "over":
            return TERMINAL
        trick = state["trick"]
        return (trick["leader"] + len(trick["cards"])) % N

    def get_current_player(self, state):
        return self._player(state, self._phase(state))

    def get_player_name(self, player_id):
        return player_name(player_id)

    # -------------------------------------------------------------- legal moves
    def _playable(self, state, player):
        hand = state["hands"][player]
        cards = state["trick"]["cards"]
        if cards:
            led = cards[0][-1]  # suit(), inlined: this runs at every step of every rollout
            follow = [c for c in hand if c[-1] == led]
            if follow:
                return follow
            if self.openspiel and not state["tricks"]:
                return [c for c in hand if not points(c)] or list(hand)
            return list(hand)
        if self.openspiel and not state["tricks"]:
            return ["2C"]
        if state["hearts_broken"]:
            return list(hand)
        return [c for c in hand if c[-1] != "H"] or list(hand)

    def get_legal_actions(self, state):
        phase = self._phase(state)
        if phase == "over":
            return []
        player = self._player(state, phase)
        if phase == "direction":
            return list(DIRECTIONS)
        if phase == "deal":
            return [f"Deal {c}" for c in state["deck"]]
        if phase == "pass":
            return [f"Pass {c}" for c in state["hands"][player]]
        return [f"Play {c}" for c in self._playable(state, player)]

    # -------------------------------------------------------------- transitions
    def apply_action(self, state, action):
        new = _copy(state)
        phase = self._phase(state)
        if action in DIRECTIONS and phase == "direction":
            new["pass_dir"] = DIRECTIONS[action]
            return new
        verb, card = action.split(" ")
        player = self._player(state, phase)
        if verb == "Deal":
            new["deck"].remove(card)
            receiver = (len(DECK) - len(state["deck"])) % N  # cards dealt so far
            new["hands"][receiver] = sorted(new["hands"][receiver] + [card])
            if not new["deck"] and not self._offset(new):
                self._set_first_leader(new)
            return new
        if card not in state["hands"][player]:
            raise ValueError(f"player {player} does not hold {card}")
        if verb == "Pass":
            new["hands"][player].remove(card)
            new["passes"][player].append(card)
            if _passed(new) == N * PASS:
                offset = self._offset(new)
                for q in range(N):
                    to = (q + offset) % N
                    new["hands"][to] = sorted(new["hands"][to] + new["passes"][q])
                self._set_first_leader(new)
            return new
        if card not in self._playable(state, player):
            raise ValueError(f"player {player} may not play {card} now")
        new["hands"][player].remove(card)
        cards = new["trick"]["cards"]
        if self._breaks_hearts(card, cards):
            new["hearts_broken"] = True
        cards.append(card)
        if len(cards) == N:
            self._finish_trick(new)
        return new

    def _set_first_leader(self, state) -> None:
        if self.openspiel:
            state["trick"]["leader"] = next(q for q in range(N) if "2C" in state["hands"][q])

    def _breaks_hearts(self, card, trick_cards) -> bool:
        if self.openspiel:
            return bool(points(card))
        return bool(trick_cards) and suit(card) == "H" and suit(trick_cards[0]) != "H"

    def _finish_trick(self, state) -> None:
        trick = state["trick"]
        led = suit(trick["cards"][0])
        best = max((i for i, c in enumerate(trick["cards"]) if suit(c) == led),
                   key=lambda i: RANKS.index(rank(trick["cards"][i])))
        winner = (trick["leader"] + best) % N
        state["points"][winner] += sum(points(c) for c in trick["cards"])
        state["tricks"].append(trick)
        state["trick"] = {"leader": winner, "cards": []}
        if len(state["tricks"]) == HAND:
            state["rewards"] = self._scores(state["points"])

    def _scores(self, taken: list[int]) -> list[float]:
        shooter = [p for p in range(N) if taken[p] == 26]
        if shooter:
            return [26.0 if p in shooter else 0.0 for p in range(N)]
        base = 26.0 if self.openspiel else 0.0
        return [base - x for x in taken]

    def get_rewards(self, state):
        return list(state["rewards"])

    def get_observations(self, state):
        exchanged = _exchanged(state)
        offset = (state["pass_dir"] or 0) if self.openspiel else 1
        public = {
            "tricks": state["tricks"],
            "trick": state["trick"],
            "hearts_broken": state["hearts_broken"],
            "points": state["points"],
            "current_player": self.get_current_player(state),
        }
        if self.openspiel:
            public["pass_dir"] = state["pass_dir"]
        return [
            {
                "player": p,
                "hand": state["hands"][p],
                "passed": state["passes"][p],
                "received": state["passes"][(p - offset) % N] if exchanged and offset else [],
                **public,
            }
            for p in range(N)
        ]

    # -------------------------------------------------------------- inference
    def _public_plays(self, obs):
        """(player, card, index in trick, led card, hearts broken before it) per play."""
        plays, broken = [], False
        for trick in obs["tricks"] + [obs["trick"]]:
            for i, card in enumerate(trick["cards"]):
                plays.append(((trick["leader"] + i) % N, card, i, trick["cards"][0], broken))
                broken = broken or self._breaks_hearts(card, trick["cards"][:i])
        return plays

    def resample_history(self, obs_action_history, player_id):
        """Uniform over deals and hidden passes consistent with the player's view.

        Opponents' hands after the exchange are dealt uniformly from the unseen cards
        subject to what their plays showed (a suit they failed to follow; holding only
        hearts when they led one before hearts were broken; with OpenSpiel's rules,
        holding only point cards when they discarded one on the first trick); the three
        cards each opponent passed are then a uniform 3-subset of the hand it passed from
        (every hand has the same number of them).
        """
        rng = random.Random(random.getrandbits(64))  # follows random.seed()
        obs = obs_action_history[-1][0]
        original_me = obs_action_history[0][0]["hand"]  # first decision: before passing
        offset = obs["pass_dir"] if self.openspiel else 1
        if obs["received"] or obs["tricks"] or obs["trick"]["cards"]:
            originals, passes = self._sample_after_exchange(obs, player_id, original_me,
                                                            offset, rng)
        else:
            originals, passes = _sample_before_exchange(obs, player_id, original_me,
                                                        offset, rng)
        actions = []
        if self.openspiel:
            actions.append(next(k for k, v in DIRECTIONS.items() if v == offset))
        actions += [f"Deal {c}" for c in interleave_deal(originals, N, rng=rng)]
        for q in range(N):
            actions += [f"Pass {c}" for c in passes.get(q, [])]
        actions += [f"Play {c}" for _, c, *_ in self._public_plays(obs)]
        return actions

    def _sample_after_exchange(self, obs, me, original_me, offset, rng):
        plays = self._public_plays(obs)
        void = {q: set() for q in range(N)}
        hearts_only = {q: False for q in range(N)}
        points_only = {q: False for q in range(N)}
        for number, (q, card, index, lead, broken) in enumerate(plays):
            if index > 0 and suit(card) != suit(lead):
                void[q].add(suit(lead))
                # OpenSpiel: a point card discarded on the first trick means no other card
                points_only[q] |= self.openspiel and number < N and bool(points(card))
            if index == 0 and suit(card) == "H" and not broken:
                hearts_only[q] = True
        mine_after = set(original_me) - set(obs["passed"]) | set(obs["received"])
        played = {q: [c for p, c, *_ in plays if p == q] for q in range(N)}
        known = {q: set(played[q]) for q in range(N)}
        if offset:
            known[(me + offset) % N] |= set(obs["passed"])
        pool = [c for c in DECK if c not in mine_after and not any(c in known[q] for q in known)]
        needs = {q: HAND - len(known[q]) for q in range(N) if q != me}

        def allowed(q, card):
            return (suit(card) not in void[q] and (not hearts_only[q] or suit(card) == "H")
                    and (not points_only[q] or bool(points(card))))

        hidden = sample_hands(pool, needs, allowed, rng)
        after = {q: sorted(known[q] | set(hidden[q])) for q in needs}
        if not offset:
            return {me: list(original_me), **after}, {}
        # Undo the exchange: q received from q - offset and passed to q + offset.
        passes = {me: list(obs["passed"]), (me - offset) % N: list(obs["received"])}
        for q in range(N):
            if q not in passes:
                passes[q] = rng.sample(after[(q + offset) % N], PASS)
        originals = {me: list(original_me)}
        for q in needs:
            originals[q] = sorted(set(after[q]) - set(passes[(q - offset) % N]) | set(passes[q]))
        return originals, passes


def _passed(state) -> int:
    return sum(len(p) for p in state["passes"])


def _exchanged(state) -> bool:
    return (sum(len(h) for h in state["hands"]) + _played(state) == N * HAND
            and _passed(state) == N * PASS)


def _played(state) -> int:
    return sum(len(t["cards"]) for t in state["tricks"]) + len(state["trick"]["cards"])


def _copy(state):
    new = {
        "deck": list(state["deck"]),
        "hands": [list(h) for h in state["hands"]],
        "passes": [list(p) for p in state["passes"]],
        "tricks": list(state["tricks"]),
        "trick": {"leader": state["trick"]["leader"], "cards": list(state["trick"]["cards"])},
        "hearts_broken": state["hearts_broken"],
        "points": list(state["points"]),
        "rewards": [0.0] * N,
    }
    if "pass_dir" in state:
        new["pass_dir"] = state["pass_dir"]
    return new


def _sample_before_exchange(obs, me, original_me, offset, rng):
    pool = [c for c in DECK if c not in original_me]
    hands = sample_hands(pool, {q: HAND for q in range(N) if q != me}, lambda q, c: True, rng)
    originals = {me: original_me, **hands}
    if not offset:
        return originals, {}
    passes = {q: rng.sample(originals[q], PASS) for q in range(N) if q < me}
    passes[me] = list(obs["passed"])
    return originals, passes


def make(rules: str = "thesis") -> Hearts:
    return Hearts(rules)


# The thesis rules at module level, so ``ggp.games.hearts`` itself is the default game.
_THESIS = Hearts("thesis")
INITIAL_STATE = _THESIS.INITIAL_STATE
get_current_player = _THESIS.get_current_player
get_player_name = _THESIS.get_player_name
get_legal_actions = _THESIS.get_legal_actions
apply_action = _THESIS.apply_action
get_rewards = _THESIS.get_rewards
get_observations = _THESIS.get_observations
resample_history = _THESIS.resample_history
_playable = _THESIS._playable
_finish_trick = _THESIS._finish_trick
