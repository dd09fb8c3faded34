"""Run any agent in its own sandboxed worker process (:class:`ggp.sandbox.Worker`).

:class:`SandboxedAgent` is the parent-side proxy: an ordinary :class:`Agent` whose calls go
over the worker's pipe with a deadline. Any failure of the worker raises
:class:`ggp.sandbox.SandboxFailure`, which :func:`ggp.arena.match.play_match` turns into a
forfeit with the failure's kind as reason. The worker starts when the match starts (so a
worker that cannot even load its agent forfeits that match instead of stopping the
tournament); :meth:`SandboxedAgent.close` hands it to the process's pool
(:mod:`ggp.sandbox.pool`), and the next match of the same agent on the same game reuses
it, with the game and the agent built anew.

This module is also the worker's entry: :func:`make_handler` builds the agent inside the
child, from the agent spec and the game spec (the model is loaded in the child too, so a
synthesized world model never runs in the arena process either).
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from ggp.agents.base import Agent, MatchInfo
from ggp.arena.agent_specs import build_agent, is_file_spec
from ggp.core.errors import GGPError
from ggp.core.protocol import Action, ObsActionHistory, State
from ggp.load import load_model
from ggp.sandbox import Limits, SandboxFailure, Worker
from ggp.sandbox.pool import POOL

#: Limits of agent workers unless the caller gives others.
AGENT_LIMITS = Limits(memory_mb=2048, cpu_seconds=3600, max_output_bytes=1024 * 1024)


class SandboxedAgent(Agent):
    """An agent that lives in a limited subprocess.

    Args:
        spec: agent spec (registered name or ``.py`` file, see :mod:`ggp.arena.agent_specs`).
        game: game spec the worker loads its model from (registry name or file).
        move_seconds: wall-clock deadline per ``act`` call; the worker is killed after it.
        start_seconds: deadline for starting the worker, building the agent and ``start``.
        limits: the worker's resource limits.
    """

    def __init__(
        self,
        spec: str,
        game: str,
        *,
        move_seconds: float = 60.0,
        start_seconds: float = 60.0,
        limits: Limits = AGENT_LIMITS,
    ) -> None:
        # Files are copied into the worker's box at start; resolve them now.
        self.spec = _absolute_spec(spec)
        self.game = str(Path(game).resolve()) if Path(game).is_file() else game
        self.name = spec
        self.move_seconds = move_seconds
        self.start_seconds = start_seconds
        self.limits = limits
        self.worker: Worker | None = None
        self.cheats = False  # whether the agent in the worker sees the true state
        self.takes_legal_actions = False
        self._state: State | None = None
        self.report: dict[str, Any] = {}

    def start(self, info: MatchInfo) -> None:
        self.close()
        files: dict[str, str] = {}
        game = _copy_in(self.game, "game", files)
        agent = self.spec
        if is_file_spec(agent):
            name, sep, settings = agent.partition(":")
            agent = _copy_in(name, "agent", files) + sep + settings
        init = {"agent": agent, "game": game}
        self.worker, self.name = POOL.take_ready(
            "ggp.arena.sandboxed", init,
            lambda worker, _: worker.call("name", timeout=self.start_seconds),
            start_timeout=self.start_seconds, limits=self.limits, files=files)
        self.cheats = self.worker.call("sees_true_state", timeout=self.start_seconds)
        self.takes_legal_actions = self.worker.call("takes_legal_actions",
                                                    timeout=self.start_seconds)
        self.offered_actions = None
        self.worker.call("start", {"info": asdict(info)}, timeout=self.start_seconds)

    def act(self, history: ObsActionHistory) -> Action:
        if self.cheats:
            # A cheating baseline sees the true state; only such agents are sent it.
            self.worker.call("observe_true_state", {"state": self._state},
                             timeout=self.move_seconds)
        # legal actions the referee handed over travel with the move request
        offered, self.offered_actions = self.offered_actions, None
        action = self.worker.call("act", {"history": history, "legal": offered},
                                  timeout=self.move_seconds)
        if not isinstance(action, str):
            self.worker.close()  # out of protocol: never handed out again
            raise SandboxFailure("protocol", "the agent's worker answered something that is "
                                 "not an action")
        return action

    def observe_true_state(self, state: State) -> None:
        """Kept until :meth:`act`, which forwards it to the agent in the worker."""
        self._state = state

    def end(self, history: ObsActionHistory, returns: list[float]) -> None:
        if self.worker is not None and self.worker.alive:
            report = self.worker.call("end", {"history": history, "returns": returns},
                                      timeout=self.move_seconds)
            # the agent's counters (a search agent's simulations), as plain JSON data
            self.report = report if isinstance(report, dict) else {}

    def close(self) -> None:
        """Hand the worker back to the pool (kept only if still alive; the next match's
        ``start`` builds a fresh agent in it)."""
        if self.worker is not None:
            POOL.give_back(self.worker)
            self.worker = None


def _copy_in(path: str, stem: str, files: dict[str, str]) -> str:
    """The name under which the file ``path`` reaches the worker: the box shows the worker
    none of our files, so a model or agent file travels in as a copy (its neighbours do
    not: a file agent must be one self-contained file)."""
    if not Path(path).is_file():
        return path
    name = stem + Path(path).suffix
    try:
        files[name] = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise GGPError(f"{path} is not UTF-8 text ({exc.reason} at byte {exc.start}).") from None
    return name


def _absolute_spec(spec: str) -> str:
    if not is_file_spec(spec):
        return spec
    name, sep, settings = spec.partition(":")
    return str(Path(name).resolve()) + sep + settings


class _Handler:
    """The agent inside the worker; method names mirror :class:`Agent`. Every
    :meth:`start` loads the game and builds the agent anew (a file agent's module is
    executed again), so a worker reused for another match starts as a fresh one would."""

    def __init__(self, init: dict[str, Any]) -> None:
        self.init = init
        self._build()
        self._started = False

    def _build(self) -> None:
        self.agent = build_agent(self.init["agent"], load_model(self.init["game"]))

    def name(self) -> str:
        return self.agent.name

    def sees_true_state(self) -> bool:
        return self.agent.sees_true_state

    def takes_legal_actions(self) -> bool:
        return bool(self.agent.takes_legal_actions)

    def observe_true_state(self, state: dict[str, Any]) -> None:
        self.agent.observe_true_state(state)

    def start(self, info: dict[str, Any]) -> None:
        from ggp.arena.match import seed_global_generators

        if self._started:  # a reused worker: nothing carries over from the last match
            self._build()
        self._started = True
        # as run_match_task does in the arena process: the worker has its own generators
        seed_global_generators(info["seed"])
        self.agent.start(MatchInfo(**info))

    def act(self, history: list, legal: list | None = None) -> Any:
        if legal is not None:
            self.agent.observe_legal_actions(legal)
        return self.agent.act([(obs, action) for obs, action in history])

    def end(self, history: list, returns: list[float]) -> dict[str, Any]:
        """End the match; returns the agent's ``report`` (its counters)."""
        self.agent.end([(obs, action) for obs, action in history], returns)
        report = self.agent.report  # a file agent's code may have put anything there
        return report if isinstance(report, dict) else {}


def make_handler(init: dict[str, Any]) -> _Handler:
    """Worker entry point: load the game, build the agent."""
    return _Handler(init)
