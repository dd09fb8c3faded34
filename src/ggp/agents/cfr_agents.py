"""``cwm_cfr:run=DIR``: play an equilibrium of a code world model, solved with CFR+.

At the first match start the CWM of a synthesis run directory (or a ``.py`` model file)
is solved by :func:`ggp.cwm.solve.solve_cwm`: its whole tree enumerated in a sandboxed
worker (refused with one line when it is too big: use ``cwm_ismcts`` then), CFR+ run on
the checked data in this process, the solution cached in memory and on disk, so later
matches (and later tournaments) reuse it. The agent then plays the average policy by
the information-state key of the history the arena hands it; no untrusted code runs
during play.

When the history is an information state the solved tree does not have (the CWM
disagrees with the real game), the agent falls back to a uniformly random action it can
justify — one of the legal actions if the referee shows them, else the actions the CWM
allows at its information states with the same current observation, else those with the
longest common history — logged (logger ``ggp.cwm``, and a JSON line in ``log=FILE``)
and counted in :attr:`CWMCFRAgent.report`. If nothing can be justified it raises, which
the match records as a forfeit.

Settings: ``iterations`` (most CFR+ iterations, 1000), ``target`` (stop once the
exploitability on the CWM's own tree is at most this, 0.001), ``max_nodes`` (200000),
``max_depth`` (200), ``probes`` (random paths for the size estimate, 64), ``seconds``
(the sandboxed walk's deadline, 300), ``memory_mb`` (2048), ``cache`` (the solution file;
default next to the model, ``none`` for memory only), ``log``.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from ggp.agents import AgentSpecError, register_agent
from ggp.agents.base import Agent, MatchInfo
from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import (
    Action,
    GameMetadata,
    ObsActionHistory,
    canonical_json,
    information_state_key,
)
from ggp.cwm.solve import CWMSolution, SolveSettings, solve_cwm
from ggp.rundir import model_file

log = logging.getLogger("ggp.cwm")


class CWMCFRAgent(Agent):
    """Plays the CFR+ average policy of a CWM (see the module docstring).

    After each match :attr:`report` holds ``moves``, ``fallbacks`` (moves played without
    the policy) with their reasons, and how the solution was obtained."""

    name = "cwm_cfr"

    def __init__(self, path: Path, metadata: GameMetadata | None, settings: SolveSettings,
                 cache: str | None, log_file: str = "") -> None:
        self.path, self.metadata, self.settings = path, metadata, settings
        self.cache, self.log_file = cache, log_file
        self.solution: CWMSolution | None = None
        self._views: dict[int, list[tuple[list, str, list[Action]]]] = {}
        self.report: dict[str, Any] = {}

    def start(self, info: MatchInfo) -> None:
        super().start(info)
        if self.solution is None:  # once per agent; solve_cwm's caches span agents
            self.solution = solve_cwm(self.path, self.metadata, self.settings,
                                      cache=self.cache)
            self._views = {}
        self.stats = {"moves": 0, "fallbacks": 0}
        self.fallbacks: list[dict[str, Any]] = []

    def probabilities(self, history: ObsActionHistory,
                      seat: int) -> dict[Action, float] | None:
        """The policy at ``seat``'s information state ``history``; None when the solved
        tree does not have it."""
        probs = self.solution.table.get((seat, information_state_key(history)))
        return dict(probs) if probs is not None else None

    def act(self, history: ObsActionHistory) -> Action:
        seat = self.info.seat
        offered, self.offered_actions = self.offered_actions, None
        self.stats["moves"] += 1
        probs = self.probabilities(history, seat)
        if probs is not None:
            actions = list(probs)
            action = self.rng.choices(actions, weights=[probs[a] for a in actions])[0]
            if not offered or action in offered:
                return action
            reason = f"the policy's action {action!r} is not among the legal actions shown"
        else:
            reason = "information state not in the solved tree"
        return self._fall_back(history, seat, offered, reason)

    def _fall_back(self, history: ObsActionHistory, seat: int, offered: list[Action] | None,
                   reason: str) -> Action:
        if offered:
            choices, why = sorted(offered), "the legal actions shown"
        else:
            choices, why = self.justified_actions(history, seat)
        if not choices:
            raise GGPError(f"cwm_cfr: {reason}, and no action of the CWM fits this "
                           "history (the CWM disagrees with the game)")
        action = self.rng.choice(choices)
        self.stats["fallbacks"] += 1
        self.fallbacks.append({"move": self.stats["moves"], "reason": reason, "from": why})
        log.warning("cwm_cfr, seat %d, move %d: %s; played a random one of %s",
                    seat, len(history), reason, why)
        return action

    def justified_actions(self, history: ObsActionHistory,
                          seat: int) -> tuple[list[Action], str]:
        """Actions the CWM allows at the solved information states most like
        ``history``: those with the same current observation, else those with the same
        number of decisions and the longest common prefix of (observation, action)
        pairs. Sorted; empty when the player never decides in the CWM."""
        if seat not in self._views:
            views = []
            for (player, key), probs in self.solution.table.items():
                if player == seat:
                    pairs = json.loads(key)
                    views.append(([canonical_json(p) for p in pairs[:-1]],
                                  canonical_json(pairs[-1][0]), list(probs)))
            self._views[seat] = views
        views = self._views[seat]
        now = canonical_json(history[-1][0])
        same = {a for _, obs, actions in views if obs == now for a in actions}
        if same:
            return sorted(same), "the CWM's actions at the same observation"
        past = [canonical_json([obs, action]) for obs, action in history[:-1]]

        def common(pairs: list[str]) -> int:
            n = 0
            while n < len(pairs) and pairs[n] == past[n]:
                n += 1
            return n

        alike = [(common(pairs), actions) for pairs, _, actions in views
                 if len(pairs) == len(past)]
        if not alike:
            return [], ""
        best = max(n for n, _ in alike)
        found = {a for n, actions in alike if n == best for a in actions}
        return sorted(found), "the CWM's actions at the most similar history"

    def end(self, history: ObsActionHistory, returns: list[float]) -> None:
        solution = self.solution
        self.report = {"stats": dict(self.stats), "fallbacks": list(self.fallbacks),
                       "solution": {"iterations": solution.iterations,
                                    "exploitability": solution.exploitability,
                                    "nodes": solution.nodes, "source": solution.source}}
        if self.log_file:
            line = {"agent": self.name, "model": str(self.path), "seat": self.info.seat,
                    "seed": self.info.seed, "returns": returns, **self.report}
            with open(self.log_file, "a", encoding="utf-8") as out:
                out.write(json.dumps(line) + "\n")


@register_agent("cwm_cfr")
def make_cwm_cfr(model: WorldModel, run: str = "", iterations: int = 1000,
                 target: float = 1e-3, max_nodes: int = 200_000, max_depth: int = 200,
                 probes: int = 64, seconds: float = 300.0, memory_mb: int = 2048,
                 cache: str = "", log: str = "") -> CWMCFRAgent:
    """CFR+ on a CWM (``model``, the arena's game, only lends its public metadata)."""
    if not run:
        raise AgentSpecError("cwm_cfr needs run=DIR (a synthesis run directory) or "
                             "run=FILE.py, e.g. cwm_cfr:run=examples/recorded/leduc_poker")
    if iterations < 1 or max_nodes < 1 or max_depth < 1 or probes < 0 or seconds <= 0:
        raise AgentSpecError("cwm_cfr: iterations, max_nodes, max_depth and seconds must "
                             "be positive, probes at least 0")
    settings = SolveSettings(iterations=iterations, target=target, max_nodes=max_nodes,
                             max_depth=max_depth, probes=probes, seconds=seconds,
                             memory_mb=memory_mb)
    file = None if cache == "none" else (str(Path(cache).resolve()) if cache else "")
    log_file = str(Path(log).resolve()) if log else ""
    return CWMCFRAgent(model_file(str(run)), model.metadata, settings, file, log_file)
