"""Rank asking: a three-player fishing game whose questions and answers are public.

Written for the belief benchmark (issue 31): a hidden-information game the generic belief
sampler was not tuned to. Hand-written; not the work of a language model.
"""

import json

from ggp.core.protocol import GameMetadata

RULES = """Rank asking. Three players and a deck of twelve cards: ranks A, B, C and D in
suits 1, 2 and 3 (cards "A1" ... "D3"). Chance deals three cards to each player, one at a
time, to players 0, 1, 2, 0, 1, 2, ... (chance actions "Deal A1" and so on, each
remaining card equally likely); the other three cards form a face-down stock. Then the
players take nine turns in all, player 0 first, then 1, 2, 0, ... On a turn a player
names another player and a rank they hold themselves ("Ask 2 C": ask player 2 for C). If
the asked player holds cards of that rank they hand all of them to the asker; otherwise
the asker draws one card from the stock if it is not empty (chance action "Draw B3", each
stock card equally likely; only the drawer sees it). Whenever a player holds all three
cards of a rank they lay them down as a book, face up. A player with no cards says
"Pass". Each player sees their own hand, every question with how many cards were handed
over, every book, the number of cards in each hand and in the stock, and whose turn it
is. At the end each player's reward is the number of books they laid down."""

METADATA = GameMetadata(num_players=3, min_utility=0.0, max_utility=4.0, zero_sum=False,
                        outcome="payoff", perfect_information=False, chance=True)

RANKS = "ABCD"
DECK = [r + s for r in RANKS for s in "123"]
TURNS = 9

INITIAL_STATE = {"hands": [[], [], []], "books": [0, 0, 0], "laid": [], "turn": 0,
                 "turns_done": 0, "drawer": None, "log": [], "rewards": [0.0, 0.0, 0.0]}


def _remaining(state):
    used = set(state["laid"])
    for hand in state["hands"]:
        used.update(hand)
    return [c for c in DECK if c not in used]


def _dealing(state):
    return state["turns_done"] == 0 and sum(len(h) for h in state["hands"]) + \
        len(state["laid"]) < 9 and not state["log"]


def get_current_player(state):
    if _dealing(state) or state["drawer"] is not None:
        return -1
    if state["turns_done"] >= TURNS:
        return -4
    return state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        verb = "Deal" if _dealing(state) else "Draw"
        return [f"{verb} {c}" for c in _remaining(state)]
    ranks = sorted({c[0] for c in state["hands"][player]})
    if not ranks:
        return ["Pass"]
    return [f"Ask {q} {r}" for q in range(3) if q != player for r in ranks]


def get_chance_outcomes(state):
    actions = get_legal_actions(state)
    return [(a, 1.0 / len(actions)) for a in actions]


def _books(state, player):
    hand = state["hands"][player]
    for rank in RANKS:
        cards = [c for c in hand if c[0] == rank]
        if len(cards) == 3:
            state["hands"][player] = hand = [c for c in hand if c[0] != rank]
            state["laid"] += cards
            state["books"][player] += 1
            state["log"].append(["book", player, rank])


def _end_turn(state):
    state["turns_done"] += 1
    state["turn"] = (state["turn"] + 1) % 3
    if state["turns_done"] >= TURNS:
        state["rewards"] = [float(b) for b in state["books"]]


def apply_action(state, action):
    state = json.loads(json.dumps(state))
    state["rewards"] = [0.0, 0.0, 0.0]
    words = action.split()
    if words[0] == "Deal":
        seat = sum(len(h) for h in state["hands"]) % 3
        state["hands"][seat].append(words[1])
        state["hands"][seat].sort()
        return state
    if words[0] == "Draw":
        p = state["drawer"]
        state["hands"][p] = sorted(state["hands"][p] + [words[1]])
        state["drawer"] = None
        _books(state, p)
        _end_turn(state)
        return state
    p = state["turn"]
    if words[0] == "Pass":
        state["log"].append(["pass", p])
        _end_turn(state)
        return state
    q, rank = int(words[1]), words[2]
    given = [c for c in state["hands"][q] if c[0] == rank]
    state["hands"][q] = [c for c in state["hands"][q] if c[0] != rank]
    state["hands"][p] = sorted(state["hands"][p] + given)
    state["log"].append(["ask", p, q, rank, len(given)])
    _books(state, p)
    if not given and _remaining(state):
        state["drawer"] = p
    else:
        _end_turn(state)
    return state


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    public = {"books": state["books"], "log": state["log"], "turn": state["turn"],
              "turns_done": state["turns_done"], "sizes": [len(h) for h in state["hands"]],
              "stock": len(_remaining(state))}
    return [dict(public, hand=state["hands"][p]) for p in range(3)]
