"""Can the arena tell a correct CWM from a subtly wrong one? (issue 8, done-criterion)

Two "synthesized" Leduc models — the hand-written standalone model used as the final
scripted answer in the synthesis tests (equal to the ground truth) and the same model with
one rules error (a pair with the public card does not count) — each drive a CWM-ISMCTS
agent against GT-ISMCTS (ISMCTS on the reference game with its ground-truth inference) and
(GT-ISMCTS against itself would score 0 on average: Leduc is symmetric over seats). The models are hand-written,
not an LLM's work.

    python experiments/cwm/leduc_gt_vs_cwm.py --matches 100 --sims 200 --out runs/cwm-leduc

Resumable (the arena skips finished matches); prints the report rows.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "cwm"))

# the fixtures are found on the path set just above
from cwm_fixtures import LEDUC_NO_PAIRS, mutate, run_dir, source  # noqa: E402

from ggp.arena.report import write_report  # noqa: E402
from ggp.arena.tournament import TournamentConfig, run_tournament  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--sims", type=int, default=150)
    parser.add_argument("--rollouts", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default="runs/cwm-leduc")
    args = parser.parse_args()
    out = Path(args.out).resolve()
    good = run_dir(out / "models", "correct", source("leduc_poker"))
    bad = run_dir(out / "models", "no_pairs", mutate(source("leduc_poker"), *LEDUC_NO_PAIRS))
    search = f"sims={args.sims}:rollouts={args.rollouts}"
    config = TournamentConfig(
        games=["leduc_poker"],
        agents=[f"cwm_ismcts:run={good}:{search}", f"cwm_ismcts:run={bad}:{search}"],
        opponents=[f"gt_ismcts:{search}"],
        matches=args.matches, seed=0)
    run_tournament(config, out / "arena", workers=args.workers)
    write_report(out / "arena")
    print((out / "arena" / "report.md").read_text())


if __name__ == "__main__":
    main()
