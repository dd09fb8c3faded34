"""Lights duel: press cells of a 3x3 light grid; whoever turns the last light off wins.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

from ggp.core.protocol import GameMetadata

PARAMETERS = {"size": 3, "max_moves": 20}
SIZE, MAX_MOVES = PARAMETERS["size"], PARAMETERS["max_moves"]

RULES = f"""Lights duel. A {SIZE}x{SIZE} grid of lights, all on at the start; cells are (row,
column) numbered from 0. Two players alternate, player 0 first. A move presses one cell
(action "Press r,c"): that light and the lights directly above, below, left and right of
it (those inside the grid) switch, on to off and off to on. A player whose press leaves every
light off wins (+1, the other -1). After {MAX_MOVES} presses without that, the game is a draw
(0 and 0). Rewards come only on the last move. Both players see the whole state: the grid
as {SIZE} strings ('1' on, '0' off), whose turn it is and the number of presses made.
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=True)

INITIAL_STATE = {"grid": ["1" * SIZE] * SIZE, "turn": 0, "presses": 0, "rewards": [0.0, 0.0]}


def _dark(grid):
    return all(ch == "0" for row in grid for ch in row)


def get_current_player(state):
    if _dark(state["grid"]) or state["presses"] == MAX_MOVES:
        return -4
    return state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    if get_current_player(state) == -4:
        return []
    return [f"Press {r},{c}" for r in range(SIZE) for c in range(SIZE)]


def apply_action(state, action):
    r, c = (int(x) for x in action.split()[1].split(","))
    grid = [list(row) for row in state["grid"]]
    for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
        if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
            grid[r + dr][c + dc] = "1" if grid[r + dr][c + dc] == "0" else "0"
    grid = ["".join(row) for row in grid]
    me = state["turn"]
    rewards = [0.0, 0.0]
    if _dark(grid):
        rewards = [1.0, -1.0] if me == 0 else [-1.0, 1.0]
    return {"grid": grid, "turn": 1 - me, "presses": state["presses"] + 1, "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [dict(state), dict(state)]
