"""A benchmark suite: a folder with ``suite.toml`` and one model file per game.

``suite.toml`` holds a ``[suite]`` table of defaults (training and held-out games, call
budget, play-check size) and one ``[[game]]`` table per game: ``name``, ``file`` (relative
to the folder), ``summary`` (one line), ``players``, ``tags`` (see :data:`TAGS`), ``deck``
(``open`` or ``closed``: synthesize from one player's view) and ``inference`` (also
synthesize ``resample_history``). Reading a suite never runs a game's code.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ggp.core.errors import GGPError

#: The properties a game of a suite may be tagged with, and what each one claims.
TAGS: dict[str, str] = {
    "hidden": "players hold private information (hands, dice, a hidden target)",
    "bluff": "a player can claim or bet about hidden dice or cards",
    "simultaneous": "simultaneous moves, sequentialized (a later mover cannot see the choice)",
    "chance-weighted": "chance outcomes that are not equally likely",
    "multiplayer": "3 to 5 players",
    "closed-deck": "synthesized from one player's view only",
    "long": "random games last more than 200 moves (chance moves included)",
    "branching": "more than 100 legal moves at some state",
    "general-sum": "payoffs do not sum to a constant",
    "limit-or-draw": "the game can end by a move or round limit, or in a draw",
}


class SuiteError(GGPError):
    """A suite folder or its ``suite.toml`` is missing or wrong."""


@dataclass(frozen=True)
class SuiteGame:
    """One game of a suite and how it is synthesized."""

    name: str
    file: Path
    summary: str
    players: int
    tags: tuple[str, ...]
    deck: str = "open"
    inference: bool = False
    view_player: int = 0


@dataclass(frozen=True)
class Suite:
    """A suite folder read from its ``suite.toml``."""

    name: str
    path: Path
    games: tuple[SuiteGame, ...]
    defaults: dict[str, Any] = field(default_factory=dict)

    def select(self, names: list[str] | None) -> list[SuiteGame]:
        """The games named in ``names`` (all when None), in suite order."""
        if not names:
            return list(self.games)
        known = {g.name for g in self.games}
        unknown = [n for n in names if n not in known]
        if unknown:
            raise SuiteError(f"No game {', '.join(unknown)} in the suite {self.name} "
                             f"(games: {', '.join(sorted(known))}).")
        return [g for g in self.games if g.name in names]


#: The settings a ``[suite]`` table may hold (the defaults of ``ggp bench synth``).
SUITE_KEYS = frozenset({"name", "train_games", "test_games", "test_players", "budget",
                        "play_matches", "play_time"})


def load_suite(path: str | Path) -> Suite:
    """The suite in folder ``path`` (or the ``suite.toml`` file itself)."""
    path = Path(path)
    file = path if path.suffix == ".toml" else path / "suite.toml"
    if not file.is_file():
        raise SuiteError(f"No suite at {path}: {file} does not exist.")
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise SuiteError(f"{file} is not valid TOML: {exc}.") from None
    head = data.get("suite", {})
    unknown = sorted(set(head) - SUITE_KEYS)
    if unknown:
        raise SuiteError(f"{file}: unknown [suite] setting {', '.join(unknown)} (known: "
                         f"{', '.join(sorted(SUITE_KEYS))}).")
    games, seen = [], set()
    for index, entry in enumerate(data.get("game", [])):
        where = f"{file}, game {index + 1}"
        try:
            game = SuiteGame(
                name=str(entry["name"]), file=file.parent / entry["file"],
                summary=str(entry.get("summary", "")), players=int(entry["players"]),
                tags=tuple(entry.get("tags", [])), deck=str(entry.get("deck", "open")),
                inference=bool(entry.get("inference", False)),
                view_player=int(entry.get("view_player", 0)))
        except KeyError as exc:
            raise SuiteError(f"{where} has no {exc.args[0]!r}.") from None
        if game.name in seen:
            raise SuiteError(f"{where}: the name {game.name!r} is used twice.")
        seen.add(game.name)
        bad = [t for t in game.tags if t not in TAGS]
        if bad:
            raise SuiteError(f"{where}: unknown tag {', '.join(bad)} (known: "
                             f"{', '.join(TAGS)}).")
        if game.deck not in ("open", "closed"):
            raise SuiteError(f"{where}: deck must be 'open' or 'closed', not {game.deck!r}.")
        if not game.file.is_file():
            raise SuiteError(f"{where}: no model file {game.file}.")
        games.append(game)
    if not games:
        raise SuiteError(f"{file} lists no [[game]].")
    return Suite(str(head.get("name", file.parent.name)), file.parent, tuple(games),
                 {k: v for k, v in head.items() if k != "name"})


def catalogue_markdown(suite: Suite) -> str:
    """The suite's catalogue: one line per game with its properties."""
    lines = [f"# The `{suite.name}` suite: catalogue",
             "",
             "Generated from `suite.toml` by `ggp bench catalogue SUITE_FOLDER`; do not edit "
             "by hand. The tags are checked against each game's model by the tests "
             "(`tests/bench/test_suite_games.py`).",
             "",
             "| game | players | deck | inference | tags | summary |",
             "|---|---:|---|---|---|---|"]
    for g in suite.games:
        lines.append(f"| [{g.name}]({g.file.relative_to(suite.path).as_posix()}) | "
                     f"{g.players} | {g.deck} | {'yes' if g.inference else 'no'} | "
                     f"{', '.join(g.tags)} | {g.summary} |")
    lines += ["", "## Coverage", "", "| tag | meaning | games |", "|---|---|---:|"]
    for tag, meaning in TAGS.items():
        count = sum(tag in g.tags for g in suite.games)
        lines.append(f"| {tag} | {meaning} | {count} |")
    lines += ["", f"{len(suite.games)} games in all."]
    return "\n".join(lines) + "\n"
