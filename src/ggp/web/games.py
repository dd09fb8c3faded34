"""Games and agents for the web page, opened through the arena's code paths.

A game spec is what ``ggp play`` takes — a registered name (``leduc_poker``,
``openspiel:...``) or a ``.kif``/``.gdl`` file — or untrusted code: a ``.py`` model file
or a synthesis run directory (its ``cwm.py``). Untrusted code never runs in the web
server's process: the model is hosted in a sandboxed worker (:mod:`ggp.sandbox.hosted`) and
agents from files run in their own sandboxed workers (:class:`ggp.arena.sandboxed.SandboxedAgent`),
as in the arena.

The web page takes game specs from anyone who holds the server's token, so it opens only
the sources in :data:`GAME_SOURCES` (:func:`game_source` classifies a spec), refuses
OpenSpiel games that read files or wrap other games (``efg_game(filename=...)`` would read
any file and quote it in its parse error), and never shows a game's own error text: the
page gets a generic line, the server's log the details.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from ggp.agents import Agent, AgentSpecError, agent_names, make_agent
from ggp.arena.agent_specs import check_agent_spec, is_file_spec
from ggp.arena.sandboxed import AGENT_LIMITS, SandboxedAgent
from ggp.budget import BudgetExceeded
from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import GameMetadata
from ggp.core.registry import parse_game_spec, registered_games
from ggp.core.text import clean_line, clean_text
from ggp.load import GDL_SUFFIXES, WEB_BUDGET, load_model
from ggp.rundir import MODEL, metadata_if_any, model_file
from ggp.sandbox.hosted import HostedModel, HostFailure

log = logging.getLogger("ggp.web")

GameSource = Literal["registered", "gdl", "model", "openspiel"]
#: What the web page may open: registered games (parameters within their declared
#: bounds), GDL files, untrusted models (hosted in a sandboxed worker) and OpenSpiel games
#: that read no file (:func:`check_openspiel_spec`).
GAME_SOURCES: tuple[GameSource, ...] = ("registered", "gdl", "model", "openspiel")
# OpenSpiel parameters that name files, folders or other games (not max_game_length)
_FILE_PARAMETER = re.compile(r"file|path|dir|root|(^|_)game(_string)?$", re.I)


class GameSourceError(GGPError):
    """A game spec the web page does not open."""


@dataclass
class OpenGame:
    """A game ready to play.

    ``spec`` is what a sandboxed agent's worker loads (the model file for hosted code);
    ``render_as`` the reference game whose views fit it (a run's game, or ``spec``)."""

    label: str
    spec: str
    model: WorldModel
    hosted: bool
    render_as: str

    def close(self) -> None:
        if isinstance(self.model, HostedModel):
            self.model.close()


def game_source(spec: str) -> GameSource:
    """Which kind of source ``spec`` names (see :data:`GAME_SOURCES`)."""
    if spec.startswith("openspiel:"):
        return "openspiel"
    path = Path(spec).expanduser()
    if path.suffix.lower() in GDL_SUFFIXES:
        return "gdl"
    if path.suffix == ".py" or path.is_dir():
        return "model"
    return "registered"


def check_openspiel_spec(spec: str) -> None:
    """Refuse an OpenSpiel game string that would read a file or build another game: a
    parameter named for a file, a folder or a path (``efg_game(filename=...)``,
    ``bargaining(instances_file=...)``), one holding a game (``game=``, ``stage_game=``,
    ``..._game_string=``, or any value with parentheses), or a value that looks like a
    path. OpenSpiel's defaults for those parameters read nothing."""
    name, params = parse_game_spec(spec.removeprefix("openspiel:"))
    for key, value in params.items():
        text = str(value)
        if (_FILE_PARAMETER.search(key) or "(" in text or "/" in text
                or text.startswith(("~", "."))):
            raise GameSourceError(
                f"The web page does not open the OpenSpiel game {name!r} with {key}=...: "
                "that parameter names a file or another game. Open it with 'ggp play' on "
                "this machine instead.")


def open_game(spec: str, sources: tuple[GameSource, ...] = GAME_SOURCES) -> OpenGame:
    """Open the game ``spec`` names (see the module docstring), if its kind of source is
    among ``sources``. Errors are one line in ggp's own words; what a game, a model or a
    library said about its failure goes to the log only."""
    spec = spec.strip()
    if not spec:
        raise GGPError("Pick a game: a registered name, a .kif/.gdl file, a .py model or a "
                       "synthesis run directory.")
    kind = game_source(spec)
    if kind not in sources:
        raise GameSourceError(f"This server does not open {kind} games (it opens: "
                              f"{', '.join(sources)}).")
    path = Path(spec).expanduser()
    if kind == "model":
        source = model_file(path)  # a clear error when there is no model there
        reference = _reference_game(source)
        try:
            metadata = (registered_games()[reference].metadata if reference
                        else _probe_metadata(source))
            model = HostedModel(source, metadata)
        except (HostFailure, GGPError) as exc:  # the worker's traceback ends with the reason
            raise _game_failed(spec, exc) from exc
        label = f"{path.name} (sandboxed model" + (f" of {reference})" if reference else ")")
        return OpenGame(label, str(source), model, True, reference or source.stem)
    if kind == "gdl" and not path.is_file():
        raise GGPError(f"No such GDL file: {spec}.")
    if kind == "openspiel":
        check_openspiel_spec(spec)
    try:
        model = load_model(spec, budget=WEB_BUDGET)
    except BudgetExceeded:
        raise  # ggp's own words: too large for this server
    except GGPError as exc:
        if kind == "registered":
            raise  # the registry's words on ggp's own games: unknown name, bounds, values
        raise _game_failed(spec, exc) from exc
    except (ValueError, TypeError, RuntimeError, OSError, MemoryError) as exc:
        raise _game_failed(spec, exc) from exc
    render_as = (path.stem if kind == "gdl"
                 else parse_game_spec(spec.removeprefix("openspiel:"))[0])
    return OpenGame(model.name, spec, model, False, render_as)


def _game_failed(spec: str, exc: BaseException) -> GGPError:
    """A generic one-line error for the page; the game's own words go to the log (they
    may quote a file, a state or anything the game's code chose)."""
    log.warning("opening game %s failed: %s: %s", clean_line(spec, 300), type(exc).__name__,
                clean_text(str(exc), limit=4000))
    return GGPError(f"The game {clean_line(spec, 200)} could not be opened "
                    f"({type(exc).__name__}; the details are in the server's log).")


def _reference_game(source: Path) -> str:
    """The registered game a synthesis run modelled (its ``metadata.json``), or ``""``."""
    meta = metadata_if_any(source.parent)
    game = meta.game if meta is not None else None
    return game if isinstance(game, str) and game in registered_games() else ""


def _probe_metadata(source: Path) -> GameMetadata:
    """Conservative metadata for a model of unknown origin; the number of players comes
    from the hosted model itself (its observations of the initial state)."""
    guess = GameMetadata(num_players=1, min_utility=-1.0, max_utility=1.0, zero_sum=False,
                         outcome="payoff", perfect_information=False, chance=True)
    probe = HostedModel(source, guess)
    try:
        players = len(probe.observations(probe.initial_state()))
    finally:
        probe.close()
    if players < 1:
        raise GGPError(f"The model {source} has no players (its initial observations are "
                       "empty).")
    return replace(guess, num_players=players)


def make_seat_agent(spec: str, game: OpenGame, *, sandbox: bool = False,
                    move_seconds: float = 60.0) -> Agent:
    """The agent ``spec`` names, as the arena builds it: agents from files (and every agent
    when ``sandbox``) in a sandboxed worker, registered agents in this process planning
    with the game's model (for hosted code: the sandboxed model)."""
    spec = spec.strip()
    if not spec or spec == "human":
        raise AgentSpecError("Pick an agent for every other seat (the human plays one).")
    check_agent_spec(spec)
    if sandbox or is_file_spec(spec):
        return SandboxedAgent(spec, game.spec, move_seconds=move_seconds,
                              limits=AGENT_LIMITS)
    return make_agent(spec, game.model)


def agent_choices() -> list[str]:
    """Registered agents a person may pick as an opponent (not ``human``)."""
    return [name for name in agent_names() if name != "human"]


def game_choices(dirs: list[Path]) -> list[dict[str, Any]]:
    """The picker's list: registered games, then files under ``dirs`` — GDL descriptions
    and synthesis runs (folders holding ``cwm.py``). Any other ``.py`` model is typed in."""
    choices = [{"spec": name, "label": name, "group": "registered",
                "players": entry.metadata.num_players}
               for name, entry in sorted(registered_games().items())]
    seen: set[str] = set()
    for folder in dirs:
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            if len(choices) > 500:
                break
            if path.name == MODEL:
                group, spec = "synthesis run (sandboxed)", str(path.parent)
            elif path.suffix.lower() in GDL_SUFFIXES:
                group, spec = "GDL", str(path)
            else:
                continue
            if spec not in seen:
                seen.add(spec)
                choices.append({"spec": spec, "label": spec, "group": group, "players": None})
    return choices
