"""Cheat claim: play cards face down claiming the called rank; doubt, or be doubted.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

import random

from ggp.core.protocol import GameMetadata

PARAMETERS = {"ranks": 3, "copies": 2, "hand": 3, "max_plays": 20}
RANKS, COPIES, HAND, MAX_PLAYS = (PARAMETERS[k] for k in ("ranks", "copies", "hand",
                                                          "max_plays"))

RULES = f"""Cheat claim. Two players and a deck of {RANKS * COPIES} cards: {COPIES} copies of each rank
1 to {RANKS}. Chance deals {HAND} cards to each player, one at a time, alternating player 0,
player 1, player 0, ... (chance action "Deal k" gives a card of rank k; its probability is
the number of cards of rank k not yet dealt divided by the number of cards not yet dealt).
Each player sees only its own hand. The called rank starts at 1. Player 0 plays first. A
play puts one card from the player's hand face down on the pile, claiming it is the
called rank (action "Play k" for the rank k of the card really played; the opponent does
not see k). The opponent then answers "Doubt" or "Accept". On "Doubt" the card is shown: if
it is not the called rank, the player who played it takes the whole pile into its hand;
if it is the called rank, the doubter takes the whole pile. On "Accept" the pile stays.
Then the called rank goes up by one (after {RANKS} comes 1 again) and the other player plays
next. After the answer, a player whose hand is empty wins (+1, opponent -1). If {MAX_PLAYS}
plays were answered without that, the player with fewer cards in hand wins, and equal
counts are a draw (0 and 0). Rewards come only on the last move. Each player observes its
own hand (sorted), the card it has just played while the opponent answers (else null), the
called rank, the pile size, both hand sizes, and the public log of answered plays as
[player who played, called rank, answer, card shown or null, player who took the pile or
null].
Observation keys: "hand", "my_pending", "called", "pile_size", "hand_sizes", "log".
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=False, chance=True)

INITIAL_STATE = {"hands": [[], []], "pile": [], "called": 1, "turn": 0, "pending": None,
                 "log": [], "over": False, "rewards": [0.0, 0.0]}


def _dealt(state):
    return len(state["hands"][0]) + len(state["hands"][1])


def _left(state):
    seen = state["hands"][0] + state["hands"][1]
    return {k: COPIES - seen.count(k) for k in range(1, RANKS + 1)}


def get_current_player(state):
    if state["over"]:
        return -4
    if not state["log"] and not state["pile"] and _dealt(state) < 2 * HAND:
        return -1
    return state["turn"] if state["pending"] is None else 1 - state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_chance_outcomes(state):
    left = _left(state)
    total = sum(left.values())
    return [(f"Deal {k}", n / total) for k, n in left.items() if n]


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        return [a for a, _ in get_chance_outcomes(state)]
    if state["pending"] is not None:
        return ["Doubt", "Accept"]
    return [f"Play {k}" for k in sorted(set(state["hands"][player]))]


def apply_action(state, action):
    hands = [list(h) for h in state["hands"]]
    if action.startswith("Deal"):
        hands[_dealt(state) % 2].append(int(action.split()[1]))
        return {**state, "hands": hands}
    player = state["turn"]
    if action.startswith("Play"):
        card = int(action.split()[1])
        hands[player].remove(card)
        return {**state, "hands": hands, "pile": state["pile"] + [card], "pending": card,
                "rewards": [0.0, 0.0]}
    pile, card, taker, shown = list(state["pile"]), state["pending"], None, None
    if action == "Doubt":
        shown = card
        taker = player if card != state["called"] else 1 - player
        hands[taker] += pile
        pile = []
    log = state["log"] + [[player, state["called"], action, shown, taker]]
    rewards, over = [0.0, 0.0], False
    if not hands[player]:
        over, rewards = True, [1.0, -1.0] if player == 0 else [-1.0, 1.0]
    elif len(log) == MAX_PLAYS:
        over = True
        sizes = [len(h) for h in hands]
        if sizes[0] != sizes[1]:
            rewards = [1.0, -1.0] if sizes[0] < sizes[1] else [-1.0, 1.0]
    return {"hands": hands, "pile": pile, "called": state["called"] % RANKS + 1,
            "turn": 1 - player, "pending": None, "log": log, "over": over,
            "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [{"hand": sorted(state["hands"][p]), "called": state["called"],
             "my_pending": state["pending"] if state["turn"] == p else None,
             "pile_size": len(state["pile"]),
             "hand_sizes": [len(h) for h in state["hands"]], "log": state["log"]}
            for p in range(2)]


def resample_history(history, player_id, last_is_terminal=False):
    """A depth-first search, in random order, over the deal and the opponent's hidden
    plays for a full history that shows the player exactly what it saw. The deal has at
    most 3^6 orders and each opponent play at most 3 ranks, and every step the player
    sees prunes the search, so it stays small."""
    seen = [obs for obs, _ in history]
    mine = [action for _, action in history]

    def search(state, actions, step):
        player = get_current_player(state)
        if player == player_id or player == -4:
            if get_observations(state)[player_id] != seen[step]:
                return None
            if step == len(history) - 1:
                return actions if (player == -4) == last_is_terminal else None
            if player == -4:
                return None
            return search(apply_action(state, mine[step]), actions + [mine[step]], step + 1)
        options = get_legal_actions(state)
        random.shuffle(options)
        for action in options:
            found = search(apply_action(state, action), actions + [action], step)
            if found is not None:
                return found
        return None

    return search(INITIAL_STATE, [], 0)
