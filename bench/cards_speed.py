"""Simulations per second of each searcher on seed 001's card games, at a per-move budget.

For each game, ``--positions`` decision points of player 0 are reached by seeded random
play (a uniformly drawn number of player-0 turns into the game, so early, middle and late
positions all count). At each one every searcher runs one time-limited search with one
random rollout per leaf (the settings of the seed 001 experiment, docs/cards_table.md):

* ``ismcts`` / ``moismcts``: single- / multiple-observer ISMCTS from player 0's history
  (ground-truth ``resample_history`` belief);
* ``pimc``: determinized MCTS, 10 determinizations sharing the budget;
* ``clairvoyant``: MCTS on the true state (the cheating baseline);
* ``ismcts/K``, ``moismcts/K`` (with ``--searchers``): at most K determinizations per
  move (``pool=K``).

A simulation is one descent plus one rollout (root visits). It prints, per game and
searcher, simulations per second of wall time (total simulations / total wall time of
the searches, belief building included, as a player pays for it) and, in brackets, per
second of this process's CPU time: on a shared machine the wall figure falls with the
load, the CPU figure much less, so compare code versions by the CPU figure (``--sims``
fixes the simulations instead of the time).

``--profile GAME`` instead runs cProfile over ``--profile-searcher``'s searches on that
game and prints the functions with the most own time.

Run:  python bench/cards_speed.py [--seconds 1.0] [--positions 5]
      python bench/cards_speed.py --profile hearts --profile-searcher ismcts --seconds 0.5
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time

from ggp.belief.sampler import PooledSampler, make_sampler
from ggp.core.protocol import CHANCE, TERMINAL
from ggp.load import load_model
from ggp.search.evaluators import RandomRolloutEvaluator
from ggp.search.ismcts import ISMCTS
from ggp.search.mcts import MCTS
from ggp.search.pimc import PIMC

GAMES = ("agram", "golf", "ninety_eight", "hearts", "bottle_imp(variant=ludii_thesis)")
SEARCHERS = ("ismcts", "moismcts", "pimc", "clairvoyant")


def positions(model, count: int, seed: int) -> list[tuple[dict, list]]:
    """``count`` (true state, player-0 history) pairs at player 0's decision points."""
    found = []
    for k in range(count):
        rng = random.Random(seed * 1000 + k)
        # how many of player 0's turns to play first: count them in one random game
        turns, state = 0, model.initial_state()
        while (p := model.current_player(state)) != TERMINAL:
            turns += p == 0
            state = model.apply(state, rng.choice(model.legal_actions(state)))
        stop = rng.randrange(max(1, turns - 1))
        state, history, seen = model.initial_state(), [], 0
        while True:
            player = model.current_player(state)
            if player == CHANCE:
                state = model.apply(state, model.sample_chance(state, rng))
                continue
            if player == 0:
                history.append((model.observation(state, 0), None))
                if seen == stop and len(model.legal_actions(state)) > 1:
                    found.append((state, history))
                    break
                seen += 1
            action = rng.choice(model.legal_actions(state))
            if player == 0:
                history[-1] = (history[-1][0], action)
            state = model.apply(state, action)
            if model.current_player(state) == TERMINAL:  # rare: no branching left
                break
    return found


def search_once(model, searcher: str, state, history, seconds: float,
                rng: random.Random, sims: int | None = None) -> int:
    """One search limited by ``seconds`` (or ``sims``); returns its simulations.
    ``ismcts/20`` is ISMCTS drawing at most 20 determinizations per move."""
    evaluator = RandomRolloutEvaluator(model, 1)
    budget = {"simulations": sims, "time_limit": None if sims else seconds}
    if searcher == "clairvoyant":
        return MCTS(model, evaluator, rng=rng, **budget).search(state).visits
    sampler = make_sampler(model, "auto")
    searcher, _, pool = searcher.partition("/")
    if pool:
        sampler = PooledSampler(sampler, int(pool))
    if searcher == "pimc":
        totals = PIMC(model, sampler, evaluator, rng=rng, **budget).action_values(history, 0)
        return int(sum(v[0] for v in totals.values()))
    observer = "single" if searcher == "ismcts" else "multiple"
    root = ISMCTS(model, sampler, evaluator, observer=observer, rng=rng,
                  **budget).search(history, 0)
    return int(sum(stats[0] for stats in root.stats.values()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="budget per search")
    parser.add_argument("--sims", type=int, default=0,
                        help="a fixed number of simulations per search instead")
    parser.add_argument("--positions", type=int, default=5, help="positions per game")
    parser.add_argument("--games", default=";".join(GAMES),
                        help="games, separated by ';'")
    parser.add_argument("--searchers", default=",".join(SEARCHERS))
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--profile", default="", help="profile this game instead")
    parser.add_argument("--profile-searcher", default="ismcts")
    args = parser.parse_args()
    if args.profile:
        model = load_model(args.profile)
        spots = positions(model, args.positions, args.seed)
        profiler = cProfile.Profile()
        profiler.enable()
        sims = sum(search_once(model, args.profile_searcher, s, h, args.seconds,
                               random.Random(i)) for i, (s, h) in enumerate(spots))
        profiler.disable()
        print(f"{args.profile} / {args.profile_searcher}: {sims} simulations in "
              f"{len(spots)} searches of {args.seconds:g} s (under the profiler)")
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return
    searchers = args.searchers.split(",")
    budget = f"{args.sims} simulations" if args.sims else f"{args.seconds:g} s"
    print(f"simulations per second of wall time [per CPU second], {budget} per search, one "
          f"rollout per leaf, {args.positions} positions per game")
    print("| game | " + " | ".join(searchers) + " |")
    print("|---|" + "---:|" * len(searchers))
    for game in [g for g in args.games.split(";") if g]:
        model = load_model(game)
        spots = positions(model, args.positions, args.seed)
        rates = []
        for searcher in searchers:
            sims, spent, cpu = 0, 0.0, 0.0
            for i, (state, history) in enumerate(spots):
                started, cpu_started = time.perf_counter(), time.process_time()
                sims += search_once(model, searcher, state, history, args.seconds,
                                    random.Random(i), args.sims or None)
                spent += time.perf_counter() - started
                cpu += time.process_time() - cpu_started
            rates.append(f"{sims / spent:,.0f} [{sims / cpu:,.0f}]")
        print(f"| {game} | " + " | ".join(rates) + " |", flush=True)


if __name__ == "__main__":
    main()
