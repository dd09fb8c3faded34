"""Helpers shared by the card games: card names and sampling of hidden hands.

Cards are strings: rank then suit letter, e.g. ``"10H"``, ``"QS"``, ``"AC"``. This module
defines no game (it has no ``METADATA``), so the registry skips it.
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

SUITS = ("C", "D", "H", "S")


def suit(card: str) -> str:
    return card[-1]


def rank(card: str) -> str:
    return card[:-1]


def sample_hands(
    pool: Sequence[str],
    needs: dict[int, int],
    allowed: Callable[[int, str], bool],
    rng: random.Random,
    tries: int = 2000,
) -> dict[int, list[str]] | None:
    """Deal ``needs[p]`` cards from ``pool`` to each player ``p`` so that every card a
    player gets satisfies ``allowed(p, card)``; the rest of the pool stays undealt.

    The result is uniform over all such deals (rejection sampling from uniform deals) when
    one is found within ``tries``; otherwise a sequential random deal that keeps the rest
    of the problem feasible at every step is returned: valid, but not exactly uniform.
    ``None`` means no valid deal exists.
    """
    cards = list(pool)
    for _ in range(tries):
        rng.shuffle(cards)
        hands, start = {}, 0
        for player, count in needs.items():
            hands[player] = cards[start:start + count]
            start += count
        if all(allowed(p, c) for p, hand in hands.items() for c in hand):
            return hands
    return _feasible_hands(cards, needs, allowed, rng)


_UNDEALT = -100  # the pseudo-player holding the cards nobody is dealt


def _feasible_hands(cards, needs, allowed, rng) -> dict[int, list[str]] | None:
    capacity = dict(needs)
    capacity[_UNDEALT] = len(cards) - sum(needs.values())
    if capacity[_UNDEALT] < 0:
        return None
    options = {c: frozenset([_UNDEALT] + [p for p in needs if allowed(p, c)]) for c in cards}
    if not _feasible(list(options.values()), capacity):
        return None
    hands: dict[int, list[str]] = {p: [] for p in needs}
    remaining = list(cards)
    rng.shuffle(remaining)
    while remaining:
        card = remaining.pop()
        rest = [options[c] for c in remaining]
        choices = [p for p in options[card] if capacity[p] > 0]
        rng.shuffle(choices)
        for player in choices:
            capacity[player] -= 1
            if _feasible(rest, capacity):
                if player != _UNDEALT:
                    hands[player].append(card)
                break
            capacity[player] += 1
    return hands


def _feasible(option_sets: list[frozenset], capacity: dict[int, int]) -> bool:
    """Hall's condition: every set of players can take all cards that must go to it."""
    players = list(capacity)
    for mask in range(1, 1 << len(players)):
        group = {players[i] for i in range(len(players)) if mask >> i & 1}
        forced = sum(1 for s in option_sets if s <= group)
        if forced > sum(capacity[p] for p in group):
            return False
    return sum(capacity.values()) >= len(option_sets)


def interleave_deal(hands: dict[int, list[str]], num_players: int, first: int = 0,
                    rng: random.Random | None = None) -> list[str]:
    """The round-robin order in which ``hands`` (equal sizes) were dealt one card at a
    time starting with player ``first``; the order within each hand is shuffled."""
    hands = {p: list(h) for p, h in hands.items()}
    if rng is not None:
        for hand in hands.values():
            rng.shuffle(hand)
    size = len(hands[first])
    return [hands[(first + i) % num_players][i // num_players]
            for i in range(size * num_players)]
