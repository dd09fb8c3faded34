"""Differential testing of two world models, both untrusted: does a candidate behave
exactly like the original, and is it faster?

Both programs run in their own :class:`~ggp.sandbox.modelbox.CallBox` (restricted,
offline); the boxes only make the calls they are sent and return what the model returned.
Every comparison and every verdict is made here, in the parent (docs/sandbox.md).

* :func:`random_trajectories` walks the original along seeded random action sequences
  (chance outcomes drawn by their probabilities); the parent picks every move.
* :func:`replay` makes the same moves in a box and records, before every move and at the
  end, the acting player (so the terminal flag), the legal actions, the rewards, every
  player's observation and, at chance nodes, the outcome probabilities.
* :func:`compare_models` replays a set of action sequences (random ones and any given ones,
  e.g. games of search players recorded by :func:`search_trajectories`) in both boxes and
  reports the agreement and the first divergence with the moves that reproduce it.
* :func:`measure_speed` times seeded random playouts of both programs in their boxes
  (same seeds, interleaved rounds) and checks that both gave the same playouts.

States themselves are not compared: a faster program may keep its state differently, as
long as everything a player or a planner can see is the same.

The original may also be a trusted model in this process (a
:class:`~ggp.core.model.WorldModel` such as ggp's GDL reasoner, the ground truth of a
program compiled from a GDL description): it is walked, replayed and timed here, with
the same move choices as in a box (:func:`local_replay`, :func:`local_playouts`).
"""

from __future__ import annotations

import json
import math
import random
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ggp.core.errors import GGPError
from ggp.core.protocol import CHANCE, TERMINAL, canonical_json
from ggp.sandbox import Limits, SandboxFailure
from ggp.sandbox._model_box import random_playouts
from ggp.sandbox.modelbox import CallBox, lit, slot, step

#: Moves replayed per round trip to a box (bounds the size of one reply).
PLIES_PER_CALL = 25
#: Trajectories walked side by side in one box while drawing random action sequences.
WALK_BATCH = 100
#: about how many bytes one batch of walked games may answer with (the box allows 16 MiB)
WALK_REPLY_BYTES = 4 * 1024 * 1024


class DifferentialError(GGPError):
    """The original model itself could not be run (it does not load, or its box died)."""


def default_limits(seconds: float = 600.0) -> Limits:
    """Limits of a differential test's boxes."""
    return Limits(memory_mb=2048, cpu_seconds=int(seconds), file_mb=64,
                  max_output_bytes=1 << 20)


def open_box(code: str, *, limits: Limits | None = None, what: str = "model") -> CallBox:
    """A box with ``code`` loaded; :class:`DifferentialError` when it does not load."""
    try:
        box = CallBox(code, loader="cwm", limits=limits or default_limits(),
                      load_seconds=30.0)
    except SandboxFailure as failure:
        raise DifferentialError(f"the {what}'s box did not start ({failure.kind})") from None
    if box.load_error is not None:
        box.close()
        raise DifferentialError(f"the {what} does not load: {box.load_error.strip()[-300:]}")
    return box


# ------------------------------------------------------------------ trajectories
def random_trajectories(box: CallBox | Any, count: int, *, seed: int = 0,
                        max_steps: int = 1000, seconds: float = 120.0) -> list[list[Any]]:
    """``count`` seeded random action sequences of the model in ``box`` (or of a trusted
    in-process model), each to a terminal state or ``max_steps`` moves. Moves are drawn
    in the parent from the model's legal actions in a model-independent order (chance
    outcomes by their probabilities)."""
    rng = random.Random(seed)
    out: list[list[Any]] = []
    if not isinstance(box, CallBox):
        return [_local_walk(box, rng.randrange(1 << 30), max_steps) for _ in range(count)]
    batch = _walk_batch(box, seconds)
    while len(out) < count:
        size = min(batch, count - len(out))
        seeds = [rng.randrange(1 << 30) for _ in range(size)]
        out += _walk(box, seeds, max_steps, seconds)
    return out


def _walk_batch(box: CallBox, seconds: float) -> int:
    """How many games to walk at once: :data:`WALK_BATCH`, fewer when one game's first
    step already answers with a lot (bargaining's deal lists 5,793 chance outcomes, half
    a megabyte): a batch's reply stays near :data:`WALK_REPLY_BYTES`, far below the
    box's reply limit, whose breach would end the box."""
    probe = [step("INITIAL_STATE", keep="s0"), step("get_legal_actions", slot("s0")),
             step("get_chance_outcomes", slot("s0"), optional=True)]
    results = _run(box, probe, seconds, reset=True, what="original")
    size = len(json.dumps(results, default=str)) + 1
    return max(1, min(WALK_BATCH, WALK_REPLY_BYTES // (2 * size)))


def _walk(box: CallBox, seeds: list[int], max_steps: int, seconds: float) -> list[list[Any]]:
    rngs = [random.Random(s) for s in seeds]
    actions: list[list[Any]] = [[] for _ in seeds]
    live = list(range(len(seeds)))
    first = True
    while live:
        steps, owners = [], []
        for i in live:
            start = (step("INITIAL_STATE", keep=f"s{i}") if first else
                     step("apply_action", slot(f"s{i}"), lit(actions[i][-1]), keep=f"s{i}"))
            for call in (start, step("get_current_player", slot(f"s{i}")),
                         step("get_legal_actions", slot(f"s{i}")),
                         step("get_chance_outcomes", slot(f"s{i}"), optional=True)):
                steps.append(call)
                owners.append(i)
        results = _run(box, steps, seconds, reset=first, what="original")
        first = False
        bad = next((k for k, r in enumerate(results) if "ok" not in r
                    and not ("missing" in r and steps[k].get("optional"))), None)
        if bad is not None or len(results) < len(steps):
            k = bad if bad is not None else len(results) - 1
            i = owners[max(k, 0)]
            problem = _problem(results[k]) if results else "no result"
            raise DifferentialError(f"the original failed at {steps[k]['fn']} while walking "
                                    f"random games, after moves {actions[i]!r}: {problem}")
        still = []
        for n, i in enumerate(live):
            player = results[4 * n + 1]["ok"]
            if player == TERMINAL or len(actions[i]) >= max_steps:
                continue
            legal = results[4 * n + 2]["ok"] or []
            chance = results[4 * n + 3].get("ok") if player == CHANCE else None
            if player == CHANCE and chance:
                ordered = sorted(chance, key=lambda o: canonical_json(o[0]))
                action = rngs[i].choices([o[0] for o in ordered],
                                         weights=[float(o[1]) for o in ordered])[0]
            elif legal:
                ordered = sorted(legal, key=canonical_json)
                action = ordered[int(rngs[i].random() * len(ordered))]
            else:
                continue  # no move here: the replay shows whether the candidate agrees
            actions[i].append(action)
            still.append(i)
        live = still
    return actions


def _local_walk(model: Any, seed: int, max_steps: int) -> list[Any]:
    """One walk of :func:`_walk` on a trusted in-process model (the same draws)."""
    rng = random.Random(seed)
    actions: list[Any] = []
    state = model.initial_state()
    while len(actions) < max_steps:
        player = model.current_player(state)
        if player == TERMINAL:
            break
        if player == CHANCE:
            ordered = sorted(model.chance_outcomes(state), key=lambda o: canonical_json(o[0]))
            action = rng.choices([o[0] for o in ordered],
                                 weights=[float(o[1]) for o in ordered])[0]
        else:
            legal = sorted(model.legal_actions(state), key=canonical_json)
            if not legal:
                break
            action = legal[int(rng.random() * len(legal))]
        actions.append(action)
        state = model.apply(state, action)
    return actions


def search_trajectories(code: str, *, games: int, seed: int, players: list[str],
                        name: str = "original", batch: int = 4) -> list[list[Any]]:
    """Action sequences of ``games`` games of the model ``code`` between ``players``
    (agent specs such as ``mcts:sims=30:rollouts=1``, drawn per seat), recorded in a
    sandbox by :func:`ggp.synth.model_file.record_model_file`, ``batch`` games per
    sandbox (a recording holds every state, and a box's files are size-limited; a batch
    that does not fit is recorded game by game)."""
    out: list[list[Any]] = []
    for start in range(0, games, batch):
        size = min(batch, games - start)
        try:
            out += _record(code, size, seed + start, players, name)
        except GGPError:
            if size == 1:
                raise
            for k in range(size):
                out += _record(code, 1, seed + start + k, players, name)
    return out


def _record(code: str, games: int, seed: int, players: list[str],
            name: str) -> list[list[Any]]:
    import tempfile
    from pathlib import Path

    from ggp.synth.model_file import record_model_file

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{name}.py"
        path.write_text(code, encoding="utf-8")
        recorded = record_model_file(path, games=1, seed=seed, players=["random"],
                                     deck="open", view_player=0, test_games=games,
                                     test_seed=seed + 1, test_players=players)
    test = recorded["test"]
    if test is None:
        return []
    return [[s.action for s in t.steps if s.action is not None] for t in test.trajectories]


# ------------------------------------------------------------------------ replay
@dataclass
class Snapshot:
    """What a player or planner can see of one state of a replay (plain JSON values)."""

    player: Any
    legal: Any
    rewards: Any
    observations: Any
    chance: Any = None
    error: str | None = None  # the call that failed, and how


def replay(box: CallBox, actions: list[Any], *, seconds: float = 60.0,
           start: Any = None, prefix: Sequence[Any] = (), keep: str | None = None,
           root: str | None = None) -> list[Snapshot]:
    """The snapshots of the states along ``actions`` (one more than moves made; fewer when
    the model fails: the last snapshot then carries the error), from the initial state,
    from the state ``start`` (a JSON value handed to the model as it is), or from the
    state a previous replay kept in the box under the name ``root``.

    ``prefix``: moves made first, with no snapshot (a match so far); ``keep``: the name
    under which the last state (after ``prefix`` and ``actions``) is kept in the box, for
    later replays with ``root`` (which must not mutate it: ``apply_action`` never changes
    its argument).
    States stay in the box: they are never sent back, so they may have any layout."""
    snapshots: list[Snapshot] = []
    done = 0
    first = True
    while first or done < len(actions):
        chunk = actions[done:done + PLIES_PER_CALL]
        steps: list[dict[str, Any]] = []
        calls: list[str] = []
        if first:
            if root is not None:
                steps.append(step("=", slot(root), keep="s", quiet=True))
                calls.append("the kept state")
            else:
                steps.append(step("INITIAL_STATE", keep="s", quiet=True) if start is None
                             else step("=", lit(start), keep="s", quiet=True))
                calls.append("INITIAL_STATE" if start is None else "the start state")
            for action in prefix:
                steps.append(step("apply_action", slot("s"), lit(action), keep="s",
                                  quiet=True))
                calls.append(f"apply_action(state, {action!r})")
            steps += _probes()
            calls += _PROBE_CALLS
        for action in chunk:
            steps += [step("apply_action", slot("s"), lit(action), keep="s", quiet=True),
                      *_probes()]
            calls += [f"apply_action(state, {action!r})", *_PROBE_CALLS]
        if keep is not None and done + len(chunk) >= len(actions):
            steps.append(step("=", slot("s"), keep=keep, quiet=True))
            calls.append("the kept state")
        results = _run(box, steps, seconds, reset=first and root is None, what="model")
        snapshots += _snapshots(results, calls)
        if not snapshots or snapshots[-1].error is not None:
            return snapshots
        done += len(chunk)
        first = False
    return snapshots


def local_replay(model: Any, actions: list[Any], *, start: Any = None) -> list[Snapshot]:
    """:func:`replay` on a trusted model in this process (a
    :class:`~ggp.core.model.WorldModel`, e.g. ggp's GDL reasoner), so that it can be
    compared with a boxed program by :func:`first_difference`. Values are turned into
    plain JSON as a box's answers are."""
    snapshots: list[Snapshot] = []
    call = "INITIAL_STATE"
    try:
        state = model.initial_state() if start is None else json.loads(json.dumps(start))
        for index in range(len(actions) + 1):
            call = "get_current_player(state)"
            player = model.current_player(state)
            chance = None
            if player == CHANCE:
                call = "get_chance_outcomes(state)"
                chance = [[a, p] for a, p in model.chance_outcomes(state)]
            call = "get_legal_actions(state)"
            legal = list(model.legal_actions(state))
            call = "get_rewards(state)"
            rewards = list(model.rewards(state))
            call = "get_observations(state)"
            observations = json.loads(json.dumps(model.observations(state)))
            snapshots.append(Snapshot(player, legal, rewards, observations, chance))
            if index < len(actions):
                call = f"apply_action(state, {actions[index]!r})"
                state = model.apply(state, actions[index])
    except Exception as exc:  # noqa: BLE001 - a failing call is a snapshot, as in a box
        snapshots.append(Snapshot(None, None, None, None,
                                  error=f"{call}: {type(exc).__name__}: {exc}"[:400]))
    return snapshots


_PROBE_CALLS = ["get_current_player(state)", "get_legal_actions(state)",
                "get_rewards(state)", "get_observations(state)",
                "get_chance_outcomes(state)"]


def _probes() -> list[dict[str, Any]]:
    return [step("get_current_player", slot("s")), step("get_legal_actions", slot("s")),
            step("get_rewards", slot("s")), step("get_observations", slot("s")),
            step("get_chance_outcomes", slot("s"), optional=True)]


def _snapshots(results: list[dict[str, Any]], calls: list[str]) -> list[Snapshot]:
    out: list[Snapshot] = []
    values: list[Any] = []
    for index, call in enumerate(calls):
        if index >= len(results):
            break
        result = results[index]
        if call not in _PROBE_CALLS:  # a call that makes (or keeps) the state
            if "ok" not in result:
                out.append(Snapshot(None, None, None, None, error=f"{call}: {_problem(result)}"))
                return out
            values = []
            continue
        if "ok" in result:
            values.append(result["ok"])
        elif "missing" in result and call.startswith("get_chance_outcomes"):
            values.append(None)
        else:
            out.append(Snapshot(None, None, None, None, error=f"{call}: {_problem(result)}"))
            return out
        if len(values) == len(_PROBE_CALLS):
            player, legal, rewards, observations, chance = values
            if player == CHANCE and chance is None and isinstance(legal, list) and legal:
                # no get_chance_outcomes: the protocol's default, equally likely outcomes
                chance = [[action, 1.0 / len(legal)] for action in legal]
            out.append(Snapshot(player, legal, rewards, observations,
                                chance if player == CHANCE else None))
    return out


def _problem(result: dict[str, Any]) -> str:
    if "error" in result:
        return str(result["error"]).strip().splitlines()[-1][:300] if result["error"] else "error"
    if "timeout" in result:
        return "timed out"
    if "missing" in result:
        return "not defined"
    if "unjson" in result:
        return f"returned a value that is not JSON ({result['unjson'][:200]})"
    return "no result"


def _run(box: CallBox, steps: list, seconds: float, *, reset: bool,
         what: str) -> list[dict[str, Any]]:
    try:
        results, _ = box.run(steps, seconds, reset=reset)
    except SandboxFailure as failure:
        if what == "original":
            raise DifferentialError(f"the original's box died ({failure.kind})") from None
        return [{"error": f"the box died ({failure.kind})", "type": "SandboxFailure"}]
    return results


# -------------------------------------------------------------------- comparison
@dataclass
class Divergence:
    """Where two models first disagree."""

    trajectory: int
    ply: int  # moves made before the differing state
    what: str
    original: str
    candidate: str
    actions: list[Any]  # the moves from the initial state that reproduce it
    source: str = "random"

    def describe(self) -> str:
        return (f"{self.what} differ after {self.ply} moves {self.actions!r} "
                f"({self.source} trajectory {self.trajectory}): original {self.original}, "
                f"candidate {self.candidate}")

    def to_dict(self) -> dict[str, Any]:
        return {"trajectory": self.trajectory, "ply": self.ply, "what": self.what,
                "original": self.original, "candidate": self.candidate,
                "actions": self.actions, "source": self.source}


@dataclass
class DifferentialReport:
    """Agreement of a candidate with an original over replayed trajectories."""

    trajectories: int = 0
    agreed: int = 0
    states: int = 0
    by_source: dict[str, list[int]] = field(default_factory=dict)  # source -> [agreed, n]
    first_divergence: Divergence | None = None

    @property
    def agreement(self) -> float:
        return self.agreed / self.trajectories if self.trajectories else 0.0

    @property
    def identical(self) -> bool:
        return self.trajectories > 0 and self.agreed == self.trajectories

    def to_dict(self) -> dict[str, Any]:
        return {"trajectories": self.trajectories, "agreed": self.agreed,
                "agreement": self.agreement, "states": self.states,
                "by_source": self.by_source,
                "first_divergence": self.first_divergence.to_dict()
                if self.first_divergence else None}


def first_difference(original: list[Snapshot], candidate: list[Snapshot]
                     ) -> tuple[int, str, str, str] | None:
    """``(ply, what, original's, candidate's)`` of the first disagreement, or None."""
    for ply, (a, b) in enumerate(zip(original, candidate)):
        for what, x, y, same in (
            ("errors", a.error, b.error, lambda x, y: (x is None) == (y is None)),
            ("current players (terminal flags)", a.player, b.player, _same),
            ("legal action sets", a.legal, b.legal, _same_set),
            ("rewards", a.rewards, b.rewards, _same_numbers),
            ("observations", a.observations, b.observations, _same),
            ("chance outcome probabilities", a.chance, b.chance, _same_chance),
        ):
            if not same(x, y):
                return ply, what, _short(x), _short(y)
    if len(original) != len(candidate):
        ply = min(len(original), len(candidate))
        return ply, "trajectory lengths", str(len(original)), str(len(candidate))
    return None


def _replay_any(model: CallBox | Any, actions: list[Any], seconds: float) -> list[Snapshot]:
    if isinstance(model, CallBox):
        return replay(model, actions, seconds=seconds)
    return local_replay(model, actions)


def compare_models(original: CallBox | Any, candidate: CallBox, *, random_count: int = 1000,
                   seed: int = 0, extra: Iterable[tuple[str, list[Any]]] = (),
                   max_steps: int = 1000, seconds: float = 60.0,
                   on_trajectory: Callable[[int, int], None] | None = None,
                   ) -> DifferentialReport:
    """Replay ``random_count`` seeded random action sequences of the original, and the
    ``extra`` ``(source, actions)`` pairs, in both boxes (the original may be a trusted
    in-process model instead); count the trajectories on which every snapshot agrees and
    keep the first divergence."""
    sequences = [("random", a) for a in random_trajectories(original, random_count,
                                                               seed=seed, max_steps=max_steps)]
    sequences += [(source, list(a)) for source, a in extra]
    report = DifferentialReport()
    for index, (source, actions) in enumerate(sequences):
        theirs = _replay_any(original, actions, seconds)
        ours = replay(candidate, actions, seconds=seconds)
        report.trajectories += 1
        report.states += len(theirs)
        counts = report.by_source.setdefault(source, [0, 0])
        counts[1] += 1
        difference = first_difference(theirs, ours)
        if difference is None:
            report.agreed += 1
            counts[0] += 1
        elif report.first_divergence is None:
            ply, what, a, b = difference
            report.first_divergence = Divergence(index, ply, what, a, b, actions[:ply], source)
        if on_trajectory:
            on_trajectory(index + 1, len(sequences))
    return report


def _same(x: Any, y: Any) -> bool:
    try:
        return x == y or canonical_json(x) == canonical_json(y)
    except (TypeError, ValueError):
        return False


def _same_set(x: Any, y: Any) -> bool:
    if x is None or y is None:
        return x is y
    try:
        return (len(x) == len(set(map(canonical_json, x))) == len(y)
                and set(map(canonical_json, x)) == set(map(canonical_json, y)))
    except (TypeError, ValueError):
        return False


def _same_numbers(x: Any, y: Any) -> bool:
    try:
        return len(x) == len(y) and all(math.isclose(float(a), float(b), abs_tol=1e-9)
                                        for a, b in zip(x, y))
    except (TypeError, ValueError):
        return False


def _same_chance(x: Any, y: Any) -> bool:
    if x is None or y is None:
        return x is y
    try:
        a = {canonical_json(o): float(p) for o, p in x}
        b = {canonical_json(o): float(p) for o, p in y}
    except (TypeError, ValueError):
        return False
    return a.keys() == b.keys() and all(math.isclose(a[k], b[k], abs_tol=1e-9) for k in a)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 300 else text[:300] + f"... ({len(text)} characters)"


# ------------------------------------------------------------------------- speed
@dataclass
class SpeedReport:
    """Random playouts per second of both programs, measured in their boxes."""

    original: float
    candidate: float
    playouts: int  # per program per round
    rounds: int
    same_playouts: bool  # both made the same seeded playouts (else the figures mean little)
    mismatch: str | None = None

    @property
    def ratio(self) -> float:
        return self.candidate / self.original if self.original else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"original_playouts_per_s": self.original,
                "candidate_playouts_per_s": self.candidate, "ratio": self.ratio,
                "playouts": self.playouts, "rounds": self.rounds,
                "same_playouts": self.same_playouts, "mismatch": self.mismatch}


def measure_speed(original: CallBox | Any, candidate: CallBox, *, playouts: int = 100,
                  rounds: int = 3, seed: int = 0, max_steps: int = 1000,
                  seconds: float = 300.0) -> SpeedReport:
    """Time ``playouts`` seeded random playouts in each box, ``rounds`` times, the two in
    alternating order (so machine load hits both alike); the median time per round gives
    playouts per second. The timer runs here; the playouts' answers (length and returns
    per seed) must be the same in both boxes. A trusted in-process original makes its
    playouts here (:func:`local_playouts`; no trip to a box)."""
    rng = random.Random(seed)
    times: dict[str, list[float]] = {"original": [], "candidate": []}
    same, mismatch = True, None
    for r in range(rounds):
        seeds = [rng.randrange(1 << 30) for _ in range(playouts)]
        answers = {}
        order = [("original", original), ("candidate", candidate)]
        for name, box in (order if r % 2 == 0 else order[::-1]):
            call = [step("=playouts", lit(seeds), lit(max_steps))]
            start = time.perf_counter()
            if isinstance(box, CallBox):
                results = _run(box, call, seconds, reset=True, what=name)
            else:
                results = [local_playouts(box, seeds, max_steps)]
            times[name].append(time.perf_counter() - start)
            answers[name] = results[0].get("ok") if results else None
            if answers[name] is None and mismatch is None:
                problem = _problem(results[0]) if results else "no result"
                mismatch = f"the {name}'s playouts failed: {problem}"
                same = False
        if same and not _same(answers["original"], answers["candidate"]):
            same = False
            mismatch = _first_playout_mismatch(seeds, answers["original"],
                                               answers["candidate"])
    speed = {k: playouts / statistics.median(v) for k, v in times.items()}
    return SpeedReport(speed["original"], speed["candidate"], playouts, rounds, same,
                       mismatch)


def local_playouts(model: Any, seeds: list[int], max_steps: int) -> dict[str, Any]:
    """The box's ``=playouts`` (:func:`ggp.sandbox._model_box.random_playouts`) made by a
    trusted in-process model: the same moves for the same seeds, so the answers can be
    compared with a box's; ``{"ok": [[steps, returns], ...]}`` or ``{"error": ...}``."""
    ns = model.namespace
    functions = {name: getattr(ns, name, None) for name in (
        "get_current_player", "get_legal_actions", "apply_action", "get_rewards",
        "get_chance_outcomes")}
    try:
        return {"ok": random_playouts(functions, model.initial_state, seeds, max_steps)}
    except Exception as exc:  # noqa: BLE001 - reported as a failed measurement
        return {"error": f"{type(exc).__name__}: {exc}"}


def _first_playout_mismatch(seeds: list[int], a: Any, b: Any) -> str:
    if not isinstance(a, list) or not isinstance(b, list) or len(a) != len(b):
        return "the candidate did not answer one result per playout"
    for seed, x, y in zip(seeds, a, b):
        if not _same(x, y):
            return f"playout seed {seed}: original {_short(x)}, candidate {_short(y)}"
    return "?"


__all__ = ["DifferentialError", "DifferentialReport", "Divergence", "Snapshot",
           "SpeedReport", "compare_models", "default_limits", "first_difference",
           "local_playouts", "local_replay", "measure_speed", "open_box", "random_trajectories", "replay",
           "search_trajectories"]
