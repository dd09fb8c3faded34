"""Fortune teller: a bent coin only the teller sees, a cheap announcement, a guess.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

import random

from ggp.core.protocol import GameMetadata

PARAMETERS = {"p_sun": 0.7}
P_SUN = PARAMETERS["p_sun"]

RULES = f"""Fortune teller. Two players: player 0 is the teller, player 1 the guesser. First
chance tosses a bent coin that shows "Sun" with probability {P_SUN} and "Moon" with
probability {round(1 - P_SUN, 10)} (chance actions "Toss Sun" and "Toss Moon"); only the teller
sees the result. Then the teller announces "Say Sun" or "Say Moon" (it may lie). Then the
guesser, who heard the announcement, guesses "Guess Sun" or "Guess Moon". If the guess
matches the coin the guesser gets +1 and the teller -1, otherwise the teller gets +1 and the
guesser -1; rewards come with the guess, which ends the game. The teller observes the coin,
its announcement and, at the end, the guess; the guesser observes the announcement and, at
the end, the coin and its guess. Observations are dicts with keys "coin",
"announcement" and "guess" (null when not known to that player).
Player names: player 0 is "teller", player 1 is "guesser" ("chance" for chance, "terminal"
at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss_draw", perfect_information=False, chance=True)

INITIAL_STATE = {"coin": None, "said": None, "guess": None, "rewards": [0.0, 0.0]}


def get_current_player(state):
    if state["coin"] is None:
        return -1
    if state["said"] is None:
        return 0
    return 1 if state["guess"] is None else -4


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal", 0: "teller", 1: "guesser"}[player_id]


def get_legal_actions(state):
    return {-1: ["Toss Sun", "Toss Moon"], 0: ["Say Sun", "Say Moon"],
            1: ["Guess Sun", "Guess Moon"], -4: []}[get_current_player(state)]


def get_chance_outcomes(state):
    return [("Toss Sun", P_SUN), ("Toss Moon", round(1 - P_SUN, 10))]


def apply_action(state, action):
    kind, word = action.split()
    if kind == "Toss":
        return {**state, "coin": word}
    if kind == "Say":
        return {**state, "said": word}
    rewards = [-1.0, 1.0] if word == state["coin"] else [1.0, -1.0]
    return {**state, "guess": word, "rewards": rewards}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    over = state["guess"] is not None
    return [{"coin": state["coin"], "announcement": state["said"], "guess": state["guess"]},
            {"coin": state["coin"] if over else None, "announcement": state["said"],
             "guess": state["guess"]}]


def resample_history(history, player_id, last_is_terminal=False):
    """The guesser cannot tell the coin before the end: drawn from its prior."""
    obs = history[-1][0]
    coin = obs["coin"] or ("Sun" if random.random() < P_SUN else "Moon")
    actions = [f"Toss {coin}"]
    if obs["announcement"]:
        actions.append(f"Say {obs['announcement']}")
    if obs["guess"]:
        actions.append(f"Guess {obs['guess']}")
    return actions
