"""Solve a code world model with CFR+: its whole game tree, enumerated in the sandbox.

For games small enough to solve (Kuhn, Leduc poker, small card games), an equilibrium of
the CWM beats any search at play time. The CWM is untrusted code, so the work is split:

1. **In the box** (:mod:`ggp.cwm.tree_worker`, a restricted, offline
   :class:`ggp.sandbox.Worker`): a few random paths from the root give a size estimate;
   then the whole tree is walked and returned as plain data — chance outcomes with their
   probabilities, legal actions, each decision's information-state key (the acting
   player's obs-action history, as the arena hands it to an agent) and terminal returns.
2. **Here**: the estimate decides whether to go on (:func:`estimate_size`); the data is
   validated (:func:`ggp.search.tabular.game_tree`: a malformed tree is the model's
   failure), CFR+ runs on it (:class:`ggp.search.tabular.TabularCFRPlus`) until the
   exploitability of the average policy *on the CWM's own tree* reaches ``target`` or
   ``iterations`` have run.

The size rule: the tree must have at most ``max_nodes`` histories (default 200,000) and
depth ``max_depth`` (200). Knuth's estimator over ``probes`` random paths (the sum over
depths of the product of branching factors along a path, averaged) refuses a game
estimated at more than twice the limit before it is walked; the walk itself stops at the
limit, so a game between the two, or one the estimate misjudges, is refused too. A refused game gets one line naming the estimate and the limit
("... use cwm_ismcts").

Solutions are cached by the SHA-256 of the model's source and metadata: in memory, and
on disk (``cfr_policy.json`` in a run directory, ``NAME.cfr_policy.json`` next to a .py
model) with the solver's state, checkpointed during the solve, so a tournament solves
once and an interrupted or extended solve resumes.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ggp.core.errors import GGPError
from ggp.core.protocol import Action, GameMetadata, canonical_json
from ggp.rundir import MODEL, model_file
from ggp.sandbox import Limits, SandboxFailure, Worker
from ggp.search.tabular import (
    GameTree,
    Infoset,
    MalformedTree,
    TabularCFRPlus,
    TreeLimits,
    exploitability,
    game_tree,
)

log = logging.getLogger("ggp.cwm")

TREE_ENTRY = "ggp.cwm.tree_worker"
#: The estimate refuses a game only beyond this multiple of ``max_nodes``: it scatters
#: (tic-tac-toe, 549,946 histories: 482,000 to 617,000 over three seeds of 64 paths), and
#: between the limit and the margin the walk's own cap decides exactly.
ESTIMATE_MARGIN = 2.0
CACHE_FORMAT = "ggp-cwm-cfr-1"


class CWMSolveError(GGPError):
    """The CWM cannot be solved: too big, or it failed (raised, timed out, lied)."""


@dataclass(frozen=True)
class SolveSettings:
    """How to solve: stop at ``target`` exploitability (on the CWM's tree) or after
    ``iterations``, whichever comes first; measure every ``check`` iterations. The tree
    limits, the random ``probes`` for the size estimate, and the box's ``seconds`` (for
    the walk) and ``memory_mb``."""

    iterations: int = 1000
    target: float = 1e-3
    check: int = 50
    max_nodes: int = 200_000
    max_depth: int = 200
    probes: int = 64
    seconds: float = 300.0
    memory_mb: int = 2048

    def limits(self) -> TreeLimits:
        # a node costs well under 500 bytes of data in the games that fit; the byte limit
        # keeps a model from answering with a few huge strings instead
        return TreeLimits(self.max_nodes, self.max_depth,
                          max(1 << 20, min(self.max_nodes * 512, 256 << 20)))


@dataclass
class CWMSolution:
    """An average policy of CFR+ on a CWM: ``table`` maps ``(player, key)`` (key:
    :func:`ggp.core.protocol.information_state_key` of the player's history) to
    ``{action: probability}``. ``iterations`` run so far, ``exploitability`` measured on
    the CWM's tree after them, the tree's ``nodes``, the solve's ``seconds`` (this
    process; 0 when it came from a cache) and where it came from (``source``:
    ``solved``, ``resumed``, ``memory`` or ``disk``)."""

    table: dict[Infoset, dict[Action, float]]
    iterations: int
    exploitability: float
    nodes: int
    seconds: float = 0.0
    source: str = "solved"
    model_sha256: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def satisfies(self, settings: SolveSettings) -> bool:
        return self.exploitability <= settings.target or self.iterations >= settings.iterations


def model_digest(source: str, metadata: GameMetadata | None) -> str:
    """The cache key of a model: SHA-256 of its source and the game's metadata."""
    meta = canonical_json(metadata.to_dict() if metadata else None)
    return hashlib.sha256((source + "\0" + meta).encode("utf-8")).hexdigest()


def cache_path(model: Path) -> Path:
    """Where a model's solution is kept: ``cfr_policy.json`` next to a run's ``cwm.py``,
    ``NAME.cfr_policy.json`` next to another .py file."""
    if model.name == MODEL:
        return model.with_name("cfr_policy.json")
    return model.with_name(model.stem + ".cfr_policy.json")


# --------------------------------------------------------------------- the size rule
def estimate_size(paths: list[list[int]]) -> float:
    """Knuth's estimate of a tree's node count from random root-to-leaf paths, each the
    list of branching factors met (an unbiased estimate when each path picks children
    uniformly; exact for a tree whose nodes at each depth all branch alike)."""
    totals = []
    for path in paths:
        total, width = 0.0, 1.0
        for branching in path:
            total += width
            width *= branching
        totals.append(total)
    return sum(totals) / len(totals) if totals else 0.0


def _check_paths(value: Any, count: int, max_depth: int) -> list[list[int]]:
    if (not isinstance(value, list) or len(value) != count
            or not all(isinstance(p, list) and p and len(p) <= max_depth + 1
                       and all(isinstance(b, int) and not isinstance(b, bool)
                               and 0 <= b <= 1_000_000 for b in p) for p in value)):
        raise MalformedTree(f"the size probe answered {str(value)[:80]}, not {count} lists "
                            "of branching factors")
    return value


# --------------------------------------------------------------------- enumeration
def enumerate_tree(path: Path, metadata: GameMetadata | None,
                   settings: SolveSettings = SolveSettings()) -> GameTree:
    """The validated game tree of the model file ``path``, walked in a sandboxed worker
    (see the module docstring). Raises :class:`CWMSolveError` with one line."""
    name = path.name if path.name != MODEL else f"{path.parent.name}/{MODEL}"
    source = path.read_text(encoding="utf-8")
    init = {"source": source, "filename": str(path),
            "metadata": metadata.to_dict() if metadata else None}
    limits = Limits(memory_mb=settings.memory_mb, cpu_seconds=int(settings.seconds) + 60,
                    max_output_bytes=1024 * 1024, restricted=True, network=False)
    started = time.monotonic()
    try:
        with Worker(TREE_ENTRY, init, start_timeout=60.0, limits=limits) as worker:
            if settings.probes > 0:
                paths = _check_paths(
                    worker.call("probe", {"count": settings.probes,
                                          "max_depth": settings.max_depth},
                                timeout=settings.seconds),
                    settings.probes, settings.max_depth)
                if any(p[-1] != 0 for p in paths):
                    raise CWMSolveError(
                        f"cwm_cfr: a random path through {name} is longer than the depth "
                        f"limit of {settings.max_depth} (max_depth); use cwm_ismcts")
                estimate = estimate_size(paths)
                if estimate > ESTIMATE_MARGIN * settings.max_nodes:
                    raise CWMSolveError(
                        f"cwm_cfr: the game tree of {name} has about {estimate:,.0f} nodes "
                        f"(estimated from {len(paths)} random paths), more than the limit "
                        f"of {settings.max_nodes:,} (max_nodes); use cwm_ismcts")
            left = max(1.0, settings.seconds - (time.monotonic() - started))
            reply = worker.call("enumerate", {"max_nodes": settings.max_nodes,
                                              "max_depth": settings.max_depth},
                                timeout=left)
    except SandboxFailure as exc:
        detail = " ".join(exc.detail.split())[:300]
        raise CWMSolveError(f"cwm_cfr: the model {name} failed while its tree was walked "
                            f"({exc.kind}): {detail}") from None
    except MalformedTree as exc:
        raise CWMSolveError(f"cwm_cfr: the model {name} failed: {exc}") from None
    if not isinstance(reply, dict) or not isinstance(reply.get("complete"), bool):
        raise CWMSolveError(f"cwm_cfr: the model {name} failed: malformed game tree: the "
                            f"walk answered {str(reply)[:80]}")
    if not reply["complete"]:
        what = ("deeper than the limit of {:,} (max_depth)".format(settings.max_depth)
                if reply.get("reason") == "depth" else
                "more than {:,} nodes, the limit (max_nodes)".format(settings.max_nodes))
        raise CWMSolveError(f"cwm_cfr: the game tree of {name} is {what}; use cwm_ismcts")
    try:
        return game_tree(reply.get("tree"), settings.limits())
    except MalformedTree as exc:
        raise CWMSolveError(f"cwm_cfr: the model {name} failed: {exc}") from None


# --------------------------------------------------------------------- solving
_MEMORY: dict[str, CWMSolution] = {}


def solve_cwm(source: str | Path, metadata: GameMetadata | None,
              settings: SolveSettings = SolveSettings(), *, cache: str | Path | None = "",
              progress: Callable[[int, float, float], None] | None = None) -> CWMSolution:
    """The CFR+ solution of the CWM at ``source`` (a run directory or a .py file).

    ``cache``: ``""`` for the default file (:func:`cache_path`), a path, or None for no
    disk cache (memory only). ``progress(iteration, exploitability, seconds)`` is called
    at every check. Raises :class:`CWMSolveError` with one line.
    """
    path = model_file(source)
    text = path.read_text(encoding="utf-8")
    digest = model_digest(text, metadata)
    known = _MEMORY.get(digest)
    if known is not None and known.satisfies(settings):
        return CWMSolution(**{**known.__dict__, "source": "memory", "seconds": 0.0})
    file = None if cache is None else (Path(cache) if cache else cache_path(path))
    saved = _read_cache(file, digest)
    if saved is not None:
        solution = _solution_of(saved, source="disk")
        if solution.satisfies(settings):
            _MEMORY[digest] = solution
            return solution
    started = time.monotonic()
    tree = enumerate_tree(path, metadata, settings)
    walk_seconds = time.monotonic() - started
    solver = TabularCFRPlus(tree)
    how = "solved"
    if saved is not None and _layout(tree) == saved.get("layout"):
        solver.regrets = np.array(saved["regrets"], dtype=float)
        solver.cumulative = np.array(saved["cumulative"], dtype=float)
        solver.iteration = int(saved["iteration"])
        how = "resumed"
        log.info("cwm_cfr: resuming %s at iteration %d", path, solver.iteration)
    first = solver.iteration  # where this process started (after a resume: not 0)
    value = exploitability(tree, solver.average()) if solver.iteration else math.inf
    while value > settings.target and solver.iteration < settings.iterations:
        step = min(settings.check, settings.iterations - solver.iteration)
        solver.run(step)
        value = exploitability(tree, solver.average())
        seconds = time.monotonic() - started
        log.info("cwm_cfr: %s iteration %d, exploitability on the CWM %.5f (%.1f s)",
                 path.name, solver.iteration, value, seconds)
        if progress is not None:
            progress(solver.iteration, value, seconds)
        if file is not None:
            _write_cache(file, digest, tree, solver, value)
    solution = CWMSolution(tree.policy_table(solver.average()), solver.iteration, value,
                           tree.num_nodes, time.monotonic() - started, how, digest,
                           {"infosets": len(tree.infosets), "depth": tree.depth,
                            "walk_seconds": walk_seconds, "first_iteration": first})
    _MEMORY[digest] = solution
    return solution


def _layout(tree: GameTree) -> str:
    """A digest of the infosets and their actions: a saved state fits a tree only if the
    slots mean the same."""
    data = canonical_json([[p, k, a] for (p, k), a in zip(tree.infosets, tree.actions)])
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


def _write_cache(file: Path, digest: str, tree: GameTree, solver: TabularCFRPlus,
                 value: float) -> None:
    """Checkpoint the solver's state (atomically: a killed solve leaves the last one)."""
    data = {"format": CACHE_FORMAT, "model_sha256": digest, "layout": _layout(tree),
            "iteration": solver.iteration, "exploitability": value, "nodes": tree.num_nodes,
            "depth": tree.depth,
            "infosets": [[p, k, a] for (p, k), a in zip(tree.infosets, tree.actions)],
            "regrets": solver.regrets.tolist(), "cumulative": solver.cumulative.tolist()}
    try:
        part = file.with_name(file.name + f".{os.getpid()}.part")
        part.write_text(json.dumps(data), encoding="utf-8")
        part.replace(file)
    except OSError as exc:  # a read-only run folder: the solve still counts
        log.warning("cwm_cfr: cannot write the solution cache %s: %s", file, exc)


def _read_cache(file: Path | None, digest: str) -> dict[str, Any] | None:
    """A saved solve of this very model, or None (missing, other model, unreadable)."""
    if file is None or not file.is_file():
        return None
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        if data.get("format") != CACHE_FORMAT or data.get("model_sha256") != digest:
            return None
        infosets = data["infosets"]
        width = sum(len(a) for _, _, a in infosets)
        if len(data["regrets"]) != width or len(data["cumulative"]) != width:
            raise ValueError("the arrays do not match the information states")
        return data
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        log.warning("cwm_cfr: ignoring the unreadable solution cache %s: %s", file, exc)
        return None


def _solution_of(saved: dict[str, Any], source: str) -> CWMSolution:
    """The average policy of a saved state (normalized per infoset; uniform where no
    weight was gathered)."""
    table: dict[Infoset, dict[Action, float]] = {}
    cumulative, at = saved["cumulative"], 0
    for player, key, actions in saved["infosets"]:
        weights = cumulative[at:at + len(actions)]
        at += len(actions)
        total = sum(weights)
        probs = ([w / total for w in weights] if total > 0
                 else [1.0 / len(actions)] * len(actions))
        table[(int(player), key)] = dict(zip(actions, probs))
    return CWMSolution(table, int(saved["iteration"]), float(saved["exploitability"]),
                       int(saved.get("nodes", 0)), 0.0, source, saved["model_sha256"],
                       {"infosets": len(saved["infosets"]), "depth": saved.get("depth")})
