"""Does a code world model leave alone what it is given and what it gave? (probes, audits)

The guarded :class:`~ggp.core.model.WorldModel` copies every state it hands untrusted code,
so a model that mutates its input cannot corrupt the caller's search tree. Inside a CWM
agent's sandboxed worker (:mod:`ggp.cwm.worker`) the model can only corrupt its *own*
agent's search, so those copies protect the search from a bug, not the system from an
attack, and they cost more than the model's own code in small games. The worker therefore
plays without copies once the model has passed the probes below, and keeps checking:

* :func:`probe` (once, when the worker loads the model): seeded random games in which
  every protocol call is audited — its arguments must be unchanged after the call, and
  every value the model returned must still be unchanged at the end of the game (a model
  handing out objects it keeps and changes later fails here);
* :func:`audit_playout` (after every search): one audited random playout (at most 40
  moves) from a state the search started from, so the states the agent really meets are
  probed too.

Any violation raises :class:`ImpureModel`; the worker then copies for the rest of its life.
Values are compared by their pickles, which are equal exactly when nothing reachable from
the value was changed (a value pickle refuses is reported as a violation: it cannot be
checked, so it is copied).
"""

from __future__ import annotations

import pickle
import random
import time
from typing import Any

from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, State

#: The protocol functions audited (``get_player_name`` takes and gives only plain values).
AUDITED = ("get_current_player", "get_legal_actions", "apply_action", "get_rewards",
           "get_observations", "get_chance_outcomes", "resample_history", "resample_state",
           "value_function")


class ImpureModel(GGPError):
    """The model changed an argument, or a value it had returned."""


def snapshot(value: Any) -> bytes:
    """The bytes two looks at ``value`` are compared by (ImpureModel if it cannot be)."""
    try:
        return pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # noqa: BLE001 - whatever the model put in its values
        raise ImpureModel(f"a value of the model cannot be pickled, so it cannot be "
                          f"checked for changes ({type(exc).__name__}: {exc})") from exc


class _Audit:
    """The model's namespace with every audited function checked (see the module doc)."""

    def __init__(self, namespace: Any) -> None:
        self._namespace = namespace
        self._returned: list[tuple[str, Any, bytes]] = []
        # the first violation: the wrapper turns exceptions raised in a call into
        # ModelError, so callers look here rather than at what reached them
        self.violation: ImpureModel | None = None
        self.INITIAL_STATE = namespace.INITIAL_STATE
        self.get_player_name = namespace.get_player_name
        for name in AUDITED:
            if callable(getattr(namespace, name, None)):
                setattr(self, name, self._audited(name))

    def _audited(self, name: str):
        function = getattr(self._namespace, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                before = [snapshot(a) for a in args]
                value = function(*args, **kwargs)
                for arg, old in zip(args, before):
                    if snapshot(arg) != old:
                        raise ImpureModel(f"{name} changed its argument {_show(arg)}; a "
                                          "model must leave its inputs untouched")
                self._returned.append((name, value, snapshot(value)))
            except ImpureModel as exc:
                self.violation = self.violation or exc
                raise
            return value

        return call

    def verify(self) -> None:
        """Raise the first violation seen, or one for a value the model returned that has
        changed since (then forget the returned values)."""
        if self.violation is not None:
            raise self.violation
        returned, self._returned = self._returned, []
        for name, value, old in returned:
            if snapshot(value) != old:
                raise ImpureModel(f"a value {name} returned was changed later "
                                  f"(now {_show(value)}); a model must not change what it "
                                  "returned")


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + "..."


def _audited_model(model: WorldModel) -> tuple[WorldModel, _Audit]:
    audit = _Audit(model.namespace)
    # trusted: no copies, so the model sees (and could change) the very objects audited
    return WorldModel(audit, name=model.name, trusted=True, metadata=model.metadata), audit


def probe(model: WorldModel, *, games: int = 5, seed: int = 0, max_steps: int = 300,
          branches: int = 2, seconds: float = 5.0) -> None:
    """Audited random games (see the module doc); raises :class:`ImpureModel`.

    At every decision state the model is also asked for each player's inference (the
    player's history so far) and ``branches`` other legal actions are applied, as a search
    would. A game the model fails in (it raises) ends the game: that is not a purity
    question. Randomness comes from ``seed`` (the global generator is restored after).
    Probing stops after ``seconds`` (a slow model is probed less at load; the audits after
    every search go on)."""
    checked, audit = _audited_model(model)
    rng = random.Random(seed)
    saved = random.getstate()
    random.seed(seed)
    deadline = time.monotonic() + seconds
    try:
        for _ in range(games):
            try:
                _probe_game(checked, rng, max_steps, branches, deadline)
            except Exception:  # noqa: BLE001 - a violation, or the model failing: that
                pass  # is not a purity question (the search meets it and reports it)
            audit.verify()
    finally:
        random.setstate(saved)


def _probe_game(model: WorldModel, rng: random.Random, max_steps: int, branches: int,
                deadline: float) -> None:
    n = model.num_players
    histories: list[list] = [[] for _ in range(n)]
    state = model.initial_state()
    for _ in range(max_steps):
        if time.monotonic() > deadline:
            return
        player = model.current_player(state)
        observations = model.observations(state)
        if player == TERMINAL:
            return
        legal = model.legal_actions(state)
        if player == CHANCE:
            action = model.sample_chance(state, rng)
        else:
            histories[player].append((observations[player], None))
            if model.has("resample_history"):
                model.resample_history(histories[player], player)
            elif model.has("resample_state"):
                model.resample_state(histories[player], player)
            if model.has("value_function"):
                model.value(state, player)
            for other in rng.sample(legal, min(branches, len(legal))):
                model.rewards(model.apply(state, other))
            action = rng.choice(legal)
            histories[player][-1] = (observations[player], action)
        state = model.apply(state, action)
        model.rewards(state)


def audit_playout(model: WorldModel, state: State, rng: random.Random, *,
                  max_steps: int = 40) -> None:
    """An audited random playout of at most ``max_steps`` moves from ``state``; raises
    :class:`ImpureModel`. Bounded so that it stays a small part of a move in long games
    (backgammon); the roots of later moves carry the audit through the game."""
    checked, audit = _audited_model(model)
    try:
        for _ in range(max_steps):
            player = checked.current_player(state)
            checked.observations(state)
            if player == TERMINAL:
                break
            action = (checked.sample_chance(state, rng) if player == CHANCE
                      else rng.choice(checked.legal_actions(state)))
            state = checked.apply(state, action)
            checked.rewards(state)
    except Exception:  # noqa: BLE001 - a violation, or the model failing (see probe)
        pass
    audit.verify()
