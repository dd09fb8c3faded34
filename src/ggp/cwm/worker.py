"""Sandboxed worker entry for code world models (used through :class:`ggp.sandbox.Worker`).

Two roles, chosen by ``init["role"]``:

* ``"agent"`` — an MCTS or ISMCTS agent planning on the CWM. Play-time inference follows
  seed 000 App. G.6: the model's ``resample_history`` (or ``resample_state``) is called up
  to ``retries`` times and every sample is replayed and checked against the player's real
  observations and actions (:func:`ggp.belief.replay.replay_history`); a model without
  inference functions uses the generic particle filter on the CWM. When the search fails
  for any reason (no consistent sample, the CWM raising, ...), the agent plays a uniformly
  drawn legal action of a resampled state and reports the fallback with its reason.
* ``"host"`` — the CWM's protocol functions, so a match can be played on it
  (:mod:`ggp.cwm.hosted`).

Everything here runs in the sandboxed child: this is the only place where synthesized code
executes during play.
"""

from __future__ import annotations

import random
from typing import Any

from ggp.agents.base import MatchInfo
# imported with this module, before the sandbox's guard (it pulls in ggp.sandbox, whose
# subprocess import a restricted child may not make later)
from ggp.arena.match import seed_global_generators
from ggp.belief.generic import sample_generic
from ggp.belief.replay import sample_with_model
from ggp.belief.sampler import Belief, BeliefSampler, make_sampler
from ggp.core.errors import BeliefError, GGPError
from ggp.core.model import WorldModel, load_model_source
from ggp.core.protocol import GameMetadata, ObsActionHistory, State
from ggp.search.evaluators import RandomRolloutEvaluator, ValueFunctionEvaluator
from ggp.search.ismcts import ISMCTS
from ggp.search.mcts import MCTS


def load_cwm(source: str, filename: str, metadata: dict[str, Any] | None) -> WorldModel:
    """The CWM as a guarded model, carrying the game's public metadata (a synthesized
    model has none of its own; the arena tells every agent the utility range)."""
    loaded = load_model_source(source, name="cwm", filename=filename)
    meta = GameMetadata(**metadata) if metadata else None
    return WorldModel(loaded.namespace, name="cwm", metadata=meta)


class CountingSampler(BeliefSampler):
    """Validated model inference with retries, counting attempts and failures.

    ``stats`` gets ``resample_calls`` (samples asked for), ``resample_valid`` (samples
    whose replay matched the real observations) and ``resample_failures`` (samples given
    up after ``retries`` attempts)."""

    name = "model"

    def __init__(self, model: WorldModel, retries: int, stats: dict[str, int]) -> None:
        super().__init__(model)
        self.retries, self.stats = retries, stats

    def draw(self, history: ObsActionHistory, player: int, cache: dict) -> State:
        error: Exception | None = None
        for _ in range(self.retries):
            self.stats["resample_calls"] += 1
            try:
                state = sample_with_model(self.model, history, player, retries=1, cache=cache)
            except GGPError as exc:
                error = exc
                continue
            self.stats["resample_valid"] += 1
            return state
        self.stats["resample_failures"] += 1
        raise BeliefError(f"no sample consistent with the real observations after "
                          f"{self.retries} tries: {error}")

    def belief(self, history: ObsActionHistory, player: int, rng: random.Random) -> Belief:
        cache: dict = {}
        random.seed(rng.getrandbits(32))  # inference functions draw from the global random
        self.draw(history, player, cache)  # fail before the search starts
        # the cache returns one state object per distinct replayed history
        return Belief(lambda r: self.draw(history, player, cache),
                      pooled=self.model.has("resample_history"))


class AgentHandler:
    """The agent in the worker; methods mirror :class:`ggp.agents.base.Agent`."""

    def __init__(self, init: dict[str, Any]) -> None:
        self.model = load_cwm(init["source"], init["filename"], init.get("metadata"))
        self.planner = init.get("planner", "ismcts")
        if self.planner not in ("ismcts", "mcts"):
            raise GGPError(f"planner must be ismcts or mcts, not {self.planner!r}")
        self.sims = int(init.get("sims", 1000))
        self.rollouts = int(init.get("rollouts", 10))
        self.uct_c = float(init.get("uct_c", 1.0))
        self.use_value = bool(init.get("value", False))
        if self.use_value and not self.model.has("value_function"):
            raise GGPError("the model has no value_function")
        self.stats = {"moves": 0, "searched": 0, "fallbacks": 0, "resample_calls": 0,
                      "resample_valid": 0, "resample_failures": 0}
        self.fallbacks: list[dict[str, Any]] = []
        inference = self.model.has("resample_history") or self.model.has("resample_state")
        if self.model.metadata.perfect_information:
            self.sampler: BeliefSampler = make_sampler(self.model, "perfect")
        elif inference:
            self.sampler = CountingSampler(self.model, int(init.get("retries", 10)),
                                           self.stats)
        else:
            self.sampler = make_sampler(self.model, "generic")

    def start(self, info: dict[str, Any]) -> None:
        seed_global_generators(info["seed"])
        self.info = MatchInfo(**info)
        self.rng = random.Random(self.info.seed)
        evaluator = (ValueFunctionEvaluator(self.model) if self.use_value
                     else RandomRolloutEvaluator(self.model, self.rollouts))
        if self.planner == "ismcts":
            self.search = ISMCTS(self.model, self.sampler, evaluator, simulations=self.sims,
                                 uct_c=self.uct_c, rng=self.rng)
        else:
            self.search = MCTS(self.model, evaluator, simulations=self.sims,
                               uct_c=self.uct_c, rng=self.rng)

    def act(self, history: list) -> dict[str, Any]:
        """``{"action": ..., "fallback": None or the reason the search failed}``."""
        history = [(obs, action) for obs, action in history]
        seat = self.info.seat
        self.stats["moves"] += 1
        try:
            if self.planner == "ismcts":
                action = self.search.best_action(history, seat)
            else:
                state = self.sampler.belief(history, seat, self.rng).sample(self.rng)
                action = self.search.best_action(state)
            self.stats["searched"] += 1
            return {"action": action, "fallback": None}
        except Exception as exc:  # noqa: BLE001 - any failure of the CWM or the search
            reason = f"{type(exc).__name__}: {str(exc)[:300]}"
        self.stats["fallbacks"] += 1
        self.fallbacks.append({"move": self.stats["moves"], "reason": reason})
        return {"action": self._random_action(history, seat), "fallback": reason}

    def _random_action(self, history: ObsActionHistory, seat: int) -> str:
        """A uniformly drawn legal action of a resampled state (model inference first,
        then the generic sampler on the CWM)."""
        try:
            state = self.sampler.belief(history, seat, self.rng).sample(self.rng)
        except Exception:  # noqa: BLE001 - try the model-free sampler next
            state = sample_generic(self.model, history, seat, self.rng)
        return self.rng.choice(sorted(self.model.legal_actions(state)))

    def report(self) -> dict[str, Any]:
        return {"stats": dict(self.stats), "fallbacks": list(self.fallbacks)}


class HostHandler:
    """The CWM's protocol functions, called one at a time by :mod:`ggp.cwm.hosted`."""

    def __init__(self, init: dict[str, Any]) -> None:
        self.model = load_cwm(init["source"], init["filename"], init.get("metadata"))

    def initial_state(self) -> State:
        return self.model.initial_state()

    def current_player(self, state: State) -> int:
        return self.model.current_player(state)

    def player_name(self, player: int) -> str:
        return self.model.player_name(player)

    def legal_actions(self, state: State) -> list[str]:
        return self.model.legal_actions(state)

    def apply(self, state: State, action: str) -> State:
        return self.model.apply(state, action)

    def rewards(self, state: State) -> list[float]:
        return self.model.rewards(state)

    def observations(self, state: State) -> list:
        return self.model.observations(state)

    def chance_outcomes(self, state: State) -> list:
        return [[a, p] for a, p in self.model.chance_outcomes(state)]


def make_handler(init: dict[str, Any]) -> AgentHandler | HostHandler:
    """Worker entry point."""
    return AgentHandler(init) if init.get("role", "agent") == "agent" else HostHandler(init)
