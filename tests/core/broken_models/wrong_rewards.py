# BROKEN (wrong_rewards) variant of a two-player model: players alternately add 1 or 2; whoever reaches 5 wins.
INITIAL_STATE = {"total": 0, "player": 0, "rewards": [0.0, 0.0]}


def get_current_player(state):
    return -4 if state["total"] >= 5 else state["player"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"p{player_id}")


def get_legal_actions(state):
    return [] if state["total"] >= 5 else ["+1", "+2"]


def apply_action(state, action):
    total = state["total"] + int(action)
    rewards = [0.0, 0.0]
    if total >= 5:
        rewards = [1.0, -1.0] if state["player"] == 0 else [-1.0, 1.0]
    return {"total": total, "player": 1 - state["player"], "rewards": rewards}


def get_rewards(state):
    return state["rewards"][:1]


def get_observations(state):
    return [state, state]
