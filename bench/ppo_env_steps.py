"""Environment steps per second of the PPO vector environment: a CWM in the sandbox
against the same CWM in this process, and the reference game in this process.

Usage: python bench/ppo_env_steps.py [--cwm examples/recorded/leduc_poker]
       [--game leduc_poker] [--envs 50] [--steps 100] [--repeat 3]

All three run the same vector environment (``ggp.env.envs.VectorSeatEnv``: ``--envs``
games of seat 0 against random, encoded with one schema), driven by uniformly random legal
actions drawn from one seeded generator, for ``--steps`` batch steps; the best of
``--repeat`` runs is kept (other jobs only ever slow a run down). The in-process CWM is the
same file loaded as an untrusted model (its states are copied on every call, as everywhere
for untrusted code). The sandboxed one pays one pipe round trip per batch step and JSON
both ways. The script checks that the two CWM runs saw identical observations.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ggp.core.model import WorldModel
from ggp.env.envs import Encoding, VectorSeatEnv
from ggp.env.worker import ENV_ENTRY
from ggp.load import load_model
from ggp.sandbox.hosted import HostedModel, model_file


def measure(model: WorldModel, encoding: Encoding, envs: int, steps: int) -> tuple[float, float]:
    env = VectorSeatEnv(model, encoding, envs, 0, seed=0)
    rng = np.random.default_rng(0)
    obs, mask = env.reset()
    digest = 0.0
    start = time.perf_counter()
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, mask, *_ = env.step(actions)
        digest += float((obs * np.arange(obs.shape[1])).sum())
    return envs * steps / (time.perf_counter() - start), digest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cwm", default="examples/recorded/leduc_poker")
    parser.add_argument("--game", default="leduc_poker")
    parser.add_argument("--envs", type=int, default=50)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    truth = load_model(args.game)
    local = WorldModel(load_model(str(model_file(args.cwm))).namespace, name="cwm",
                       metadata=truth.metadata)
    encoding = Encoding.for_model(truth, games=300, unknown="ignore")
    rates: dict[str, float] = {}
    digests = {}
    with HostedModel(args.cwm, truth.metadata, entry=ENV_ENTRY) as sandboxed:
        for name, model in (("reference game, in process", truth),
                            ("CWM, in process (untrusted: copies)", local),
                            ("CWM, sandboxed worker", sandboxed)):
            runs = [measure(model, encoding, args.envs, args.steps) for _ in range(args.repeat)]
            rates[name] = max(r for r, _ in runs)
            digests[name] = runs[0][1]
    same = digests["CWM, in process (untrusted: copies)"] == digests["CWM, sandboxed worker"]
    print(f"{args.game}: {args.envs} games x {args.steps} batch steps, best of {args.repeat}")
    base = rates["CWM, sandboxed worker"]
    print("| environment | env steps/s | ratio to sandboxed CWM |")
    print("|---|---:|---:|")
    for name, rate in rates.items():
        print(f"| {name} | {rate:,.0f} | {rate / base:.2f} |")
    print(f"identical observations in the two CWM runs: {same}")


if __name__ == "__main__":
    main()
