"""Encoders that use what a model source already knows about its observations.

* :class:`OpenSpielEncoder` — an OpenSpiel game (``openspiel:...``) has its own tensors:
  ``information_state_tensor`` (perfect recall, preferred) or ``observation_tensor``. The
  bridge (:mod:`ggp.openspiel.model`) puts the tensor into imperfect-information
  observations; a perfect-information observation is the state (the protocol
  convention), whose history the encoder replays to ask the game for the tensor from
  the point of view of the player to move (seat 0 at chance and terminal states).
* :class:`FactEncoder` — a GDL / GDL-II game: a fixed vocabulary of ground facts, one bit
  each. GDL observations carry the true fluents; GDL-II observations carry a role's own
  moves and percepts, encoded as the percepts of the last step, every percept seen so
  far, the own last move and the step count. The vocabulary is the grounded reasoner's
  fluent list when the game grounds, plus every fact and percept seen in the example
  games; a fact outside it is counted in :attr:`FactEncoder.unseen`, never an error.

Both write their game into the encoding, so a checkpoint knows what it was trained on,
and both give a bounded box (:attr:`low`, :attr:`high`); values outside are clipped.
"""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np

from ggp.core.model import WorldModel
from ggp.env.encoding import EncodingError

#: the step count feature saturates here (games longer than this look alike in it)
STEP_SCALE = 200.0


class OpenSpielEncoder:
    """Observation → the OpenSpiel game's own tensor (see the module doc)."""

    kind = "openspiel"

    def __init__(self, game: str, tensor: str, size: int, low: float = 0.0,
                 high: float = 1.0) -> None:
        self.game, self.tensor, self._size = game, tensor, size
        self.low, self.high = float(low), float(high)
        self.key = tensor + "_tensor"
        self.unseen: dict[str, int] = {}
        self._namespace: Any = None

    @classmethod
    def for_model(cls, model: WorldModel, observations: Iterable[Any] = ()) -> "OpenSpielEncoder":
        """The encoder of an OpenSpiel-bridged model; bounds from ``observations``."""
        namespace = model.namespace
        if namespace.tensor_kind is None:
            raise EncodingError(f"{model.name} offers no observation or information-state "
                                "tensor; use the schema encoder")
        encoder = cls(namespace.game_string, namespace.tensor_kind, 1)
        encoder._namespace = namespace
        encoder._size = len(namespace.tensor(model.initial_state(), 0))
        values = [encoder._raw(o) for o in observations]
        if values:
            stacked = np.stack(values)
            encoder.low = min(0.0, float(stacked.min()))
            high = float(stacked.max())
            encoder.high = 1.0 if high <= 1.0 else 2.0 * high  # room for larger values
        return encoder

    @property
    def size(self) -> int:
        return self._size

    def _game(self) -> Any:
        if self._namespace is None:
            from ggp.openspiel.model import OpenSpielGame

            self._namespace = OpenSpielGame(self.game)
        return self._namespace

    def _raw(self, observation: Any) -> np.ndarray:
        if isinstance(observation, dict) and self.key in observation:
            values = observation[self.key]
        elif isinstance(observation, dict) and "history" in observation:
            game = self._game()
            try:
                player = game.get_current_player(observation)
                values = game.tensor(observation, player)
            except Exception as exc:  # noqa: BLE001 - a history this game cannot replay
                raise EncodingError(f"the observation is not a state of openspiel:"
                                    f"{self.game} ({type(exc).__name__}: {exc})") from exc
        else:
            raise EncodingError(f"the observation has no {self.key}: it does not come from "
                                f"openspiel:{self.game}")
        out = np.asarray(values, dtype=np.float32)
        if out.shape != (self._size,):
            raise EncodingError(f"a tensor of {out.size} values where openspiel:{self.game} "
                                f"has {self._size}: the observation comes from another game")
        return out

    def encode(self, observation: Any) -> np.ndarray:
        return np.clip(self._raw(observation), self.low, self.high)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "game": self.game, "tensor": self.tensor,
                "size": self._size, "low": self.low, "high": self.high}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "OpenSpielEncoder":
        return cls(data["game"], data["tensor"], int(data["size"]), data.get("low", 0.0),
                   data.get("high", 1.0))


class FactEncoder:
    """GDL / GDL-II observation → bits over a fixed fact vocabulary (see the module doc)."""

    kind = "facts"
    low, high = 0.0, 1.0

    def __init__(self, facts: list[str], moves: list[str], gdl_ii: bool,
                 percepts: list[str] | None = None) -> None:
        self.facts, self.moves, self.gdl_ii = list(facts), list(moves), gdl_ii
        self.percepts = list(percepts or [])
        self._fact = {f: i for i, f in enumerate(self.facts)}
        self._move = {m: i for i, m in enumerate(self.moves)}
        self._percept = {p: i for i, p in enumerate(self.percepts)}
        #: ``{"fact"|"move"|"percept": count}`` of texts outside the vocabulary met so far
        self.unseen: dict[str, int] = {}
        if gdl_ii:
            self._size = 2 * len(self.percepts) + 2 * len(self.moves) + 1
        else:
            self._size = len(self.facts) + len(self.moves) + 1
        if self._size <= 1:
            raise EncodingError("the GDL game shows no facts to encode")

    @classmethod
    def for_model(cls, model: WorldModel, observations: Iterable[Any],
                  moves: Iterable[str]) -> "FactEncoder":
        """The vocabulary of a GDL model: grounded fluents plus what ``observations``
        show; ``moves`` are the move texts (pending and own moves)."""
        game = model.namespace
        facts: set[str] = set()
        fluents = getattr(game.engine, "_fluents", None)  # the grounded state space
        if fluents is not None:
            facts.update(game._texts(fluents))
        percepts: set[str] = set()
        move_set = set(moves)
        for obs in observations:
            facts.update(obs.get("true", ()))
            move_set.update(obs.get("pending", {}).values())
            for move, seen in obs.get("history", ()):
                move_set.add(move)
                percepts.update(seen)
        return cls(sorted(facts), sorted(move_set), bool(game.gdl_ii), sorted(percepts))

    @property
    def size(self) -> int:
        return self._size

    def _bits(self, out: np.ndarray, at: int, table: dict[str, int], texts: Iterable[str],
              what: str) -> None:
        for text in texts:
            i = table.get(text)
            if i is None:
                self.unseen[what] = self.unseen.get(what, 0) + 1
            else:
                out[at + i] = 1.0

    def encode(self, observation: Any) -> np.ndarray:
        if not isinstance(observation, dict) or "step" not in observation or (
                ("history" in observation) != self.gdl_ii):
            raise EncodingError("the observation is not a "
                                f"{'GDL-II' if self.gdl_ii else 'GDL'} observation of this game")
        out = np.zeros(self._size, dtype=np.float32)
        pending = observation.get("pending", {}).values()
        if not self.gdl_ii:
            self._bits(out, 0, self._fact, observation["true"], "fact")
            at = len(self.facts)
            self._bits(out, at, self._move, pending, "move")
        else:
            history = observation["history"]
            n_p, n_m = len(self.percepts), len(self.moves)
            if history:
                self._bits(out, 0, self._percept, history[-1][1], "percept")
                self._bits(out, 2 * n_p, self._move, [history[-1][0]], "move")
            for _, seen in history:
                for text in seen:
                    i = self._percept.get(text)
                    if i is not None:
                        out[n_p + i] = 1.0
            self._bits(out, 2 * n_p + n_m, self._move, pending, "move")
        out[-1] = min(1.0, float(observation["step"]) / STEP_SCALE)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "facts": self.facts, "moves": self.moves,
                "gdl_ii": self.gdl_ii, "percepts": self.percepts}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "FactEncoder":
        return cls(data["facts"], data["moves"], bool(data["gdl_ii"]), data.get("percepts"))


def native_encoder(model: WorldModel, observations: list[Any], actions: Iterable[str]) -> Any:
    """The source's own encoder for ``model`` (OpenSpiel tensors, GDL facts), or None for
    other models (Python games, CWMs: the schema encoder fits those)."""
    from ggp.gdl.adapter import GDLGame
    from ggp.openspiel.model import OpenSpielGame

    namespace = getattr(model, "namespace", None)
    if isinstance(namespace, OpenSpielGame) and namespace.tensor_kind is not None:
        return OpenSpielEncoder.for_model(model, observations)
    if isinstance(namespace, GDLGame):
        return FactEncoder.for_model(model, observations, actions)
    return None


__all__ = ["FactEncoder", "OpenSpielEncoder", "native_encoder"]
