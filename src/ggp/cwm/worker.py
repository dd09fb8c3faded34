"""Sandboxed worker entry for agents planning on code world models (through
:class:`ggp.sandbox.Worker`).

An MCTS or ISMCTS agent on the CWM. Play-time inference follows seed 000 App. G.6: the
model's ``resample_history`` (or ``resample_state``) is called up to ``retries`` times and
every sample is replayed and checked against the player's real observations and actions
(:func:`ggp.belief.replay.replay_history`); a model without inference functions uses the
generic particle filter on the CWM. When the search fails for any reason (no consistent
sample, the CWM raising, ...), the agent plays a uniformly drawn legal action of a
resampled state and reports the fallback with its reason. (A CWM hosting a match as the
"true" game runs in :mod:`ggp.sandbox.hosted`.)

Everything here runs in the sandboxed child: with :mod:`ggp.sandbox.hosted`, the only
place where synthesized code executes during play.
"""

from __future__ import annotations

import random
import time
from typing import Any

from ggp.agents.base import MatchInfo

# imported with this module, before the sandbox's guard (it pulls in ggp.sandbox, whose
# subprocess import a restricted child may not make later)
from ggp.arena.match import seed_global_generators
from ggp.belief.generic import sample_generic
from ggp.belief.replay import model_resampler
from ggp.belief.sampler import Belief, BeliefSampler, PooledSampler, make_sampler
from ggp.core.errors import BeliefError, GGPError
from ggp.core.model import WorldModel, random_walk
from ggp.core.protocol import ObsActionHistory, State
from ggp.cwm.purity import ImpureModel, audit_playout, probe, snapshot
from ggp.sandbox.hosted import load_guarded
from ggp.search.evaluators import Playout, RandomRolloutEvaluator, ValueFunctionEvaluator
from ggp.search.ismcts import ISMCTS
from ggp.search.mcts import MCTS
from ggp.search.priors import GuardedPrior


class CountingSampler(BeliefSampler):
    """Validated model inference with retries, counting attempts and failures.

    ``stats`` gets ``resample_calls`` (samples asked for), ``resample_valid`` (samples
    whose replay matched the real observations) and ``resample_failures`` (samples given
    up after ``retries`` attempts). A sampled history is replayed and validated once per
    belief (one decision); later draws of the same history reuse the validated state."""

    name = "model"

    def __init__(self, model: WorldModel, retries: int, stats: dict[str, int]) -> None:
        super().__init__(model)
        self.retries, self.stats = retries, stats

    def belief(self, history: ObsActionHistory, player: int, rng: random.Random) -> Belief:
        random.seed(rng.getrandbits(32))  # inference functions draw from the global random
        # one try per call, so that every try is counted; the cache keeps one validated
        # state object per distinct sampled history
        once = model_resampler(self.model, history, player, retries=1, cache={})
        stats, retries = self.stats, self.retries

        def draw(_rng: object = None) -> State:
            error: Exception | None = None
            for _ in range(retries):
                stats["resample_calls"] += 1
                try:
                    state = once()
                except GGPError as exc:
                    error = exc
                    continue
                stats["resample_valid"] += 1
                return state
            stats["resample_failures"] += 1
            raise BeliefError(f"no sample consistent with the real observations after "
                              f"{retries} tries: {error}")

        draw()  # fail before the search starts
        return Belief(draw, pooled=self.model.has("resample_history"))


class HeldStates(BeliefSampler):
    """Another sampler's beliefs, remembering a snapshot of every state handed to the
    search, so that a search without copies can be checked afterwards: if the model
    changed a state the search held (its root, a pooled determinization), :meth:`check`
    says so."""

    def __init__(self, inner: BeliefSampler) -> None:
        super().__init__(inner.model)
        self.inner = inner
        self.held: dict[int, tuple[State, bytes]] = {}  # id -> (state kept alive, pickle)

    def belief(self, history: ObsActionHistory, player: int, rng: random.Random) -> Belief:
        inner = self.inner.belief(history, player, rng)
        sample, held = inner.sample, self.held

        def draw(r: random.Random) -> State:
            state = sample(r)
            if id(state) not in held:
                held[id(state)] = (state, snapshot(state))
            return state

        return Belief(draw, pooled=inner.pooled)

    def check(self) -> State | None:
        """Raise :class:`ImpureModel` if a held state changed; returns one held state (or
        None) and forgets them all."""
        held, self.held = self.held, {}
        for state, old in held.values():
            if snapshot(state) != old:
                raise ImpureModel("the model changed a state the search held (a root or "
                                  "a determinization) while searching without copies")
        return next(iter(held.values()))[0] if held else None


class _Planner:
    """A sampler and a search over one of the worker's two views of the model."""

    def __init__(self, handler: AgentHandler, model: WorldModel) -> None:
        self.model = model
        inference = model.has("resample_history") or model.has("resample_state")
        if model.metadata.perfect_information:  # the observation, or a program's state
            sampler: BeliefSampler = make_sampler(model)  # tracked from the history
        elif inference:
            sampler = CountingSampler(model, handler.retries, handler.stats)
        else:
            sampler = make_sampler(model, "generic")
        if handler.pool and not model.metadata.perfect_information:
            # a model's inference call often replays the whole game so far: with a pool,
            # a long game pays for `pool` of them per move, not one per simulation
            sampler = PooledSampler(sampler, handler.pool)
        self.sampler = HeldStates(sampler) if model.trusted else sampler
        self.handler = handler
        budget = {"simulations": handler.sims or (None if handler.time else 1000),
                  "time_limit": handler.time or None}
        # the synthesized prior is untrusted code: it always gets a copy of the state (a
        # search node holds the original), and its failures fall back to uniform, counted
        prior = (GuardedPrior(model.namespace.policy_prior, copy_state=True)
                 if handler.use_prior else None)
        evaluator = (ValueFunctionEvaluator(model) if handler.use_value
                     else RandomRolloutEvaluator(
                         model, handler.rollouts,
                         policy=prior if handler.playout is Playout.PRIOR else None))
        if handler.planner == "ismcts":
            self.search: ISMCTS | MCTS = ISMCTS(model, self.sampler, evaluator,
                                                uct_c=handler.uct_c, rng=handler.rng,
                                                prior=prior, **budget)
        else:
            self.search = MCTS(model, evaluator, uct_c=handler.uct_c, rng=handler.rng,
                               prior=prior, solver=handler.solver, reuse=handler.reuse,
                               **budget)

    def best_action(self, history: ObsActionHistory, seat: int, rng: random.Random) -> str:
        """The search's move; its simulations are added to the handler's counters. With
        a time budget the search gets what is left of the move's time (the move started
        in :meth:`AgentHandler.act`), so inference and a redone search stay inside it."""
        handler, search = self.handler, self.search
        search.last_simulations = search.last_inherited = 0
        try:
            if isinstance(search, ISMCTS):
                search.time_limit = handler.time_left()
                return search.best_action(history, seat)
            state = self.sampler.belief(history, seat, rng).sample(rng)
            search.time_limit = handler.time_left()
            return search.best_action(state)
        finally:
            handler.stats["simulations"] += search.last_simulations
            handler.stats["inherited"] += search.last_inherited


class AgentHandler:
    """The agent in the worker; methods mirror :class:`ggp.agents.base.Agent`.

    The model is loaded twice over the same code: ``guarded`` copies every state it hands
    the model (the :class:`WorldModel` default for untrusted code) and ``fast`` does not.
    Searches run on ``fast`` while the model passes the purity checks of
    :mod:`ggp.cwm.purity` — the probe at load, and after every search a check that the
    states the search held are unchanged plus an audited playout from one of them. On the
    first violation, and when a search without copies fails where one with copies does
    not, the worker searches that move again on ``guarded`` and keeps copying for the rest
    of its life (``report()["copies"]`` says why). Each :meth:`start` reloads the model's
    code, so a worker reused for another match starts from fresh module state.
    """

    def __init__(self, init: dict[str, Any]) -> None:
        self.init = init
        self.planner = init.get("planner", "ismcts")
        if self.planner not in ("ismcts", "mcts"):
            raise GGPError(f"planner must be ismcts or mcts, not {self.planner!r}")
        self.sims = int(init.get("sims", 1000))
        self.time = float(init.get("time", 0.0) or 0.0)
        self.move_started = time.perf_counter()
        self.check_seconds = 0.0  # what the purity checks after the last search took
        self.rollouts = int(init.get("rollouts", 10))
        self.uct_c = float(init.get("uct_c", 1.0))
        self.retries = int(init.get("retries", 10))
        self.pool = int(init.get("pool", 0))
        self.use_value = bool(init.get("value", False))
        self.use_prior = bool(init.get("prior", False))
        # rollouts follow the prior when one is used (and no value function replaces
        # them), unless the spec says playout=random: the prior duel measures this default
        playout = str(init.get("playout", "auto") or "auto")
        if playout == "auto":
            playout = "prior" if self.use_prior else "random"
        self.playout = Playout.parse(playout)
        if self.playout is Playout.PRIOR and not self.use_prior:
            raise GGPError("playout=prior needs a policy prior (prior=auto|FILE)")
        self.solver = bool(init.get("solver", True))
        self.reuse = bool(init.get("reuse", True))
        self.copies = ""  # why the model is copied; "" while it runs without copies
        model = self._load()
        if self.use_value and not model.has("value_function"):
            raise GGPError("the model has no value_function")
        if self.use_prior and not callable(getattr(model.namespace, "policy_prior", None)):
            raise GGPError("the model has no policy_prior")
        try:
            probe(model)
        except ImpureModel as exc:
            self.copies = f"load probe: {exc}"

    def time_left(self) -> float | None:
        """Seconds left of this move's ``time`` budget (None without one); a search
        always runs at least one simulation, so 0 is a valid answer."""
        if not self.time:
            return None
        # the checks after the search belong to the move too: keep what the last ones took
        spent = time.perf_counter() - self.move_started
        return max(0.0, self.time - spent - self.check_seconds)

    def _load(self) -> WorldModel:
        return load_guarded(self.init["source"], self.init["filename"], self.init.get("metadata"))

    def start(self, info: dict[str, Any]) -> None:
        seed_global_generators(info["seed"])
        self.info = MatchInfo(**info)
        self.rng = random.Random(self.info.seed)
        # the audits draw from their own generator, so they do not change how the agent plays
        self.audit_rng = random.Random(self.info.seed + 1)
        self.stats = {"moves": 0, "searched": 0, "fallbacks": 0, "simulations": 0,
                      "inherited": 0, "resample_calls": 0, "resample_valid": 0,
                      "resample_failures": 0}
        self.fallbacks: list[dict[str, Any]] = []
        guarded = self._load()
        self.guarded = _Planner(self, guarded)
        self.fast = _Planner(self, WorldModel(guarded.namespace, name="cwm", trusted=True,
                                              metadata=guarded.metadata))

    def act(self, history: list) -> dict[str, Any]:
        """``{"action": ..., "fallback": None or the reason the search failed}``."""
        self.move_started = time.perf_counter()
        history = [(obs, action) for obs, action in history]
        seat = self.info.seat
        self.stats["moves"] += 1
        if self.stats["moves"] == 1:
            self._check_fits(history[0][0])
        try:
            action = self._search(history, seat)
            self.stats["searched"] += 1
            return {"action": action, "fallback": None}
        except Exception as exc:  # noqa: BLE001 - any failure of the CWM or the search
            reason = f"{type(exc).__name__}: {str(exc)[:300]}"
        self.stats["fallbacks"] += 1
        self.fallbacks.append({"move": self.stats["moves"], "reason": reason})
        return {"action": self._random_action(history, seat), "fallback": reason}

    def _check_fits(self, seen: Any) -> None:
        """Stop at the first move, naming the cause, when the model is of another game:
        another number of players, or an observation of the true game with keys that the
        model's observations (over a few random games of its own) never hold. Without
        this a model of another game fails deep in belief sampling. A model that cannot be
        walked is left to the search, which reports its own failure."""
        model = self.guarded.model
        if model.num_players != self.info.num_players:
            raise GGPError(f"the model is not of this game (player mismatch): it has "
                           f"{model.num_players} players, {self.info.game} has "
                           f"{self.info.num_players}")
        if not isinstance(seen, dict):
            return
        keys: set[str] = set()
        rng = random.Random(0)  # its own generator: the check must not change the play
        try:
            for _ in range(5):
                for state, _player, _legal in random_walk(model, rng, 500):
                    obs = model.observation(state, self.info.seat)
                    if isinstance(obs, dict):
                        keys |= set(obs)
        except Exception:  # noqa: BLE001 - the search meets and reports this failure
            return
        missing = sorted(set(seen) - keys)
        if keys and missing:
            raise GGPError(f"the model is not of this game (observation mismatch): "
                           f"{self.info.game}'s observations hold {missing}, which the "
                           f"model's never do (the model's keys: {sorted(keys)})")

    def _search(self, history: ObsActionHistory, seat: int) -> str:
        if self.copies:
            return self.guarded.best_action(history, seat, self.rng)
        before = snapshot(history)
        held = self.fast.sampler
        try:
            action = self.fast.best_action(history, seat, self.rng)
            checks_started = time.perf_counter()
            root = held.check()
            if snapshot(history) != before:
                raise ImpureModel("the model changed the player's history")
            if root is not None:
                audit_playout(self.fast.model, root, self.audit_rng)
            self.check_seconds = time.perf_counter() - checks_started
            return action
        except ImpureModel as exc:
            self.copies = f"move {self.stats['moves']}: {exc}"
        except Exception as exc:  # noqa: BLE001 - maybe the missing copies' doing
            held.held.clear()
            action = self.guarded.best_action(history, seat, self.rng)  # raises if not
            self.copies = (f"move {self.stats['moves']}: the search failed without copies "
                           f"({type(exc).__name__}: {str(exc)[:200]}) but not with them")
            return action
        return self.guarded.best_action(history, seat, self.rng)

    def _random_action(self, history: ObsActionHistory, seat: int) -> str:
        """A uniformly drawn legal action of a resampled state (model inference first,
        then the generic sampler on the CWM)."""
        model = self.guarded.model
        try:
            state = self.guarded.sampler.belief(history, seat, self.rng).sample(self.rng)
        except Exception:  # noqa: BLE001 - try the model-free sampler next
            state = sample_generic(model, history, seat, self.rng)
        return self.rng.choice(sorted(model.legal_actions(state)))

    def report(self) -> dict[str, Any]:
        stats = dict(self.stats)
        if self.use_prior:  # prior calls that failed and fell back to uniform
            stats["prior_errors"] = self.fast.search.prior_errors + \
                self.guarded.search.prior_errors
        return {"stats": stats, "fallbacks": list(self.fallbacks), "copies": self.copies}


def make_handler(init: dict[str, Any]) -> AgentHandler:
    """Worker entry point."""
    return AgentHandler(init)
