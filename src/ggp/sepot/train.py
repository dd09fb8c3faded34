"""Resumable training runs: ``train(config, out_dir, steps)``.

``out_dir/latest.pt`` is rewritten every ``checkpoint_every`` steps and at the end; a run
started again with the same ``out_dir`` continues from it (the stored config wins over the
one passed in). ``out_dir/step_<n>.pt`` snapshots are kept every ``snapshot_every`` steps
for the evaluation curves, and ``out_dir/train_log.csv`` gets the mean losses.
"""

from __future__ import annotations

import csv
import os
import time

from ggp.sepot.rnad import RNaDConfig, RNaDLearner


def train(
    config: RNaDConfig,
    out_dir: str,
    steps: int,
    *,
    checkpoint_every: int = 500,
    snapshot_every: int = 1000,
    log_every: int = 100,
    verbose: bool = True,
) -> RNaDLearner:
    """Train until the learner has done ``steps`` steps in total; return the learner."""
    os.makedirs(out_dir, exist_ok=True)
    latest = os.path.join(out_dir, "latest.pt")
    learner = RNaDLearner.load(latest) if os.path.exists(latest) else RNaDLearner(config)
    log_path = os.path.join(out_dir, "train_log.csv")
    sums: dict[str, float] = {}
    started = time.time()
    while learner.step_count < steps:
        info = learner.step()
        for key, value in info.items():
            if key != "step":
                sums[key] = sums.get(key, 0.0) + value
        n = learner.step_count
        if n % log_every == 0:
            row = {"step": n, "seconds": round(time.time() - started, 1),
                   **{k: v / log_every for k, v in sums.items()}}
            new = not os.path.exists(log_path)
            with open(log_path, "a", newline="") as fh:
                writer = csv.DictWriter(fh, fieldnames=list(row))
                if new:
                    writer.writeheader()
                writer.writerow(row)
            if verbose:
                print(", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                                for k, v in row.items()), flush=True)
            sums = {}
        if n % snapshot_every == 0:
            learner.save(os.path.join(out_dir, f"step_{n}.pt"))
        if n % checkpoint_every == 0:
            learner.save(latest)
    learner.save(latest)
    return learner
