"""Hearts, one hand for four players, as in the thesis card games.

Rules as in ``shared/research/cards_ismcts.md`` §1.4 (thesis version): pass three cards to
the next player, player 0 leads the first trick, hearts must be broken before they are
led, 1 point per heart and 13 for the queen of spades, shooting the moon scores +26.
"""

from __future__ import annotations

import random

from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata
from ggp.games._cards import SUITS, interleave_deal, rank, sample_hands, suit

RULES = """\
Hearts (a single hand), for four players numbered 0 to 3.
Cards: a standard 52-card deck, ranks 2 (lowest) to 10, J, Q, K, A (highest) in clubs (C),
diamonds (D), hearts (H) and spades (S); a card is written rank then suit, e.g. "QS",
"10H", "2C".
Deal: the shuffled deck is dealt one card at a time (chance moves "Deal <card>"), player 0
first, then 1, 2, 3 and around again, 13 cards each.
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

N, HAND, PASS = 4, 13, 3
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
DECK = [r + s for s in SUITS for r in RANKS]


def points(card: str) -> int:
    return 13 if card == "QS" else 1 if suit(card) == "H" else 0


INITIAL_STATE = {
    "deck": sorted(DECK),
    "hands": [[] for _ in range(N)],
    "passes": [[] for _ in range(N)],
    "tricks": [],
    "trick": {"leader": 0, "cards": []},
    "hearts_broken": False,
    "points": [0] * N,
    "rewards": [0.0] * N,
}


def _phase(state) -> str:
    if state["deck"] and sum(len(h) for h in state["hands"]) + _passed(state) < N * HAND:
        return "deal"
    if _passed(state) < N * PASS and not state["tricks"] and not _exchanged(state):
        return "pass"
    return "play" if len(state["tricks"]) < HAND else "over"


def _passed(state) -> int:
    return sum(len(p) for p in state["passes"])


def _exchanged(state) -> bool:
    return sum(len(h) for h in state["hands"]) + _played(state) == N * HAND and _passed(state) == N * PASS


def _played(state) -> int:
    return sum(len(t["cards"]) for t in state["tricks"]) + len(state["trick"]["cards"])


def get_current_player(state):
    phase = _phase(state)
    if phase == "deal":
        return CHANCE
    if phase == "pass":
        return _passed(state) // PASS
    if phase == "over":
        return TERMINAL
    trick = state["trick"]
    return (trick["leader"] + len(trick["cards"])) % N


def get_player_name(player_id):
    return {CHANCE: "chance", TERMINAL: "terminal"}.get(player_id, f"player {player_id}")


def _playable(state, player):
    hand = state["hands"][player]
    cards = state["trick"]["cards"]
    if cards:
        follow = [c for c in hand if suit(c) == suit(cards[0])]
        return follow or list(hand)
    if state["hearts_broken"]:
        return list(hand)
    return [c for c in hand if suit(c) != "H"] or list(hand)


def get_legal_actions(state):
    player = get_current_player(state)
    if player == TERMINAL:
        return []
    if player == CHANCE:
        return [f"Deal {c}" for c in state["deck"]]
    if _phase(state) == "pass":
        return [f"Pass {c}" for c in state["hands"][player]]
    return [f"Play {c}" for c in _playable(state, player)]


def _copy(state):
    return {
        "deck": list(state["deck"]),
        "hands": [list(h) for h in state["hands"]],
        "passes": [list(p) for p in state["passes"]],
        "tricks": list(state["tricks"]),
        "trick": {"leader": state["trick"]["leader"], "cards": list(state["trick"]["cards"])},
        "hearts_broken": state["hearts_broken"],
        "points": list(state["points"]),
        "rewards": [0.0] * N,
    }


def apply_action(state, action):
    verb, card = action.split(" ")
    player = get_current_player(state)
    new = _copy(state)
    if verb == "Deal":
        new["deck"].remove(card)
        receiver = sum(len(h) for h in state["hands"]) % N
        new["hands"][receiver] = sorted(new["hands"][receiver] + [card])
        return new
    if card not in state["hands"][player]:
        raise ValueError(f"player {player} does not hold {card}")
    if verb == "Pass":
        new["hands"][player].remove(card)
        new["passes"][player].append(card)
        if _passed(new) == N * PASS:
            for q in range(N):
                new["hands"][(q + 1) % N] = sorted(new["hands"][(q + 1) % N] + new["passes"][q])
        return new
    if card not in _playable(state, player):
        raise ValueError(f"player {player} may not play {card} now")
    new["hands"][player].remove(card)
    cards = new["trick"]["cards"]
    if cards and suit(card) == "H" and suit(cards[0]) != "H":
        new["hearts_broken"] = True
    cards.append(card)
    if len(cards) == N:
        _finish_trick(new)
    return new


def _finish_trick(state) -> None:
    trick = state["trick"]
    led = suit(trick["cards"][0])
    best = max((i for i, c in enumerate(trick["cards"]) if suit(c) == led),
               key=lambda i: RANKS.index(rank(trick["cards"][i])))
    winner = (trick["leader"] + best) % N
    state["points"][winner] += sum(points(c) for c in trick["cards"])
    state["tricks"].append(trick)
    state["trick"] = {"leader": winner, "cards": []}
    if len(state["tricks"]) == HAND:
        shooter = [p for p in range(N) if state["points"][p] == 26]
        state["rewards"] = ([26.0 if p in shooter else 0.0 for p in range(N)] if shooter
                            else [-float(x) for x in state["points"]])


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    exchanged = _exchanged(state)
    public = {
        "tricks": state["tricks"],
        "trick": state["trick"],
        "hearts_broken": state["hearts_broken"],
        "points": state["points"],
        "current_player": get_current_player(state),
    }
    return [
        {
            "player": p,
            "hand": state["hands"][p],
            "passed": state["passes"][p],
            "received": state["passes"][(p - 1) % N] if exchanged else [],
            **public,
        }
        for p in range(N)
    ]


def _public_plays(obs):
    plays, broken = [], False
    for trick in obs["tricks"] + [obs["trick"]]:
        for i, card in enumerate(trick["cards"]):
            plays.append(((trick["leader"] + i) % N, card, i, trick["cards"][0], broken))
            if i > 0 and suit(card) == "H" and suit(trick["cards"][0]) != "H":
                broken = True
    return plays


def resample_history(obs_action_history, player_id):
    """Uniform over deals and hidden passes consistent with the player's view.

    Opponents' hands after the exchange are dealt uniformly from the unseen cards subject
    to what their plays showed (a suit they failed to follow; holding only hearts when they
    led one before hearts were broken); the three cards each opponent passed are then a
    uniform 3-subset of the hand it passed from (every hand has the same number of them).
    """
    rng = random.Random()
    obs = obs_action_history[-1][0]
    original_me = obs_action_history[0][0]["hand"]  # first decision: before passing
    if obs["received"] or obs["tricks"] or obs["trick"]["cards"]:
        originals, passes = _sample_after_exchange(obs, player_id, original_me, rng)
    else:
        originals, passes = _sample_before_exchange(obs, player_id, original_me, rng)
    deal = interleave_deal(originals, N, rng=rng)
    actions = [f"Deal {c}" for c in deal]
    for q in range(N):
        actions += [f"Pass {c}" for c in passes.get(q, [])]
    actions += [f"Play {c}" for _, c, *_ in _public_plays(obs)]
    return actions


def _sample_before_exchange(obs, me, original_me, rng):
    pool = [c for c in DECK if c not in original_me]
    hands = sample_hands(pool, {q: HAND for q in range(N) if q != me}, lambda q, c: True, rng)
    originals = {me: original_me, **hands}
    passes = {q: rng.sample(originals[q], PASS) for q in range(N) if q < me}
    passes[me] = list(obs["passed"])
    return originals, passes


def _sample_after_exchange(obs, me, original_me, rng):
    plays = _public_plays(obs)
    void = {q: set() for q in range(N)}
    hearts_only = {q: False for q in range(N)}
    for q, card, index, lead, broken in plays:
        if index > 0 and suit(card) != suit(lead):
            void[q].add(suit(lead))
        if index == 0 and suit(card) == "H" and not broken:
            hearts_only[q] = True
    mine_after = set(original_me) - set(obs["passed"]) | set(obs["received"])
    played = {q: [c for p, c, *_ in plays if p == q] for q in range(N)}
    nxt = (me + 1) % N
    known = {q: set(played[q]) for q in range(N)}
    known[nxt] |= set(obs["passed"])
    pool = [c for c in DECK if c not in mine_after and not any(c in known[q] for q in known)]
    needs = {q: HAND - len(known[q]) for q in range(N) if q != me}

    def allowed(q, card):
        return suit(card) not in void[q] and (not hearts_only[q] or suit(card) == "H")

    hidden = sample_hands(pool, needs, allowed, rng)
    after = {q: sorted(known[q] | set(hidden[q])) for q in needs}
    # Undo the exchange: q received from q-1; q passed PASS cards to q+1.
    passes = {me: list(obs["passed"]), (me - 1) % N: list(obs["received"])}
    for q in range(N):
        receiver = (q + 1) % N
        if q not in passes:
            passes[q] = rng.sample(after[receiver], PASS)
    originals = {me: list(original_me)}
    for q in needs:
        originals[q] = sorted(set(after[q]) - set(passes[(q - 1) % N]) | set(passes[q]))
    return originals, passes
