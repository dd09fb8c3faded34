"""The whole `ggp cwm experiment` pipeline with SCRIPTED answers (not a model's work).

The "LLM" is the scripted fake: its programs are hand-written standalone models (two
equal to the ground truth and one with a subtle rules error), and for value functions
three hand-written candidates (two that fail the checks, one plausible heuristic). This
measures the pipeline — rejection, value selection, arena, accuracy during play — on
known inputs; it says nothing about any language model.

    python experiments/cwm/scripted_pipeline.py leduc_poker --out runs/cwm-scripted-leduc
    python experiments/cwm/scripted_pipeline.py generalized_tic_tac_toe --values \
        --out runs/cwm-scripted-gttt
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "cwm"))

from cwm_fixtures import LEDUC_NO_PAIRS, mutate, source, standalone  # noqa: E402
from test_cwm_selection import GOOD, NO_TERMINAL, NOT_A_FLOAT  # noqa: E402

from ggp.cwm.experiment import ExperimentConfig, run_experiment  # noqa: E402
from ggp.llm import ScriptedLLM  # noqa: E402

# Generalized tic-tac-toe where only rows and columns win (diagonals are forgotten).
GTTT_NO_DIAGONALS = (("DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))",
                      "DIRECTIONS = ((0, 1), (1, 0))"),)


def programs(game: str) -> list[str]:
    if game == "leduc_poker":
        good = source("leduc_poker")
        return [good, good, mutate(good, *LEDUC_NO_PAIRS)]
    good = standalone("generalized_tic_tac_toe")
    return [good, good, mutate(good, *GTTT_NO_DIAGONALS)]


def fence(code: str) -> str:
    return f"Scripted answer.\n\n```python\n{code}\n```"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["leduc_poker", "generalized_tic_tac_toe"])
    parser.add_argument("--out", required=True)
    parser.add_argument("--values", action="store_true")
    parser.add_argument("--sims", type=int, default=150)
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--reject-matches", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    queue = [fence(p) for p in programs(args.game)]
    candidates = [fence(NOT_A_FLOAT), fence(NO_TERMINAL), fence(GOOD)]
    asked = {"value": 0}

    def respond(messages: list[dict]) -> str:
        if "heuristic evaluation" in messages[-1]["content"]:
            asked["value"] += 1
            return candidates[(asked["value"] - 1) % len(candidates)]
        return queue.pop(0)

    config = ExperimentConfig(game=args.game, syntheses=3, budget=1, train_games=3,
                              test_games=10, sims=args.sims, rollouts=1,
                              reject_matches=args.reject_matches, reject_sims=50,
                              values=args.values, value_matches=5, priors=False,
                              matches=args.matches, workers=args.workers)
    run_experiment(args.out, config, ScriptedLLM(respond))
    print((Path(args.out) / "summary.md").read_text())


if __name__ == "__main__":
    main()
