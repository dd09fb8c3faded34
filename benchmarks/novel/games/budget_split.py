"""Budget split: alternating offers over a pie that halves after every refusal.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

from ggp.core.protocol import GameMetadata

PARAMETERS = {"pies": [120, 60, 30]}
PIES = PARAMETERS["pies"]

RULES = f"""Budget split. Two players divide coins in at most {len(PIES)} rounds. In round 1 the
pie is {PIES[0]} coins, in round 2 {PIES[1]} coins, in round 3 {PIES[2]} coins. Player 0 proposes in rounds
1 and 3, player 1 in round 2. The proposer offers the other player k coins of the current
pie (action "Offer k", k from 0 to the pie). The other player answers "Accept" or
"Reject". On "Accept" the game ends: the responder gets k coins and the proposer the rest
of the pie. On "Reject" the next round starts; after a rejection in round {len(PIES)} the game
ends and both get 0. Each player's reward is its coins, given on the last move (every other
reward is 0); each wants only its own coins to be many (not zero-sum). Both players see
the whole state: the round (counted from 0 in the state: 0, 1, 2; it stays 2 when the game
ends after the last rejection), the current offer (null when none is waiting) and the list
of rejected offers.
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=0.0, max_utility=float(PIES[0]),
                        zero_sum=False, outcome="payoff", perfect_information=True)

INITIAL_STATE = {"round": 0, "offer": None, "rejected": [], "over": False,
                 "rewards": [0.0, 0.0]}


def get_current_player(state):
    if state["over"]:
        return -4
    proposer = state["round"] % 2
    return proposer if state["offer"] is None else 1 - proposer


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    if state["over"]:
        return []
    if state["offer"] is not None:
        return ["Accept", "Reject"]
    return [f"Offer {k}" for k in range(PIES[state["round"]] + 1)]


def apply_action(state, action):
    if action.startswith("Offer"):
        return {**state, "offer": int(action.split()[1]), "rewards": [0.0, 0.0]}
    proposer, pie = state["round"] % 2, PIES[state["round"]]
    if action == "Accept":
        rewards = [0.0, 0.0]
        rewards[proposer] = float(pie - state["offer"])
        rewards[1 - proposer] = float(state["offer"])
        return {**state, "over": True, "rewards": rewards}
    nxt = state["round"] + 1
    return {"round": min(nxt, len(PIES) - 1), "offer": None,
            "rejected": state["rejected"] + [state["offer"]], "over": nxt == len(PIES),
            "rewards": [0.0, 0.0]}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [dict(state), dict(state)]
