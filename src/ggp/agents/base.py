"""The agent interface shared by ``ggp play``, the arena and the GGP player.

An agent is told the game (name, rules, its seat, a seed) at the start of a match and is
then asked for an action given its own action-observation history. By default it is *not*
told the legal actions (seed 000's arena: an illegal move by a model-based agent is a
forfeit that measures its model); a match may instead show every agent its legal actions
(``MatchInfo.legal_actions``, the OpenSpiel and PettingZoo convention), and the ``random``
baseline always gets them (``takes_legal_actions``). Agents that plan carry their own
world model (ground truth, a synthesized CWM, a compiled GDL game) and reconstruct the
state from the history through :mod:`ggp.belief`.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from ggp.core.protocol import Action, ObsActionHistory


@dataclass(frozen=True)
class MatchInfo:
    """What an agent learns when a match starts."""

    game: str
    seat: int
    num_players: int
    seed: int
    rules: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    legal_actions: bool = False  # the referee shows every agent its legal actions


class Agent(ABC):
    """A player. Subclasses implement :meth:`act`; the other hooks are optional.

    Contract: ``act`` returns an action string; it may raise, or return an action that is
    not legal, and the match runner then records a forfeit for this agent.
    """

    name: str = "agent"
    #: True for agents the referee hands their legal actions before every move even when
    #: the match hides them from agents (seed 000's "random legal action executor").
    takes_legal_actions: bool = False
    #: The legal actions of the current decision, when the referee handed them over.
    offered_actions: list[Action] | None = None

    def start(self, info: MatchInfo) -> None:
        """Called once before the match's first move."""
        self.info = info
        self.rng = random.Random(info.seed)

    def observe_legal_actions(self, actions: list[Action]) -> None:
        """Called just before :meth:`act` with the true state's legal actions, when the
        match shows them or the agent ``takes_legal_actions``."""
        self.offered_actions = actions

    @abstractmethod
    def act(self, history: ObsActionHistory) -> Action:
        """Choose an action at the decision point ``history[-1]``."""

    def end(self, history: ObsActionHistory, returns: list[float]) -> None:
        """Called once when the match is over (also after a forfeit)."""

    def close(self) -> None:
        """Release resources (worker processes, servers)."""
