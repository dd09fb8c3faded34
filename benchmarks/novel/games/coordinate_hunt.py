"""Coordinate hunt: probe a 12x12 field for a hidden treasure, told only the distance.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

import random

from ggp.core.protocol import GameMetadata

PARAMETERS = {"size": 12, "max_probes": 20}
SIZE, MAX_PROBES = PARAMETERS["size"], PARAMETERS["max_probes"]
CELLS = [(r, c) for r in range(SIZE) for c in range(SIZE)]

RULES = f"""Coordinate hunt. A {SIZE}x{SIZE} field of cells (row, column), both numbered 0 to
{SIZE - 1}. First chance hides a treasure on a cell, every cell equally likely (chance action
"Hide r,c"); nobody sees where. Then two players take turns, player 0 first, probing a
cell that nobody has probed yet (action "Probe r,c", for example "Probe 0,11"). Everybody is
told the distance from the probed cell to the treasure: |row difference| + |column
difference|. A probe at distance 0 finds the treasure: the prober gets +1 and the other
player -1, and the game ends. After {MAX_PROBES} probes without a find the game is a draw (0 and
0). Rewards come only on the last move. Both players observe the same thing: the list of
probes so far as [player, "r,c", distance].
Observation key: "probes".
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=False, chance=True)

INITIAL_STATE = {"treasure": None, "probes": [], "rewards": [0.0, 0.0]}


def _distance(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _cell(text):
    return tuple(int(x) for x in text.split(","))


def get_current_player(state):
    if state["treasure"] is None:
        return -1
    probes = state["probes"]
    if len(probes) == MAX_PROBES or (probes and probes[-1][2] == 0):
        return -4
    return len(probes) % 2


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        return [f"Hide {r},{c}" for r, c in CELLS]
    used = {p[1] for p in state["probes"]}
    return [f"Probe {r},{c}" for r, c in CELLS if f"{r},{c}" not in used]


def apply_action(state, action):
    verb, where = action.split()
    if verb == "Hide":
        return {**state, "treasure": list(_cell(where))}
    player = len(state["probes"]) % 2
    distance = _distance(_cell(where), state["treasure"])
    rewards = [0.0, 0.0]
    if distance == 0:
        rewards = [1.0, -1.0] if player == 0 else [-1.0, 1.0]
    return {**state, "probes": state["probes"] + [[player, where, distance]],
            "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [{"probes": state["probes"]}, {"probes": state["probes"]}]


def resample_history(history, player_id, last_is_terminal=False):
    """A treasure cell drawn uniformly from those that explain every distance."""
    probes = history[-1][0]["probes"]
    fits = [c for c in CELLS if all(_distance(c, _cell(w)) == d for _, w, d in probes)]
    r, c = random.choice(fits)
    return [f"Hide {r},{c}"] + [f"Probe {w}" for _, w, _ in probes]
