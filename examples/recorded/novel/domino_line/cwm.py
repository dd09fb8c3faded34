# Code world model of 'domino_line', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy
import json
import random

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

NUM_PLAYERS = 2
HAND_SIZE = 3
DEAL_TOTAL = NUM_PLAYERS * HAND_SIZE
TILES = [f"{a}-{b}" for a in range(4) for b in range(a, 4)]

INITIAL_STATE: State = {"hands": [[], []], "boneyard": list(TILES), "line": [], "log": [],
                        "turn": 0, "dealt": 0, "drawing": False, "passes": 0,
                        "over": False, "rewards": [0.0, 0.0]}


def _pips(tile: str) -> tuple[int, int]:
    a, b = tile.split("-")
    return int(a), int(b)


def _hand_pips(hand: list[str]) -> int:
    return sum(sum(_pips(t)) for t in hand)


def get_current_player(state: State) -> int:
    if state["over"]:
        return -4
    if state["dealt"] < DEAL_TOTAL or state["drawing"]:
        return -1
    return state["turn"]


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
        verb = "Deal" if state["dealt"] < DEAL_TOTAL else "Draw"
        return [f"{verb} {t}" for t in state["boneyard"]]
    hand, line = state["hands"][p], state["line"]
    if not line:
        return [f"Play {t}" for t in hand]
    left, right = line[0][0], line[-1][1]
    acts = []
    for t in hand:
        a, b = _pips(t)
        if left in (a, b):
            acts.append(f"Play {t} left")
        if right in (a, b):
            acts.append(f"Play {t} right")
    if acts:
        return acts
    return ["Draw"] if state["boneyard"] else ["Pass"]


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    acts = get_legal_actions(state)
    return [(a, 1.0 / len(acts)) for a in acts]


def _finish(state: State, winner: int | None) -> None:
    state["over"] = True
    if winner is not None:
        state["rewards"][winner] = 1.0
        state["rewards"][1 - winner] = -1.0


def apply_action(state: State, action: Action) -> State:
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r}")
    p = get_current_player(state)
    new = copy.deepcopy(state)
    new["rewards"] = [0.0, 0.0]
    parts = action.split()
    if p == -1:
        tile = parts[1]
        new["boneyard"].remove(tile)
        if new["dealt"] < DEAL_TOTAL:
            new["hands"][new["dealt"] % NUM_PLAYERS].append(tile)
            new["hands"][new["dealt"] % NUM_PLAYERS].sort()
            new["dealt"] += 1
        else:
            new["hands"][new["turn"]].append(tile)
            new["hands"][new["turn"]].sort()
            new["drawing"] = False
        return new
    new["log"].append([p, action])
    if action == "Draw":
        new["drawing"] = True
        new["passes"] = 0
        return new
    if action == "Pass":
        new["passes"] += 1
        new["turn"] = 1 - p
        if new["passes"] >= 2:  # blocked: fewer pips wins
            s0, s1 = _hand_pips(new["hands"][0]), _hand_pips(new["hands"][1])
            _finish(new, None if s0 == s1 else (0 if s0 < s1 else 1))
        return new
    tile = parts[1]
    a, b = _pips(tile)
    new["hands"][p].remove(tile)
    line = new["line"]
    if len(parts) == 2:
        line.append([a, b])
    elif parts[2] == "left":
        line.insert(0, [a, b] if b == line[0][0] else [b, a])
    else:
        line.append([a, b] if a == line[-1][1] else [b, a])
    new["passes"] = 0
    new["turn"] = 1 - p
    if not new["hands"][p]:
        _finish(new, p)
    return new


def get_rewards(state: State) -> list[float]:
    return [float(r) for r in state["rewards"]]


def get_observations(state: State) -> list[Observation]:
    return [{"hand": sorted(state["hands"][p]),
             "line": copy.deepcopy(state["line"]),
             "hand_sizes": [len(h) for h in state["hands"]],
             "boneyard": len(state["boneyard"]),
             "log": copy.deepcopy(state["log"])} for p in range(NUM_PLAYERS)]


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
    own_init = list(obs[0]["hand"])  # nothing played or drawn before the first turn
    random.shuffle(own_init)
    failed: set[str] = set()

    def candidates(st: State) -> list[Action]:
        if get_current_player(st) == -1:
            if st["dealt"] < DEAL_TOTAL:
                if st["dealt"] % NUM_PLAYERS == player_id:
                    t = own_init[st["dealt"] // NUM_PLAYERS]
                    return [f"Deal {t}"] if t in st["boneyard"] else []
                pool = [t for t in st["boneyard"] if t not in own_init]
                random.shuffle(pool)
                return [f"Deal {t}" for t in pool]
            pool = list(st["boneyard"])
            random.shuffle(pool)
            return [f"Draw {t}" for t in pool]
        j = len(st["log"])  # opponent's move comes from the public log
        if j >= len(final_log) or final_log[j][0] != opp:
            return []
        a = final_log[j][1]
        return [a] if a in get_legal_actions(st) else []

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
            for a in candidates(st):
                sub = dfs(apply_action(st, a), k)
                if sub is not None:
                    result = [a] + sub
                    break
        if result is None:
            failed.add(key)
        return result

    found = dfs(INITIAL_STATE, 0)
    if found is None:
        raise ValueError("no history is consistent with these observations")
    return found
