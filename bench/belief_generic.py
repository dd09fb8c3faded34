"""The generic belief sampler on every hidden-information reference game (issue 18).

For each game, random matches are played to the end; then one seat's decision points are
handed, in order, to one :class:`ggp.belief.sampler.GenericSampler` (``belief=generic``,
with the games' own inference functions ignored), exactly as an agent in that seat would
ask for them, so each belief continues from the previous decision's particles. Each
belief is timed; it succeeds when it returns states, and every returned state is checked
by replaying its history against the player's observations (``--check``). Decision
points are labelled early, middle and late by thirds of the seat's decisions.

Total variation: on the small games, at the same decision points, the belief's state
distribution (particle weights, merged by state) is compared with the exact posterior
(``belief=exact``, :func:`ggp.belief.exact.information_set`) where that enumeration
fits 200,000 nodes. ``tv generic`` is the sampler as used (it enumerates exactly itself
when that fits its budget); ``tv filter`` forces the particle filter; ``floor`` is the
distance of an empirical distribution of as many exact draws as the filter keeps
particles, i.e. the distance that sampling noise alone gives.

Games: ``--games`` takes registered names, world-model ``.py`` files and folders (every
``.py`` file in them, sorted), comma-separated or as positional arguments; the default is
every hidden-information reference game. The files run in this process: pass only games
you trust (``benchmarks/belief_unseen/`` holds the games written for issue 31). The last
row pools every decision point of the run (success, median and 95th percentile).

Run:  python bench/belief_generic.py [GAME|FILE|DIR ...] [--games a,b] [--points 30]
                                     [--particles 32] [--game-seconds 300]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from pathlib import Path

from ggp.belief.exact import information_set, state_distribution
from ggp.belief.generic import ParticleFilter
from ggp.belief.replay import random_decision_points, replay_history
from ggp.belief.sampler import GenericSampler
from ggp.core.errors import BeliefError
from ggp.core.protocol import canonical_json
from ggp.core.registry import make_game, registered_games
from ggp.load import load_model

SMALL = ["kuhn_poker", "leduc_poker", "goofspiel(num_cards=4)", "blind_tic_tac_toe"]


def hidden_games() -> list[str]:
    names = [g for g in sorted(registered_games()) if not make_game(g).metadata.perfect_information]
    return [("goofspiel(num_cards=4)" if g == "goofspiel" else g) for g in names]


def expand(specs: list[str]) -> list[str]:
    """Registered names as given; folders become their ``.py`` files, sorted."""
    out: list[str] = []
    for spec in specs:
        path = Path(spec)
        if path.is_dir():
            out += [str(p) for p in sorted(path.glob("*.py")) if not p.name.startswith("_")]
        else:
            out.append(spec)
    return out


def load(name: str):
    return load_model(name) if name.endswith(".py") else make_game(name)


def percentile(xs: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``xs``; nan when empty."""
    if not xs:
        return float("nan")
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, max(0, int(round(q * len(ordered) + 0.5)) - 1))]


def random_match(model, rng: random.Random):
    """Every player's history at each of its decision points, in order."""
    points = [[] for _ in range(model.num_players)]
    for player, history in random_decision_points(model, rng):
        points[player].append(history)
    return points


def tv(p: dict[str, float], q: dict[str, float]) -> float:
    return 0.5 * sum(abs(p.get(k, 0.0) - q.get(k, 0.0)) for k in p.keys() | q.keys())


def weighted_distribution(pool) -> dict[str, float]:
    dist: dict[str, float] = {}
    for w in pool:
        key = canonical_json(w.state)
        dist[key] = dist.get(key, 0.0) + w.weight
    return dist


def run_game(name: str, args, rng: random.Random) -> dict:
    model = load(name)
    times, fails, labels, tvs, tvf, floors = [], 0, Counter(), [], [], []
    started = time.perf_counter()
    match = 0
    while len(times) < args.points and time.perf_counter() - started < args.game_seconds:
        points = random_match(model, rng)
        seat = match % model.num_players
        match += 1
        sampler = GenericSampler(model, particles=args.particles)
        mine = points[seat]
        for i, history in enumerate(mine):
            labels[("early", "middle", "late")[min(2, 3 * i // max(1, len(mine)))]] += 1
            t = time.perf_counter()
            try:
                sampler.belief(history, seat, rng)
                times.append(time.perf_counter() - t)
            except BeliefError as exc:
                times.append(time.perf_counter() - t)
                fails += 1
                print(f"  {name}: fail at decision {i}: {str(exc)[:200]}", flush=True)
                break  # the rest of this seat's decisions would start from nothing
            if args.check:  # every particle's own history replays to the observations
                for state, actions in sampler.last_particles():
                    if actions is not None and canonical_json(
                            replay_history(model, list(actions), seat, history)) \
                            != canonical_json(state):
                        raise AssertionError(f"{name}: a particle does not replay")
            if args.tv and name in SMALL and i % 2 == 0:
                try:
                    exact = state_distribution(information_set(model, history, seat,
                                                               max_nodes=200_000))
                except BeliefError:
                    continue
                tvs.append(tv(sampler.last_distribution(), exact))
                pf = ParticleFilter(model, seat, particles=args.particles)
                tvf.append(tv(weighted_distribution(pf.run(history, rng)), exact))
                keys, probs = zip(*exact.items())
                draws = Counter(rng.choices(keys, weights=probs, k=args.particles))
                floors.append(tv({k: c / args.particles for k, c in draws.items()}, exact))
    ok = len(times) - fails

    def mean(xs: list[float]) -> float:
        return statistics.mean(xs) if xs else float("nan")

    return {"game": name, "points": len(times), "ok": ok, "labels": labels, "times": times,
            "p95_ms": 1000 * percentile(times, 0.95),
            "median_ms": 1000 * statistics.median(times) if times else float("nan"),
            "max_ms": 1000 * max(times, default=float("nan")),
            "tv_generic": mean(tvs), "tv_filter": mean(tvf), "floor": mean(floors),
            "tv_points": len(tvs)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="games, .py files or folders of them")
    parser.add_argument("--games", default="", help="comma-separated names, files or "
                        "folders; default: the 16 hidden-information reference games")
    parser.add_argument("--points", type=int, default=30, help="decision points per game")
    parser.add_argument("--particles", type=int, default=32)
    parser.add_argument("--game-seconds", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-tv", dest="tv", action="store_false")
    parser.add_argument("--no-check", dest="check", action="store_false")
    args = parser.parse_args()
    specs = [g for g in args.games.split(",") if g] + args.paths
    games = expand(specs) if specs else hidden_games()
    print("| game | points (early/mid/late) | success | median ms | p95 ms | max ms | "
          "tv generic | tv filter | floor |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    every, ok = [], 0
    for name in games:
        r = run_game(name, args, random.Random(args.seed))
        every += r["times"]
        ok += r["ok"]
        lab = r["labels"]
        tvcols = (f"{r['tv_generic']:.3f} | {r['tv_filter']:.3f} | {r['floor']:.3f}"
                  if r["tv_points"] else "- | - | -")
        label = Path(name).stem if name.endswith(".py") else name
        print(f"| {label} | {r['points']} ({lab['early']}/{lab['middle']}/{lab['late']}) | "
              f"{100 * r['ok'] / max(1, r['points']):.1f}% | {r['median_ms']:.0f} | "
              f"{r['p95_ms']:.0f} | {r['max_ms']:.0f} | {tvcols} |", flush=True)
    if every:
        print(f"| **all {len(games)}** | {len(every)} | {100 * ok / len(every):.1f}% | "
              f"{1000 * statistics.median(every):.0f} | {1000 * percentile(every, 0.95):.0f} "
              f"| {1000 * max(every):.0f} | | | |", flush=True)


if __name__ == "__main__":
    main()
