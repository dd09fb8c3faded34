"""`WorldModel`: the runtime wrapper every planner, agent and tool talks to.

It loads a model from a Python file or a source string (every other source: :mod:`ggp.load`),
validates that
the protocol functions exist, and guards every call: exceptions become
:class:`~ggp.core.errors.ModelError` naming the function, state and action; states handed
to untrusted code are copied first so a model that mutates its input cannot corrupt a
search tree; return values are checked for shape where it is cheap.

Reference games are trusted (``ggp check`` and the tests verify them), so their wrapper
skips the defensive copies. Code from files and strings is untrusted by default; a CWM
agent's sandboxed worker wraps its model as trusted too once audited probes show that the
model leaves its inputs alone, and keeps auditing (:mod:`ggp.cwm.purity`).
"""

from __future__ import annotations

import copy
import functools
import pickle
import random
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Callable

from ggp.core.errors import ModelError, ModelLoadError
from ggp.core.ops import ModelOps
from ggp.core.protocol import (
    CHANCE,
    OPTIONAL_FUNCTIONS,
    REQUIRED_FUNCTIONS,
    TERMINAL,
    Action,
    GameMetadata,
    ObsActionHistory,
    Observation,
    State,
    canonical_json,
)


class WorldModel:
    """A validated, guarded world model.

    Args:
        namespace: any object with the protocol attributes (a module, an instance...).
        name: a display name.
        trusted: when False, inputs are deep-copied before each call so a mutating model
            cannot change states the caller holds.
        rules: the rules text, if known (reference games carry it as ``RULES``).
        metadata: game metadata, if known (reference games carry it as ``METADATA``).
    """

    def __init__(
        self,
        namespace: Any,
        *,
        name: str = "model",
        trusted: bool = False,
        rules: str | None = None,
        metadata: GameMetadata | None = None,
    ) -> None:
        missing = [f for f in REQUIRED_FUNCTIONS if not callable(getattr(namespace, f, None))]
        if not hasattr(namespace, "INITIAL_STATE"):
            missing.insert(0, "INITIAL_STATE")
        if missing:
            raise ModelLoadError(
                f"The world model {name!r} is missing {', '.join(missing)}. A world model must "
                f"define INITIAL_STATE and the functions {', '.join(REQUIRED_FUNCTIONS)} "
                "(see docs/protocol.md)."
            )
        self.namespace = namespace
        self.name = name
        self.trusted = trusted
        self.rules = rules if rules is not None else getattr(namespace, "RULES", "")
        self._metadata = metadata if metadata is not None else getattr(namespace, "METADATA", None)
        self._copy = (lambda x: x) if trusted else _copy_value
        try:
            canonical_json(namespace.INITIAL_STATE)
        except (TypeError, ValueError) as exc:
            raise ModelLoadError(
                f"INITIAL_STATE of {name!r} is not JSON-serializable ({exc}). States must be "
                "built from dicts, lists, strings, numbers, booleans and None."
            ) from exc
        self.num_players = (
            self._metadata.num_players
            if self._metadata is not None
            else len(self.observations(self.initial_state()))
        )

    # ----------------------------------------------------------------- properties
    @property
    def metadata(self) -> GameMetadata:
        """The game's metadata; models without it get a conservative default, except
        that perfect information is detected (:func:`detect_perfect_information`) unless
        the model sets ``PERFECT_INFORMATION = True/False`` itself."""
        if self._metadata is None:
            declared = getattr(self.namespace, "PERFECT_INFORMATION", None)
            self._metadata = GameMetadata(
                num_players=self.num_players,
                min_utility=-1.0,
                max_utility=1.0,
                zero_sum=False,
                outcome="payoff",
                perfect_information=(bool(declared) if isinstance(declared, bool)
                                     else detect_perfect_information(self)),
                chance=True,
            )
        return self._metadata

    @functools.cached_property
    def ops(self) -> ModelOps:
        """The model's functions bound once for hot loops (:class:`~ggp.core.ops.ModelOps`);
        built on first use and kept, since a model's trust never changes."""
        return ModelOps(self)

    def has(self, function: str) -> bool:
        """Whether the model defines an optional protocol function."""
        assert function in OPTIONAL_FUNCTIONS, function
        return callable(getattr(self.namespace, function, None))

    # ----------------------------------------------------------------- protocol
    def initial_state(self) -> State:
        return copy.deepcopy(self.namespace.INITIAL_STATE)

    def current_player(self, state: State) -> int:
        player = self._call("get_current_player", state)
        if type(player) is not int or not (
            0 <= player < self.num_players or player in (CHANCE, TERMINAL)
        ):
            raise ModelError(
                f"returned {player!r}; expected 0..{self.num_players - 1}, "
                f"{CHANCE} (chance) or {TERMINAL} (terminal)",
                function="get_current_player",
                state=state,
            )
        return player

    def is_terminal(self, state: State) -> bool:
        return self.current_player(state) == TERMINAL

    def player_name(self, player: int) -> str:
        try:
            return str(self.namespace.get_player_name(player))
        except Exception as exc:  # noqa: BLE001 - untrusted code
            raise ModelError(_describe(exc), function="get_player_name", cause=exc) from exc

    def legal_actions(self, state: State) -> list[Action]:
        actions = self._call("get_legal_actions", state)
        if not isinstance(actions, list):
            raise ModelError(
                f"returned {type(actions).__name__}; expected a list of action strings",
                function="get_legal_actions",
                state=state,
            )
        return actions

    def apply(self, state: State, action: Action) -> State:
        """The successor of ``state`` under ``action`` (the input is left untouched)."""
        try:
            nxt = self.namespace.apply_action(self._copy(state), action)
        except Exception as exc:  # noqa: BLE001 - untrusted code
            raise ModelError(
                _describe(exc), function="apply_action", state=state, action=action, cause=exc
            ) from exc
        if not isinstance(nxt, dict):
            raise ModelError(
                f"returned {type(nxt).__name__}; expected a state dict",
                function="apply_action",
                state=state,
                action=action,
            )
        return nxt

    def rewards(self, state: State) -> list[float]:
        rewards = self._call("get_rewards", state)
        if not isinstance(rewards, (list, tuple)):
            raise ModelError(
                f"returned {type(rewards).__name__}; expected a list of floats",
                function="get_rewards",
                state=state,
            )
        try:
            return [float(r) for r in rewards]
        except (TypeError, ValueError):
            raise ModelError(f"returned {str(rewards)[:80]}; expected a list of floats",
                             function="get_rewards", state=state) from None

    def observations(self, state: State) -> list[Observation]:
        return self._call("get_observations", state)

    def observation(self, state: State, player: int) -> Observation:
        observations = self.observations(state)
        try:
            return observations[player]
        except (IndexError, KeyError, TypeError):
            raise ModelError(f"returned {type(observations).__name__}; expected one "
                             "observation per player", function="get_observations",
                             state=state) from None

    def chance_outcomes(self, state: State) -> list[tuple[Action, float]]:
        """Chance outcomes with probabilities; uniform over legal actions by default."""
        if self.has("get_chance_outcomes"):
            outcomes = self._call("get_chance_outcomes", state)
            try:
                return [(a, float(p)) for a, p in outcomes]
            except (TypeError, ValueError):
                raise ModelError(f"returned {str(outcomes)[:80]}; expected (action, "
                                 "probability) pairs", function="get_chance_outcomes",
                                 state=state) from None
        actions = self.legal_actions(state)
        return [(a, 1.0 / len(actions)) for a in actions] if actions else []

    def sample_chance(self, state: State, rng: random.Random) -> Action:
        outcomes = self.chance_outcomes(state)
        if not outcomes:
            raise ModelError("a chance node has no outcomes", function="get_chance_outcomes",
                             state=state)
        actions, probs = zip(*outcomes)
        return rng.choices(actions, weights=probs)[0]

    def resample_history(
        self, history: ObsActionHistory, player: int, **kwargs: Any
    ) -> list[Action]:
        return self._call_raw("resample_history", self._copy(history), player, **kwargs)

    def resample_state(self, history: ObsActionHistory, player: int) -> State:
        return self._call_raw("resample_state", self._copy(history), player)

    def value(self, state: State, player: int) -> float:
        return float(self._call("value_function", state, player))

    # ----------------------------------------------------------------- helpers
    @staticmethod
    def same(a: Any, b: Any) -> bool:
        """Protocol equality: equality of canonical JSON."""
        return a == b or canonical_json(a) == canonical_json(b)

    def _call(self, function: str, state: State, *args: Any) -> Any:
        try:
            return getattr(self.namespace, function)(self._copy(state), *args)
        except Exception as exc:  # noqa: BLE001 - untrusted code
            raise ModelError(_describe(exc), function=function, state=state, cause=exc) from exc

    def _call_raw(self, function: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return getattr(self.namespace, function)(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - untrusted code
            raise model_error(function, exc) from exc

    def __repr__(self) -> str:
        return f"WorldModel({self.name!r}, players={self.num_players})"


def random_walk(model: WorldModel, rng: random.Random,
                max_steps: int) -> Iterator[tuple[State, int, list[Action]]]:
    """One game of uniformly random legal actions (chance by its outcome distribution):
    yields ``(state, current player, legal actions)`` for each state reached, the
    terminal one included (with no legal actions), at most ``max_steps`` moves. The
    action is drawn after the consumer has seen the state, so the consumer may stop
    there (a player with no legal action ends the walk with ``IndexError``)."""
    state = model.initial_state()
    for _ in range(max_steps):
        player = model.current_player(state)
        if player == TERMINAL:
            yield state, player, []
            return
        if player == CHANCE:
            yield state, player, []
            action = model.sample_chance(state, rng)
        else:
            legal = model.legal_actions(state)
            yield state, player, legal
            action = rng.choice(legal)
        state = model.apply(state, action)


def detect_perfect_information(model: WorldModel, games: int = 20, max_steps: int = 500,
                                seed: int = 0) -> bool:
    """Whether every player's observation equals the whole state (canonical JSON) at
    every state of ``games`` seeded random games: then search agents may plan from the
    last observation and no belief is needed. A model whose functions fail here is not
    declared perfect (the failure shows up where it is used)."""
    rng = random.Random(seed)
    try:
        for _ in range(games):
            for state, player, legal in random_walk(model, rng, max_steps):
                whole = canonical_json(state)
                if any(canonical_json(obs) != whole for obs in model.observations(state)):
                    return False
                if player >= 0 and not legal:
                    return False
    except (ModelError, TypeError, ValueError):
        return False
    return True


def _copy_value(value: Any) -> Any:
    """A deep copy of a JSON-like value: a pickle round trip (about 3x faster than
    ``copy.deepcopy`` on card-game states), ``deepcopy`` for what pickle refuses."""
    try:
        return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))  # noqa: S301 - our own bytes
    except Exception:  # noqa: BLE001 - e.g. a lambda inside: fall back to the general copy
        return copy.deepcopy(value)


def _describe(exc: BaseException) -> str:
    return f"raised {type(exc).__name__}: {exc}"


def model_error(function: str, exc: BaseException) -> ModelError:
    """The typed error for ``exc``, raised inside the model's ``function`` (also for
    callers that call a trusted model's raw function and report failures the same way)."""
    return ModelError(_describe(exc), function=function, cause=exc)


# --------------------------------------------------------------------- loading
def load_model_file(path: str | Path, *, trusted: bool = False) -> WorldModel:
    """Load a world model from a Python file (executed in this process: only do this for
    code you trust or inside a sandboxed worker)."""
    path = Path(path)
    if not path.is_file():
        raise ModelLoadError(f"No such model file: {path}.")
    try:
        source = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ModelLoadError(f"The model {path} is not UTF-8 text ({exc.reason} at byte "
                             f"{exc.start}).") from None
    return load_model_source(source, name=path.stem,
                             filename=str(path), trusted=trusted)


def load_model_source(
    source: str, *, name: str = "model", filename: str = "<model>", trusted: bool = False
) -> WorldModel:
    """Load a world model from Python source text (same caveat as :func:`load_model_file`)."""
    module = types.ModuleType(f"ggp_model_{name}")
    module.__file__ = filename
    try:
        code = compile(source, filename, "exec")
    except SyntaxError as exc:
        raise ModelLoadError(
            f"The model {filename} has a syntax error at line {exc.lineno}, column "
            f"{exc.offset}: {exc.msg}.\n    {(exc.text or '').rstrip()}"
        ) from exc
    _register_source(filename, source)
    try:
        exec(code, module.__dict__)  # noqa: S102 - callers decide where this may run
    except Exception as exc:  # noqa: BLE001
        raise ModelLoadError(
            f"Running the model {filename} at import raised {type(exc).__name__}: {exc}."
        ) from exc
    return WorldModel(module, name=name, trusted=trusted)


def _register_source(filename: str, source: str) -> None:
    """Make tracebacks of source-string models show their code lines."""
    import linecache

    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


def from_functions(name: str = "model", **attributes: Callable[..., Any] | Any) -> WorldModel:
    """Build a trusted model from keyword attributes (handy in tests and notebooks)."""
    return WorldModel(types.SimpleNamespace(**attributes), name=name, trusted=True)

