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

from ggp.core.protocol import Action, ObsActionHistory, State


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
    """A player. Subclasses implement :meth:`act`; the other hooks have defaults that do
    nothing, so callers use them on any agent.

    Contract: ``act`` returns an action string; it may raise, or return an action that is
    not legal, and the match runner then records a forfeit for this agent.
    """

    #: The agent's spec name (``gt_ismcts``, ``cwm_mcts``), shown by the web page and
    #: written into agents' own logs; a file agent takes its file's stem.
    name: str = "agent"
    #: True for agents the referee hands their legal actions before every move even when
    #: the match hides them from agents (seed 000's "random legal action executor").
    takes_legal_actions: bool = False
    #: The legal actions of the current decision, when the referee handed them over.
    offered_actions: list[Action] | None = None
    #: Moves played without a consistent belief (:mod:`ggp.belief.fallback`) by this
    #: agent so far; the arena reports them per match.
    belief_fallbacks: int = 0
    #: What the agent counted in the match just ended, as plain JSON data: search agents
    #: ``{"stats": {"moves": ..., "simulations": ...}}`` (the arena's sims/move). Agents
    #: that count assign their own dict; this shared empty one is never written to.
    report: dict[str, Any] = {}

    def start(self, info: MatchInfo) -> None:
        """Called once before the match's first move."""
        self.info = info
        self.rng = random.Random(info.seed)

    def observe_legal_actions(self, actions: list[Action]) -> None:
        """Called just before :meth:`act` with the true state's legal actions, when the
        match shows them or the agent ``takes_legal_actions``."""
        self.offered_actions = actions

    def observe_true_state(self, state: State) -> None:
        """Called before every move with the true state. Only cheating baselines
        (``clairvoyant``) override it; an agent that does is one (:attr:`sees_true_state`)."""

    @property
    def sees_true_state(self) -> bool:
        """Whether the agent looks at the true state: its class overrides
        :meth:`observe_true_state`. A sandboxed agent's worker answers this for the
        agent inside it, so only such agents are sent the state."""
        return type(self).observe_true_state is not Agent.observe_true_state

    @abstractmethod
    def act(self, history: ObsActionHistory) -> Action:
        """Choose an action at the decision point ``history[-1]``."""

    def end(self, history: ObsActionHistory, returns: list[float]) -> None:
        """Called once when the match is over (also after a forfeit)."""

    def close(self) -> None:
        """Release resources (worker processes, servers)."""
