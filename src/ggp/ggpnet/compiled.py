"""The GGP player planning on a compiled model, with the reasoner as the truth.

A *compiled model* is a Python program of a GDL game (what ``ggp synth game.kif``
produces, docs/compile.md): the reasoner's moves, percepts, observations, legality, goals
and termination, in a state layout of its own. :class:`CompiledChooser` (``ggp serve
--chooser compiled --compiled RUN``) searches on that program, in a sandboxed worker
(:mod:`ggp.ggpnet.compiled_worker`), from root states the *program* makes from the match:

* GDL: the match's moves (:attr:`Decision.actions <ggp.ggpnet.choosers.Decision>`) applied
  to its initial state; the moves of roles choosing before ours in a simultaneous step are
  drawn at random for each simulation, as the reasoner's roots do;
* GDL-II: histories drawn by the program's own ``resample_history`` from this role's
  moves and percepts (:attr:`Decision.view`), replayed from its initial state.

The reasoner stays the truth, as the referee does for ``fast_mcts`` and ``fast_ismcts``
(:mod:`ggp.agents.guarded_agents`). Before each search the program is checked against
the reasoner at the real step: what the players see there (the acting player, the legal
move set, the rewards, every player's observation: the state's facts in GDL, the moves
and percepts in GDL-II) must be the reasoner's; a GDL-II history must reproduce this
role's real observations and moves, and the reasoner replays it to the same observables
at every state. From there, every move of the deciding role (up to ``successors``) and
one random walk (``walk_plies`` moves drawn from the reasoner) are replayed in both and
compared the same way (:func:`ggp.synth.differential.first_difference`, the differential
test's comparison). The first divergence, a failure of the program's box, or a move that
is not legal in the real game is logged (logger ``ggp.ggpnet``, and :attr:`report`), and
the player plans on the reasoner (``fallback``, the ordinary search) for the rest of the
match.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, canonical_json
from ggp.ggpnet.choosers import Chooser, Decision, SearchChooser, Stopped
from ggp.sandbox import Limits, SandboxFailure, Worker
from ggp.rundir import model_file
from ggp.sandbox.modelbox import CallBox, lit, pairs, step
from ggp.synth.differential import (
    Snapshot,
    default_limits,
    first_difference,
    local_replay,
    replay,
)

log = logging.getLogger("ggp.ggpnet")

#: Seconds kept for the search's answer to come back from its box.
_TRIP = 0.1
#: The name under which the check box keeps the program's state at the real step.
_REAL = "real"


class CompiledChooser(Chooser):
    """Search on a compiled model, checked against the reasoner (module docstring).

    Args:
        program: a synthesis run folder (its ``cwm.py``) or a ``.py`` model file.
        seed: seeds the walks, the searches and the program's history draws.
        fallback: the chooser planning on the reasoner after a divergence (default
            :class:`SearchChooser`).
        roots: histories drawn per GDL-II decision (the search's roots).
        successors: moves of the deciding role tried from each checked root.
        walk_plies: length of the random walk checked from each root.
        check_roots: roots checked against the reasoner per decision.
    """

    name = "compiled"

    def __init__(self, program: str | Path, seed: int | None = None, *,
                 fallback: Chooser | None = None, roots: int = 16, successors: int = 12,
                 walk_plies: int = 20, check_roots: int = 2) -> None:
        self.path = model_file(program)
        self.code = self.path.read_text(encoding="utf-8")
        self.rng = random.Random(seed)
        self.fallback = fallback or SearchChooser(seed)
        self.roots, self.successors = roots, successors
        self.walk_plies, self.check_roots = walk_plies, check_roots
        self._box: CallBox | None = None
        self._worker: Worker | None = None
        self._worker_metadata: dict | None = None
        self._model: WorldModel | None = None  # the reasoner of the current match
        # A box dies with the thread that started it (the kernel's parent-death signal
        # follows the thread), and the player runs each turn in a thread of its own: the
        # boxes are started by this one long-lived thread instead.
        self._spawner = ThreadPoolExecutor(1, thread_name_prefix="ggp-compiled-boxes")
        #: one entry per match: ``program`` planned on at the end (``compiled`` or
        #: ``reasoner``), ``decisions``, ``compiled_moves``, ``checked`` (states
        #: compared), ``divergence`` (None, or the decision number and the reason)
        self.report: list[dict[str, Any]] = []

    # ------------------------------------------------------------------ chooser
    def prepare(self, model: WorldModel) -> None:
        """Start the program's boxes during the start clock (a box takes a moment; one
        that fails to start is tried again, and reported, at the first decision)."""
        try:
            self._ensure_boxes(model)
        except SandboxFailure:
            pass

    def choose(self, decision: Decision, deadline: float, stop: threading.Event) -> str:
        record = self._record(decision.model)
        record["decisions"] += 1
        if record["program"] == "compiled":
            try:
                self._ensure_boxes(decision.model)
                roots, reason = self._roots(decision)
                if reason is None:
                    reason = self._check(decision, roots, record)
                if reason is None:
                    move, reason = self._search(decision, roots, deadline)
                    if reason is None:
                        record["compiled_moves"] += 1
                        return move
            except SandboxFailure as failure:
                reason = f"the compiled model's box failed ({failure.kind})"
            except GGPError as exc:  # e.g. no sandbox on this machine
                reason = f"the compiled model cannot be run here: {exc}"
            self._diverged(record, reason)
        return self.fallback.choose(decision, deadline, stop)

    def close(self) -> None:
        """Stop the program's boxes."""
        self._spawner.submit(self._close_boxes).result()

    def _close_boxes(self) -> None:
        if self._box is not None:
            self._box.close()
            self._box = None
        if self._worker is not None:
            self._worker.close()
            self._worker = None

    # ------------------------------------------------------------------ parts
    def _record(self, model: WorldModel) -> dict[str, Any]:
        """The report entry of the match ``model`` belongs to (a new match: a new one)."""
        if model is not self._model:
            self._model = model
            self.report.append({"program": "compiled", "decisions": 0, "compiled_moves": 0,
                                "checked": 0, "divergence": None})
        return self.report[-1]

    def _diverged(self, record: dict[str, Any], reason: str) -> None:
        record["program"] = "reasoner"
        record["divergence"] = {"decision": record["decisions"], "reason": reason}
        log.warning("decision %d: the compiled model %s diverges from the reasoner (%s); "
                    "planning on the reasoner for the rest of the match",
                    record["decisions"], self.path, reason)

    def _ensure_boxes(self, model: WorldModel) -> None:
        """Start the boxes that are not running (in the spawner thread, see __init__)."""
        self._spawner.submit(self._start_boxes, model.metadata.to_dict()).result()

    def _start_boxes(self, metadata: dict) -> None:
        if self._box is None or not self._box.alive:
            self._box = CallBox(self.code, loader="cwm", limits=default_limits(3600),
                                load_seconds=30.0)
        if self._worker is None or not self._worker.alive or \
                self._worker_metadata != metadata:
            if self._worker is not None:
                self._worker.close()
            # synthesized code only computes: no network, no processes, nothing outside
            limits = Limits(memory_mb=2048, cpu_seconds=3600, max_output_bytes=1 << 20,
                            restricted=True, network=False)
            self._worker = Worker("ggp.ggpnet.compiled_worker",
                                  {"source": self.code, "filename": str(self.path),
                                   "metadata": metadata},
                                  start_timeout=30.0, limits=limits)
            self._worker_metadata = metadata

    def _roots(self, decision: Decision) -> tuple[list[list[Any]], str | None]:
        """The search's roots as the program's action sequences from its initial state
        (the match's moves in GDL, the program's own history draws in GDL-II), or why
        there are none."""
        assert self._box is not None
        if self._box.load_error is not None:
            return [], ("the compiled model does not load: "
                        f"{self._box.load_error.strip()[-200:]}")
        if decision.actions is not None:
            return [list(decision.actions)], None
        if decision.view is None:
            return [], "the player gave no history of the match to drive the program with"
        view = [[observation, move] for observation, move in decision.view]
        draw = step("resample_history", pairs(view), lit(decision.player))
        results, _ = self._box.run([draw] * self.roots, 60.0, reset=True)
        seen, roots = set(), []
        for result in results:
            if "ok" not in result or not isinstance(result["ok"], list):
                problem = result.get("error") or result.get("unjson") or \
                    ("timed out" if "timeout" in result else "not a list of moves")
                return [], (f"the compiled model's resample_history failed: "
                            f"{str(problem).strip().splitlines()[-1][:300]}")
            key = canonical_json(result["ok"])
            if key not in seen:
                seen.add(key)
                roots.append(result["ok"])
        return roots, None

    def _check(self, decision: Decision, roots: list[list[Any]],
               record: dict[str, Any]) -> str | None:
        """Why the program disagrees with the reasoner at the real step or near it, or
        None (module docstring)."""
        assert self._box is not None
        model = decision.model
        for actions in roots[:self.check_roots]:
            if decision.view is not None:
                # GDL-II: the program's history draw, replayed by both from the start
                theirs = local_replay(model, actions)
                ours = replay(self._box, actions, keep=_REAL, seconds=30.0)
                record["checked"] += len(theirs)
                reason = (_differs(theirs, ours, actions, "from the initial state")
                          or _inconsistent(ours, actions, decision))
                if reason is not None:
                    return reason
                start = model.initial_state()
                for action in actions:
                    start = model.apply(start, action)
                before: list[Any] = []
            else:
                # GDL: the real state at the start of the step, in both
                root = decision.sample_root(self.rng)
                start = {**root, "pending": {}}
                ours = replay(self._box, [], prefix=actions, keep=_REAL, seconds=30.0)
                theirs = local_replay(model, [], start=start)
                record["checked"] += len(theirs)
                reason = _differs(theirs, ours, [], "at the real step")
                if reason is not None:
                    return reason
                # the moves the root drew for roles choosing before this one (a
                # simultaneous step is taken one role at a time)
                before = [root["pending"][r] for r in model.namespace.roles
                          if r in root["pending"]]
            tails = [before + [move] for move in decision.legal[:self.successors]]
            tails.append(self._walk(model, start))
            for tail in tails:
                theirs = local_replay(model, tail, start=start)
                ours = replay(self._box, tail, root=_REAL, seconds=30.0)
                record["checked"] += len(theirs)
                reason = _differs(theirs, ours, tail, "from the real state")
                if reason is not None:
                    return reason
        return None

    def _walk(self, model: WorldModel, root: Any) -> list[Any]:
        """A random walk from ``root`` on the reasoner (chance by its probabilities)."""
        actions: list[Any] = []
        state = root
        for _ in range(self.walk_plies):
            player = model.current_player(state)
            if player == TERMINAL:
                break
            if player == CHANCE:
                outcomes = model.chance_outcomes(state)
                action = self.rng.choices([o for o, _ in outcomes],
                                          weights=[p for _, p in outcomes])[0]
            else:
                action = self.rng.choice(list(model.legal_actions(state)))
            actions.append(action)
            state = model.apply(state, action)
        return actions

    def _search(self, decision: Decision, roots: list[list[Any]],
                deadline: float) -> tuple[str | None, str | None]:
        """``(move, None)``, or ``(None, why)`` when the program's search failed."""
        assert self._worker is not None
        seconds = deadline - time.monotonic() - _TRIP
        if seconds <= 0:
            raise Stopped
        reply = self._worker.call("search", {
            "roots": roots, "player": decision.player, "exact": decision.exact,
            "seconds": seconds, "seed": self.rng.randrange(1 << 31)}, timeout=seconds + 5.0)
        if not isinstance(reply, dict):
            return None, "the compiled model's search answered out of protocol"
        if "error" in reply:
            return None, f"the search on the compiled model failed: {reply['error']}"
        move = reply.get("action")
        if move not in decision.legal:
            return None, (f"the search on the compiled model chose {move!r}, not a legal "
                          f"move of the real game ({decision.legal[:8]})")
        return move, None


def _differs(theirs: list[Snapshot], ours: list[Snapshot], actions: list[Any],
             where: str) -> str | None:
    """The first difference between the reasoner's and the program's snapshots, said."""
    difference = first_difference(theirs, ours)
    if difference is None:
        return None
    ply, what, a, b = difference
    return f"{what} differ after moves {actions[:ply]!r} {where}: reasoner {a}, compiled {b}"


def _inconsistent(ours: list[Snapshot], actions: list[Any], decision: Decision) -> str | None:
    """Why the program's history draw does not reproduce this role's real view (its
    observations and moves at its decision points, and the real step), or None."""
    assert decision.view is not None
    me = decision.player
    view = iter(decision.view)
    for ply, snapshot in enumerate(ours[:len(actions)]):
        if snapshot.player != me:
            continue
        observation, move = next(view, (None, None))
        if move is None or snapshot.observations[me] != observation or actions[ply] != move:
            return (f"the compiled model's resample_history gave moves {actions[:ply + 1]!r} "
                    f"that do not reproduce this role's real observations and moves")
    end = ours[len(actions)] if len(ours) > len(actions) else None
    last = next(view, None)
    if end is None or last is None or next(view, None) is not None or end.player != me \
            or end.observations[me] != last[0]:
        return ("the compiled model's resample_history gave a history that does not end "
                "at this role's real observation")
    if sorted(map(canonical_json, end.legal)) != sorted(map(canonical_json, decision.legal)):
        return (f"legal action sets differ at the real step: reasoner {decision.legal[:8]}, "
                f"compiled {list(end.legal)[:8]}")
    return None
