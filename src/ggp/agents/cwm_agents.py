"""Agents that plan on a synthesized code world model, and their ground-truth peers.

* ``cwm_ismcts:run=DIR`` and ``cwm_mcts:run=DIR`` (seed 000 §4.2–4.4): (IS)MCTS on the
  CWM of a synthesis run directory (or a ``.py`` model file), with the model's own
  inference function when it has one (validated, ``retries`` tries, App. G.6) and, with
  ``value_file=auto`` or ``value_file=FILE``, a synthesized value function instead of
  rollouts. The CWM is untrusted code: the planner and the model live together in a
  sandboxed worker (:mod:`ggp.cwm.worker`); this process only forwards histories and
  actions. When the search fails the worker plays a random legal action of a resampled
  state; every such fallback is logged (logger ``ggp.cwm``, and as a JSON line in
  ``log=FILE``).
* ``gt_ismcts`` and ``gt_mcts``: the same planners on the reference model with its
  ground-truth inference — the upper bound a perfect CWM can reach.

Their settings are :class:`ggp.agents.settings.CWMSettings` (``value_file``,
``prior_file``: a synthesized policy prior for PUCT, ``auto`` by default; ``playout``,
``retries``, ``move_seconds``, ``memory_mb``, ``log``), :class:`~ggp.agents.settings.
CWMISMCTSSettings` (with ``pool``), :class:`~ggp.agents.settings.CWMMCTSSettings` (with
``solver`` and ``reuse``) and the ground-truth records; the table
is in docs/agents.md. ``value=`` and ``prior=`` are the old names of ``value_file=`` and
``prior_file=``, still accepted with the same meaning.
:attr:`CWMAgent.report` counts the simulations run (``stats["simulations"]``, shown by the
arena as sims/move), the root visits inherited by tree reuse (``stats["inherited"]``) and,
with a prior, its failures (``stats["prior_errors"]``).
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ggp.agents import AgentSpecError, register_agent
from ggp.agents.base import Agent, MatchInfo
from ggp.agents.search_agents import ISMCTSAgent, MCTSAgent
from ggp.agents.settings import (
    Belief,
    CWMISMCTSSettings,
    CWMMCTSSettings,
    CWMSettings,
    GroundTruthISMCTSSettings,
    GroundTruthMCTSSettings,
    ISMCTSSettings,
    MCTSSettings,
)
from ggp.core.model import WorldModel
from ggp.core.protocol import Action, ObsActionHistory
from ggp.rundir import model_file, model_source, prior_file, value_file
from ggp.sandbox import Limits, SandboxFailure, Worker
from ggp.sandbox.pool import POOL

log = logging.getLogger("ggp.cwm")

#: Agents whose untrusted code (the CWM) already runs in a sandbox of its own; the arena
#: does not wrap them in another (see ggp.arena.tournament).
SELF_SANDBOXED = ("cwm_ismcts", "cwm_mcts", "cwm_cfr", "fast_ismcts", "fast_mcts")


class CWMAgent(Agent):
    """Parent-side proxy of an agent planning on a CWM inside a sandboxed worker.

    After each match :attr:`report` holds the worker's counters (moves, searched moves,
    fallbacks, resample calls / valid samples / failures) and the fallbacks' reasons.
    """

    def __init__(self, init: dict[str, Any], *, move_seconds: float, memory_mb: int,
                 log_file: str = "") -> None:
        self.init = init
        self.name = f"cwm_{init['planner']}"
        self.move_seconds = move_seconds
        # a match start (worker start, the model's import and its load-time purity probe,
        # which runs the model's functions) is held to a move's deadline, at least 30 s
        self.start_seconds = max(30.0, move_seconds)
        # synthesized code only computes: no network, no processes, nothing outside its box
        self.limits = Limits(memory_mb=memory_mb, cpu_seconds=3600,
                             max_output_bytes=1024 * 1024, restricted=True, network=False)
        self.log_file = log_file
        self.worker: Worker | None = None
        self.report: dict[str, Any] = {}

    def start(self, info: MatchInfo) -> None:
        super().start(info)
        self.close()
        self.worker, _ = POOL.take_ready(
            "ggp.cwm.worker", self.init,
            lambda worker, _: worker.call("start", {"info": asdict(info)},
                                          timeout=self.start_seconds),
            start_timeout=self.start_seconds, limits=self.limits)

    def act(self, history: ObsActionHistory) -> Action:
        reply = self.worker.call("act", {"history": history}, timeout=self.move_seconds)
        if not (isinstance(reply, dict) and isinstance(reply.get("action"), str)):
            self.worker.close()  # out of protocol: never handed out again
            raise SandboxFailure("protocol", "the agent's worker answered out of protocol")
        if reply.get("fallback"):
            log.warning("%s, seat %d, move %d: search failed (%s); played a random legal "
                        "action of a resampled state", self.name, self.info.seat,
                        len(history), reply["fallback"])
        return reply["action"]

    def end(self, history: ObsActionHistory, returns: list[float]) -> None:
        if self.worker is None or not self.worker.alive:
            return
        self.report = self.worker.call("report", timeout=self.move_seconds)
        if self.log_file:
            line = {"agent": self.name, "model": self.init["filename"],
                    "seat": self.info.seat, "seed": self.info.seed, "returns": returns,
                    **self.report}
            with open(self.log_file, "a", encoding="utf-8") as out:
                out.write(json.dumps(line) + "\n")

    def close(self) -> None:
        """Hand the worker back to the pool (it is kept only if it is still alive; the
        next match's ``start`` resets it)."""
        if self.worker is not None:
            POOL.give_back(self.worker)
            self.worker = None


def cwm_init(run: str, planner: str, metadata: dict | None, *, value: str = "",
             prior: str = "", **settings: Any) -> dict[str, Any]:
    """The worker's init: the program (model plus optional value function and policy
    prior) and settings."""
    model = model_file(run)
    values = value_file(run, value)
    priors = prior_file(run, prior)
    return {"planner": planner, "source": model_source(model, values, priors),
            "filename": str(model), "metadata": metadata, "value": values is not None,
            "prior": priors is not None, **settings}


def move_deadline(time: float, move_seconds: float) -> float:
    """The worker's per-move deadline: ``move_seconds`` when given; otherwise, with a
    ``time`` budget, that budget plus a margin for what the search's clock does not
    cover (the reply's trip, the purity audit, one slow model call in flight at the
    deadline), so a CWM that spins costs about ``2·time + 5`` seconds rather than 120;
    without either, 120 s."""
    if move_seconds:
        return float(move_seconds)
    if time:
        return 2.0 * float(time) + 5.0
    return 120.0


def _make(model: WorldModel, planner: str, settings: CWMSettings,
          **search: Any) -> CWMAgent:
    s = settings
    if not s.run:
        raise AgentSpecError(f"cwm_{planner} needs run=DIR (a synthesis run directory) or "
                             "run=FILE.py, e.g. cwm_ismcts:run=runs/synth/leduc")
    init = cwm_init(s.run, planner, model.metadata.to_dict(), value=s.value_file,
                    prior=s.prior_file, sims=s.sims, time=s.time, rollouts=s.rollouts,
                    playout=s.playout, uct_c=s.uct_c, retries=s.retries, **search)
    log_file = str(Path(s.log).resolve()) if s.log else ""
    return CWMAgent(init, move_seconds=move_deadline(s.time, s.move_seconds),
                    memory_mb=s.memory_mb, log_file=log_file)


@register_agent("cwm_ismcts")
def make_cwm_ismcts(model: WorldModel, settings: CWMISMCTSSettings) -> CWMAgent:
    """ISMCTS on a CWM (``model``, the arena's game, only lends its public metadata)."""
    return _make(model, "ismcts", settings, pool=settings.pool)


@register_agent("cwm_mcts")
def make_cwm_mcts(model: WorldModel, settings: CWMMCTSSettings) -> CWMAgent:
    """MCTS-solver on a CWM, reusing its tree between moves (one resampled state per
    move in hidden-information games)."""
    return _make(model, "mcts", settings, solver=settings.solver, reuse=settings.reuse)


@register_agent("gt_ismcts")
def make_gt_ismcts(model: WorldModel, settings: GroundTruthISMCTSSettings) -> Agent:
    """ISMCTS on the reference model with its ground-truth inference (the upper bound)."""
    has_inference = model.has("resample_history") or model.has("resample_state")
    belief: Belief = "model" if has_inference else "auto"
    agent = ISMCTSAgent(model, ISMCTSSettings(**asdict(settings), belief=belief), "single")
    agent.name = "gt_ismcts"
    return agent


@register_agent("gt_mcts")
def make_gt_mcts(model: WorldModel, settings: GroundTruthMCTSSettings) -> Agent:
    """MCTS-solver on the reference model (the upper bound for perfect-information games)."""
    agent = MCTSAgent(model, MCTSSettings(**asdict(settings)))
    agent.name = "gt_mcts"
    return agent
