"""Bargaining over a pool of items with private valuations (seed 000 App. H), with the
semantics of OpenSpiel's ``bargaining``.

OpenSpiel deals one of 1,000 instances drawn once by its instance generator. We deal,
by default (``instances=all``), uniformly among *all* 5,793 instances that generator can
produce, so the distribution is the same and no data is copied. ``instances=openspiel``
reads OpenSpiel's own list from ``pyspiel`` (which must be installed) and then matches
OpenSpiel move for move, including ``max_turns``, ``discount`` and ``prob_end``.
"""

from __future__ import annotations

import itertools
import random
from functools import cache
from types import SimpleNamespace

from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata, player_name

PARAMETERS = {"instances": "all", "max_turns": 10, "discount": 1.0, "prob_end": 0.0}
#: Bounds of the numeric parameters (checked before make() runs; see ggp.core.registry).
PARAMETER_RANGES = {"max_turns": (1, 1000), "discount": (0, 1), "prob_end": (0, 1)}

ITEMS = ("Book", "Hat", "Basketball")
POOL_MIN, POOL_MAX, TOTAL_VALUE = 5, 7, 10
AGREE = "Agree"
CONTINUE, END = "Continue", "End"

_RULES = """\
Bargaining. Two players split a pool of items of three kinds: books, hats and basketballs.
The deal (chance). First chance deals a pool and a private valuation for each player:
"Deal pool B,H,K; player 0 values b0,h0,k0; player 1 values b1,h1,k1" means the pool holds B
books, H hats and K basketballs, and one book is worth b0 points to player 0 and b1 to
player 1, and so on. Every deal satisfies: each kind has at least 1 item, the pool has 5
to 7 items, item values are whole numbers 0..10, the whole pool is worth exactly 10 points
to each player, no kind is worthless to both players, and at least one kind is worth
something to both.
{deal_text}
What players know. A player sees the pool and its own values, never the opponent's values.
Both players see every offer made and whether an agreement was reached.
Offers. Player 0 moves first and the players alternate. On its turn a player either makes
an offer or, if an offer is on the table, agrees to the most recent offer (the opponent's).
An offer names the items the proposer keeps for itself, written
"Offer: Book: b, Hat: h, Basketball: k" with 0 <= b <= B, 0 <= h <= H, 0 <= k <= K (taking
nothing or everything is allowed); the opponent would get the rest of the pool. "Agree"
accepts the most recent offer and ends the game.
End and payoffs. On "Agree", the player who made the accepted offer receives its offered
items and the other player the rest; each scores the sum of its own values of the items it
receives{discount_text}. If {max_turns} offers have been made without agreement, the game ends
and both players walk away with 0 (the last offer can no longer be accepted).{prob_end_text}
The game is general-sum: both players can score well at once. Rewards are given only when
the game ends.
State and observations. The state holds "pool" and "values" (both players' values, in the
order book, hat, basketball), "offers" (each offer's kept quantities, in order; offer i was
made by player i mod 2), "agreed", "ended" (by chance), "current_player", "move_number" and
"discount_factor". A player's observation holds "pool", "my_values", every offer with its
proposer, "agreed", "ended" and "current_player".
"""


# ------------------------------------------------------------------ instances
@cache
def all_instances() -> tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]:
    """Every valid (pool, values of player 0, values of player 1), sorted."""
    found = []
    for pool in itertools.product(range(1, POOL_MAX + 1), repeat=3):
        if not POOL_MIN <= sum(pool) <= POOL_MAX:
            continue
        valuations = [v for v in itertools.product(range(TOTAL_VALUE + 1), repeat=3)
                      if sum(a * b for a, b in zip(v, pool)) == TOTAL_VALUE]
        for v0, v1 in itertools.product(valuations, repeat=2):
            if all(a or b for a, b in zip(v0, v1)) and any(a and b for a, b in zip(v0, v1)):
                found.append((pool, v0, v1))
    return tuple(found)


@cache
def openspiel_instances() -> tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]:
    """OpenSpiel's instance list, in OpenSpiel's chance-outcome order (needs pyspiel)."""
    try:
        import pyspiel
    except ImportError as exc:
        raise ValueError("instances=openspiel needs OpenSpiel: pip install 'ggp[openspiel]'"
                         ) from exc
    state = pyspiel.load_game("bargaining").new_initial_state()
    found = []
    for action, _ in state.chance_outcomes():
        lines = state.action_to_string(-1, action).splitlines()[1:4]
        pool, v0, v1 = (tuple(int(part.split(":")[-1]) for part in line.split(",")
                              ) for line in lines)
        found.append((pool, v0, v1))
    return tuple(found)


def deal_action(instance) -> str:
    pool, v0, v1 = (",".join(map(str, x)) for x in instance)
    return f"Deal pool {pool}; player 0 values {v0}; player 1 values {v1}"


def parse_deal(action: str):
    pool, v0, v1 = (part.split()[-1] for part in action.split("; "))
    return tuple(tuple(int(x) for x in text.split(",")) for text in (pool, v0, v1))


def offer_action(quantities) -> str:
    return "Offer: " + ", ".join(f"{item}: {q}" for item, q in zip(ITEMS, quantities))


def parse_offer(action: str) -> list[int]:
    return [int(part.split(":")[-1]) for part in action[len("Offer: "):].split(", ")]


# ------------------------------------------------------------------ the game
def _metadata(instances: str) -> GameMetadata:
    return GameMetadata(
        num_players=2,
        min_utility=0.0,
        max_utility=float(TOTAL_VALUE),
        zero_sum=False,
        outcome="payoff",
        perfect_information=False,
        chance=True,
        openspiel="bargaining" if instances == "openspiel" else None,
        source="seed 000 App. H (Bargaining); OpenSpiel bargaining",
    )


def _rules(instances, max_turns, discount, prob_end) -> str:
    deal_text = ("Chance picks uniformly among all 5,793 deals that satisfy these rules."
                 if instances == "all" else
                 "Chance picks uniformly among a fixed list of 1,000 such deals.")
    discount_text = ("" if discount == 1.0 else
                     f", multiplied by {discount} once for every player action after the "
                     "first two player actions of the game (the Agree included)")
    prob_end_text = ("" if prob_end == 0.0 else
                     f"\nAfter every offer except the very first one, chance ends the game "
                     f"with probability {prob_end} (\"End\": both get 0) or lets it go on "
                     f"(\"Continue\").")
    return _RULES.format(deal_text=deal_text, discount_text=discount_text,
                         max_turns=max_turns, prob_end_text=prob_end_text)


RULES = _rules("all", 10, 1.0, 0.0)
METADATA = _metadata("all")

INITIAL_STATE = {
    "pool": None,
    "values": None,
    "offers": [],
    "agreed": False,
    "ended": False,
    "current_player": CHANCE,
    "next_player": 0,
    "move_number": 0,
    "discount_factor": 1.0,
    "rewards": [0.0, 0.0],
}


def make(instances: str = "all", max_turns: int = 10, discount: float = 1.0,
         prob_end: float = 0.0) -> SimpleNamespace:
    """Bargaining with a deal distribution, an offer limit, a discount and an end chance."""
    if instances not in ("all", "openspiel"):
        raise ValueError(f"instances must be 'all' or 'openspiel'; got {instances!r}")
    if not isinstance(max_turns, int) or max_turns < 1:
        raise ValueError(f"max_turns must be a positive integer; got {max_turns!r}")
    if not 0.0 < float(discount) <= 1.0 or not 0.0 <= float(prob_end) < 1.0:
        raise ValueError("need 0 < discount <= 1 and 0 <= prob_end < 1")
    discount, prob_end = float(discount), float(prob_end)
    deals = all_instances() if instances == "all" else openspiel_instances()
    deal_outcomes = [(deal_action(d), 1.0 / len(deals)) for d in deals]

    def get_current_player(state):
        return state["current_player"]

    def get_player_name(player_id):
        return player_name(player_id, ("player 0", "player 1"))

    def get_chance_outcomes(state):
        if state["pool"] is None:
            return deal_outcomes
        return [(CONTINUE, 1.0 - prob_end), (END, prob_end)]

    def get_legal_actions(state):
        player = state["current_player"]
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [a for a, _ in get_chance_outcomes(state)]
        ranges = [range(n + 1) for n in state["pool"]]
        offers = [offer_action(q) for q in itertools.product(*ranges)]
        return offers + [AGREE] if state["offers"] else offers

    def apply_action(state, action):
        if action not in get_legal_actions(state):
            raise ValueError(f"illegal action {action!r} in this state")
        new = {**state, "offers": [list(o) for o in state["offers"]], "rewards": [0.0, 0.0],
               "move_number": state["move_number"] + 1,
               "pool": state["pool"] and list(state["pool"]),
               "values": state["values"] and [list(v) for v in state["values"]]}
        player = state["current_player"]
        if player == CHANCE:
            if state["pool"] is None:
                pool, v0, v1 = parse_deal(action)
                new.update(pool=list(pool), values=[list(v0), list(v1)], current_player=0)
            elif action == CONTINUE:
                new["current_player"] = state["next_player"]
            else:
                new.update(ended=True, current_player=TERMINAL)
            return new
        if state["move_number"] >= 3 and discount < 1.0:
            new["discount_factor"] = state["discount_factor"] * discount
        if action == AGREE:
            new.update(agreed=True, current_player=TERMINAL)
            new["rewards"] = _payoffs(new)
        else:
            new["offers"].append(parse_offer(action))
            if len(new["offers"]) >= max_turns:
                new["current_player"] = TERMINAL
            elif state["move_number"] >= 2 and prob_end > 0.0:
                new.update(current_player=CHANCE, next_player=1 - player)
            else:
                new["current_player"] = 1 - player
        return new

    def _payoffs(state):
        offer = state["offers"][-1]
        proposer = (len(state["offers"]) - 1) % 2
        shares = {proposer: offer, 1 - proposer: [n - q for n, q in zip(state["pool"], offer)]}
        return [state["discount_factor"] * sum(v * q for v, q in zip(state["values"][p], shares[p]))
                for p in (0, 1)]

    def get_rewards(state):
        return list(state["rewards"])

    def get_observations(state):
        return [_observation(state, p) for p in (0, 1)]

    def _observation(state, player):
        return {
            "player": player,
            "pool": state["pool"] and list(state["pool"]),
            "my_values": state["values"] and list(state["values"][player]),
            "offers": [{"proposer": i % 2, "quantities": q}
                       for i, q in enumerate(state["offers"])],
            "agreed": state["agreed"],
            "ended": state["ended"],
            "current_player": state["current_player"],
        }

    @cache
    def _matching(pool, player_id, mine):
        """The deals with this pool that give ``player_id`` these values."""
        return [d for d in deals if d[0] == pool and d[1 + player_id] == mine]

    def resample_history(obs_action_history, player_id, last_is_terminal=False):
        """A full action list consistent with the player's view.

        The opponent's values are drawn from the deal distribution conditioned on the pool
        and the player's own values (offers do not depend on values, so this is the exact
        posterior when the opponent plays uniformly at random). The offers, the agreement
        and every Continue come from the observation, which records them all, so
        ``last_is_terminal`` needs no special handling.
        """
        last = obs_action_history[-1][0]
        pool, mine = tuple(last["pool"]), tuple(last["my_values"])
        matching = _matching(pool, player_id, mine)
        if not matching:
            raise ValueError("no deal matches the observed pool and values")
        deal = deal_action(random.choice(matching))
        actions, state = [deal], apply_action(INITIAL_STATE, deal)

        def play(action):
            nonlocal state
            actions.append(action)
            state = apply_action(state, action)

        for offer in last["offers"]:
            if state["current_player"] == CHANCE:
                play(CONTINUE)
            play(offer_action(offer["quantities"]))
        if state["current_player"] == CHANCE:
            play(END if last["ended"] else CONTINUE)
        if last["agreed"]:
            play(AGREE)
        return actions

    return SimpleNamespace(
        RULES=_rules(instances, max_turns, discount, prob_end),
        METADATA=_metadata(instances),
        INITIAL_STATE=INITIAL_STATE,
        get_current_player=get_current_player,
        get_player_name=get_player_name,
        get_legal_actions=get_legal_actions,
        get_chance_outcomes=get_chance_outcomes,
        apply_action=apply_action,
        get_rewards=get_rewards,
        get_observations=get_observations,
        resample_history=resample_history,
    )
