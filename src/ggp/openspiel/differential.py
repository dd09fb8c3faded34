"""Differential testing of a world model against an OpenSpiel game.

Both games are walked in lock-step along seeded random action sequences. At every step the
legal-action sets must agree (through an explicit action-name mapping), chance outcomes
must agree with their probabilities, the acting player must agree, and at the end the
returns must agree. A mismatch raises :class:`Divergence` with the action sequence so far.

With ``information_states=True`` the observations are checked too: over all sampled
decision points, the acting player's obs-action history in our model and its
``information_state_string`` in OpenSpiel must correspond one to one (our observations
neither reveal what OpenSpiel hides nor forget what it remembers).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, State, canonical_json

# (our state, our action) -> the OpenSpiel action string for the same move
ActionMap = Callable[[State, str], str]


class Divergence(AssertionError):
    """Our model and OpenSpiel disagree; the message shows where."""


@dataclass
class DifferentialReport:
    games: int
    steps: int
    returns: list[list[float]]
    # with information_states=True: (player, our info key) -> OpenSpiel's string, and back
    ours_to_theirs: dict[tuple[int, str], str] = field(default_factory=dict)
    theirs_to_ours: dict[tuple[int, str], str] = field(default_factory=dict)


def identity_map(state: State, action: str) -> str:
    return action


def openspiel_action_strings(os_state: Any) -> dict[str, int]:
    """OpenSpiel's legal actions at ``os_state`` as ``{action string: action id}``."""
    player = os_state.current_player()
    if os_state.is_chance_node():
        return {os_state.action_to_string(player, a): a for a, _ in os_state.chance_outcomes()}
    return {os_state.action_to_string(player, a): a for a in os_state.legal_actions()}


def compare_with_openspiel(
    model: WorldModel,
    game_string: str,
    *,
    games: int = 200,
    seed: int = 0,
    action_map: ActionMap = identity_map,
    returns_map: Callable[[list[float]], list[float]] = lambda r: r,
    max_steps: int = 10_000,
    information_states: bool = False,
) -> DifferentialReport:
    """Walk ``games`` random games through ``model`` and OpenSpiel's ``game_string``.

    ``returns_map`` converts OpenSpiel's returns into ours when the scales differ.
    ``information_states`` also checks the information partition (see the module doc).
    """
    import pyspiel

    game = pyspiel.load_game(game_string)
    rng = random.Random(seed)
    report = DifferentialReport(0, 0, [])
    check_info = information_states and game.get_type().provides_information_state_string
    if information_states and not check_info:
        raise ValueError(f"{game_string} has no information_state_string to compare with")
    for _ in range(games):
        report.returns.append(_one_game(model, game, rng, action_map, returns_map, max_steps,
                                        report, check_info))
        report.games += 1
    return report


def _one_game(model, game, rng, action_map, returns_map, max_steps, report,
              check_info=False) -> list[float]:
    state, os_state = model.initial_state(), game.new_initial_state()
    history: list[str] = []
    views: list[list] = [[] for _ in range(model.num_players)]
    returns = [0.0] * model.num_players
    for _ in range(max_steps):
        player = model.current_player(state)
        _agree(player, _os_player(os_state), "current player", history)
        if player == TERMINAL:
            theirs = returns_map(list(os_state.returns()))
            if not all(math.isclose(a, b, abs_tol=1e-9) for a, b in zip(returns, theirs)):
                raise Divergence(f"returns differ: ours {returns}, OpenSpiel {theirs} "
                                 f"after {history}")
            return returns
        legal = model.legal_actions(state)
        theirs = openspiel_action_strings(os_state)
        mapped = {action_map(state, a): a for a in legal}
        _agree(set(mapped), set(theirs), "legal actions", history)
        if player == CHANCE:
            ours_p = {action_map(state, a): p for a, p in model.chance_outcomes(state)}
            theirs_p = dict(os_state.chance_outcomes())
            for name, p in ours_p.items():
                if not math.isclose(p, theirs_p[theirs[name]], abs_tol=1e-9):
                    raise Divergence(f"chance probability of {name!r}: ours {p}, OpenSpiel "
                                     f"{theirs_p[theirs[name]]} after {history}")
            action = model.sample_chance(state, rng)
        else:
            action = rng.choice(legal)
            if check_info:
                _check_information_state(model, state, os_state, player, views[player],
                                         report, history)
                views[player][-1][1] = action
        os_state.apply_action(theirs[action_map(state, action)])
        state = model.apply(state, action)
        returns = [r + x for r, x in zip(returns, model.rewards(state))]
        history.append(action)
        report.steps += 1
    raise Divergence(f"no terminal state after {max_steps} steps: {history[-20:]}")


def _check_information_state(model, state, os_state, player, view, report, history) -> None:
    """Record the acting player's information state on both sides; a many-to-one match
    means one side distinguishes histories that the other cannot."""
    view.append([model.observation(state, player), None])
    ours = (player, canonical_json(view))
    theirs = (player, os_state.information_state_string(player))
    known_theirs = report.ours_to_theirs.setdefault(ours, theirs[1])
    known_ours = report.theirs_to_ours.setdefault(theirs, ours[1])
    if known_theirs != theirs[1]:
        raise Divergence(f"player {player} cannot tell apart two histories in our model that "
                         f"OpenSpiel distinguishes ({known_theirs!r} vs {theirs[1]!r}) after "
                         f"{history}")
    if known_ours != ours[1]:
        raise Divergence(f"player {player} tells apart two histories in our model that look "
                         f"the same in OpenSpiel ({theirs[1]!r}) after {history}: our "
                         f"observations reveal something OpenSpiel hides")


def _os_player(os_state: Any) -> int:
    if os_state.is_terminal():
        return TERMINAL
    if os_state.is_chance_node():
        return CHANCE
    return os_state.current_player()


def _agree(ours: Any, theirs: Any, what: str, history: list[str]) -> None:
    if ours != theirs:
        extra = ""
        if isinstance(ours, set):
            extra = f"\n  only ours: {sorted(ours - theirs)}\n  only OpenSpiel: {sorted(theirs - ours)}"
        raise Divergence(f"{what} differ after {history}: ours {ours!r}, OpenSpiel {theirs!r}"
                         f"{extra}")
