"""Validated sampling through a model's own inference functions (seed 000 App. G.6)."""

from __future__ import annotations

import random
from collections.abc import Callable

from ggp.core.errors import BeliefError, GGPError
from ggp.core.model import WorldModel, model_error
from ggp.core.protocol import CHANCE, TERMINAL, Action, ObsActionHistory, State


def replay_history(
    model: WorldModel, actions: list[Action], player: int, history: ObsActionHistory
) -> State:
    """Replay ``actions`` from the initial state and check them against ``history``.

    At each decision point of ``player`` the observation must equal the recorded one and
    the action taken must be the recorded one; the replay must end at the player's current
    decision point. Returns the final state, or raises :class:`BeliefError` saying where the
    replay diverged.
    """
    state = model.initial_state()
    step = 0
    for i, action in enumerate(actions):
        if model.current_player(state) == player:
            _check_observation(model, state, player, history, step, i)
            if action != history[step][1]:
                raise BeliefError(
                    f"step {i}: the sampled history plays {action!r} for player {player}, "
                    f"who played {history[step][1]!r} at its decision point {step}"
                )
            step += 1
        legal = model.legal_actions(state)
        if action not in legal:
            raise BeliefError(f"step {i}: sampled action {action!r} is not legal")
        state = model.apply(state, action)
    if model.current_player(state) != player or step != len(history) - 1:
        raise BeliefError(
            f"the sampled history ends after {step} of the player's {len(history) - 1} past "
            "decisions, or not at the player's turn"
        )
    _check_observation(model, state, player, history, step, len(actions))
    return state


def random_decision_points(model: WorldModel,
                           rng: random.Random) -> list[tuple[int, ObsActionHistory]]:
    """``(player, history)`` at every decision point of one game of uniformly random
    legal actions, in the order they occur; the history ends with the decision point
    (its action ``None``), as an agent sees it when asked to move. For testing and
    measuring belief samplers on realistic histories."""
    state = model.initial_state()
    views: list[ObsActionHistory] = [[] for _ in range(model.num_players)]
    points = []
    while model.current_player(state) != TERMINAL:
        player = model.current_player(state)
        if player == CHANCE:
            action = model.sample_chance(state, rng)
        else:
            views[player].append((model.observation(state, player), None))
            points.append((player, list(views[player])))
            action = rng.choice(model.legal_actions(state))
            views[player][-1] = (views[player][-1][0], action)
        state = model.apply(state, action)
    return points


def _with_decision_flag(resample: Callable[..., list[Action]]) -> Callable[..., list[Action]]:
    """``resample(history, player)`` for an inference function that may take the
    closed-deck form ``resample_history(history, player, last_is_terminal)``: the flag
    is passed (False: the player is deciding now) as long as the function accepts it;
    the first call that fails for that keyword switches to the two-argument form."""
    takes_flag = [True]

    def call(history: ObsActionHistory, player: int) -> list[Action]:
        if takes_flag[0]:
            try:
                return resample(history, player, last_is_terminal=False)
            except Exception as exc:  # noqa: BLE001 - model code; re-raised unless it is the flag
                if "last_is_terminal" not in str(exc):
                    raise
                takes_flag[0] = False
        return resample(history, player)

    return call


def _check_observation(model, state, player, history, step, index) -> None:
    if step >= len(history):
        raise BeliefError(f"step {index}: the sampled history has too many player decisions")
    if not model.same(model.observation(state, player), history[step][0]):
        raise BeliefError(f"step {index}: the observation at decision point {step} differs")


def sample_with_model(
    model: WorldModel,
    history: ObsActionHistory,
    player: int,
    *,
    retries: int = 10,
    cache: dict[tuple[Action, ...], State] | None = None,
) -> State:
    """Sample with the model's ``resample_history`` (preferred) or ``resample_state``,
    validating each sample; up to ``retries`` attempts.

    ``cache`` (optional, owned by the caller and tied to this ``history`` and ``player``)
    remembers the state of every action sequence already validated, so a searcher that
    draws many samples of the same decision replays each distinct history only once.
    """
    return model_resampler(model, history, player, retries=retries, cache=cache)()


def model_resampler(
    model: WorldModel,
    history: ObsActionHistory,
    player: int,
    *,
    retries: int = 10,
    cache: dict[tuple[Action, ...], State] | None = None,
) -> Callable[..., State]:
    """A function drawing one validated state per call, exactly as
    :func:`sample_with_model` does; what does not change between calls is looked up once
    (a searcher calls it once per simulation). Its optional argument (a generator) is
    ignored: inference functions use the global :mod:`random`."""
    if not model.has("resample_history"):
        return lambda _rng=None: _sample_state(model, history, player, retries)
    # A trusted model's raw function: the wrapper's frames cost as much as Leduc's own
    # function, and this runs once per simulation. Its exceptions are typed below.
    raw = model.namespace.resample_history if model.trusted else model.resample_history
    resample = _with_decision_flag(raw)
    validated = {} if cache is None else cache

    def draw(_rng: object = None) -> State:
        last_error: Exception | None = None
        for _ in range(retries):
            try:
                drawn = resample(history, player)
            except GGPError as exc:
                last_error = exc
                continue
            except Exception as exc:  # noqa: BLE001 - model code
                last_error = model_error("resample_history", exc)
                continue
            actions = tuple(drawn)
            state = validated.get(actions)
            if state is not None:
                return state
            try:
                state = validated[actions] = replay_history(model, list(actions), player,
                                                            history)
                return state
            except GGPError as exc:
                last_error = exc
        raise BeliefError(f"no consistent state after {retries} tries: {last_error}")

    return draw


def _sample_state(
    model: WorldModel, history: ObsActionHistory, player: int, retries: int
) -> State:
    """Sample with ``resample_state``, validating the state's observation."""
    last_error: Exception | None = None
    for _ in range(retries):
        try:
            state = model.resample_state(history, player)
            if model.current_player(state) == player and model.same(
                model.observation(state, player), history[-1][0]
            ):
                return state
            last_error = BeliefError("resample_state gave a state whose observation differs")
        except GGPError as exc:
            last_error = exc
    raise BeliefError(f"no consistent state after {retries} tries: {last_error}")
