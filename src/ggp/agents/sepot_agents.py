"""Agents playing a trained R-NaD policy network (``rnad``) or SePoT search (``sepot``).

Both need a checkpoint written by ``ggp sepot train`` and play the game the checkpoint
was trained on, either through the OpenSpiel bridge or as the matching reference game of
``ggp.games``:

    ggp play "openspiel:goofspiel(imp_info=True,num_cards=4,points_order=descending)" \
        -p "sepot:checkpoint=runs/g4/latest.pt,rnad:checkpoint=runs/g4/latest.pt"
    ggp play "goofspiel(num_cards=4,points_order=descending)" -p "sepot:checkpoint=...,random"

Reference games are translated by :class:`ggp.sepot.reference.ReferenceGameMap` (same game
and parameters checked at construction; histories replayed in pyspiel by action name).

Bridge models: the agent samples a state consistent with its history with the model's belief
(:func:`ggp.belief.sample_state`), replays that state's OpenSpiel action ids in the
checkpoint's pyspiel game (the same ids, since the bridge uses the same game and the same
turn-based conversion), asks the network or the search for probabilities over action ids,
samples one and answers with the model's name for it. Everything the policy uses (the
acting player's information state, the public state) is the same in every consistent
state, so the sample's hidden part does not matter.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from ggp.agents import register_agent
from ggp.agents.base import Agent
from ggp.belief import sample_state
from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import Action, ObsActionHistory

#: Where the resolving gadget's opponent values come from (``SePoTPolicy.cfv_source``).
CFVSource = Literal["critic", "previous"]
#: Where the resolving player's reach comes from (``SePoTPolicy.ranges``).
Ranges = Literal["network", "played"]


class SePoTAgentError(GGPError):
    """The agent cannot play this model with this checkpoint."""


def _load(checkpoint: str) -> Any:
    try:
        from ggp.sepot.rnad import RNaDLearner
    except ImportError as exc:  # pragma: no cover - depends on the installed extras
        raise SePoTAgentError(
            "The rnad/sepot agents need torch: pip install 'ggp[torch]'.") from exc
    try:
        return RNaDLearner.load(checkpoint)
    except FileNotFoundError as exc:
        raise SePoTAgentError(f"No checkpoint at {checkpoint!r}.") from exc


def _check_model(model: WorldModel, spec: Any) -> None:
    import pyspiel

    game_string = getattr(model.namespace, "game_string", None)
    same = game_string is not None and str(pyspiel.load_game(game_string)) == str(
        pyspiel.load_game(spec.game_string))
    if not same:
        raise SePoTAgentError(
            f"This checkpoint was trained on {spec.game_string!r}; play it on the model "
            f"'openspiel:{spec.game_string}' (got {model.name!r}).")


class _NetworkAgentBase(Agent):
    """Shared plumbing: history -> pyspiel state -> probabilities -> action name."""

    def __init__(self, model: WorldModel, checkpoint: str) -> None:
        from ggp.sepot.search import NetworkBlueprint

        self.model = model
        self.learner = _load(checkpoint)
        self.spec = self.learner.spec
        self.reference = None
        if getattr(model.namespace, "game_string", None) is None:
            from ggp.sepot.reference import GameMismatch, ReferenceGameMap

            try:
                self.reference = ReferenceGameMap(model, self.spec)
            except GameMismatch as exc:
                raise SePoTAgentError(str(exc)) from exc
        else:
            _check_model(model, self.spec)
        self.blueprint = NetworkBlueprint(self.learner)

    def probabilities(self, state: Any) -> dict[int, float]:
        raise NotImplementedError

    def act(self, history: ObsActionHistory) -> Action:
        if self.reference is not None:
            state = self.reference.pyspiel_state(history, self.info.seat)
            return self.reference.action_name(state, self._choose(state))
        world_state = sample_state(self.model, history, self.info.seat, self.rng)
        state = self.spec.game.new_initial_state()
        for a in world_state["history"]:
            state.apply_action(a)
        chosen = self._choose(state)
        name = state.action_to_string(state.current_player(), chosen)
        legal = self.model.legal_actions(world_state)
        return name if name in legal else f"{name} [{chosen}]"

    def _choose(self, state: Any) -> int:
        """Sample a pyspiel action id from the agent's probabilities at ``state``."""
        probs = self.probabilities(state)
        actions = list(probs)
        weights = np.array([probs[a] for a in actions], dtype=float)
        return actions[int(self.rng.choices(range(len(actions)), weights=weights)[0])]


class RNaDAgent(_NetworkAgentBase):
    """Samples from the R-NaD policy network (the target network)."""

    name = "rnad"

    def probabilities(self, state: Any) -> dict[int, float]:
        pi = self.blueprint.policy([state])[0]
        return {a: float(pi[a]) for a in state.legal_actions()}


class SePoTAgent(_NetworkAgentBase):
    """Resolves the public state with the critic when it is small enough (else network)."""

    name = "sepot"

    def __init__(self, model: WorldModel, checkpoint: str, depth: int = 2,
                 iterations: int = 1500, max_histories: int = 25_000,
                 max_nodes: int = 200_000, cfv_source: CFVSource = "critic",
                 ranges: Ranges = "network") -> None:
        from ggp.sepot.search import SePoTPolicy

        super().__init__(model, checkpoint)
        self.search = SePoTPolicy(self.spec, self.blueprint, depth_limit=depth,
                                  iterations=iterations, max_histories=max_histories,
                                  max_nodes=max_nodes, cfv_source=cfv_source, ranges=ranges)

    def probabilities(self, state: Any) -> dict[int, float]:
        return self.search.action_probabilities(state)


@register_agent("rnad")
def make_rnad(model: WorldModel, checkpoint: str) -> RNaDAgent:
    return RNaDAgent(model, str(checkpoint))


@register_agent("sepot")
def make_sepot(model: WorldModel, checkpoint: str, depth: int = 2, iterations: int = 1500,
               max_histories: int = 25_000, max_nodes: int = 200_000,
               cfv_source: CFVSource = "critic", ranges: Ranges = "network") -> SePoTAgent:
    """``cfv_source``: critic | previous; ``ranges``: network | played (see SePoTPolicy)."""
    return SePoTAgent(model, checkpoint, depth=depth, iterations=iterations,
                      max_histories=max_histories, max_nodes=max_nodes,
                      cfv_source=cfv_source, ranges=ranges)
