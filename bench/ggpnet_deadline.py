"""Does our GGP player answer within the play clock? (issue 11: 100 moves, 1 s clock).

Runs our manager against two of our players over loopback HTTP on connectFour.kif: the
search player (MCTS, the default chooser) and, as the peer measured in the same run, the
same player with the random chooser (its reply time is the protocol's own overhead).
Matches are played, seats alternating, until the search player has made ``--moves``
decisions (replies other than ``noop``). A reply *misses* when it takes longer than the
play clock itself (the servers allow one more second; the manager's own error list,
which uses that grace, is printed too).

    python bench/ggpnet_deadline.py --moves 100 --play-clock 1
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from ggp.ggpnet.choosers import RandomChooser, SearchChooser
from ggp.gdl.match import load_match_game
from ggp.ggpnet.manager import MatchConfig, run_match
from ggp.ggpnet.player import GGPPlayer
from ggp.ggpnet.transport import GGPServer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="/work/shared/gdl/perfect/connectFour.kif")
    parser.add_argument("--moves", type=int, default=100)
    parser.add_argument("--play-clock", type=float, default=1.0)
    parser.add_argument("--margin", type=float, default=0.3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    game = load_match_game(Path(args.game))
    search = GGPPlayer("search", SearchChooser(args.seed), margin=args.margin, seed=args.seed)
    peer = GGPPlayer("random", RandomChooser(args.seed), margin=args.margin, seed=args.seed)
    times: dict[str, list[float]] = {"search": [], "random": []}
    errors, goals, matches = [], {"search": 0.0, "random": 0.0}, 0
    began = time.monotonic()
    with GGPServer(search.handle) as s1, GGPServer(peer.handle) as s2:
        urls = {s1.url: "search", s2.url: "random"}
        while len(times["search"]) < args.moves:
            order = [s1.url, s2.url] if matches % 2 == 0 else [s2.url, s1.url]
            endpoints = dict(zip(game.roles, order))
            config = MatchConfig(start_clock=5, play_clock=args.play_clock, grace=1.0,
                                 seed=args.seed + matches)
            record = run_match(game, endpoints, config)
            matches += 1
            errors += record["errors"]
            for role, url in endpoints.items():
                goals[urls[url]] += (record["goals"] or {}).get(role, 0)
            for step in record["steps"]:
                for role, reply in step["replies"].items():
                    if reply["reply"] != "noop":
                        times[urls[endpoints[role]]].append(reply["seconds"])
    elapsed = time.monotonic() - began
    clock = args.play_clock
    print(f"{args.game}: {matches} matches, play clock {clock:g} s, margin {args.margin:g} s, "
          f"{elapsed:.0f} s wall")
    for name, ts in times.items():
        if not ts:
            continue
        ts = sorted(ts)
        misses = sum(t > clock for t in ts)
        print(f"  {name:7s} decisions {len(ts):4d}  mean {statistics.fmean(ts):.3f} s  "
              f"p99 {ts[int(0.99 * (len(ts) - 1))]:.3f} s  max {ts[-1]:.3f} s  "
              f"max/clock {ts[-1] / clock:.2f}  misses {misses}  "
              f"mean goal {goals[name] / matches:.1f}")
    ratio = statistics.fmean(times["search"]) / statistics.fmean(times["random"])
    print(f"  search/random mean reply time ratio: {ratio:.1f}")
    print(f"  manager errors (late > clock + 1 s, illegal, ...): {len(errors)}")


if __name__ == "__main__":
    main()
