"""Commons fishing: three fishers share a lake that regrows by chance.

Written for ggp's novel-games benchmark (benchmarks/novel/CATALOGUE.md)."""

import random

from ggp.core.protocol import GameMetadata

PARAMETERS = {"stock": 12, "seasons": 4, "max_catch": 3,
              "growth": {"Grow 0": 0.2, "Grow 2": 0.5, "Grow 4": 0.3}}
STOCK, SEASONS, MAX_CATCH = PARAMETERS["stock"], PARAMETERS["seasons"], PARAMETERS["max_catch"]
GROWTH = PARAMETERS["growth"]

RULES = f"""Commons fishing. Three players (0, 1, 2) fish in one lake that starts with
{STOCK} fish. There are at most {SEASONS} seasons. In each season the players choose in secret
how many fish to catch, 0 to {MAX_CATCH}: player 0 first, then player 1, then player 2, each
without knowing the earlier choices of this season (actions "Catch 0" .. "Catch {MAX_CATCH}").
If the total demand is at most the fish in the lake, every player catches what it asked for
(its reward on that move is the number of fish it caught) and the lake loses that many fish.
If the total demand is larger than the fish in the lake, the lake collapses: nobody catches
anything that season and the game ends at once. Otherwise, after each of the first
{SEASONS - 1} seasons, chance lets the lake regrow: "Grow 0" with probability 0.2, "Grow 2"
with probability 0.5, "Grow 4" with probability 0.3; the lake never holds more than
{STOCK} fish. The game ends after season {SEASONS}, after a collapse, or when the lake is empty
after a season's catch (no regrowth then). A player's score is the total number of fish it
caught; each player wants only its own score to be high (not zero-sum). Each player
observes the fish in the lake, the season number (1..{SEASONS}), its own pending demand this
season, every player's catch in each finished season, and whether the lake collapsed.
Observation keys: "fish", "season" (it stays at the last season played when the game
ends), "history" (one [catch of 0, catch of 1, catch of 2] per finished season; [0, 0, 0]
for a collapse), "collapsed", "my_pending" (null when none).
Player names: "player 0", "player 1", ... ("chance" for chance, "terminal" at the end)."""

METADATA = GameMetadata(num_players=3, min_utility=0.0, max_utility=float(SEASONS * MAX_CATCH),
                        zero_sum=False, outcome="payoff", perfect_information=False,
                        chance=True, simultaneous=True)

INITIAL_STATE = {"fish": STOCK, "season": 1, "demands": [], "history": [], "collapsed": False,
                 "growing": False, "over": False, "rewards": [0.0, 0.0, 0.0]}


def get_current_player(state):
    if state["over"]:
        return -4
    return -1 if state["growing"] else len(state["demands"])


def get_player_name(player_id):
    return {-1: "chance", -4: "terminal"}.get(player_id, f"player {player_id}")


def get_legal_actions(state):
    player = get_current_player(state)
    if player == -4:
        return []
    if player == -1:
        return list(GROWTH)
    return [f"Catch {k}" for k in range(MAX_CATCH + 1)]


def get_chance_outcomes(state):
    return list(GROWTH.items())


def apply_action(state, action):
    zero = [0.0, 0.0, 0.0]
    if state["growing"]:
        fish = min(STOCK, state["fish"] + int(action.split()[1]))
        return {**state, "fish": fish, "growing": False, "season": state["season"] + 1,
                "rewards": zero}
    demands = state["demands"] + [int(action.split()[1])]
    if len(demands) < 3:
        return {**state, "demands": demands, "rewards": zero}
    if sum(demands) > state["fish"]:
        return {**state, "demands": [], "history": state["history"] + [[0, 0, 0]],
                "collapsed": True, "over": True, "rewards": zero}
    fish = state["fish"] - sum(demands)
    over = state["season"] == SEASONS or fish == 0
    return {**state, "fish": fish, "demands": [], "history": state["history"] + [demands],
            "growing": not over, "over": over, "rewards": [float(d) for d in demands]}


def get_rewards(state):
    return list(state["rewards"])


def get_observations(state):
    return [{"fish": state["fish"], "season": state["season"], "history": state["history"],
             "collapsed": state["collapsed"],
             "my_pending": state["demands"][p] if p < len(state["demands"]) else None}
            for p in range(3)]


def resample_history(history, player_id, last_is_terminal=False):
    """Catches of finished seasons are public and the fish at the start of every season
    is seen, so each regrowth follows (a capped lake may leave a choice: drawn by its
    odds). Hidden: the earlier players' pending demands (drawn uniformly) and, after a
    collapse, the other players' demands (drawn uniformly among those that overfish)."""
    decisions = history[:-1] if last_is_terminal else history  # one per season reached
    start = [obs["fish"] for obs, _ in decisions]
    final = history[-1][0]
    actions = []
    fish = STOCK
    for season, catches in enumerate(final["history"]):
        if final["collapsed"] and season == len(final["history"]) - 1:
            mine = int(decisions[season][1].split()[1])
            options = [(a, b) for a in range(MAX_CATCH + 1) for b in range(MAX_CATCH + 1)
                       if a + b + mine > fish]
            a, b = random.choice(options)
            others = iter((a, b))
            demands = [mine if p == player_id else next(others) for p in range(3)]
            return actions + [f"Catch {d}" for d in demands]
        actions += [f"Catch {c}" for c in catches]
        fish -= sum(catches)
        if season + 1 < len(start):
            grown = [(a, p) for a, p in GROWTH.items()
                     if min(STOCK, fish + int(a.split()[1])) == start[season + 1]]
            action = random.choices([a for a, _ in grown], weights=[p for _, p in grown])[0]
            actions.append(action)
            fish = start[season + 1]
    if not last_is_terminal:
        actions += [f"Catch {random.randint(0, MAX_CATCH)}" for _ in range(player_id)]
    return actions
