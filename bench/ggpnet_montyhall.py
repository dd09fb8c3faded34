"""Does our GDL-II player reason over what it saw? Monty Hall over HTTP (montyhall.gdl).

The candidate is played by our search player (ISMCTS over the hypotheses it tracks from
its percepts) and, as the peer in the same run, by the random chooser; the manager plays
the host (the ``random`` role). Switching wins 2/3 of the time, staying 1/3.

    python bench/ggpnet_montyhall.py --matches 30 --play-clock 1
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ggp.ggpnet.choosers import RandomChooser, SearchChooser
from ggp.gdl.match import load_match_game
from ggp.ggpnet.manager import MatchConfig, run_match
from ggp.ggpnet.player import GGPPlayer
from ggp.ggpnet.transport import GGPServer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="/work/shared/gdl/imperfect/montyhall.gdl")
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--play-clock", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = load_match_game(Path(args.game))
    results = {}
    choosers = {"search": SearchChooser(args.seed), "random": RandomChooser(args.seed)}
    for name, chooser in choosers.items():
        player = GGPPlayer(name, chooser, seed=args.seed)
        wins = switches = errors = 0
        with GGPServer(player.handle) as server:
            for i in range(args.matches):
                config = MatchConfig(start_clock=5, play_clock=args.play_clock,
                                     seed=args.seed + i)
                record = run_match(game, {"candidate": server.url}, config)
                wins += record["goals"]["candidate"] == 100
                switches += record["steps"][-1]["moves"]["candidate"] == "switch"
                errors += len(record["errors"])
        results[name] = wins / args.matches
        print(f"{name:7s} switched {switches}/{args.matches}, won {wins}/{args.matches} "
              f"({wins / args.matches:.2f}), manager errors {errors}")
    print(f"win rate ratio search/random: {results['search'] / max(results['random'], 1e-9):.2f}")


if __name__ == "__main__":
    main()
