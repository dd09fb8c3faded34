"""Chip vote: four players, eight chips, a proposal needs two of three secret votes.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

import random

from ggp.core.protocol import GameMetadata

PARAMETERS = {"players": 4, "chips": 8, "proposals": 2}
N, CHIPS, PROPOSALS = PARAMETERS["players"], PARAMETERS["chips"], PARAMETERS["proposals"]
SPLITS = [[a, b, c, CHIPS - a - b - c] for a in range(CHIPS + 1) for b in range(CHIPS + 1 - a)
          for c in range(CHIPS + 1 - a - b)]

RULES = f"""Chip vote. {N} players (0 to {N - 1}) must agree how to share {CHIPS} chips. There are
at most {PROPOSALS} proposals; player k makes proposal k (player 0 first, then player 1). The
proposer names how many chips each player gets, in player order, summing to {CHIPS}
(action "Propose a-b-c-d", for example "Propose 5-1-2-0" gives player 0 five chips). Then
the other three players vote in secret, in order starting after the proposer (for player
0's proposal: players 1, 2, 3; for player 1's: players 2, 3, 0), each without knowing the
earlier votes ("Yes" or "No"). After the last vote the votes are revealed. With at least two
"Yes" votes the proposal passes: each player's reward is its chips and the game ends. Otherwise
the next proposal follows; if the last proposal fails, every player gets 0. Rewards come only
on the last move. Each player wants only its own chips (not zero-sum). Each player observes
the proposal number, the current proposal (null before it is made), its own vote on it
(null if it has not voted), and the finished proposals as {{"proposer": k, "split": [..],
"votes": [votes in voting order]}}.
Observation keys: "number" (0 or 1), "split", "my_vote", "history".
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=N, min_utility=0.0, max_utility=float(CHIPS), zero_sum=False,
                        outcome="payoff", perfect_information=False, simultaneous=True)

INITIAL_STATE = {"number": 0, "split": None, "votes": [], "history": [], "over": False,
                 "rewards": [0.0] * N}


def _voters(number):
    return [(number + k) % N for k in range(1, N)]


def get_current_player(state):
    if state["over"]:
        return -4
    if state["split"] is None:
        return state["number"]
    return _voters(state["number"])[len(state["votes"])]


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    if state["over"]:
        return []
    if state["split"] is None:
        return ["Propose " + "-".join(map(str, s)) for s in SPLITS]
    return ["Yes", "No"]


def apply_action(state, action):
    zero = [0.0] * N
    if action.startswith("Propose"):
        return {**state, "split": [int(x) for x in action.split()[1].split("-")],
                "rewards": zero}
    votes = state["votes"] + [action]
    if len(votes) < N - 1:
        return {**state, "votes": votes, "rewards": zero}
    history = state["history"] + [{"proposer": state["number"], "split": state["split"],
                                   "votes": votes}]
    if votes.count("Yes") >= 2:
        return {"number": state["number"], "split": None, "votes": [], "history": history,
                "over": True, "rewards": [float(x) for x in state["split"]]}
    last = state["number"] + 1 == PROPOSALS
    return {"number": state["number"] if last else state["number"] + 1, "split": None,
            "votes": [], "history": history, "over": last, "rewards": zero}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    voters = _voters(state["number"])
    return [{"number": state["number"], "split": state["split"], "history": state["history"],
             "my_vote": state["votes"][voters.index(p)]
             if p in voters and voters.index(p) < len(state["votes"]) else None}
            for p in range(N)]


def resample_history(history, player_id, last_is_terminal=False):
    """Finished proposals are public with their votes; the pending votes of earlier voters
    on the current proposal are drawn uniformly."""
    obs = history[-1][0]
    actions = []
    for entry in obs["history"]:
        actions.append("Propose " + "-".join(map(str, entry["split"])))
        actions += entry["votes"]
    if obs["split"] is not None and not last_is_terminal:
        actions.append("Propose " + "-".join(map(str, obs["split"])))
        voters = _voters(obs["number"])
        actions += [random.choice(["Yes", "No"]) for _ in range(voters.index(player_id))]
    return actions
