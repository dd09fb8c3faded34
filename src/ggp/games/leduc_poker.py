"""Leduc hold'em (action names match OpenSpiel's ``leduc_poker``), with a blinds variant.

Cards are ``"Js", "Jh", "Qs", "Qh", "Ks", "Kh"`` (rank then suit; suits never matter for
who wins, but they make the six cards distinct as in OpenSpiel, whose card id is
``2 * rank + suit`` with J=0, Q=1, K=2 and s=0, h=1). Chance actions are ``"Deal Kh"``;
player actions are ``"Fold"``, ``"Call"`` and ``"Raise"``.

``PARAMETERS``: ``blinds`` (default False). False is the standard game (OpenSpiel's
``leduc_poker``: antes of 1 chip each). True is the variant of seed 000 App. H: no antes,
player 0 posts a small blind of 1 and player 1 a big blind of 2, the big blind counts as
the first raise of round 1, and player 0 acts first in both rounds.
"""

from __future__ import annotations

import random

from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata, player_name

PARAMETERS = {"blinds": False}

RANKS = ("J", "Q", "K")
CARDS = tuple(r + s for r in RANKS for s in ("s", "h"))
RAISE_SIZE = {1: 2, 2: 4}
MAX_RAISES = 2

_COMMON_RULES = """\
Two players and a deck of six cards: two Jacks, two Queens and two Kings, written with a
suit letter, e.g. "Js", "Jh", "Qs", "Qh", "Ks", "Kh" (suits never matter for who wins; K is
the highest rank and J the lowest). Chance first deals one private card face down to
player 0, then one to player 1 (chance actions like "Deal Qh"). Each player sees only their
own private card.
There are two betting rounds. Between them chance deals one public card face up from the
four remaining cards, which both players see. In each round player 0 acts first and the
players then alternate. On a turn a player chooses one of:
  - "Call": put in just enough chips to match the opponent's total. When nothing is owed
    this costs nothing (it is a check; there is no separate "Check" action).
  - "Raise": match the opponent and then put in a fixed extra amount: 2 chips in round 1,
    4 chips in round 2. At most two raises are allowed per round; after that only "Call"
    and "Fold" remain.
  - "Fold": give up the hand. Only allowed when the player owes chips (facing a raise).
A round ends when a player calls, except when that call is the first action of the round
(then the opponent still gets to act). After round 2 the hands are compared (showdown):
a player whose private card has the same rank as the public card (a pair) wins; otherwise
the higher private card wins; equal ranks split the pot (nobody wins anything).
The winner of the hand (by showdown or because the opponent folded) gains the chips the
loser put into the pot, and the loser loses them; rewards are paid only at the end.
Observations: a player sees their own card, the public card once dealt, the round, the
full betting sequence of both rounds (who did what), the chips each player has put in,
whose turn it is, and both private cards after a showdown.
"""

_ANTE_RULES = "Leduc poker. Before the deal each player puts an ante of 1 chip into the pot.\n"
_BLIND_RULES = """\
Leduc poker with blinds. There are no antes. Before the deal player 0 posts a small blind
of 1 chip and player 1 a big blind of 2 chips. The big blind counts as the first raise of
round 1, so in round 1 only one more raise is allowed. Player 0 acts first in round 1 and
owes 1 chip: "Call" puts in 1 chip, "Raise" puts in 3 chips (4 in total) and "Fold" gives
up the 1 chip blind. If player 0 calls, player 1 may "Call" (free, which ends the round)
or "Raise" to 4. Round 2 has no blinds and follows the normal rules (player 0 first, raises
of 4 chips, at most two raises).
"""


def _metadata(blinds: bool) -> GameMetadata:
    # Largest possible pot share: antes 1 + two raises of 2 + two raises of 4 = 13;
    # with blinds round 1 stops at 4 chips, so 4 + 8 = 12.
    bound = 12.0 if blinds else 13.0
    return GameMetadata(
        num_players=2,
        min_utility=-bound,
        max_utility=bound,
        zero_sum=True,
        outcome="payoff",
        perfect_information=False,
        chance=True,
        openspiel=None if blinds else "leduc_poker",
        source="seed 004 App. B.1; OpenSpiel leduc_poker" + ("; seed 000 App. H.6" if blinds
                                                              else ""),
        extra={"blinds": blinds},
    )


METADATA = _metadata(False)


class LeducPoker:
    """One Leduc variant; its methods are the world-model protocol functions."""

    def __init__(self, blinds: bool = False) -> None:
        if not isinstance(blinds, bool):
            raise ValueError(f"blinds must be true or false, not {blinds!r}")
        self.blinds = blinds
        self.RULES = (_BLIND_RULES if blinds else _ANTE_RULES) + _COMMON_RULES
        self.METADATA = _metadata(blinds)
        self.INITIAL_STATE = {
            "private_cards": [None, None],
            "public_card": None,
            "round": 1,
            "betting": [[], []],
            "contributions": [1, 2] if blinds else [1, 1],
            "raises": 1 if blinds else 0,
            "current_player": CHANCE,
            "showdown": False,
            "rewards": [0.0, 0.0],
        }

    # ------------------------------------------------------------------ protocol
    @staticmethod
    def get_current_player(state):
        return state["current_player"]

    @staticmethod
    def get_player_name(player_id):
        return player_name(player_id, ("player 0", "player 1"))

    def get_legal_actions(self, state):
        player = state["current_player"]
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [a for a, _ in self.get_chance_outcomes(state)]
        actions = []
        if max(state["contributions"]) > state["contributions"][player]:
            actions.append("Fold")
        actions.append("Call")
        if state["raises"] < MAX_RAISES:
            actions.append("Raise")
        return actions

    @staticmethod
    def get_chance_outcomes(state):
        used = state["private_cards"] + [state["public_card"]]
        remaining = [c for c in CARDS if c not in used]
        return [(f"Deal {c}", 1.0 / len(remaining)) for c in remaining]

    def apply_action(self, state, action):
        new = _copy(state)
        player = state["current_player"]
        if player == CHANCE:
            _deal(new, action)
        elif action in self.get_legal_actions(state):
            _bet(new, player, action)
        else:
            raise ValueError(f"illegal action {action!r} for player {player}")
        return new

    @staticmethod
    def get_rewards(state):
        return list(state["rewards"])

    @staticmethod
    def get_observations(state):
        return [_observation(state, p) for p in (0, 1)]

    @staticmethod
    def resample_history(obs_action_history, player_id, last_is_terminal=False):
        """A full action history consistent with ``player_id``'s observations, drawn from
        the exact posterior. Chance deals uniformly, so every deal that agrees with what
        the player saw is equally likely: the opponent's card is uniform over the cards the
        player has not seen (unless a showdown revealed it). The last observation holds
        everything the player knows (perfect recall). With ``last_is_terminal`` the last
        observation is of the final state and the history returned ends there (no special
        handling is needed: observations show every bet)."""
        last = obs_action_history[-1][0]
        mine = last["my_card"]
        if mine is None:
            raise ValueError("the player has no card yet; there is nothing to resample")
        cards = [None, None]
        if last["showdown_cards"] is not None:
            cards = list(last["showdown_cards"])
        else:
            cards[player_id] = mine
            unseen = [c for c in CARDS if c not in (mine, last["public_card"])]
            cards[1 - player_id] = random.choice(unseen)
        actions = [f"Deal {c}" for c in cards] + [a for _, a in last["betting"][0]]
        if last["public_card"] is not None:
            actions.append(f"Deal {last['public_card']}")
            actions += [a for _, a in last["betting"][1]]
        return actions


def _copy(state):
    new = dict(state)
    new["private_cards"] = list(state["private_cards"])
    new["betting"] = [[list(b) for b in rnd] for rnd in state["betting"]]
    new["contributions"] = list(state["contributions"])
    new["rewards"] = [0.0, 0.0]
    return new


def _deal(state, action):
    card = action.removeprefix("Deal ")
    if card not in CARDS or card in state["private_cards"] or card == state["public_card"]:
        raise ValueError(f"illegal deal {action!r}")
    if None in state["private_cards"]:
        seat = state["private_cards"].index(None)
        state["private_cards"][seat] = card
        state["current_player"] = 0 if seat == 1 else CHANCE
    else:
        state["public_card"] = card
        state["round"] = 2
        state["raises"] = 0
        state["current_player"] = 0


def _bet(state, player, action):
    rnd = state["round"]
    first_action_of_round = not state["betting"][rnd - 1]
    state["betting"][rnd - 1].append([player, action])
    stake = max(state["contributions"])
    if action == "Fold":
        _finish(state, winner=1 - player)
        return
    state["contributions"][player] = stake
    if action == "Raise":
        state["contributions"][player] += RAISE_SIZE[rnd]
        state["raises"] += 1
        state["current_player"] = 1 - player
    elif first_action_of_round:
        state["current_player"] = 1 - player
    elif rnd == 1:
        state["current_player"] = CHANCE  # the public card comes next
    else:
        state["showdown"] = True
        _finish(state, winner=_showdown_winner(state))


def _showdown_winner(state):
    """0 or 1, or None for a split pot."""
    public = state["public_card"][0]
    strength = [(card[0] == public, RANKS.index(card[0])) for card in state["private_cards"]]
    if strength[0] == strength[1]:
        return None
    return 0 if strength[0] > strength[1] else 1


def _finish(state, winner):
    state["current_player"] = TERMINAL
    if winner is not None:
        won = float(state["contributions"][1 - winner])
        state["rewards"] = [won, -won] if winner == 0 else [-won, won]


def _observation(state, player):
    return {
        "player": player,
        "my_card": state["private_cards"][player],
        "public_card": state["public_card"],
        "round": state["round"],
        "betting": [[list(b) for b in rnd] for rnd in state["betting"]],
        "contributions": list(state["contributions"]),
        "current_player": state["current_player"],
        "showdown_cards": list(state["private_cards"]) if state["showdown"] else None,
    }


def make(blinds: bool = False) -> LeducPoker:
    """The Leduc world model; ``blinds=True`` gives the seed 000 App. H variant."""
    return LeducPoker(blinds)


# The standard game is also available at module level (``import ggp.games.leduc_poker``).
_STANDARD = LeducPoker(False)
RULES = _STANDARD.RULES
INITIAL_STATE = _STANDARD.INITIAL_STATE
get_current_player = _STANDARD.get_current_player
get_player_name = _STANDARD.get_player_name
get_legal_actions = _STANDARD.get_legal_actions
get_chance_outcomes = _STANDARD.get_chance_outcomes
apply_action = _STANDARD.apply_action
get_rewards = _STANDARD.get_rewards
get_observations = _STANDARD.get_observations
resample_history = _STANDARD.resample_history
