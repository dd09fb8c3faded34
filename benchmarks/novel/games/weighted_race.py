"""Weighted race: walk one step for sure, or dash with a lopsided chance.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

from ggp.core.protocol import GameMetadata

PARAMETERS = {"goal": 15, "max_turns": 40,
              "dash": {"Dash +3": 0.5, "Dash +0": 0.3, "Dash -1": 0.2}}
GOAL, MAX_TURNS, DASH = PARAMETERS["goal"], PARAMETERS["max_turns"], PARAMETERS["dash"]

RULES = f"""Weighted race. Two runners start at position 0; the goal is position {GOAL}.
Players alternate turns, player 0 first. On its turn a player chooses "Walk" (move 1
forward) or "Dash". After a dash, chance decides how far the runner goes: "Dash +3"
(3 forward) with probability 0.5, "Dash +0" (stay) with probability 0.3, "Dash -1" (one
back, but never below 0) with probability 0.2. A runner that reaches {GOAL} or beyond wins at
once (+1, the other -1). After {MAX_TURNS} turns in total (a turn is one Walk or one Dash
with its chance result) the runner further ahead wins, and equal positions are a draw
(0 and 0). Rewards come only on the last move. Both players see the whole state:
positions, whose turn it is, the number of turns taken and whether a dash is waiting for
its chance result.
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=True, chance=True)

INITIAL_STATE = {"pos": [0, 0], "turn": 0, "turns": 0, "dashing": False, "over": False,
                 "rewards": [0.0, 0.0]}


def get_current_player(state):
    if state["over"]:
        return -4
    return -1 if state["dashing"] else state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    return [] if player == -4 else list(DASH) if player == -1 else ["Walk", "Dash"]


def get_chance_outcomes(state):
    return list(DASH.items())


def apply_action(state, action):
    if action == "Dash":
        return {**state, "dashing": True, "rewards": [0.0, 0.0]}
    step = 1 if action == "Walk" else int(action.split()[1])
    me = state["turn"]
    pos = list(state["pos"])
    pos[me] = max(0, pos[me] + step)
    turns = state["turns"] + 1
    rewards, over = [0.0, 0.0], False
    if pos[me] >= GOAL:
        over = True
        rewards = [1.0, -1.0] if me == 0 else [-1.0, 1.0]
    elif turns == MAX_TURNS:
        over = True
        if pos[0] != pos[1]:
            rewards = [1.0, -1.0] if pos[0] > pos[1] else [-1.0, 1.0]
    return {"pos": pos, "turn": 1 - me, "turns": turns, "dashing": False, "over": over,
            "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [dict(state), dict(state)]
