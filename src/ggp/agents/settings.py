"""Typed settings of the search agents: the records an agent spec's ``:key=value`` fill.

Every search agent's factory takes one record (``make_mcts(model, settings: MCTSSettings)``);
:func:`ggp.agents.check_spec` reads the record's fields and types, so a spec is checked
completely when it is parsed — unknown settings, numbers of the wrong kind and choices
outside their :data:`~typing.Literal` all give a one-line error naming what is allowed,
before any agent is built.

All records extend :class:`SearchSettings`, the budget and the leaf evaluation every
search agent shares. The agent families add their own settings:

* :class:`ModelSearchSettings` (mcts, clairvoyant, ismcts, moismcts): planners on the
  model in this process; ``value`` and ``prior`` are switches for the *model's own*
  ``value_function`` and ``policy_prior``;
* :class:`CWMSettings` (cwm_ismcts, cwm_mcts): planners on a synthesized CWM in a
  sandboxed worker; ``value_file`` and ``prior_file`` name *files* (``auto``: the run's
  selected one). Before these names they were spelled ``value`` and ``prior``, which
  :attr:`SearchSettings.RENAMED` still accepts with the same meaning, since recorded
  arena folders and experiment tables key their results by those spec strings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

#: The belief samplers (``ggp.belief.sampler.make_sampler``): ``auto`` picks ``perfect``
#: for perfect-information games (``tracking`` when the model's observation is not its
#: state), ``model`` when the model has an inference function, ``generic`` otherwise.
Belief = Literal["auto", "perfect", "tracking", "model", "exact", "generic"]
#: How rollouts choose moves (``ggp.search.evaluators.Playout``).
PlayoutChoice = Literal["random", "prior"]
#: The CWM agents' playout: ``auto`` samples from the prior when one is used.
CWMPlayout = Literal["auto", "random", "prior"]
#: ISMCTS's observers: one tree for the player (``single``) or one per player.
Observer = Literal["single", "multiple"]
#: The CFR+ implementation of the ``cfr`` agent.
CFRSolver = Literal["auto", "openspiel", "own"]


@dataclass(frozen=True)
class SearchSettings:
    """The budget and leaf evaluation of every search agent.

    ``sims`` simulations per move; ``time`` seconds per move (0: off). With both,
    whichever ends first; ``sims=0:time=2`` searches by time only. ``rollouts`` random
    rollouts per leaf (seed 000's 10); ``uct_c`` exploration in units of the game's
    utility range.
    """

    sims: int = 1000
    time: float = 0.0
    rollouts: int = 10
    uct_c: float = 1.0

    #: Old setting names a spec may still use, ``{old: new}``: same meaning, a hint logged.
    RENAMED: ClassVar[dict[str, str]] = {}

    def budget(self) -> dict[str, Any]:
        """The searcher's ``simulations``/``time_limit`` keywords: both given, whichever
        ends first; ``sims=0`` with a time searches by time only; neither, 1000
        simulations."""
        return {"simulations": self.sims or (None if self.time else 1000),
                "time_limit": self.time or None}


@dataclass(frozen=True)
class ModelSearchSettings(SearchSettings):
    """Search on the model in this process. ``value``: value leaves with the model's
    ``value_function`` instead of rollouts; ``prior``: PUCT with the model's
    ``policy_prior``; ``playout=prior`` (needs ``prior``) samples rollout moves from it."""

    value: bool = False
    prior: bool = False
    playout: PlayoutChoice = "random"


@dataclass(frozen=True)
class MCTSSettings(ModelSearchSettings):
    """``mcts`` and ``clairvoyant``: ``solver`` (the MCTS-solver) and ``reuse`` (keep the
    subtree reached since the last move)."""

    solver: bool = True
    reuse: bool = True


@dataclass(frozen=True)
class ISMCTSSettings(ModelSearchSettings):
    """``ismcts`` and ``moismcts``: the ``belief`` sampler and ``pool`` (at most this many
    determinizations per move, reused; 0 = off)."""

    belief: Belief = "auto"
    pool: int = 0


@dataclass(frozen=True)
class PIMCSettings(SearchSettings):
    """``pimc``: ``value`` as :class:`ModelSearchSettings`, the ``belief`` sampler and the
    ``determinizations`` the simulations are split among."""

    value: bool = False
    belief: Belief = "auto"
    determinizations: int = 10


@dataclass(frozen=True)
class GroundTruthISMCTSSettings(SearchSettings):
    """``gt_ismcts``: ISMCTS with the reference model's own inference (the belief is
    fixed), ``prior`` and ``playout`` as :class:`ModelSearchSettings`."""

    prior: bool = False
    playout: PlayoutChoice = "random"


@dataclass(frozen=True)
class GroundTruthMCTSSettings(GroundTruthISMCTSSettings):
    """``gt_mcts``: as ``gt_ismcts`` plus ``solver`` and ``reuse`` as :class:`MCTSSettings`."""

    solver: bool = True
    reuse: bool = True


@dataclass(frozen=True)
class CWMSettings(SearchSettings):
    """``cwm_ismcts`` and ``cwm_mcts``: search on the CWM of ``run`` (a synthesis run folder or a ``.py``
    model file) in a sandboxed worker.

    ``value_file``: ``auto`` (the run's selected ``value_function.py``) or a file, instead
    of rollouts; empty for rollouts. ``prior_file``: ``auto`` (the run's
    ``policy_prior.py`` when it has one), a file, or ``none``. ``playout``: ``auto``
    samples rollout moves from the prior when one is used. ``retries``: tries of the
    model's inference function per sample; ``move_seconds``: the worker's per-move
    deadline (0: ``2·time + 5`` with a time budget, else 120); ``memory_mb``: the
    worker's memory; ``log``: a JSON-lines file receiving each match's report.
    """

    run: str = ""
    value_file: str = ""
    prior_file: str = "auto"
    playout: CWMPlayout = "auto"
    retries: int = 10
    move_seconds: float = 0.0
    memory_mb: int = 2048
    log: str = ""

    RENAMED: ClassVar[dict[str, str]] = {"value": "value_file", "prior": "prior_file"}


@dataclass(frozen=True)
class CWMISMCTSSettings(CWMSettings):
    """``cwm_ismcts``: as :class:`CWMSettings` plus ``pool``: as :class:`ISMCTSSettings`,
    at most this many samples of the model's inference per move, reused (0: a fresh one
    per simulation). A model's inference call often replays the whole game so far, so in
    long games the pool is most of the search's speed."""

    pool: int = 0


@dataclass(frozen=True)
class CWMMCTSSettings(CWMSettings):
    """``cwm_mcts``: as ``cwm_ismcts`` plus ``solver`` and ``reuse`` as :class:`MCTSSettings`."""

    solver: bool = True
    reuse: bool = True


@dataclass(frozen=True)
class GuardedSettings(SearchSettings):
    """``fast_ismcts``/``fast_mcts``: the faster program and the original, from ``run``
    (a ``ggp synth --faster`` folder) or the files ``fast`` and ``original``; ``retries``,
    ``memory_mb`` and ``log`` as :class:`CWMSettings`; ``move_seconds`` the deadline of
    a move (120)."""

    run: str = ""
    fast: str = ""
    original: str = ""
    retries: int = 10
    move_seconds: float = 120.0
    memory_mb: int = 2048
    log: str = ""
