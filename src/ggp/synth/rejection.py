"""Bad-sample rejection (seed 000 App. E).

K syntheses of one game give K models. An agent is built on each (CWM-MCTS or
CWM-ISMCTS), and every pair of agents plays on *both* of their models, hosted in
sandboxed workers (:mod:`ggp.arena.hosted`), in every seat. An execution failure (the
hosted model failing, or an agent's worker failing other than by an illegal move) is a
loss for both players. A model's score is the mean return of its agent; models whose
score is below the best score by more than ``threshold`` (10 %) of the game's utility
range are rejected. ``rejection.json`` records every match and the decision.
"""

from __future__ import annotations

import itertools
import json
import statistics
from pathlib import Path
from typing import Any

from ggp.arena.tournament import match_seed
from ggp.core.protocol import GameMetadata
from ggp.arena.hosted import play_hosted
from ggp.rundir import model_file


def agent_spec(run: str | Path, planner: str, settings: str) -> str:
    """The agent built on ``run``'s model (``planner``: ``ismcts`` or ``mcts``)."""
    return f"cwm_{planner}:run={model_file(run)}" + (f":{settings}" if settings else "")


def reject_bad_samples(runs: list[str | Path], metadata: GameMetadata, out: str | Path, *,
                       planner: str = "ismcts", settings: str = "sims=100:rollouts=1",
                       matches: int = 2, threshold: float = 0.1,
                       seed: int = 0) -> dict[str, Any]:
    """Play the rejection tournament between ``runs`` and write ``out`` (JSON).

    Resumable: matches already in ``out`` (same runs and settings) are not replayed."""
    out = Path(out)
    runs = [str(Path(r).resolve()) for r in runs]
    config = {"runs": runs, "planner": planner, "settings": settings, "matches": matches,
              "threshold": threshold, "seed": seed}
    record: dict[str, Any] = {"config": config, "matches": {}}
    if out.is_file():
        old = json.loads(out.read_text(encoding="utf-8"))
        if old.get("config") == config:
            record["matches"] = old["matches"]
    specs = [agent_spec(r, planner, settings) for r in runs]
    n = metadata.num_players
    returns: dict[int, list[float]] = {i: [] for i in range(len(runs))}
    for i, j in itertools.combinations(range(len(runs)), 2):
        for host, seat, k in itertools.product((i, j), range(n), range(matches)):
            key = f"{i}|{j}|host={host}|seat={seat}|{k}"
            if key not in record["matches"]:
                seats = [specs[j]] * n
                seats[seat] = specs[i]
                result, failure = play_hosted(runs[host], metadata, seats,
                                              match_seed(seed, key))
                record["matches"][key] = {"returns": result, "failure": failure}
                _write(out, record)
            result = record["matches"][key]["returns"]
            returns[i].append(result[seat])
            returns[j].extend(r for s, r in enumerate(result) if s != seat)
    scores = [statistics.fmean(returns[i]) if returns[i] else 0.0 for i in range(len(runs))]
    best = max(scores)
    margin = threshold * metadata.utility_range
    record["scores"] = scores
    record["kept"] = [runs[i] for i in range(len(runs)) if scores[i] >= best - margin]
    record["rejected"] = [runs[i] for i in range(len(runs)) if scores[i] < best - margin]
    record["failures"] = sum(bool(m["failure"]) for m in record["matches"].values())
    _write(out, record)
    return record


def _write(path: Path, record: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)
