"""What every GDL engine is: the :class:`Reasoner` protocol and its :class:`EngineInfo`.

The engines (:class:`ggp.gdl.naive.NaiveReasoner`, :class:`ggp.gdl.compiled.CompiledReasoner`,
:class:`ggp.gdl.grounded.GroundedReasoner`) import only :class:`EngineInfo` from here;
:mod:`ggp.gdl.reasoner` builds them, races them and checks them against each other, and
is where callers import the interface from. This module sits below the engines so that
neither the engines nor the selection have to import each other in a circle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Protocol, runtime_checkable

#: A ground term: a constant (``"x"``) or a tuple ``("cell", "1", "1", "b")``.
GroundTerm = str | tuple
#: An engine's own state: a frozenset of ground fluents (naive, compiled) or a bitset
#: ``int`` (grounded). Only the engine that made it reads it; :meth:`Reasoner.decode`
#: turns any of them into fluents.
EngineState = Any


@dataclass(frozen=True)
class EngineInfo:
    """What is known about how an engine came to be.

    ``name``: "naive", "compiled" or "grounded"; ``why_not_grounded``: why the grounded
    engine was not used (a failed grounding, the race lost, or the compiled engine asked
    for), None when it is the grounded engine or nobody chose; ``speeds``: steps per CPU
    second of each engine in :func:`ggp.gdl.reasoner.make_reasoner`'s race, None when
    there was no race."""

    name: str
    why_not_grounded: str | None = None
    speeds: dict[str, float] | None = None


@runtime_checkable
class Reasoner(Protocol):
    """GDL semantics of one rule set, with states of the engine's own kind.

    Roles keep the order of the ``(role ...)`` facts; a joint move maps every role to one
    of its legal moves (ground terms). Every engine answers every query the same way on
    every reachable state (:func:`ggp.gdl.reasoner.first_disagreement` checks it):
    legal moves sorted by ``str``, goals as the largest derivable value (0 if none),
    percepts sorted by ``str``."""

    info: EngineInfo
    roles: list[str]

    def encode(self, fluents: Iterable[GroundTerm]) -> EngineState:
        """The engine's state holding exactly ``fluents``."""
        ...

    def decode(self, state: EngineState) -> frozenset:
        """The ground fluents true in ``state``."""
        ...

    def initial_state(self) -> EngineState:
        """The state of the ``init`` facts."""
        ...

    def legal_moves(self, state: EngineState) -> dict[str, list[GroundTerm]]:
        """Each role's legal moves, sorted by ``str``."""
        ...

    def is_terminal(self, state: EngineState) -> bool:
        """Whether ``terminal`` holds."""
        ...

    def goals(self, state: EngineState) -> list[int]:
        """One goal value per role (the largest derivable, 0 if none)."""
        ...

    def next_state(self, state: EngineState, joint: dict[str, GroundTerm]) -> EngineState:
        """The state after ``joint``."""
        ...

    def step(self, state: EngineState,
             joint: dict[str, GroundTerm]) -> tuple[EngineState, dict[str, list]]:
        """The state after ``joint`` and each role's percepts (``sees``, sorted by ``str``)."""
        ...
