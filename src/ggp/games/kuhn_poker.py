"""Kuhn poker: three cards, one betting round (action names match OpenSpiel's ``kuhn_poker``).

Chance actions are ``"Deal J"``, ``"Deal Q"``, ``"Deal K"`` (OpenSpiel: ``Deal:0..2``);
player actions are ``"Pass"`` and ``"Bet"``.
"""

from __future__ import annotations

import random

from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata, player_name

RULES = """\
Kuhn poker. Two players and a deck of three cards: Jack (J), Queen (Q) and King (K); K is
the highest and J the lowest. Each player puts 1 chip into the pot (the ante) and is dealt
one card face down: first player 0, then player 1 (chance actions "Deal J", "Deal Q",
"Deal K"). The third card stays unseen. Each player sees only their own card.
There is a single betting round, and player 0 acts first. A player may "Pass" (put in
nothing more, or give up when facing a bet) or "Bet" (put 1 more chip in, or match the
opponent's bet). The game goes:
  - Pass, Pass: showdown, the higher card wins 1 chip from the other player.
  - Bet, Pass: player 1 gives up; player 0 wins 1 chip.
  - Bet, Bet: showdown for 2 chips.
  - Pass, Bet, Pass: player 0 gives up; player 1 wins 1 chip.
  - Pass, Bet, Bet: showdown for 2 chips.
At a showdown both cards are shown and the player with the higher card wins what the
other player put in the pot. Rewards are paid only at the end: the winner receives the
chips the loser put in (+1 or +2), the loser the negative of that.
Observations: a player sees their own card, the whole betting sequence (who did what),
how many chips each player has put in, whose turn it is, and both cards after a showdown.
"""

METADATA = GameMetadata(
    num_players=2,
    min_utility=-2.0,
    max_utility=2.0,
    zero_sum=True,
    outcome="payoff",
    perfect_information=False,
    chance=True,
    openspiel="kuhn_poker",
    source="Kuhn (1950); OpenSpiel kuhn_poker; seed 004",
)

CARDS = ("J", "Q", "K")

INITIAL_STATE = {
    "cards": [None, None],
    "betting": [],
    "contributions": [1, 1],
    "current_player": CHANCE,
    "showdown": False,
    "rewards": [0.0, 0.0],
}


def get_current_player(state):
    return state["current_player"]


def get_player_name(player_id):
    return player_name(player_id, ("player 0", "player 1"))


def get_legal_actions(state):
    player = state["current_player"]
    if player == TERMINAL:
        return []
    if player == CHANCE:
        return [a for a, _ in get_chance_outcomes(state)]
    return ["Pass", "Bet"]


def get_chance_outcomes(state):
    remaining = [c for c in CARDS if c not in state["cards"]]
    return [(f"Deal {c}", 1.0 / len(remaining)) for c in remaining]


def apply_action(state, action):
    player = state["current_player"]
    new = {
        "cards": list(state["cards"]),
        "betting": [list(b) for b in state["betting"]],
        "contributions": list(state["contributions"]),
        "current_player": player,
        "showdown": False,
        "rewards": [0.0, 0.0],
    }
    if player == CHANCE:
        card = action.removeprefix("Deal ")
        if card not in CARDS or card in state["cards"]:
            raise ValueError(f"illegal deal {action!r}")
        seat = new["cards"].index(None)
        new["cards"][seat] = card
        new["current_player"] = 0 if seat == 1 else CHANCE
        return new
    if player == TERMINAL or action not in ("Pass", "Bet"):
        raise ValueError(f"illegal action {action!r} for player {player}")
    new["betting"].append([player, action])
    if action == "Bet":
        new["contributions"][player] += 1
    moves = [a for _, a in new["betting"]]
    if moves in (["Pass", "Pass"], ["Bet", "Bet"], ["Pass", "Bet", "Bet"]):
        new["showdown"] = True
        winner = 0 if CARDS.index(new["cards"][0]) > CARDS.index(new["cards"][1]) else 1
        _finish(new, winner)
    elif moves in (["Bet", "Pass"], ["Pass", "Bet", "Pass"]):
        _finish(new, 1 - player)  # the player who passed facing a bet gives up
    else:
        new["current_player"] = 1 - player
    return new


def _finish(state, winner):
    won = state["contributions"][1 - winner]
    state["rewards"] = [float(won), -float(won)] if winner == 0 else [-float(won), float(won)]
    state["current_player"] = TERMINAL


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [_observation(state, p) for p in (0, 1)]


def _observation(state, player):
    return {
        "player": player,
        "my_card": state["cards"][player],
        "betting": [list(b) for b in state["betting"]],
        "contributions": list(state["contributions"]),
        "current_player": state["current_player"],
        "showdown_cards": list(state["cards"]) if state["showdown"] else None,
    }


def resample_history(obs_action_history, player_id, last_is_terminal=False):
    """A full action history consistent with ``player_id``'s observations, drawn from the
    exact posterior: the deal is uniform, so every unseen card is equally likely to be the
    opponent's (unless a showdown revealed it). The last observation holds everything the
    player knows (perfect recall). With ``last_is_terminal`` the last observation is of the
    final state and the history returned ends there (no special handling is needed:
    observations show every bet)."""
    last = obs_action_history[-1][0]
    cards = [None, None]
    cards[player_id] = last["my_card"]
    if last["showdown_cards"] is not None:
        cards = list(last["showdown_cards"])
    elif cards[player_id] is not None:
        unseen = [c for c in CARDS if c != cards[player_id]]
        cards[1 - player_id] = random.choice(unseen)
    else:  # nothing dealt yet to this player: impossible at a decision point
        raise ValueError("the player has no card yet; there is nothing to resample")
    return [f"Deal {c}" for c in cards] + [a for _, a in last["betting"]]
