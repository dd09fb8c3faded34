"""The registry of reference games.

Every module in :mod:`ggp.games` that defines ``METADATA`` is a game, registered under its
module name. A module is either itself the world-model namespace, or defines
``make(**params)`` returning one (games with parameters, e.g. Goofspiel's number of cards);
``PARAMETERS`` lists the defaults. Games are named like OpenSpiel games:
``"goofspiel"`` or ``"goofspiel(num_cards=5,points_order=descending)"``.

A game name is a small input that may come from anyone (a web page, a GGP message, a
command line): ``generalized_tic_tac_toe(rows=100000,cols=100000)`` would build a board of
ten billion cells. So every numeric parameter declares its bounds in ``PARAMETER_RANGES``
(``{"rows": (1, 30)}``, inclusive), checked when the name is parsed, before the game's
``make`` runs; a text parameter is at most :data:`MAX_TEXT_PARAMETER` characters. A test
holds every registered game to declaring a range for each numeric parameter.
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
import re
from dataclasses import dataclass, field
from functools import cache
from types import ModuleType
from typing import Any

from ggp.core.errors import ModelLoadError
from ggp.core.model import WorldModel
from ggp.core.protocol import GameMetadata

#: The longest text value of a game parameter (``battleship(ship_sizes=[3;2;2])``).
MAX_TEXT_PARAMETER = 200

_SPEC = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$", re.S)


@dataclass(frozen=True)
class GameEntry:
    """A registered game: its module, metadata and default parameters."""

    name: str
    module: ModuleType
    metadata: GameMetadata
    parameters: dict[str, Any]
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)

    @property
    def rules(self) -> str:
        return getattr(self.module, "RULES", "")


@cache
def registered_games() -> dict[str, GameEntry]:
    """All reference games, by name."""
    import ggp.games

    entries = {}
    for info in pkgutil.iter_modules(ggp.games.__path__):
        module = importlib.import_module(f"ggp.games.{info.name}")
        metadata = getattr(module, "METADATA", None)
        if isinstance(metadata, GameMetadata):
            params = dict(getattr(module, "PARAMETERS", {}))
            ranges = dict(getattr(module, "PARAMETER_RANGES", {}))
            entries[info.name] = GameEntry(info.name, module, metadata, params, ranges)
    return entries


def parse_game_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name(a=1,b=x)"`` into ``("name", {"a": 1, "b": "x"})``."""
    match = _SPEC.match(spec)
    if not match:
        raise ModelLoadError(
            f"Cannot read the game name {spec!r}. Write a registered name such as "
            "'tic_tac_toe' or 'leduc_poker(blinds=true)', or a path to a .py or .kif file."
        )
    name, arg_text = match.group(1), match.group(2)
    params: dict[str, Any] = {}
    for item in filter(None, (p.strip() for p in (arg_text or "").split(","))):
        key, sep, value = item.partition("=")
        if not sep:
            raise ModelLoadError(f"Game parameter {item!r} in {spec!r} needs the form key=value.")
        params[key.strip()] = parse_value(value.strip())
    return name, params


def parse_value(text: str) -> Any:
    """A spec setting's value: a boolean, an int, a float, or else the text itself."""
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def make_game(spec: str) -> WorldModel:
    """A trusted :class:`WorldModel` of a registered game."""
    name, params = parse_game_spec(spec)
    games = registered_games()
    if name not in games:
        close = difflib.get_close_matches(name, games, n=3)
        hint = f" Did you mean {', '.join(close)}?" if close else ""
        raise ModelLoadError(
            f"There is no game called {name!r}.{hint} Run 'ggp games' to list the "
            "registered games, or pass a path to a .py model or a .kif/.gdl description."
        )
    entry = games[name]
    unknown = set(params) - set(entry.parameters)
    if unknown:
        allowed = ", ".join(f"{k}={v!r}" for k, v in entry.parameters.items()) or "none"
        raise ModelLoadError(
            f"Game {name!r} has no parameter {', '.join(sorted(unknown))}. "
            f"Its parameters (with defaults) are: {allowed}."
        )
    check_parameters(name, params, entry.ranges)
    if hasattr(entry.module, "make"):
        try:
            namespace = entry.module.make(**{**entry.parameters, **params})
        except ValueError as exc:
            raise ModelLoadError(f"Bad parameters for {name!r}: {exc}") from exc
    else:
        namespace = entry.module
    metadata = getattr(namespace, "METADATA", entry.metadata)
    display = name if not params else spec.replace(" ", "")
    return WorldModel(namespace, name=display, trusted=True,
                      rules=getattr(namespace, "RULES", entry.rules), metadata=metadata)


def check_parameters(name: str, params: dict[str, Any],
                     ranges: dict[str, tuple[float, float]]) -> None:
    """Refuse parameter values outside their declared ``ranges`` (inclusive) and text
    values longer than :data:`MAX_TEXT_PARAMETER`, before anything is built from them."""
    for key, value in params.items():
        if isinstance(value, str) and len(value) > MAX_TEXT_PARAMETER:
            raise ModelLoadError(f"Game parameter {key} of {name!r} is {len(value)} "
                                 f"characters long (at most {MAX_TEXT_PARAMETER}).")
        bounds = ranges.get(key)
        if bounds is None or isinstance(value, bool) or not isinstance(value, (int, float)):
            continue  # a value of the wrong kind is the game's make() to refuse
        low, high = bounds
        if not low <= value <= high:
            raise ModelLoadError(f"Game parameter {key}={value} of {name!r} is out of "
                                 f"bounds: it must be between {low:g} and {high:g}.")
