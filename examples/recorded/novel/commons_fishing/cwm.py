# Code world model of 'commons_fishing', made by ggp synth (answers from the exchange backend, model exchange).
# Node 0: training accuracy 1.0000. See metadata.json.

from typing import Any
import copy
import random

Action = str
State = dict[str, Any]
Observation = dict[str, Any]

NUM_PLAYERS = 3
MAX_FISH = 12
SEASONS = 4
MAX_CATCH = 3
GROWTH = [(0, 0.2), (2, 0.5), (4, 0.3)]

INITIAL_STATE: State = {"collapsed": False, "demands": [], "fish": MAX_FISH, "growing": False,
                        "history": [], "over": False, "rewards": [0.0] * NUM_PLAYERS,
                        "season": 1}


def get_current_player(state: State) -> int:
    if state["over"]:
        return -4
    if state["growing"]:
        return -1
    return len(state["demands"])


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
        return [f"Grow {g}" for g, _ in GROWTH]
    return [f"Catch {c}" for c in range(MAX_CATCH + 1)]


def get_chance_outcomes(state: State) -> list[tuple[Action, float]]:
    return [(f"Grow {g}", p) for g, p in GROWTH]


def apply_action(state: State, action: Action) -> State:
    if action not in get_legal_actions(state):
        raise ValueError(f"illegal action {action!r}")
    new = copy.deepcopy(state)
    new["rewards"] = [0.0] * NUM_PLAYERS
    n = int(action.split()[1])
    if new["growing"]:
        new["fish"] = min(MAX_FISH, new["fish"] + n)
        new["season"] += 1
        new["growing"] = False
        return new
    new["demands"].append(n)
    if len(new["demands"]) < NUM_PLAYERS:
        return new
    demands, total = new["demands"], sum(new["demands"])
    new["demands"] = []
    if total > new["fish"]:  # collapse
        new["history"].append([0] * NUM_PLAYERS)
        new["collapsed"] = True
        new["over"] = True
        return new
    new["fish"] -= total
    new["history"].append(demands)
    new["rewards"] = [float(d) for d in demands]
    if new["season"] >= SEASONS or new["fish"] == 0:
        new["over"] = True
    else:
        new["growing"] = True
    return new


def get_rewards(state: State) -> list[float]:
    return [float(r) for r in state["rewards"]]


def get_observations(state: State) -> list[Observation]:
    d = state["demands"]
    return [{"fish": state["fish"], "season": state["season"],
             "history": copy.deepcopy(state["history"]),
             "collapsed": state["collapsed"],
             "my_pending": d[p] if p < len(d) else None} for p in range(NUM_PLAYERS)]


def resample_history(obs_action_history: list[tuple[Observation, Action | None]],
                     player_id: int) -> list[Action]:
    last = obs_action_history[-1][0]
    start_fish = {o["season"]: o["fish"] for o, _ in obs_action_history}
    start_fish.setdefault(1, MAX_FISH)
    actions: list[Action] = []
    fish = MAX_FISH
    for k, catches in enumerate(last["history"], start=1):
        actions += [f"Catch {c}" for c in catches]
        fish -= sum(catches)
        target = start_fish.get(k + 1)
        options = [(g, p) for g, p in GROWTH
                   if target is None or min(MAX_FISH, fish + g) == target]
        if not options:
            options = list(GROWTH)
        g = random.choices([g for g, _ in options], weights=[p for _, p in options])[0]
        actions.append(f"Grow {g}")
        fish = min(MAX_FISH, fish + g)
    # hidden demands of the players who moved earlier in the current season
    actions += [f"Catch {random.randint(0, MAX_CATCH)}" for _ in range(player_id)]
    return actions
