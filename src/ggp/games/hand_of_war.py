"""Hand of war (seed 000 App. H.9), written from the appendix's description.

A 16-card deck (four each of A, K, Q, J; suits play no role, so cards are just ranks) is
dealt into two face-down draw piles. Players hold three cards and fight battles: both
choose a card (player 0 first, then player 1 without seeing it), the higher rank takes both
cards into its win pile. Ties start a showdown: each player burns the top card of its draw
pile face down, then both choose again; the winner takes everything at stake. The game ends
when one player holds all 16 cards, or when a player must draw or burn from an empty draw
pile (or has no card left to choose in a showdown); then the larger win pile wins.

Choices the appendix leaves open, fixed here (and stated in ``RULES``): the deal alternates
player 0, player 1, ... and each dealt card goes under the receiving pile; refills are made
one card at a time, player 0 first; burned cards are never seen by anyone; a player with
an empty hand in a showdown cannot complete the showdown, which ends the game.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from math import factorial

from ggp.core.errors import BeliefError
from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata, player_name

RANKS = ("A", "K", "Q", "J")  # high to low
_STRENGTH = {r: 4 - i for i, r in enumerate(RANKS)}
DECK = {r: 4 for r in RANKS}
DECK_SIZE = 16
HAND_SIZE = 3

RULES = """\
Hand of war, a card game for two players (player 0 and player 1).

Cards. The deck has 16 cards: four Aces (A), four Kings (K), four Queens (Q) and four Jacks
(J). Only ranks matter; from high to low they are A, K, Q, J.

Setup. The deck is shuffled and dealt face down one card at a time, alternately to player 0
and player 1, starting with player 0; each player stacks its 8 cards into a draw pile in the
order received (its first card is on top). The deal is the chance move "Deal X" (X the rank
of the next card), so each rank comes with probability proportional to how many cards of
that rank are still undealt. Then each player draws the top three cards of its own pile into
its hand. Every player also has a win pile, empty at first.

Battle. Both players choose one card from their hand at the same time: player 0 chooses
first and player 1 chooses next without seeing player 0's card. A choice is written
"Play X" for a card of rank X in your hand. Both chosen cards are then revealed. If the
ranks differ, the player with the higher card takes both cards, together with every other
card at stake in the current showdown (see below), into its win pile. Then the players
refill their hands to three cards from their own draw piles, one card at a time, player 0
first and then player 1.

Showdown. If the two revealed cards have the same rank, they stay at stake and a showdown
follows: player 0 and then player 1 each take the top card of their own draw pile and add
it, face down and unseen by anybody, to the cards at stake ("burn" it). Then both players
choose a card from their hand again, as in a battle (player 0 first). The higher card takes
all cards at stake: the tied cards, the burned cards and the new cards. If these tie again,
the showdown repeats (burn one card each, choose again), with the cards still in hand. Hands
are refilled to three cards only after the showdown has been won.

End. The game ends at once when:
1. after a battle or showdown is won, the losing player has no cards at all (no hand, no
   draw pile, no win pile): the winner holds all 16 cards and wins; or
2. a player must take a card from its empty draw pile (to refill its hand or to burn a
   card), or must choose a card in a showdown with an empty hand. Then the player whose win
   pile has more cards wins; equal win piles make a draw. Cards at stake in an unfinished
   showdown count for nobody. Win piles are never shuffled back into the draw piles.
The winner gets +1 and the loser -1; a draw gives 0 to both. There are no other rewards.

What players see. Each player sees its own hand and knows the cards it has drawn. Both
players see every revealed card and who won each battle (publicly revealed cards), the
number of cards in each hand, draw pile and win pile, and how many cards are at stake.
Nobody sees the other player's hand, the order of any draw pile, or burned cards.
"""

METADATA = GameMetadata(
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    zero_sum=True,
    outcome="win_loss_draw",
    perfect_information=False,
    chance=True,
    simultaneous=True,
    openspiel=None,
    source="seed 000 App. H.9 (rules fixed where the appendix is silent: see RULES)",
)

INITIAL_STATE = {
    "undealt": dict(DECK),  # rank -> cards not yet dealt
    "draw_piles": [[], []],  # top card first
    "hands": [[], []],
    "win_piles": [[], []],
    "at_stake": [],  # the cards in the current battle or showdown
    "pending_card": None,  # player 0's choice, hidden from player 1 until both chose
    "log": [],  # public events (see _observation)
    "my_draws": [[], []],  # per player: the ranks drawn at each refill (private)
    "end_reason": None,
    "current_player": CHANCE,
    "rewards": [0.0, 0.0],
}


def get_current_player(state):
    return state["current_player"]


def get_player_name(player_id):
    return player_name(player_id)


def get_legal_actions(state):
    player = state["current_player"]
    if player == TERMINAL:
        return []
    if player == CHANCE:
        return [f"Deal {r}" for r in RANKS if state["undealt"][r] > 0]
    return [f"Play {r}" for r in RANKS if r in state["hands"][player]]


def get_chance_outcomes(state):
    if state["current_player"] != CHANCE:
        return []
    left = sum(state["undealt"].values())
    return [(f"Deal {r}", state["undealt"][r] / left) for r in RANKS if state["undealt"][r] > 0]


def apply_action(state, action):
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r}; legal: {get_legal_actions(state)}")
    new = _copy(state)
    new["rewards"] = [0.0, 0.0]
    rank = action.split()[-1]
    player = state["current_player"]
    if player == CHANCE:
        _deal(new, rank)
    elif player == 0:
        new["hands"][0].remove(rank)
        new["pending_card"] = rank
        new["current_player"] = 1
    else:
        new["hands"][1].remove(rank)
        _battle(new, new["pending_card"], rank)
    return new


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [_observation(state, p) for p in (0, 1)]


# ---------------------------------------------------------------------- rules helpers
def _copy(state):
    new = dict(state)
    new["undealt"] = dict(state["undealt"])
    for key in ("draw_piles", "hands", "win_piles", "my_draws"):
        new[key] = [pile[:] for pile in state[key]]
    new["at_stake"] = state["at_stake"][:]
    new["log"] = state["log"][:]  # events are never mutated
    return new


def _deal(state, rank):
    dealt = DECK_SIZE - sum(state["undealt"].values())
    state["undealt"][rank] -= 1
    state["draw_piles"][dealt % 2].append(rank)
    if dealt + 1 < DECK_SIZE:
        return
    _refill(state)  # the opening draw of three cards each
    state["current_player"] = 0


def _battle(state, card0, card1):
    state["pending_card"] = None
    state["at_stake"] += [card0, card1]
    if card0 == card1:
        state["log"].append({"event": "battle", "cards": [card0, card1], "winner": "tie"})
        _showdown(state)
        return
    winner = 0 if _STRENGTH[card0] > _STRENGTH[card1] else 1
    state["log"].append({"event": "battle", "cards": [card0, card1], "winner": winner})
    state["win_piles"][winner] += state["at_stake"]
    state["at_stake"] = []
    loser = 1 - winner
    if not (state["hands"][loser] or state["draw_piles"][loser] or state["win_piles"][loser]):
        _end(state, "all cards")
        return
    _refill(state)


def _showdown(state):
    for player in (0, 1):
        if not state["draw_piles"][player]:
            _end(state, f"player {player} cannot burn a card")
            return
        state["at_stake"].append(state["draw_piles"][player].pop(0))
    state["log"].append({"event": "burn"})
    if not state["hands"][0]:  # hands always have equal sizes during play
        _end(state, "no card left in hand for the showdown")
        return
    state["current_player"] = 0


def _refill(state):
    """Both players draw up to three cards, one at a time, player 0 first. If a player
    needs a card and its draw pile is empty the game ends (player 1 then draws nothing)."""
    counts, short = [0, 0], None
    for player in (0, 1):
        drawn = []
        if short is None:
            hand, pile = state["hands"][player], state["draw_piles"][player]
            while len(hand) + len(drawn) < HAND_SIZE and pile:
                drawn.append(pile.pop(0))
            hand += drawn
            hand.sort(key=RANKS.index)
            if len(hand) < HAND_SIZE:
                short = player
        counts[player] = len(drawn)
        state["my_draws"][player].append(sorted(drawn, key=RANKS.index))
    state["log"].append({"event": "draw", "counts": counts})
    if short is not None:
        _end(state, f"player {short} cannot draw")
    else:
        state["current_player"] = 0


def _end(state, reason):
    state["current_player"] = TERMINAL
    state["end_reason"] = reason
    sizes = [len(pile) for pile in state["win_piles"]]
    sign = (sizes[0] > sizes[1]) - (sizes[0] < sizes[1])
    state["rewards"] = [float(sign), float(-sign)]


def _observation(state, player):
    return {
        "player": player,
        "hand": state["hands"][player][:],
        "my_pending_card": state["pending_card"] if player == 0 else None,
        "my_draws": [d[:] for d in state["my_draws"][player]],
        "log": state["log"][:],
        "revealed_cards": [c for e in state["log"] if e["event"] == "battle" for c in e["cards"]],
        "hand_sizes": [len(h) for h in state["hands"]],
        "draw_pile_sizes": [len(p) for p in state["draw_piles"]],
        "win_pile_sizes": [len(p) for p in state["win_piles"]],
        "cards_at_stake": len(state["at_stake"]),
        "cards_dealt": DECK_SIZE - sum(state["undealt"].values()),
        "end_reason": state["end_reason"],
    }


# ---------------------------------------------------------------------- inference
def resample_history(obs_action_history, player_id, last_is_terminal=False, rng=None):
    """A full action sequence (deal included) consistent with ``player_id``'s observations.

    Every complete deal has the same probability, and after the deal the opponent's moves
    are revealed, except player 0's pending card when player 1 is deciding. So the result
    is uniform over (deal, pending card) pairs that agree with the observations. Hidden:
    the order of the player's own cards within each refill, its burned and undrawn cards,
    and the opponent's whole pile. The opponent's drawn cards must allow its revealed plays
    (each played card was in its hand at the time): sampling first picks the multiset of
    the opponent's unrevealed drawn cards with exact weights (count of feasible drawing
    orders x arrangements of the remaining unknown cards x number of pending choices), then
    a feasible drawing order, then a random arrangement of the rest.
    """
    rng = rng or random.Random(random.getrandbits(64))  # follows random.seed()
    obs = obs_action_history[-1][0]
    opp = 1 - player_id
    ops = _pile_operations(obs["log"])
    pending = player_id == 1 and not last_is_terminal
    my_seen = Counter(c for draw in obs["my_draws"] for c in draw)
    opp_plays = Counter(r for op, r in ops[opp] if op == "play")
    pool = Counter(DECK) - my_seen - opp_plays
    opp_drawn = sum(r for op, r in ops[opp] if op == "draw")
    hidden_in_hand = opp_drawn - sum(opp_plays.values())

    draw_sequence = tuple(op for op in ops[opp] if op[0] != "burn")
    options, weights = [], []
    for hand in _sub_multisets(pool, hidden_in_hand):
        drawn = _counts(opp_plays + hand)
        feasible = _orders(draw_sequence, (0, 0, 0, 0), drawn)
        if feasible:
            rest = pool - hand
            choices = sum(1 for k in hand.values() if k > 0)  # pending card's options
            weight = feasible * _arrangements(rest) * (choices if pending else 1)
            options.append(hand)
            weights.append(weight)
    if not options:
        raise BeliefError("no deal is consistent with the observations")
    hand = rng.choices(options, weights=weights)[0]
    opp_draws = _sample_order(draw_sequence, _counts(opp_plays + hand), rng)

    free = list((pool - hand).elements())
    rng.shuffle(free)
    piles = [None, None]
    piles[player_id] = _build_pile(ops[player_id], [rng.sample(d, len(d)) for d in
                                                    obs["my_draws"]], free)
    piles[opp] = _build_pile(ops[opp], _split(opp_draws, ops[opp]), free)
    actions = [f"Deal {piles[i % 2][i // 2]}" for i in range(DECK_SIZE)]
    for event in obs["log"]:
        if event["event"] == "battle":
            actions += [f"Play {event['cards'][0]}", f"Play {event['cards'][1]}"]
    if pending:
        actions.append(f"Play {rng.choice(sorted(r for r, k in hand.items() if k > 0))}")
    return actions


def _pile_operations(log):
    """Per player, in order: ("draw", k), ("burn", 1) and ("play", rank) operations."""
    ops = [[], []]
    for event in log:
        for p in (0, 1):
            if event["event"] == "draw":
                ops[p].append(("draw", event["counts"][p]))
            elif event["event"] == "burn":
                ops[p].append(("burn", 1))
            else:
                ops[p].append(("play", event["cards"][p]))
    return ops


def _counts(counter):
    return tuple(counter[r] for r in RANKS)


def _sub_multisets(pool, size):
    """Every sub-multiset of ``pool`` with ``size`` cards, as Counters."""
    def rec(i, left):
        if i == len(RANKS):
            if left == 0:
                yield Counter()
            return
        for k in range(min(left, pool[RANKS[i]]) + 1):
            for rest in rec(i + 1, left - k):
                yield rest + Counter({RANKS[i]: k}) if k else rest
    return list(rec(0, size))


def _arrangements(cards):
    """Number of distinct orders of a multiset."""
    result = factorial(sum(cards.values()))
    for k in cards.values():
        result //= factorial(k)
    return result


@lru_cache(maxsize=200_000)
def _orders(sequence, hand, remaining):
    """Number of rank sequences for the draw operations of ``sequence`` (draws of k cards
    and plays of a rank) using exactly the cards ``remaining`` (counts per rank, in RANKS
    order), such that every played rank is in hand when played."""
    if not sequence:
        return int(not any(remaining))
    (op, arg), rest = sequence[0], sequence[1:]
    if op == "play":
        i = RANKS.index(arg)
        return _orders(rest, _add(hand, i, -1), remaining) if hand[i] else 0
    if arg == 0:
        return _orders(rest, hand, remaining)
    after = (("draw", arg - 1),) + rest
    return sum(_orders(after, _add(hand, i, 1), _add(remaining, i, -1))
               for i in range(len(RANKS)) if remaining[i])


def _add(counts, i, delta):
    return counts[:i] + (counts[i] + delta,) + counts[i + 1:]


def _sample_order(sequence, remaining, rng):
    """A uniformly random feasible draw order (list of ranks) for :func:`_orders`."""
    hand, drawn = (0, 0, 0, 0), []
    while sequence:
        (op, arg), rest = sequence[0], sequence[1:]
        if op == "play":
            hand = _add(hand, RANKS.index(arg), -1)
            sequence = rest
        elif arg == 0:
            sequence = rest
        else:
            after = (("draw", arg - 1),) + rest
            choices = [i for i in range(len(RANKS)) if remaining[i]]
            weights = [_orders(after, _add(hand, i, 1), _add(remaining, i, -1)) for i in choices]
            i = rng.choices(choices, weights=weights)[0]
            hand, remaining = _add(hand, i, 1), _add(remaining, i, -1)
            drawn.append(RANKS[i])
            sequence = after
    return drawn


def _split(cards, ops):
    """Cut a flat list of drawn cards into one list per draw operation."""
    groups, start = [], 0
    for op, arg in ops:
        if op == "draw":
            groups.append(cards[start:start + arg])
            start += arg
    return groups


def _build_pile(ops, draws, free):
    """A draw pile (top first): drawn cards where the operations drew, cards taken from
    ``free`` where they burned, and ``free`` cards for the part never reached."""
    pile, groups = [], iter(draws)
    for op, arg in ops:
        if op == "draw":
            pile += next(groups)
        elif op == "burn":
            pile.append(free.pop())
    while len(pile) < DECK_SIZE // 2:
        pile.append(free.pop())
    return pile
