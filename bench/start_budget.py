"""What a START's budget check costs ``ggp serve``: preparing the rules with the check
(the rules compiled in a forked child under RLIMIT_AS, then built here) against without it.

Usage: python bench/start_budget.py [--games ticTacToe.kif connectFour.kif ...] [--repeat 3]

For each game of the GDL corpus (``/work/shared/gdl/perfect``, or ``--dir``), a fresh
``GGPPlayer`` handles a START with a 60 s start clock, with ``budget=None`` and with the
default budget, in separate fresh processes (so neither profits from the other's grounding
cache); the seconds from the START to its reply, best of ``--repeat``. Prints both and the
ratio with / without.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import json, sys, time
from ggp.gdl.match import load_match_game
from ggp.ggpnet.choosers import RandomChooser
from ggp.ggpnet.messages import rules_list, start_message
from ggp.ggpnet.player import START_BUDGET, GGPPlayer
path, budgeted = sys.argv[1], sys.argv[2] == "1"
game = load_match_game(path)
player = GGPPlayer("bench", RandomChooser(0), seed=0, budget=START_BUDGET if budgeted else None)
text = start_message("m", game.roles[0], rules_list(game.rules), 60, 5)
started = time.perf_counter()
reply = player.handle(text)
print(json.dumps({"seconds": time.perf_counter() - started, "reply": reply}))
player.close()
"""


def prepare(path: Path, budgeted: bool) -> float:
    out = subprocess.run([sys.executable, "-c", CHILD, str(path), "1" if budgeted else "0"],
                         capture_output=True, text=True, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["reply"] == [200, "ready"], result
    return result["seconds"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path("/work/shared/gdl/perfect"))
    parser.add_argument("--games", nargs="+",
                        default=["ticTacToe.kif", "connectFour.kif", "breakthrough.kif",
                                 "chess_200.kif"])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'game':<20} {'without (s)':>12} {'with (s)':>10} {'ratio':>7}")
    for name in args.games:
        path = args.dir / name
        if not path.is_file():
            print(f"{name:<20} (not found)")
            continue
        without = min(prepare(path, False) for _ in range(args.repeat))
        with_ = min(prepare(path, True) for _ in range(args.repeat))
        print(f"{name:<20} {without:>12.3f} {with_:>10.3f} {with_ / without:>7.2f}")


if __name__ == "__main__":
    main()
