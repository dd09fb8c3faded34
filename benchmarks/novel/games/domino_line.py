"""Domino line: a double-three domino set, hidden hands, a boneyard to draw from.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

import itertools
import random

from ggp.core.protocol import GameMetadata

PARAMETERS = {"top": 3, "hand": 3}
TOP, HAND = PARAMETERS["top"], PARAMETERS["hand"]
TILES = [f"{a}-{b}" for a in range(TOP + 1) for b in range(a, TOP + 1)]

RULES = f"""Domino line. A set of {len(TILES)} dominoes, one of each pair of pips a-b with
0 <= a <= b <= {TOP}: {", ".join(TILES)}. Chance deals {HAND} tiles to each player, one at a time,
alternating player 0, player 1, ... (chance action "Deal a-b"; every tile not yet dealt is
equally likely); the other tiles stay face down in the boneyard. Each player sees only its
own hand. Players take turns, player 0 first. The first tile of the game may be any tile
of the hand ("Play a-b") and starts the line. After that a tile must match an open end of
the line: "Play a-b left" puts it at the left end and "Play a-b right" at the right end,
turned so that its touching half shows the same pips as that end. A player who cannot play
must "Draw": chance then gives it a tile from the boneyard (chance action "Draw a-b",
every boneyard tile equally likely) and it goes on with its turn. A player who cannot play
when the boneyard is empty must "Pass". A player who plays its last tile wins (+1, the
other -1). After two passes in a row the game is blocked: the player with fewer pips in
hand wins, and equal pips are a draw (0 and 0). Rewards come only on the last move. Each
player observes its own hand (sorted), the line as a list of [left pips, right pips], both
hand sizes, the boneyard size, and the public log of moves as [player, action] (a draw
shows as "Draw" without the tile).
Observation keys: "hand", "line", "hand_sizes", "boneyard", "log".
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=False, chance=True)

INITIAL_STATE = {"hands": [[], []], "line": [], "dealt": 0, "turn": 0, "drawing": False,
                 "passes": 0, "log": [], "over": False, "rewards": [0.0, 0.0]}


def _pips(tile):
    return [int(x) for x in tile.split("-")]


def _boneyard(state):
    used = set(state["hands"][0] + state["hands"][1]) | {
        f"{min(t)}-{max(t)}" for t in state["line"]}
    return [t for t in TILES if t not in used]


def get_current_player(state):
    if state["over"]:
        return -4
    if state["dealt"] < 2 * HAND or state["drawing"]:
        return -1
    return state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def _plays(state, hand):
    if not state["line"]:
        return [f"Play {t}" for t in sorted(hand)]
    left, right = state["line"][0][0], state["line"][-1][1]
    return [f"Play {t} {side}" for t in sorted(hand) for side, end in
            (("left", left), ("right", right)) if end in _pips(t)]


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        word = "Draw" if state["drawing"] else "Deal"
        return [f"{word} {t}" for t in _boneyard(state)]
    plays = _plays(state, state["hands"][player])
    return plays or (["Draw"] if _boneyard(state) else ["Pass"])


def apply_action(state, action):
    hands = [list(h) for h in state["hands"]]
    words = action.split()
    if words[0] == "Deal":
        hands[state["dealt"] % 2].append(words[1])
        return {**state, "hands": hands, "dealt": state["dealt"] + 1}
    me = state["turn"]
    if words[0] == "Draw" and len(words) == 2:
        hands[me].append(words[1])
        return {**state, "hands": hands, "drawing": False}
    log = state["log"] + [[me, action]]
    if action == "Draw":
        return {**state, "drawing": True, "log": log, "rewards": [0.0, 0.0]}
    if action == "Pass":
        over = state["passes"] + 1 == 2
        rewards = [0.0, 0.0]
        if over:
            pips = [sum(sum(_pips(t)) for t in h) for h in hands]
            if pips[0] != pips[1]:
                rewards = [1.0, -1.0] if pips[0] < pips[1] else [-1.0, 1.0]
        return {**state, "turn": 1 - me, "passes": state["passes"] + 1, "log": log,
                "over": over, "rewards": rewards}
    tile = words[1]
    hands[me].remove(tile)
    a, b = _pips(tile)
    line = [list(x) for x in state["line"]]
    if not line:
        line = [[a, b]]
    elif words[2] == "left":
        line.insert(0, [a, b] if b == line[0][0] else [b, a])
    else:
        line.append([a, b] if a == line[-1][1] else [b, a])
    over = not hands[me]
    rewards = ([1.0, -1.0] if me == 0 else [-1.0, 1.0]) if over else [0.0, 0.0]
    return {**state, "hands": hands, "line": line, "turn": 1 - me, "passes": 0, "log": log,
            "over": over, "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [{"hand": sorted(state["hands"][p]), "line": state["line"],
             "hand_sizes": [len(h) for h in state["hands"]],
             "boneyard": len(_boneyard(state)), "log": state["log"]} for p in range(2)]


def resample_history(history, player_id, last_is_terminal=False):
    """The player's first hand is what it saw at its first decision; the opponent's first
    hand is drawn uniformly among the hands that admit a continuation showing the player
    exactly what it saw, found by a depth-first search (in random order) over the hidden
    draws and the opponent's moves, pruned at each of the player's observations."""
    seen = [obs for obs, _ in history]
    mine = [action for _, action in history]
    first = seen[0]["hand"]
    rest = [t for t in TILES if t not in first]

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

    hands = [list(h) for h in itertools.combinations(rest, HAND)]
    random.shuffle(hands)
    for other in hands:
        pair = (first, other) if player_id == 0 else (other, first)
        deal = [f"Deal {pair[i % 2][i // 2]}" for i in range(2 * HAND)]
        state = INITIAL_STATE
        for action in deal:
            state = apply_action(state, action)
        found = search(state, deal, 0)
        if found is not None:
            return found
    return None
