"""Suspect card: five cards, two hands, one hidden card to name by asking questions.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

import random

from ggp.core.protocol import GameMetadata

PARAMETERS = {"cards": 5, "max_turns": 10}
CARDS, MAX_TURNS = PARAMETERS["cards"], PARAMETERS["max_turns"]

RULES = f"""Suspect card. Two players and the cards 1 to {CARDS}. Chance first puts one card face
down in the middle, then deals two cards to player 0 and then two cards to player 1, one
card at a time, each remaining card equally likely (chance actions "Deal k"; the first one
is the middle card, then player 0's cards, then player 1's). Each player sees only its own
hand. Then the players take turns, player 0 first. On a turn a player either asks about a
card it does not hold, "Ask k", and the opponent must answer truthfully whether it holds
card k (the answer is public), or accuses a card it does not hold, "Accuse k". An
accusation ends the game: if k is the middle card the accuser gets +1 and the opponent -1,
otherwise the accuser gets -1 and the opponent +1. If {MAX_TURNS} turns pass without an
accusation, the game is a draw (0 and 0). Rewards come only on the last move. Each player
observes its own hand (sorted) and the public log of turns as [player, action, answer] with
answer "yes" or "no" for a question and null for an accusation; at the end it also sees the
middle card (null before).
Observation keys: "hand", "log", "middle".
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=False, chance=True)

INITIAL_STATE = {"dealt": [], "log": [], "over": False, "rewards": [0.0, 0.0]}


def _hand(state, player):
    return sorted(state["dealt"][1 + 2 * player:3 + 2 * player])


def get_current_player(state):
    if state["over"]:
        return -4
    return -1 if len(state["dealt"]) < 5 else len(state["log"]) % 2


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        return [f"Deal {k}" for k in range(1, CARDS + 1) if k not in state["dealt"]]
    mine = _hand(state, player)
    return [f"{verb} {k}" for verb in ("Ask", "Accuse") for k in range(1, CARDS + 1)
            if k not in mine]


def apply_action(state, action):
    verb, number = action.split()
    card = int(number)
    if verb == "Deal":
        return {**state, "dealt": state["dealt"] + [card]}
    player = len(state["log"]) % 2
    if verb == "Ask":
        answer = "yes" if card in _hand(state, 1 - player) else "no"
        log = state["log"] + [[player, action, answer]]
        return {**state, "log": log, "over": len(log) == MAX_TURNS, "rewards": [0.0, 0.0]}
    right = card == state["dealt"][0]
    rewards = [1.0, -1.0] if right == (player == 0) else [-1.0, 1.0]
    return {**state, "log": state["log"] + [[player, action, None]], "over": True,
            "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [{"hand": _hand(state, p) if len(state["dealt"]) >= 3 + 2 * p else
             sorted(state["dealt"][1 + 2 * p:]) if len(state["dealt"]) > 1 + 2 * p else [],
             "log": state["log"],
             "middle": state["dealt"][0] if state["over"] else None} for p in range(2)]


def resample_history(history, player_id, last_is_terminal=False):
    """A deal drawn uniformly from those that agree with the player's hand and every
    public answer (the middle card is one of the three cards the player does not hold)."""
    obs = history[-1][0]
    mine = obs["hand"]
    others = [k for k in range(1, CARDS + 1) if k not in mine]
    deals = []
    for middle in others:
        theirs = [k for k in others if k != middle]
        if obs["middle"] is not None and middle != obs["middle"]:
            continue
        # the opponent only named cards it does not hold; answers name the other's hand
        legal = all(int(action.split()[1]) not in theirs
                    for asker, action, _ in obs["log"] if asker != player_id)
        if legal and all((answer == "yes") == (int(action.split()[1]) in
                                               (theirs if asker == player_id else mine))
                         for asker, action, answer in obs["log"] if answer is not None):
            deals.append([middle] + (mine + theirs if player_id == 0 else theirs + mine))
    deal = random.choice(deals)
    return [f"Deal {k}" for k in deal] + [action for _, action, _ in obs["log"]]
