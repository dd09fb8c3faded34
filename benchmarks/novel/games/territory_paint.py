"""Territory paint: paint one or two cells of a strip; the longest own run wins.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

from ggp.core.protocol import GameMetadata

PARAMETERS = {"cells": 12}
CELLS = PARAMETERS["cells"]

RULES = f"""Territory paint. A strip of {CELLS} cells numbered 0 to {CELLS - 1}, all blank. Two
players alternate, player 0 first. On a turn a player paints in its own colour either one
blank cell ("Paint i") or two neighbouring blank cells ("Paint i-j" with j = i + 1). When
no blank cell is left the game ends: each player's score is its longest run of neighbouring
cells of its own colour; the higher score wins (+1, the other -1), equal scores are a draw
(0 and 0). Rewards come only on the last move. Both players see the whole state: the strip
as a string ('.' blank, '0' and '1' the players' colours) and whose turn it is.
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=True)

INITIAL_STATE = {"strip": "." * CELLS, "turn": 0, "rewards": [0.0, 0.0]}


def _longest(strip, mark):
    best = run = 0
    for ch in strip:
        run = run + 1 if ch == mark else 0
        best = max(best, run)
    return best


def get_current_player(state):
    return -4 if "." not in state["strip"] else state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    strip = state["strip"]
    singles = [f"Paint {i}" for i in range(CELLS) if strip[i] == "."]
    pairs = [f"Paint {i}-{i + 1}" for i in range(CELLS - 1) if strip[i] == strip[i + 1] == "."]
    return singles + pairs


def apply_action(state, action):
    cells = [int(x) for x in action.split()[1].split("-")]
    me = state["turn"]
    strip = "".join(str(me) if i in cells else ch for i, ch in enumerate(state["strip"]))
    rewards = [0.0, 0.0]
    if "." not in strip:
        mine, theirs = _longest(strip, "0"), _longest(strip, "1")
        if mine != theirs:
            rewards = [1.0, -1.0] if mine > theirs else [-1.0, 1.0]
    return {"strip": strip, "turn": 1 - me, "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [dict(state), dict(state)]
