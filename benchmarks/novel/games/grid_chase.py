"""Grid chase: a hunter and a runner move at the same time on a 4x4 grid.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

import random

from ggp.core.protocol import GameMetadata

PARAMETERS = {"size": 4, "rounds": 10}
SIZE, ROUNDS = PARAMETERS["size"], PARAMETERS["rounds"]
STEPS = {"Stay": (0, 0), "North": (-1, 0), "South": (1, 0), "West": (0, -1), "East": (0, 1)}

RULES = f"""Grid chase. Two players on a {SIZE}x{SIZE} grid of cells (row, column), rows
0..{SIZE - 1} from top to bottom and columns 0..{SIZE - 1} from left to right. Player 0 is the
hunter and starts at (0, 0); player 1 is the runner and starts at ({SIZE - 1}, {SIZE - 1}).
Each round both players choose a step at the same time: player 0 chooses first, then
player 1 chooses without knowing player 0's choice. The steps are "Stay", "North" (row - 1),
"South" (row + 1), "West" (column - 1) and "East" (column + 1); a step that would leave the
grid is not allowed. Then both move together. The runner is caught if both stand on the same
cell after moving, or if they swapped cells (they crossed). If the runner is caught the
hunter gets +1 and the runner -1 and the game ends. If the runner is still free after
{ROUNDS} rounds, the runner gets +1 and the hunter -1. Rewards come only on the last move.
Each player observes both positions, the number of rounds played, and its own pending step
(player 0 while player 1 chooses); player 1 never sees player 0's pending step.
Observation keys: "pos" ([[hunter row, column], [runner row, column]]), "round",
"my_pending" (null when none).
Player names: player 0 is "hunter", player 1 is "runner" ("chance" for chance, "terminal"
at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=False,
                        simultaneous=True)

INITIAL_STATE = {"pos": [[0, 0], [SIZE - 1, SIZE - 1]], "round": 0, "pending": None,
                 "caught": False, "rewards": [0.0, 0.0]}


def get_current_player(state):
    if state["caught"] or state["round"] == ROUNDS:
        return -4
    return 0 if state["pending"] is None else 1


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal", 0: "hunter", 1: "runner"}[player_id]


def get_legal_actions(state):
    player = get_current_player(state)
    if player < 0:
        return []
    row, col = state["pos"][player]
    return [name for name, (dr, dc) in STEPS.items()
            if 0 <= row + dr < SIZE and 0 <= col + dc < SIZE]


def _moved(cell, step):
    dr, dc = STEPS[step]
    return [cell[0] + dr, cell[1] + dc]


def apply_action(state, action):
    if state["pending"] is None:
        return {**state, "pending": action, "rewards": [0.0, 0.0]}
    old = state["pos"]
    new = [_moved(old[0], state["pending"]), _moved(old[1], action)]
    caught = new[0] == new[1] or (new[0] == old[1] and new[1] == old[0])
    rnd = state["round"] + 1
    rewards = [0.0, 0.0]
    if caught:
        rewards = [1.0, -1.0]
    elif rnd == ROUNDS:
        rewards = [-1.0, 1.0]
    return {"pos": new, "round": rnd, "pending": None, "caught": caught, "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [{"pos": state["pos"], "round": state["round"],
             "my_pending": state["pending"] if p == 0 else None} for p in (0, 1)]


def resample_history(history, player_id, last_is_terminal=False):
    """Both positions are seen at every decision, so each finished round's steps follow
    from the positions before and after it; the hunter's pending step (hidden from the
    runner while it chooses) is drawn uniformly from its legal steps."""
    names = {v: k for k, v in STEPS.items()}
    seen = [obs["pos"] for obs, _ in history]
    actions = []
    for before, after in zip(seen, seen[1:]):
        actions += [names[(after[p][0] - before[p][0], after[p][1] - before[p][1])]
                    for p in (0, 1)]
    if player_id == 1 and not last_is_terminal:
        row, col = seen[-1][0]
        actions.append(random.choice([n for n, (dr, dc) in STEPS.items()
                                      if 0 <= row + dr < SIZE and 0 <= col + dc < SIZE]))
    return actions
