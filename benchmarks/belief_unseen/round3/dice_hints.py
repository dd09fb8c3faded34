"""Dice hints: two players guess each other's hidden dice total from a public parity,
chosen reveals and the opponent's guesses.

Written for the belief benchmark (issue 31), round three: after the design freeze, by an
evaluator who did not read the sampler. Hand-written; not the work of a language model.
"""

import json

from ggp.core.protocol import GameMetadata

RULES = """Dice hints. Two players, four six-sided dice each. Chance rolls player 0's four
dice, then player 1's, one die at a time ("Roll 5", each face equally likely); a player
sees only their own dice. Everyone is told whether each player's total is odd or even.
Then three rounds: in each, player 0 and then player 1 either shows one of their unshown
dice to everyone ("Show 4", naming its face; one die of that face becomes shown) or
passes ("Pass"). Finally each player, 0 then 1, secretly guesses the other's total
("Guess 14", from 4 to 24); a player does not see the other's guess until both have
guessed. The player whose guess is nearer the truth gets 1 and the other -1; equally near,
both get 0. Everyone sees the parities, every shown die and every pass; at the end the
guesses and totals."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=False, chance=True,
                        simultaneous=True)

DICE = 4
ROUNDS = 3

INITIAL_STATE = {"dice": [[], []], "shown": [[], []], "moves": [], "guesses": [],
                 "rewards": [0.0, 0.0]}


def _rolled(state):
    return len(state["dice"][0]) + len(state["dice"][1])


def get_current_player(state):
    if _rolled(state) < 2 * DICE:
        return -1
    if len(state["guesses"]) == 2:
        return -4
    if len(state["moves"]) < 2 * ROUNDS:
        return len(state["moves"]) % 2
    return len(state["guesses"])


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        return [f"Roll {f}" for f in range(1, 7)]
    if len(state["moves"]) < 2 * ROUNDS:
        hidden = list(state["dice"][player])
        for face in state["shown"][player]:
            hidden.remove(face)
        return ["Pass"] + [f"Show {f}" for f in sorted(set(hidden))]
    return [f"Guess {t}" for t in range(DICE, 6 * DICE + 1)]


def get_chance_outcomes(state):
    return [(a, 1.0 / 6) for a in get_legal_actions(state)]


def apply_action(state, action):
    state = json.loads(json.dumps(state))
    state["rewards"] = [0.0, 0.0]
    words = action.split()
    if words[0] == "Roll":
        seat = 0 if len(state["dice"][0]) < DICE else 1
        state["dice"][seat] = sorted(state["dice"][seat] + [int(words[1])])
    elif words[0] in ("Pass", "Show"):
        player = len(state["moves"]) % 2
        if words[0] == "Show":
            state["shown"][player] = sorted(state["shown"][player] + [int(words[1])])
        state["moves"].append(action)
    else:
        state["guesses"].append(int(words[1]))
        if len(state["guesses"]) == 2:
            totals = [sum(d) for d in state["dice"]]
            miss0 = abs(state["guesses"][0] - totals[1])
            miss1 = abs(state["guesses"][1] - totals[0])
            won = (miss0 < miss1) - (miss0 > miss1)
            state["rewards"] = [float(won), float(-won)]
    return state


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    rolled = _rolled(state) == 2 * DICE
    done = len(state["guesses"]) == 2
    return [{"dice": state["dice"][p], "rolled": _rolled(state),
             "parity": [sum(d) % 2 for d in state["dice"]] if rolled else None,
             "shown": state["shown"], "moves": state["moves"],
             "guessed": len(state["guesses"]),
             "my_guess": state["guesses"][p] if p < len(state["guesses"]) else None,
             "guesses": state["guesses"] if done else None,
             "totals": [sum(d) for d in state["dice"]] if done else None}
            for p in range(2)]
