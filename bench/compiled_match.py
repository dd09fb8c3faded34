"""A 200-simulation search match on a compiled GDL model, refereed by the reasoner: the
wall time of issue 33's bar (<= 30 s on the 2-core machine).

For each ``ggp synth game.kif`` run folder (its ``cwm.py``, the program compiled from the
run's copy of the description), one match: seat 0 searches, every other seat plays
uniformly at random, ggp's reasoner is the referee (the truth). The compiled program is
untrusted code and runs only in its sandbox:

* GDL: MCTS with ``--sims`` simulations (one random rollout per leaf) in the program's
  sandboxed worker (:meth:`ggp.ggpnet.compiled_worker.CompiledSearch.plan`), from the
  state the match's moves lead to in the program, which keeps its own state layout (the
  way the GGP player drives it, :mod:`ggp.ggpnet.compiled`);
* GDL-II: the ``cwm_ismcts:run=RUN:sims=N:rollouts=1`` agent, which draws its roots with
  the program's own ``resample_history`` from the seat's observations.

``--baseline`` also plays the same match planned on the reasoner (``mcts`` /
``ismcts:sims=N:rollouts=1``, as ``ggp play GAME -p SPEC,random`` does), in the same run.

Run:  python bench/compiled_match.py RUN_DIR ... [--sims 200] [--seed 1] [--baseline]
          [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from ggp.agents import make_agent
from ggp.arena.match import play_match
from ggp.core.protocol import CHANCE, TERMINAL
from ggp.sandbox import Limits, Worker
from ggp.synth.gdl_source import load_gdl_truth


def _compiled_gdl_match(reasoner, code: str, filename: str, sims: int, seed: int) -> dict:
    """Seat 0 plans in the program's worker from the match's moves; the others random."""
    limits = Limits(memory_mb=2048, cpu_seconds=3600, max_output_bytes=1 << 20,
                    restricted=True, network=False)
    worker = Worker("ggp.ggpnet.compiled_worker",
                    {"source": code, "filename": filename,
                     "metadata": reasoner.metadata.to_dict()}, start_timeout=30.0,
                    limits=limits)
    rng = random.Random(seed)
    try:
        started = time.perf_counter()
        state, searched = reasoner.initial_state(), 0
        actions: list[str] = []
        while (player := reasoner.current_player(state)) != TERMINAL:
            if player == CHANCE:
                outcomes = reasoner.chance_outcomes(state)
                action = rng.choices([o for o, _ in outcomes],
                                     weights=[p for _, p in outcomes])[0]
            elif player == 0:
                reply = worker.call("plan", {"actions": actions, "sims": sims,
                                             "seed": rng.randrange(1 << 31)}, timeout=600.0)
                if "error" in reply:
                    raise SystemExit(f"the search on the compiled model failed: "
                                     f"{reply['error']}")
                action = reply["action"]
                searched += 1
            else:
                action = rng.choice(list(reasoner.legal_actions(state)))
            if action not in reasoner.legal_actions(state):
                raise SystemExit(f"the compiled model's move {action!r} is not legal")
            state = reasoner.apply(state, action)
            actions.append(action)
        seconds = time.perf_counter() - started
    finally:
        worker.close()
    return {"seconds": seconds, "moves": len(actions), "searched": searched,
            "returns": list(reasoner.rewards(state))}


def _agent_match(reasoner, spec: str, seed: int) -> dict:
    """``spec`` in seat 0 against random players, as ``ggp play`` plays it."""
    agents = [make_agent(spec, reasoner)] + [make_agent("random", reasoner)
                                            for _ in range(reasoner.num_players - 1)]
    started = time.perf_counter()
    try:
        result = play_match(reasoner, agents, seed=seed, record_states=False)
    finally:
        for agent in agents:
            agent.close()
    return {"seconds": time.perf_counter() - started, "moves": len(result.steps),
            "returns": list(result.returns)}


def bench_run(folder: Path, args: argparse.Namespace) -> dict:
    meta = json.loads((folder / "metadata.json").read_text(encoding="utf-8"))
    reasoner = load_gdl_truth(folder / meta["gdl"]["file"])
    program = folder / "cwm.py"
    gdl_ii = bool(meta["gdl"].get("gdl_ii"))
    row = {"game": meta["game"], "run": str(folder), "gdl_ii": gdl_ii, "sims": args.sims}
    if gdl_ii:
        row["compiled"] = _agent_match(
            reasoner, f"cwm_ismcts:run={program}:sims={args.sims}:rollouts=1", args.seed)
    else:
        row["compiled"] = _compiled_gdl_match(reasoner, program.read_text(encoding="utf-8"),
                                              str(program), args.sims, args.seed)
    if args.baseline:
        search = "ismcts" if gdl_ii else "mcts"
        row["reasoner"] = _agent_match(reasoner, f"{search}:sims={args.sims}:rollouts=1",
                                       args.seed)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="ggp synth game.kif run folders")
    parser.add_argument("--sims", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", action="store_true",
                        help="also play the match planned on the reasoner")
    parser.add_argument("--json", default="")
    args = parser.parse_args()
    print(f"one match per game: seat 0 searches with {args.sims} simulations (1 rollout), "
          "the others random, refereed by the reasoner; wall seconds")
    print(f"{'game':18} {'kind':7} {'compiled s':>10} {'moves':>6} "
          f"{'reasoner s':>10} {'ratio':>7}")
    rows = []
    for run in args.runs:
        row = bench_run(Path(run), args)
        rows.append(row)
        compiled = row["compiled"]
        base = row.get("reasoner")
        ratio = f"{base['seconds'] / compiled['seconds']:6.1f}x" if base else "-"
        print(f"{row['game']:18} {'GDL-II' if row['gdl_ii'] else 'GDL':7} "
              f"{compiled['seconds']:10.1f} {compiled['moves']:6d} "
              f"{base['seconds'] if base else float('nan'):10.1f} {ratio:>7}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
