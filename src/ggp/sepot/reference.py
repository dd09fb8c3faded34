"""Play SePoT / R-NaD checkpoints on ggp's own reference games (``ggp.games``).

A checkpoint is trained on a pyspiel game; the reference games of ``ggp.games`` that model
the same game declare it in ``metadata.openspiel`` (for example ``goofspiel(num_cards=4,
points_order=descending)`` declares ``goofspiel(imp_info=True,num_cards=4,
points_order=descending,returns_type=win_loss)``). :class:`ReferenceGameMap` connects the
two:

* :func:`check_same_game` compares the declared game with the checkpoint's game, parameter
  by parameter (defaults included), and raises :class:`GameMismatch` naming the first
  difference;
* :meth:`ReferenceGameMap.pyspiel_state` turns a player's obs-action history in the
  reference model into a pyspiel state: the model's ``resample_history`` gives a full
  action sequence consistent with the history (validated by replay), and each action name
  is matched to the pyspiel action whose OpenSpiel name translates to it;
* :meth:`ReferenceGameMap.action_name` turns a pyspiel action id back into the model's name.

Only the information the search uses (the acting player's information state and the public
state) must be right, and it is the same in every consistent history, so which consistent
history is sampled does not matter. Translations exist for Kuhn poker, Leduc poker
(antes), imperfect-information Goofspiel and Battleships.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ggp.belief import replay_history
from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import Action, ObsActionHistory
from ggp.sepot.games import SepotGame


class GameMismatch(GGPError):
    """The model is not the game the checkpoint was trained on, or cannot be translated."""


_LEDUC_CARDS = ("Js", "Jh", "Qs", "Qh", "Ks", "Kh")  # OpenSpiel card id = 2 * rank + suit
_BATTLESHIP = re.compile(r"Pl\d: (?:place ship (horizontally|vertically) with top-left corner "
                         r"in|shoot at) \((\d+), (\d+)\)")


def _kuhn(text: str) -> str:
    return f"Deal {'JQK'[int(text[5:])]}" if text.startswith("Deal:") else text


def _leduc(text: str) -> str:
    if text.startswith("Chance outcome:"):
        return "Deal " + _LEDUC_CARDS[int(text.split(":")[1])]
    return text


def _goofspiel(text: str) -> str:
    if text.startswith("Deal "):
        return "Point card " + text[5:]
    match = re.fullmatch(r"\[P\d\]Bid: (\d+)", text)
    return f"Bid {match.group(1)}" if match else text


def _battleship(text: str) -> str:
    match = _BATTLESHIP.fullmatch(text)
    if not match:
        return text
    orientation, row, col = match.groups()
    return f"Place {orientation} at ({row},{col})" if orientation else f"Shoot ({row},{col})"


# OpenSpiel short name -> (OpenSpiel action string -> the reference model's action name)
TRANSLATIONS: dict[str, Callable[[str], str]] = {
    "kuhn_poker": _kuhn,
    "leduc_poker": _leduc,
    "goofspiel": _goofspiel,
    "battleship": _battleship,
}


def _parameters(game: Any) -> dict[str, Any]:
    """A game's parameters with defaults, unwrapped from the turn-based conversion and
    with list-valued strings (``[1;1]`` vs ``[1.0;1.0]``) compared as numbers."""
    params = dict(game.get_parameters())
    if set(params) == {"game"} and isinstance(params["game"], dict):
        params = dict(params["game"])
    params.pop("name", None)
    for key, value in params.items():
        if isinstance(value, str) and re.fullmatch(r"\[[-\d.;]*\]", value):
            params[key] = tuple(float(x) for x in value.strip("[]").split(";") if x)
    return params


def check_same_game(model: WorldModel, spec: SepotGame) -> str:
    """The OpenSpiel short name of the game ``model`` declares; raise :class:`GameMismatch`
    unless it is ``spec``'s game with the same parameters and has a translation."""
    import pyspiel

    declared = model.metadata.openspiel
    if not declared:
        raise GameMismatch(
            f"Model {model.name!r} does not declare an OpenSpiel equivalent "
            f"(metadata.openspiel), so it cannot be matched with a checkpoint trained on "
            f"{spec.game_string!r}.")
    ours, theirs = pyspiel.load_game(declared), pyspiel.load_game(spec.game_string)
    name = ours.get_type().short_name
    if name != theirs.get_type().short_name:
        raise GameMismatch(f"Model {model.name!r} is {declared!r}, but the checkpoint was "
                           f"trained on {spec.game_string!r}.")
    a, b = _parameters(ours), _parameters(theirs)
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            raise GameMismatch(
                f"Model {model.name!r} ({declared}) differs from the checkpoint's game "
                f"{spec.game_string!r}: {key} is {a.get(key)!r} here and {b.get(key)!r} "
                f"in the checkpoint.")
    if name not in TRANSLATIONS:
        raise GameMismatch(f"No action translation for OpenSpiel game {name!r}; known: "
                           f"{', '.join(sorted(TRANSLATIONS))}.")
    return name


class ReferenceGameMap:
    """Translate between a reference model's histories/actions and the checkpoint's pyspiel
    game (see the module docstring). Construction checks the games match."""

    def __init__(self, model: WorldModel, spec: SepotGame, retries: int = 10) -> None:
        self.model, self.spec, self.retries = model, spec, retries
        self.translate = TRANSLATIONS[check_same_game(model, spec)]
        if not model.has("resample_history"):
            raise GameMismatch(f"Model {model.name!r} has no resample_history; the "
                               "rnad/sepot agents need it to rebuild a full history.")

    def pyspiel_state(self, history: ObsActionHistory, player: int) -> Any:
        """A pyspiel state of the checkpoint's game consistent with ``history``."""
        last: Exception | None = None
        for _ in range(self.retries):
            try:
                actions = list(self.model.resample_history(history, player))
                replay_history(self.model, actions, player, history)
                return self._replay(actions)
            except GGPError as exc:
                last = exc
        raise GameMismatch(f"No consistent history to replay in OpenSpiel: {last}")

    def _replay(self, actions: list[Action]) -> Any:
        state = self.spec.game.new_initial_state()
        for step, action in enumerate(actions):
            ids = self._ids(state)
            if action not in ids:
                raise GameMismatch(
                    f"step {step}: the model's action {action!r} has no OpenSpiel counterpart "
                    f"among {sorted(ids)}; the model and the checkpoint's game differ.")
            state.apply_action(ids[action])
        return state

    def _ids(self, state: Any) -> dict[str, int]:
        player = state.current_player()
        actions = ([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                   else state.legal_actions())
        return {self.translate(state.action_to_string(player, a)): a for a in actions}

    def action_name(self, state: Any, action: int) -> Action:
        """The reference model's name of pyspiel ``action`` at ``state``."""
        return self.translate(state.action_to_string(state.current_player(), action))

