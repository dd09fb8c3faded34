"""Frog crossing: four frogs each, shared lanes, landing on a rival frog sends it home.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

from ggp.core.protocol import GameMetadata

PARAMETERS = {"frogs": 4, "length": 40, "max_moves": 1000}
FROGS, LENGTH, MAX_MOVES = PARAMETERS["frogs"], PARAMETERS["length"], PARAMETERS["max_moves"]

RULES = f"""Frog crossing. Two players each own {FROGS} frogs, numbered 0 to {FROGS - 1}. Frog i of
either player swims in lane i, from pad 0 (the start) to pad {LENGTH} (the far bank); all
frogs start on pad 0. Players alternate, player 0 first. On a turn a player moves one of its
frogs that has not yet arrived 1 or 2 pads forward (actions "Frog i +1" and "Frog i +2");
a frog never goes past pad {LENGTH} (a move that would pass it stops on pad {LENGTH}). If the frog
lands on the pad where the opponent's frog of the same lane sits, and that pad is neither
0 nor {LENGTH}, the opponent's frog is sent back to pad 0. The first player whose {FROGS} frogs have
all arrived wins (+1, the other -1). If {MAX_MOVES} moves were made without a winner, the game
is a draw (0 and 0). Rewards come only on the last move. Both players see the whole state:
the pads of all frogs as [[player 0's frogs], [player 1's frogs]], whose turn it is and the
number of moves made.
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=True)

INITIAL_STATE = {"pads": [[0] * FROGS, [0] * FROGS], "turn": 0, "moves": 0, "winner": None,
                 "rewards": [0.0, 0.0]}


def get_current_player(state):
    if state["winner"] is not None or state["moves"] == MAX_MOVES:
        return -4
    return state["turn"]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player < 0:
        return []
    return [f"Frog {i} +{s}" for i, pad in enumerate(state["pads"][player]) if pad < LENGTH
            for s in (1, 2)]


def apply_action(state, action):
    _, frog, step = action.split()
    frog, me = int(frog), state["turn"]
    pads = [list(state["pads"][0]), list(state["pads"][1])]
    pads[me][frog] = min(LENGTH, pads[me][frog] + int(step))
    if 0 < pads[me][frog] < LENGTH and pads[1 - me][frog] == pads[me][frog]:
        pads[1 - me][frog] = 0
    winner = me if all(p == LENGTH for p in pads[me]) else None
    rewards = [0.0, 0.0] if winner is None else [1.0, -1.0] if me == 0 else [-1.0, 1.0]
    return {"pads": pads, "turn": 1 - me, "moves": state["moves"] + 1, "winner": winner,
            "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [dict(state), dict(state)]
