"""Color code: two players race to crack one hidden three-colour code.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

import itertools
import random

from ggp.core.protocol import GameMetadata

PARAMETERS = {"colors": "RGB", "length": 3, "max_guesses": 8}
COLORS, LENGTH, MAX_GUESSES = PARAMETERS["colors"], PARAMETERS["length"], PARAMETERS["max_guesses"]
CODES = ["".join(c) for c in itertools.product(COLORS, repeat=LENGTH)]

RULES = f"""Color code. Two players. First chance chooses a secret code of {LENGTH} letters, each
one of {", ".join(COLORS)} (all {len(CODES)} codes equally likely; chance action "Code XYZ",
for example "Code RGB"). Nobody sees the code. Then the players take turns guessing,
player 0 first: a guess is any code ("Guess RRB" and so on). After each guess everybody is
told how many positions of the guess hold the right letter (0 to {LENGTH}). The first
player to guess the whole code gets +1 and the other -1, and the game ends. If {MAX_GUESSES}
guesses in total were made without success, the game ends in a draw (0 and 0). Rewards come
only on the last move. Both players observe the same thing: the list of guesses so far as
[player, guess, positions right].
Observation key: "guesses".
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=False, chance=True)

INITIAL_STATE = {"code": None, "guesses": [], "rewards": [0.0, 0.0]}


def _hits(code, guess):
    return sum(a == b for a, b in zip(code, guess))


def get_current_player(state):
    if state["code"] is None:
        return -1
    guesses = state["guesses"]
    if len(guesses) == MAX_GUESSES or (guesses and guesses[-1][2] == LENGTH):
        return -4
    return len(guesses) % 2


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    return [("Code " if player == -1 else "Guess ") + c for c in CODES]


def apply_action(state, action):
    kind, code = action.split()
    if kind == "Code":
        return {**state, "code": code}
    player = len(state["guesses"]) % 2
    hits = _hits(state["code"], code)
    rewards = [0.0, 0.0]
    if hits == LENGTH:
        rewards = [1.0, -1.0] if player == 0 else [-1.0, 1.0]
    return {**state, "guesses": state["guesses"] + [[player, code, hits]],
            "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [{"guesses": state["guesses"]}, {"guesses": state["guesses"]}]


def resample_history(history, player_id, last_is_terminal=False):
    """A code uniformly drawn from those that explain every feedback so far."""
    guesses = history[-1][0]["guesses"]
    fits = [c for c in CODES if all(_hits(c, g) == h for _, g, h in guesses)]
    return [f"Code {random.choice(fits)}"] + [f"Guess {g}" for _, g, _ in guesses]
