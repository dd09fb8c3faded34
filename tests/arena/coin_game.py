"""A tiny two-player zero-sum payoff game with chance, for the arena tests.

Chance flips a coin that only player 0 sees; player 0 bets "low" (1) or "high" (2); player
1, who saw the bet but not the coin, "calls" or "folds". On a call the bettor wins the bet
on heads and loses it on tails; on a fold player 0 wins 1.
"""

from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata

METADATA = GameMetadata(num_players=2, min_utility=-2.0, max_utility=2.0, zero_sum=True,
                        outcome="payoff", perfect_information=False, chance=True)
RULES = "A coin, a bet, a call or fold."
INITIAL_STATE = {"coin": None, "bet": None, "reply": None, "rewards": [0.0, 0.0]}


def get_current_player(state):
    if state["coin"] is None:
        return CHANCE
    if state["bet"] is None:
        return 0
    if state["reply"] is None:
        return 1
    return TERMINAL


def get_player_name(player_id):
    return {CHANCE: "chance", TERMINAL: "terminal", 0: "bettor", 1: "caller"}[player_id]


def get_legal_actions(state):
    return {CHANCE: ["heads", "tails"], 0: ["low", "high"], 1: ["call", "fold"],
            TERMINAL: []}[get_current_player(state)]


def apply_action(state, action):
    state = dict(state, rewards=[0.0, 0.0])
    player = get_current_player(state)
    if player == CHANCE:
        state["coin"] = action
    elif player == 0:
        state["bet"] = action
    else:
        state["reply"] = action
        stake = 1.0 if state["bet"] == "low" else 2.0
        win = 1.0 if action == "fold" else (stake if state["coin"] == "heads" else -stake)
        state["rewards"] = [win, -win]
    return state


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    public = {"bet": state["bet"], "reply": state["reply"]}
    return [dict(public, coin=state["coin"]), public]


def resample_history(obs_action_history, player_id, last_is_terminal=False):
    coin = obs_action_history[-1][0].get("coin") or "heads"
    actions = [coin]
    if obs_action_history[-1][0]["bet"] is not None:
        actions.append(obs_action_history[-1][0]["bet"])
    return actions
