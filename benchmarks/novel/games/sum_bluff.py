"""Sum bluff: two hidden four-sided dice, rising claims about their total, one challenge.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

import random

from ggp.core.protocol import GameMetadata

PARAMETERS = {"sides": 4}
SIDES = PARAMETERS["sides"]
TOP = 2 * SIDES

RULES = f"""Sum bluff. Two players. First chance rolls a hidden {SIDES}-sided die for player 0,
then one for player 1 (chance actions "Roll 1" .. "Roll {SIDES}", equally likely); each player
sees only its own die. Then the players take turns, player 0 first. On a turn a player
either makes a claim "Claim c", meaning "the two dice together show at least c", where c
must be higher than the previous claim (the first claim can be any c from 2 to {TOP}; claims
go up to {TOP}), or says "Challenge" (not allowed before the first claim). After a challenge
both dice are revealed and the game ends: if the total is at least the last claim, the
player who made that claim wins (+1) and the challenger loses (-1); otherwise the
challenger wins (+1) and the claimer loses (-1). After a claim of {TOP} the other player can
only challenge. Rewards are given on the last move only. Each player observes its own die,
the list of moves made after the dice (claims and the challenge, as action strings, in
order) and, once the game is over, both dice as [die of player 0, die of player 1].
Observation keys: "my_die", "moves", "dice".
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=False, chance=True)

INITIAL_STATE = {"dice": [], "moves": [], "over": False, "rewards": [0.0, 0.0]}


def get_current_player(state):
    if state["over"]:
        return -4
    if len(state["dice"]) < 2:
        return -1
    return len(state["moves"]) % 2


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def _last_claim(state):
    return int(state["moves"][-1].split()[1]) if state["moves"] else 1


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        return [f"Roll {k}" for k in range(1, SIDES + 1)]
    claims = [f"Claim {c}" for c in range(_last_claim(state) + 1, TOP + 1)]
    return claims + (["Challenge"] if state["moves"] else [])


def apply_action(state, action):
    if action.startswith("Roll"):
        return {**state, "dice": state["dice"] + [int(action.split()[1])]}
    moves = state["moves"] + [action]
    if action != "Challenge":
        return {**state, "moves": moves, "rewards": [0.0, 0.0]}
    challenger = len(state["moves"]) % 2
    claimer = 1 - challenger
    winner = claimer if sum(state["dice"]) >= _last_claim(state) else challenger
    rewards = [1.0, 1.0]
    rewards[1 - winner] = -1.0
    return {**state, "moves": moves, "over": True, "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [{"my_die": state["dice"][p] if p < len(state["dice"]) else None,
             "moves": state["moves"], "dice": state["dice"] if state["over"] else None}
            for p in range(2)]


def resample_history(history, player_id, last_is_terminal=False):
    """Every die of the opponent is consistent with what a player saw, equally likely."""
    obs = history[-1][0]
    if obs["dice"] is not None:
        dice = list(obs["dice"])
    else:
        other = random.randint(1, SIDES)
        dice = [obs["my_die"], other] if player_id == 0 else [other, obs["my_die"]]
    return [f"Roll {d}" for d in dice] + list(obs["moves"])
