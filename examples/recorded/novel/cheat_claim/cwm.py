# Code world model of 'cheat_claim', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy
import json
import random

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

NUM_PLAYERS = 2
RANKS = (1, 2, 3)
COPIES = 2
HAND_SIZE = 3
MAX_PLAYS = 20

INITIAL_STATE: State = {"hands": [[], []], "dealt": 0, "called": 1, "turn": 0,
                        "pending": None, "pile": [], "log": [], "over": False,
                        "rewards": [0.0, 0.0]}


def _remaining(state: State) -> dict[int, int]:
    used = state["hands"][0] + state["hands"][1]
    return {k: COPIES - used.count(k) for k in RANKS}


def get_current_player(state: State) -> int:
    if state["over"]:
        return -4
    if state["dealt"] < NUM_PLAYERS * HAND_SIZE:
        return -1
    return state["turn"] if state["pending"] is None else 1 - state["turn"]


def get_player_name(player_id: int) -> str:
    if player_id == -1:
        return "chance"
    if player_id == -4:
        return "terminal"
    return f"player {player_id}"


def get_legal_actions(state: State) -> list[Action]:
    p = get_current_player(state)
    if p == -4:
        return []
    if p == -1:
        return [f"Deal {k}" for k, n in _remaining(state).items() if n > 0]
    if state["pending"] is None:
        return [f"Play {k}" for k in sorted(set(state["hands"][p]))]
    return ["Accept", "Doubt"]


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    rem = _remaining(state)
    total = sum(rem.values())
    return [(f"Deal {k}", n / total) for k, n in rem.items() if n > 0]


def _check_end(state: State, player: int) -> None:
    hands = state["hands"]
    winner = None
    for q in (player, 1 - player):
        if not hands[q]:
            winner = q
            break
    if winner is None and len(state["log"]) >= MAX_PLAYS:
        a, b = len(hands[0]), len(hands[1])
        if a == b:
            state["over"] = True
            return
        winner = 0 if a < b else 1
    if winner is not None:
        state["over"] = True
        state["rewards"][winner] = 1.0
        state["rewards"][1 - winner] = -1.0


def apply_action(state: State, action: Action) -> State:
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r}")
    p = get_current_player(state)
    new = copy.deepcopy(state)
    new["rewards"] = [0.0, 0.0]
    if p == -1:
        k = int(action.split()[1])
        hand = new["hands"][new["dealt"] % NUM_PLAYERS]
        hand.append(k)
        hand.sort()
        new["dealt"] += 1
    elif action.startswith("Play "):
        k = int(action.split()[1])
        new["hands"][p].remove(k)
        new["pending"] = k
        new["pile"] = sorted(new["pile"] + [k])
    else:
        player, called = new["turn"], new["called"]
        answerer = 1 - player
        if action == "Doubt":
            shown = new["pending"]
            taker = player if shown != called else answerer
            new["hands"][taker] = sorted(new["hands"][taker] + new["pile"])
            new["pile"] = []
            new["log"].append([player, called, "Doubt", shown, taker])
        else:
            new["log"].append([player, called, "Accept", None, None])
        new["pending"] = None
        new["called"] = called % len(RANKS) + 1
        new["turn"] = answerer
        _check_end(new, player)
    return new


def get_rewards(state: State) -> list[float]:
    return [float(r) for r in state["rewards"]]


def get_observations(state: State) -> list[Observation]:
    obs = []
    for p in range(NUM_PLAYERS):
        mine = state["pending"] if (state["pending"] is not None and p == state["turn"]) else None
        obs.append({"hand": sorted(state["hands"][p]),
                    "my_pending": mine,
                    "called": state["called"],
                    "pile_size": len(state["pile"]),
                    "hand_sizes": [len(h) for h in state["hands"]],
                    "log": copy.deepcopy(state["log"])})
    return obs


def _norm(x: Any) -> Any:
    return json.loads(json.dumps(x))


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int,
                     last_is_terminal: bool) -> list[Action]:
    obs = [_norm(o) for o, _ in obs_action_history]
    acts = [a for _, a in obs_action_history]
    final_log = obs[-1]["log"]
    last = len(obs) - 1
    opp = 1 - player_id

    # Deal: own initial hand is known, the opponent holds the rest of the deck.
    own = list(obs[0]["hand"])
    rest = [k for k in RANKS for _ in range(COPIES)]
    for k in own:
        rest.remove(k)
    random.shuffle(own)
    random.shuffle(rest)
    hands = [None, None]
    hands[player_id], hands[opp] = own, rest
    deal = []
    for i in range(HAND_SIZE):
        deal += [f"Deal {hands[0][i]}", f"Deal {hands[1][i]}"]
    state = INITIAL_STATE
    for a in deal:
        state = apply_action(state, a)

    failed: set[str] = set()

    def opponent_moves(st: State) -> list[Action]:
        j = len(st["log"])
        entry = final_log[j] if j < len(final_log) else None
        if st["pending"] is None:  # opponent plays
            ranks = sorted(set(st["hands"][opp]))
            if entry is not None:
                if entry[0] != opp:
                    return []
                if entry[2] == "Doubt":
                    return [f"Play {entry[3]}"] if entry[3] in ranks else []
            random.shuffle(ranks)
            return [f"Play {k}" for k in ranks]
        # opponent answers the player's play
        if entry is None or entry[0] != player_id:
            return []
        return [entry[2]]

    def dfs(st: State, k: int) -> list[Action] | None:
        key = f"{k}|{json.dumps(st, sort_keys=True)}"
        if key in failed:
            return None
        result = None
        p = get_current_player(st)
        if p in (player_id, -4):
            if k <= last and _norm(get_observations(st)[player_id]) == obs[k]:
                if k == last:
                    if (p == -4) == last_is_terminal:
                        result = []
                elif p == player_id and acts[k] in get_legal_actions(st):
                    sub = dfs(apply_action(st, acts[k]), k + 1)
                    if sub is not None:
                        result = [acts[k]] + sub
        else:
            for a in opponent_moves(st):
                sub = dfs(apply_action(st, a), k)
                if sub is not None:
                    result = [a] + sub
                    break
        if result is None:
            failed.add(key)
        return result

    tail = dfs(state, 0)
    if tail is None:
        raise ValueError("no history is consistent with these observations")
    return deal + tail
