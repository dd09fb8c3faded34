"""Critic error per snapshot: history-level MAE of the critic and MAE of the gadget CFVs
built from it, both against exact values of the same network policy.

    python experiments/sepot/cfv_error.py /work/sepot_runs/g4 500
"""

import glob
import json
import os
import re
import sys

from ggp.sepot.evaluate import critic_cfv_error, critic_error
from ggp.sepot.exact import ExactValues, tabular_policy
from ggp.sepot.rnad import RNaDLearner


def main(run: str, every: int = 500) -> None:
    paths = glob.glob(os.path.join(run, "step_*.pt"))
    for step, path in sorted((int(re.search(r"step_(\d+)", p).group(1)), p) for p in paths):
        if step % every:
            continue
        learner = RNaDLearner.load(path)
        exact = ExactValues(learner.spec, tabular_policy(learner.spec, learner.policy))
        row = {"step": step, **critic_error(learner, exact),
               "critic_cfv_mae": critic_cfv_error(learner, exact)}
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 500)
