"""``ggp check``: a conformance checker for world models.

It plays seeded random games through a model and records every protocol violation it
meets, each with the shortest action sequence (from the initial state) that reproduces
it. It is the first gate for LLM-written models, so messages say precisely what is wrong.

Checked at every visited state: JSON-serializable states and observations, current player
in range, player names, legal actions (a list of distinct strings, none at terminal, some
elsewhere), chance probabilities (non-negative, summing to 1, matching the legal actions),
rewards (one finite number per player), observations (one per player; the full state in
perfect-information games), ``apply_action`` (does not mutate its input, is deterministic,
returns a JSON state), termination within a step bound, and — where the model has one —
that ``resample_history`` reproduces the player's observations.
"""

from __future__ import annotations

import copy
import math
import random
from dataclasses import dataclass, field
from typing import Any

from ggp.belief.replay import sample_with_model
from ggp.core.errors import GGPError, ModelError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, Action, canonical_json


@dataclass(frozen=True)
class Violation:
    """One protocol violation and the actions that reproduce it."""

    kind: str
    function: str
    message: str
    actions: tuple[Action, ...]

    def __str__(self) -> str:
        shown = [repr(a) for a in self.actions]
        if len(shown) > 24:
            shown = shown[:12] + [f"... {len(shown) - 20} more ..."] + shown[-8:]
        seq = ", ".join(shown) or "(initial state)"
        return f"[{self.kind}] {self.function}: {self.message}\n    reproduce with: {seq}"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "function": self.function, "message": self.message,
                "actions": list(self.actions)}


@dataclass
class CheckReport:
    """All violations found (shortest reproducer per kind) and what was covered."""

    model: str
    games: int = 0
    steps: int = 0
    terminal_returns: list[list[float]] = field(default_factory=list)
    violations: dict[str, Violation] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.violations

    def add(self, violation: Violation) -> None:
        old = self.violations.get(violation.kind)
        if old is None or len(violation.actions) < len(old.actions):
            self.violations[violation.kind] = violation


class _Stop(Exception):
    """Ends the current game after a violation that makes going on meaningless."""


def check_model(
    model: WorldModel,
    *,
    games: int = 50,
    seed: int = 0,
    max_steps: int = 5000,
    check_inference: bool = True,
) -> CheckReport:
    """Play ``games`` seeded random games through ``model`` and report violations."""
    report = CheckReport(model.name)
    probed = _probe_metadata(model)
    rng = random.Random(seed)
    for _ in range(games):
        _check_one_game(model, report, rng, max_steps, check_inference)
        report.games += 1
    if probed is not None and probed.kind not in report.violations:
        report.add(probed)  # only seen while probing: still a violation
    return report


class _Recording:
    """A model namespace that forwards every call and remembers the first exception (a
    model may fail only on some calls: one made while probing it must not go unseen)."""

    def __init__(self, namespace: Any) -> None:
        self.inner = namespace
        self.failure: tuple[str, Exception] | None = None

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.inner, name)
        if name.startswith("_") or not callable(value):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return value(*args, **kwargs)
            except Exception as exc:
                if self.failure is None:
                    self.failure = (name, exc)
                raise

        return call


def _probe_metadata(model: WorldModel) -> Violation | None:
    """Work out the model's metadata now (a model without any is probed with random
    games, :func:`ggp.core.model.detect_perfect_information`, which takes a failing call
    as "not perfect information"); a call that raised meanwhile is a violation (its
    actions are not known: the games of the check give a reproducer when they meet the
    failure again)."""
    recorder = _Recording(model.namespace)
    model.namespace = recorder
    try:
        model.metadata  # noqa: B018 - computed (and cached) here, while recording
    finally:
        model.namespace = recorder.inner
    if recorder.failure is None:
        return None
    function, exc = recorder.failure
    return Violation("exception", function,
                     f"raised {type(exc).__name__}: {exc} (while random games probed "
                     "whether the game has perfect information)", ())


def _check_one_game(model, report, rng, max_steps, check_inference) -> None:
    n = model.num_players
    checker = _StateChecker(model, report, n)
    state = model.initial_state()
    actions: list[Action] = []
    histories: list[list] = [[] for _ in range(n)]
    returns = [0.0] * n
    try:
        for _ in range(max_steps):
            player = checker.check_state(state, actions)
            if player == TERMINAL:
                report.terminal_returns.append(returns)
                return
            legal = checker.legal_actions(state, player, actions)
            if player == CHANCE:
                action = checker.chance_action(state, legal, rng, actions)
            else:
                action = rng.choice(legal)
                obs = model.observation(state, player)
                histories[player].append((obs, None))
                if check_inference:
                    checker.check_inference(histories[player], player, actions)
                histories[player][-1] = (obs, action)
            state = checker.apply(state, action, actions)
            actions.append(action)
            report.steps += 1
            rewards = checker.rewards(state, actions)
            returns = [a + b for a, b in zip(returns, rewards)]
        report.add(Violation("non-terminating", "get_current_player",
                             f"no terminal state within {max_steps} steps", tuple(actions)))
    except _Stop:
        pass
    except ModelError as exc:
        report.add(Violation("exception", exc.function, str(exc.args[0]), tuple(actions)))
    except Exception as exc:  # noqa: BLE001 - a raw call into the model raised
        report.add(Violation("exception", _failing_function(exc),
                             f"raised {type(exc).__name__}: {exc}", tuple(actions)))


class _StateChecker:
    """The per-state checks, sharing the report and the reproducing action prefix."""

    def __init__(self, model: WorldModel, report: CheckReport, n: int) -> None:
        self.model, self.report, self.n = model, report, n
        # Models without metadata get a default that declares hidden information.
        self.perfect = model.metadata.perfect_information

    def fail(self, kind: str, function: str, message: str, actions: list, stop=False) -> None:
        self.report.add(Violation(kind, function, message, tuple(actions)))
        if stop:
            raise _Stop

    def check_state(self, state: Any, actions: list) -> int:
        model = self.model
        if not _is_json(state):
            self.fail("non-json-state", "apply_action", "the state is not JSON-serializable "
                      f"({_json_error(state)})", actions, stop=True)
        try:
            player = model.current_player(state)
        except ModelError as exc:
            self.fail("bad-current-player", "get_current_player", exc.args[0], actions, True)
        try:
            name = model.namespace.get_player_name(player)
            if not isinstance(name, str):
                self.fail("bad-player-name", "get_player_name",
                          f"returned {name!r} for player {player}; expected a string", actions)
        except Exception as exc:  # noqa: BLE001
            self.fail("exception", "get_player_name", f"raised {exc!r} for player {player}",
                      actions)
        self.check_observations(state, actions)
        return player

    def check_observations(self, state, actions) -> None:
        observations = self.model.observations(state)
        if not isinstance(observations, list) or len(observations) != self.n:
            self.fail("bad-observations", "get_observations",
                      f"returned {_kind(observations)}; expected a list of {self.n} "
                      "observations (one per player)", actions, stop=True)
        for p, obs in enumerate(observations):
            if not _is_json(obs):
                self.fail("non-json-observation", "get_observations",
                          f"the observation of player {p} is not JSON-serializable "
                          f"({_json_error(obs)})", actions)
            elif self.perfect and not self.model.same(obs, state):
                self.fail("perfect-information-observation", "get_observations",
                          f"the game is declared perfect-information but player {p}'s "
                          "observation is not the full state", actions)

    def legal_actions(self, state, player, actions) -> list[Action]:
        legal = self.model.legal_actions(state)
        if player == TERMINAL:
            return legal
        if not legal:
            self.fail("no-legal-actions", "get_legal_actions",
                      f"no legal actions for player {player} at a non-terminal state",
                      actions, stop=True)
        bad = [a for a in legal if not isinstance(a, str)]
        if bad:
            self.fail("non-string-action", "get_legal_actions",
                      f"actions must be strings, got {bad[:3]!r}", actions, stop=True)
        if len(set(legal)) != len(legal):
            self.fail("duplicate-actions", "get_legal_actions",
                      f"duplicate actions in {legal!r}", actions)
        return legal

    def chance_action(self, state, legal, rng, actions) -> Action:
        outcomes = self.model.chance_outcomes(state)
        total = sum(p for _, p in outcomes)
        if any(p < 0 for _, p in outcomes) or not math.isclose(total, 1.0, abs_tol=1e-6):
            self.fail("chance-probabilities", "get_chance_outcomes",
                      f"probabilities must be non-negative and sum to 1, got sum {total}",
                      actions, stop=True)
        if {a for a, _ in outcomes} != set(legal):
            self.fail("chance-outcomes-mismatch", "get_chance_outcomes",
                      "the chance outcomes differ from the legal actions", actions)
        return self.model.sample_chance(state, rng)

    def apply(self, state, action, actions) -> Any:
        actions = [*actions, action]  # the reproducer ends with the offending move
        before = canonical_json(state)
        original = copy.deepcopy(state)
        try:
            nxt = self.model.namespace.apply_action(state, action)
        except Exception as exc:  # noqa: BLE001
            self.fail("exception", "apply_action",
                      f"raised {type(exc).__name__}: {exc} on legal action {action!r}",
                      actions, stop=True)
        if canonical_json(state) != before:
            self.fail("mutates-input", "apply_action",
                      f"apply_action changed its input state when applying {action!r}; it "
                      "must return a new state and leave the input untouched", actions)
            state = original
        if _is_dict(nxt) and not isinstance(nxt, dict):
            # from a box: it cannot be passed back in, so the next state's check comes now
            self.fail("non-json-state", "apply_action", "the state is not JSON-serializable "
                      f"({_json_error(nxt)})", actions, stop=True)
        if not _is_dict(nxt):
            self.fail("bad-state", "apply_action",
                      f"returned {_kind(nxt)}; expected a state dict", actions, stop=True)
        if _is_json(nxt):
            again = self.model.namespace.apply_action(copy.deepcopy(original), action)
            if _is_json(again) and canonical_json(again) != canonical_json(nxt):
                self.fail("non-deterministic", "apply_action",
                          f"applying {action!r} twice to the same state gave different states",
                          actions)
        return nxt

    def rewards(self, state, actions) -> list[float]:
        raw = self.model.namespace.get_rewards(copy.deepcopy(state))
        ok = isinstance(raw, (list, tuple)) and len(raw) == self.n and all(
            isinstance(r, (int, float)) and not isinstance(r, bool) and math.isfinite(r)
            for r in raw
        )
        if not ok:
            self.fail("bad-rewards", "get_rewards",
                      f"returned {raw!r}; expected a list of {self.n} finite numbers",
                      actions, stop=True)
        return [float(r) for r in raw]

    def check_inference(self, history, player, actions) -> None:
        if not (self.model.has("resample_history") or self.model.has("resample_state")):
            return
        try:
            sample_with_model(self.model, history, player, retries=3)
        except GGPError as exc:
            fn = "resample_history" if self.model.has("resample_history") else "resample_state"
            self.fail("bad-inference", fn, f"for player {player}: {exc}", actions)


def check_source(
    source: str,
    *,
    name: str,
    filename: str,
    games: int = 50,
    seed: int = 0,
    max_steps: int = 5000,
    timeout: float = 300.0,
) -> CheckReport:
    """Check untrusted model source: its code runs in a sandboxed worker (restricted,
    offline) that only makes the model's calls; every check is made here, on what the
    calls returned (:class:`ggp.sandbox.modelbox.RemoteNamespace`). The box never sends
    a verdict, so a model that forges its replies can at most misstate what its own
    functions returned.

    Raises :class:`ggp.core.errors.ModelLoadError` when the model cannot be loaded; a model
    that exhausts the sandbox's limits, or answers something that is not an answer, is
    reported as a ``sandbox`` violation. ``timeout`` bounds the whole check.
    """
    import time

    from ggp.core.errors import ModelLoadError
    from ggp.sandbox import Limits, SandboxFailure
    from ggp.sandbox.modelbox import BoxDied, CallBox, RemoteNamespace

    deadline = time.monotonic() + timeout
    limits = Limits(memory_mb=2048, cpu_seconds=int(timeout) + 10, restricted=True,
                    network=False)

    def stopped(failure: SandboxFailure) -> CheckReport:
        report = CheckReport(name)
        report.add(Violation("sandbox", "model",
                             f"the check was stopped by the sandbox ({failure.kind}): "
                             f"{failure.detail.strip()[-300:]}", ()))
        return report

    try:
        box = CallBox(source, loader="model", limits=limits, load_seconds=min(timeout, 60.0),
                      deadline=deadline, filename=filename)
    except SandboxFailure as failure:
        return stopped(failure)
    try:
        if box.load_error is not None:
            raise ModelLoadError(box.load_error)
        model = WorldModel(RemoteNamespace(box, call_seconds=timeout), name=name)
        return check_model(model, games=games, seed=seed, max_steps=max_steps)
    except BoxDied as died:
        return stopped(died.failure)
    finally:
        box.close()


def _failing_function(exc: BaseException) -> str:
    """The innermost protocol function on the traceback of ``exc``."""
    from ggp.core.protocol import OPTIONAL_FUNCTIONS, REQUIRED_FUNCTIONS

    names = set(REQUIRED_FUNCTIONS) | set(OPTIONAL_FUNCTIONS)
    remote = getattr(exc, "function", None)  # raised in a box (ggp.sandbox.modelbox)
    if isinstance(remote, str) and remote in names:
        return remote
    tb, found = exc.__traceback__, "model"
    while tb is not None:
        if tb.tb_frame.f_code.co_name in names:
            found = tb.tb_frame.f_code.co_name
        tb = tb.tb_next
    return found


def _is_json(value: Any) -> bool:
    try:
        canonical_json(value)
        return True
    except (TypeError, ValueError):
        return False


def _json_error(value: Any) -> str:
    from ggp.sandbox.modelbox import NotJSON

    if isinstance(value, NotJSON):
        return value.message
    try:
        canonical_json(value)
        return ""
    except (TypeError, ValueError) as exc:
        return str(exc)


def _is_dict(value: Any) -> bool:
    """A dict, also one that came back from a box as not JSON-serializable (that is
    reported as a non-JSON state, as it is for a model run in this process)."""
    from ggp.sandbox.modelbox import NotJSON

    return isinstance(value, dict) or (isinstance(value, NotJSON)
                                       and value.type_name == "dict")


def _kind(value: Any) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text[:80]}"
