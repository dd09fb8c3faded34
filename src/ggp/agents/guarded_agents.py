"""Planning on a compiled (faster) model while the original stays the check: ``fast_mcts``
and ``fast_ismcts``.

``fast_ismcts:run=DIR`` (DIR a ``ggp synth --faster`` folder holding ``faster.py`` and
``original.py``; or ``fast=FILE:original=FILE``) plays like ``cwm_ismcts`` on the faster
program, and before each of its moves checks the faster program against the original at
the match's real step, in two boxes of their own, the verdict made in this process:

* perfect-information games: the real observation is the state; both programs must agree
  that the seat is to move, must give back that observation from that state, and must
  list the same legal actions (the agent's own turn);
* hidden-information games with an inference function: the faster program samples a
  history consistent with the real observations (``resample_history``); it must reproduce
  the seat's real observations and actions along it, and the original must behave the same
  at every state of it (players, legal sets, rewards, observations, chance probabilities).

The first divergence is logged (logger ``ggp.cwm``, the agent's ``report["divergence"]``,
and ``log=FILE``) and the agent falls back to ``cwm_*`` on the original for the rest of the
match. The referee stays the truth throughout: these checks only decide which program the
agent plans on. A game without an inference function and with hidden information cannot be
checked this way (nothing at the real step pins a state down); the agent then plans on the
faster program unchecked and says so in its report.

Settings: :class:`ggp.agents.settings.GuardedSettings` (the table is in docs/agents.md).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from ggp.agents import AgentSpecError, register_agent
from ggp.agents.base import Agent, MatchInfo
from ggp.agents.cwm_agents import CWMAgent, cwm_init
from ggp.agents.settings import GuardedSettings
from ggp.core.model import WorldModel
from ggp.core.protocol import Action, ObsActionHistory, canonical_json
from ggp.sandbox import SandboxFailure
from ggp.sandbox.modelbox import CallBox, lit, pairs, step
from ggp.synth.differential import default_limits, first_difference, replay

log = logging.getLogger("ggp.cwm")


class Guard:
    """The faster and the original program in boxes, compared at a match's real steps."""

    def __init__(self, fast_code: str, original_code: str, *, perfect_information: bool,
                 retries: int = 3, seconds: float = 30.0) -> None:
        limits = default_limits(600)
        self.fast = CallBox(fast_code, loader="cwm", limits=limits, load_seconds=seconds)
        self.original = CallBox(original_code, loader="cwm", limits=limits,
                                load_seconds=seconds)
        self.perfect, self.retries, self.seconds = perfect_information, retries, seconds
        self.inference = "resample_history" in self.fast.describe()["functions"] \
            if self.fast.load_error is None else False

    @property
    def checkable(self) -> bool:
        return self.perfect or self.inference

    def check(self, history: ObsActionHistory, seat: int) -> str | None:
        """Why the two programs disagree at this real decision, or None."""
        for box, name in ((self.fast, "faster"), (self.original, "original")):
            if box.load_error is not None:
                return f"the {name} program does not load: {box.load_error.strip()[-200:]}"
        try:
            if self.perfect:
                return self._check_state(history, seat)
            if self.inference:
                return self._check_history(history, seat)
        except SandboxFailure as failure:
            return f"a program's box died during the check ({failure.kind})"
        return None

    def _probe(self, box: CallBox, state: Any) -> list[dict[str, Any]]:
        results, _ = box.run([step("=", lit(state), keep="s"),
                              step("get_current_player", {"slot": "s"}),
                              step("get_observations", {"slot": "s"}),
                              step("get_legal_actions", {"slot": "s"})],
                             self.seconds, reset=True)
        return results

    def _check_state(self, history: ObsActionHistory, seat: int) -> str | None:
        observation = history[-1][0]
        answers = {}
        for name, box in (("faster", self.fast), ("original", self.original)):
            results = self._probe(box, observation)
            if len(results) < 4 or any("ok" not in r for r in results):
                return f"the {name} program fails on the real state"
            player, observations, legal = (r["ok"] for r in results[1:])
            if player != seat:
                return f"the {name} program says player {player} moves, not seat {seat}"
            try:
                seen = observations[seat]
            except (IndexError, KeyError, TypeError):
                return f"the {name} program gives no observation for seat {seat}"
            if canonical_json(seen) != canonical_json(observation):
                return (f"the {name} program cannot produce the real observation from its "
                        "own state")
            answers[name] = legal
        return _legal_mismatch(answers["faster"], answers["original"])

    def _check_history(self, history: ObsActionHistory, seat: int) -> str | None:
        problem = "no sample"
        for _ in range(self.retries):
            results, _ = self.fast.run([step("resample_history", pairs(history), lit(seat))],
                                       self.seconds, reset=True)
            if not results or "ok" not in results[0] or not isinstance(results[0]["ok"], list):
                problem = "its resample_history failed"
                continue
            actions = results[0]["ok"]
            fast = replay(self.fast, actions, seconds=self.seconds)
            problem = _reproduces(fast, actions, history, seat)
            if problem is None:
                original = replay(self.original, actions, seconds=self.seconds)
                difference = first_difference(original, fast)
                if difference is None:
                    return None
                ply, what, theirs, ours = difference
                return (f"{what} differ after {ply} moves of a sampled history "
                        f"{actions[:ply]!r}: original {theirs}, faster {ours}")
        return f"the faster program cannot produce the real observations ({problem})"

    def close(self) -> None:
        self.fast.close()
        self.original.close()


def _legal_mismatch(fast: Any, original: Any) -> str | None:
    try:
        a, b = set(map(canonical_json, fast)), set(map(canonical_json, original))
    except (TypeError, ValueError):
        return "a program's legal actions are not a list of JSON values"
    if a == b and len(fast) == len(a):
        return None
    return (f"legal actions differ on the agent's turn: only faster {sorted(a - b)[:5]}, "
            f"only original {sorted(b - a)[:5]}")


def _reproduces(snapshots: list, actions: list, history: ObsActionHistory,
                seat: int) -> str | None:
    """Whether the replay of ``actions`` shows the seat its real observations and has it
    take its real actions (None) or why not."""
    views = iter(history)
    expected = next(views)
    for index, snapshot in enumerate(snapshots):
        if snapshot.error is not None:
            return f"replaying its sample fails: {snapshot.error}"
        if snapshot.player != seat:
            continue
        try:
            seen = snapshot.observations[seat]
        except (IndexError, KeyError, TypeError):
            return "no observation for the seat"
        if canonical_json(seen) != canonical_json(expected[0]):
            return f"observation {index} differs from the real one"
        if index == len(snapshots) - 1:
            return None if next(views, None) is None else "the sample ends too early"
        if actions[index] != expected[1]:
            return f"the sample's action {actions[index]!r} is not the seat's own"
        expected = next(views, None)
        if expected is None:
            return "the sample goes past the real history"
    return "the sample does not end at the seat's turn"


class GuardedAgent(Agent):
    """A CWM agent on the faster program that falls back to the original (see the module
    docstring). After a match :attr:`report` holds the active agent's report plus
    ``program`` (``faster`` or ``original``), ``checks`` and ``divergence`` (or None)."""

    def __init__(self, fast: CWMAgent, original: CWMAgent, fast_code: str,
                 original_code: str, perfect_information: bool, log_file: str = "") -> None:
        self.fast, self.original = fast, original
        self.codes = (fast_code, original_code)
        self.perfect = perfect_information
        self.name = fast.name.replace("cwm_", "fast_")
        self.log_file = log_file
        self.guard: Guard | None = None
        self.active: CWMAgent = fast
        self.report: dict[str, Any] = {}
        self.divergence: dict[str, Any] | None = None
        self.checks = 0

    def start(self, info: MatchInfo) -> None:
        super().start(info)
        self.active, self.divergence, self.checks = self.fast, None, 0
        if self.guard is None:
            self.guard = Guard(*self.codes, perfect_information=self.perfect)
        self.fast.start(info)

    def observe_legal_actions(self, actions: list[Action]) -> None:
        super().observe_legal_actions(actions)
        self.active.observe_legal_actions(actions)

    def act(self, history: ObsActionHistory) -> Action:
        if self.active is self.fast and self.guard is not None and self.guard.checkable:
            self.checks += 1
            reason = self.guard.check(history, self.info.seat)
            if reason is not None:
                self.divergence = {"move": len(history) - 1, "reason": reason}
                log.warning("%s, seat %d, move %d: the faster program diverges from the "
                            "original (%s); planning on the original for the rest of the "
                            "match", self.name, self.info.seat, len(history) - 1, reason)
                self.fast.close()
                self.active = self.original
                self.original.start(self.info)
        return self.active.act(history)

    def end(self, history: ObsActionHistory, returns: list[float]) -> None:
        self.active.end(history, returns)
        self.report = {**self.active.report,
                       "program": "faster" if self.active is self.fast else "original",
                       "checks": self.checks, "divergence": self.divergence,
                       "checked": bool(self.guard and self.guard.checkable)}
        if self.log_file:
            line = {"agent": self.name, "seat": self.info.seat, "seed": self.info.seed,
                    "returns": returns, **self.report}
            with open(self.log_file, "a", encoding="utf-8") as out:
                out.write(json.dumps(line) + "\n")

    def close(self) -> None:
        self.fast.close()
        self.original.close()
        if self.guard is not None:
            self.guard.close()
            self.guard = None


def _files(run: str, fast: str, original: str) -> tuple[Path, Path]:
    if run:
        folder = Path(run)
        fast_file, original_file = folder / "faster.py", folder / "original.py"
    elif fast and original:
        fast_file, original_file = Path(fast), Path(original)
    else:
        raise AgentSpecError("fast_* needs run=DIR (a ggp synth --faster folder) or "
                             "fast=FILE.py:original=FILE.py")
    for path in (fast_file, original_file):
        if not path.is_file():
            raise AgentSpecError(f"No program at {path} (a --faster folder keeps "
                                 "faster.py only when a candidate was kept).")
    return fast_file, original_file


def _make(model: WorldModel, planner: str, settings: GuardedSettings) -> GuardedAgent:
    s = settings
    fast_file, original_file = _files(s.run, s.fast, s.original)
    metadata = model.metadata.to_dict()
    fast_agent, original_agent = (
        CWMAgent(cwm_init(str(path), planner, metadata, sims=s.sims, time=s.time,
                          rollouts=s.rollouts, uct_c=s.uct_c, retries=s.retries),
                 move_seconds=s.move_seconds, memory_mb=s.memory_mb)
        for path in (fast_file, original_file))
    return GuardedAgent(fast_agent, original_agent, fast_file.read_text(encoding="utf-8"),
                        original_file.read_text(encoding="utf-8"),
                        model.metadata.perfect_information,
                        log_file=str(Path(s.log).resolve()) if s.log else "")


@register_agent("fast_ismcts")
def make_fast_ismcts(model: WorldModel, settings: GuardedSettings) -> GuardedAgent:
    """ISMCTS on a faster program, checked against the original at every real move."""
    return _make(model, "ismcts", settings)


@register_agent("fast_mcts")
def make_fast_mcts(model: WorldModel, settings: GuardedSettings) -> GuardedAgent:
    """MCTS on a faster program, checked against the original at every real move."""
    return _make(model, "mcts", settings)
