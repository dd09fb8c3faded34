"""Games and agents for the web page, opened through the arena's code paths.

A game spec is what ``ggp play`` takes — a registered name (``leduc_poker``,
``openspiel:...``) or a ``.kif``/``.gdl`` file — or untrusted code: a ``.py`` model file
or a synthesis run directory (its ``cwm.py``). Untrusted code never runs in the web
server's process: the model is hosted in a sandboxed worker (:mod:`ggp.sandbox.hosted`) and
agents from files run in their own sandboxed workers (:class:`ggp.arena.sandboxed.SandboxedAgent`),
as in the arena.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ggp.agents import Agent, AgentSpecError, agent_names, make_agent
from ggp.arena.agent_specs import check_agent_spec, is_file_spec
from ggp.arena.sandboxed import AGENT_LIMITS, SandboxedAgent
from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import GameMetadata
from ggp.core.registry import parse_game_spec, registered_games
from ggp.load import GDL_SUFFIXES, load_model
from ggp.sandbox.hosted import HostedModel, HostFailure, model_file


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


def open_game(spec: str) -> OpenGame:
    """Open the game ``spec`` names (see the module docstring)."""
    spec = spec.strip()
    if not spec:
        raise GGPError("Pick a game: a registered name, a .kif/.gdl file, a .py model or a "
                       "synthesis run directory.")
    path = Path(spec).expanduser()
    if path.is_dir() or path.suffix == ".py":
        source = model_file(path)  # a clear error when there is no model there
        reference = _reference_game(source)
        try:
            metadata = (registered_games()[reference].metadata if reference
                        else _probe_metadata(source))
            model = HostedModel(source, metadata)
        except HostFailure as exc:  # the worker's traceback ends with the reason
            lines = [line for line in str(exc).splitlines() if line.strip()]
            raise GGPError(f"The model {source} does not load: {lines[-1].strip()}") from exc
        label = f"{path.name} (sandboxed model" + (f" of {reference})" if reference else ")")
        return OpenGame(label, str(source), model, True, reference or source.stem)
    if path.suffix.lower() in GDL_SUFFIXES and not path.is_file():
        raise GGPError(f"No such GDL file: {spec}.")
    model = load_model(spec)
    return OpenGame(model.name, spec, model, False, parse_game_spec(spec)[0]
                    if not path.suffix else path.stem)


def _reference_game(source: Path) -> str:
    """The registered game a synthesis run modelled (its ``metadata.json``), or ``""``."""
    meta = source.parent / "metadata.json"
    try:
        game = json.loads(meta.read_text(encoding="utf-8")).get("game", "")
    except (OSError, ValueError, AttributeError):
        return ""
    return game if game in registered_games() else ""


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
            if path.name == "cwm.py":
                group, spec = "synthesis run (sandboxed)", str(path.parent)
            elif path.suffix.lower() in GDL_SUFFIXES:
                group, spec = "GDL", str(path)
            else:
                continue
            if spec not in seen:
                seen.add(spec)
                choices.append({"spec": spec, "label": spec, "group": group, "players": None})
    return choices
