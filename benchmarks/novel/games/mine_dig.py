"""Mine dig: three miners push their luck for gold before the tunnel caves in.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

from ggp.core.protocol import GameMetadata

PARAMETERS = {"max_digs": 5, "gold": 2, "odds": {"Gold": 0.5, "Rock": 0.3, "Cave-in": 0.2}}
MAX_DIGS, GOLD, ODDS = PARAMETERS["max_digs"], PARAMETERS["gold"], PARAMETERS["odds"]

RULES = f"""Mine dig. Three miners (players 0, 1, 2) each hold a sack, empty at the start. The
miners still in the mine take turns in order 0, 1, 2, 0, ... (skipping miners who are
out). On its turn a miner chooses "Dig" or "Leave". "Leave" banks the sack: the miner's
reward on that move is the gold in its sack, and it is out. After "Dig", chance decides:
"Gold" with probability 0.5 adds {GOLD} gold to the sack, "Rock" with probability 0.3 adds
nothing, "Cave-in" with probability 0.2 empties the sack and the miner is out with
nothing. A miner who has dug {MAX_DIGS} times can only "Leave". The turn passes to the next
miner still in the mine after the chance result (or after leaving). The game ends when
every miner is out. Each miner's score is the gold it banked; every miner only cares about
its own score (not zero-sum). Everybody sees the whole state: sacks, digs made, banked
gold, who is out, whose turn it is and whether a dig awaits chance.
Player names: player 0 is "miner 0", player 1 is "miner 1", player 2 is "miner 2"
("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=3, min_utility=0.0, max_utility=float(MAX_DIGS * GOLD),
                        zero_sum=False, outcome="payoff", perfect_information=True,
                        chance=True)

INITIAL_STATE = {"sack": [0, 0, 0], "digs": [0, 0, 0], "banked": [0, 0, 0],
                 "out": [False, False, False], "turn": 0, "digging": False,
                 "rewards": [0.0, 0.0, 0.0]}


def get_current_player(state):
    if all(state["out"]):
        return -4
    return -1 if state["digging"] else state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"miner {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        return list(ODDS)
    return ["Leave"] if state["digs"][player] >= MAX_DIGS else ["Dig", "Leave"]


def get_chance_outcomes(state):
    return list(ODDS.items())


def _next(out, turn):
    for step in range(1, 4):
        if not out[(turn + step) % 3]:
            return (turn + step) % 3
    return turn


def apply_action(state, action):
    me = state["turn"]
    if action == "Dig":
        digs = list(state["digs"])
        digs[me] += 1
        return {**state, "digs": digs, "digging": True, "rewards": [0.0, 0.0, 0.0]}
    sack, banked, out = list(state["sack"]), list(state["banked"]), list(state["out"])
    rewards = [0.0, 0.0, 0.0]
    if action == "Gold":
        sack[me] += GOLD
    elif action == "Cave-in":
        sack[me], out[me] = 0, True
    elif action == "Leave":
        banked[me], rewards[me], sack[me], out[me] = sack[me], float(sack[me]), 0, True
    return {"sack": sack, "digs": state["digs"], "banked": banked, "out": out,
            "turn": _next(out, me), "digging": False, "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [dict(state) for _ in range(3)]
