"""Mole hunt: a mole hides in one of five holes each round, a whacker strikes blind.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

import random

from ggp.core.protocol import GameMetadata

PARAMETERS = {"holes": 5, "rounds": 6, "hits_to_win": 2}
HOLES, ROUNDS, HITS = PARAMETERS["holes"], PARAMETERS["rounds"], PARAMETERS["hits_to_win"]

RULES = f"""Mole hunt. Two players: player 0 is the mole, player 1 the whacker. There are
{HOLES} holes numbered 1 to {HOLES} and {ROUNDS} rounds. Each round the mole first chooses a hole
("Hide h"), but never the hole it hid in the round before; then the whacker, without
knowing the mole's choice, strikes a hole ("Whack h", any hole). If both name the same
hole, the whacker scores a hit. Then both choices are revealed. After round {ROUNDS} the
whacker wins (+1, the mole -1) if it scored at least {HITS} hits; otherwise the mole wins (+1,
the whacker -1). Rewards come only on the last move. Each player observes the finished
rounds as [hole hidden, hole whacked], the hits so far and its own pending choice (the
mole while the whacker chooses; else null).
Observation keys: "rounds", "hits", "my_pending" (null when none).
Player names: player 0 is "mole", player 1 is "whacker" ("chance" for chance, "terminal"
at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=False,
                        simultaneous=True)

INITIAL_STATE = {"rounds": [], "pending": None, "hits": 0, "rewards": [0.0, 0.0]}


def get_current_player(state):
    if len(state["rounds"]) == ROUNDS:
        return -4
    return 0 if state["pending"] is None else 1


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal", 0: "mole", 1: "whacker"}[player_id]


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == 1:
        return [f"Whack {h}" for h in range(1, HOLES + 1)]
    last = state["rounds"][-1][0] if state["rounds"] else None
    return [f"Hide {h}" for h in range(1, HOLES + 1) if h != last]


def apply_action(state, action):
    hole = int(action.split()[1])
    if state["pending"] is None:
        return {**state, "pending": hole, "rewards": [0.0, 0.0]}
    hits = state["hits"] + (hole == state["pending"])
    rounds = state["rounds"] + [[state["pending"], hole]]
    rewards = [0.0, 0.0]
    if len(rounds) == ROUNDS:
        rewards = [-1.0, 1.0] if hits >= HITS else [1.0, -1.0]
    return {"rounds": rounds, "pending": None, "hits": hits, "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [{"rounds": state["rounds"], "hits": state["hits"],
             "my_pending": state["pending"] if p == 0 else None} for p in range(2)]


def resample_history(history, player_id, last_is_terminal=False):
    """Finished rounds are public; the mole's pending hole (hidden from the whacker while
    it chooses) is drawn uniformly from the holes it may use."""
    obs = history[-1][0]
    actions = [f"{verb} {hole}" for pair in obs["rounds"]
               for verb, hole in zip(("Hide", "Whack"), pair)]
    if player_id == 1 and not last_is_terminal:
        last = obs["rounds"][-1][0] if obs["rounds"] else None
        actions.append(f"Hide {random.choice([h for h in range(1, HOLES + 1) if h != last])}")
    return actions
