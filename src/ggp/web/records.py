"""Match records for the viewer: arena results, ``ggp manage`` records, synthesis trajectories.

:func:`open_record` reads a path and returns a :class:`Record`: a list of matches and, for a
tournament directory, its report's plots. :meth:`Record.match` gives one match in the one
form the viewer steps through::

    {"title", "game", "players": [name], "returns", "forfeit", "notes": [str],
     "steps": [{"actor", "action", "state", "state_view", "views": [obs or None],
                "view_views": [view or None]}]}

``state`` is the full state before the step's action where the record has it; ``views[p]``
is what player ``p`` had seen by then (its latest observation). Viewing a record shows
everything in it, hidden information included: it is for looking back at matches.

* arena directory or its ``results.jsonl``: one match per results line; the steps come from
  ``trajectories.jsonl`` (full states, every player's history) when the run recorded it;
  the report's ``plots/*.png`` come along;
* ``ggp manage`` directory or one ``<match_id>.json``: joint moves per turn and, in GDL-II,
  each role's percepts. The record holds no states: they are replayed from the game's
  rules when a GDL file with the recorded ``rules_sha256`` is found in the record's folder
  or in ``rules_dirs``;
* synthesis trajectory file (``ggp-trajectories``, open or closed deck), or a run
  directory holding ``trajectories.jsonl``.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ggp.core.errors import GGPError
from ggp.load import GDL_SUFFIXES
from ggp.render import render

MATCH_FORMAT = "ggp.ggpnet.match"
#: The largest plot the viewer serves (a report's PNGs are ~50 kB).
MAX_PLOT_BYTES = 16 * 1024 * 1024


class RecordError(GGPError):
    """A path holds no record the viewer can show."""


@dataclass
class Record:
    """An opened record: ``matches`` are labels; ``load(i)`` returns match ``i``."""

    path: Path
    kind: str
    matches: list[str]
    load: Callable[[int], dict[str, Any]]
    plots: list[Path] = field(default_factory=list)

    def match(self, index: int) -> dict[str, Any]:
        if not 0 <= index < len(self.matches):
            raise RecordError(f"{self.path} has matches 0..{len(self.matches) - 1}, "
                              f"not {index}.")
        match = self.load(index)
        for step in match["steps"]:
            step["state_view"] = (None if step.get("state") is None
                                  else render(step["state"], match["game"]))
            step["view_views"] = [None if v is None else render(v, match["game"])
                                  for v in step["views"]]
        return match

    def summary(self) -> dict[str, Any]:
        return {"path": str(self.path), "kind": self.kind, "matches": self.matches,
                "plots": [p.name for p in self.plots]}


def open_record(path: str | Path, rules_dirs: list[Path] | None = None) -> Record:
    """Open an arena or ``ggp manage`` directory, a results line file, a match record or a
    synthesis trajectory file (see the module docstring). ``rules_dirs``: where to look for
    the GDL file of a ``ggp manage`` record (to replay its states)."""
    path = Path(path).expanduser()
    rules = _Rules([path if path.is_dir() else path.parent, *(rules_dirs or [])])
    if not path.exists():
        raise RecordError(f"No such file or directory: {path}.")
    if path.is_dir():
        if (path / "results.jsonl").is_file():
            return _results(path, rules)
        if (path / "trajectories.jsonl").is_file():
            return _open_file(path / "trajectories.jsonl", rules)
        inside = sorted(d.name for d in path.iterdir() if d.is_dir() and not d.is_symlink()
                        and any((d / f).is_file() for f in ("results.jsonl",
                                                            "trajectories.jsonl")))
        hint = f" Open one of its folders: {', '.join(inside[:8])}." if inside else ""
        raise RecordError(f"{path} holds no results.jsonl (an arena or 'ggp manage' "
                          "directory) and no trajectories.jsonl (a synthesis run)." + hint)
    return _open_file(path, rules)


def _open_file(path: Path, rules: _Rules) -> Record:
    if path.name == "results.jsonl":
        return _results(path.parent, rules)
    try:
        with open(path, encoding="utf-8") as fh:
            first = fh.readline()
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"Cannot read {path}: {exc}.") from exc
    try:
        head = json.loads(first) if first.strip() else None
    except ValueError:
        head = None
    if path.suffix == ".json":
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise RecordError(f"{path} is not JSON ({exc}).") from exc
        if isinstance(record, dict) and str(record.get("format", "")).startswith(MATCH_FORMAT):
            return Record(path, "ggp manage match", [_manage_label(record)],
                          lambda i: _manage_match(record, rules))
    if isinstance(head, dict) and (head.get("format") == "ggp-trajectories"
                                   or "trajectory" in head):
        return _synth(path)
    if isinstance(head, dict) and "key" in head and "steps" in head:
        return _results(path.parent, rules)
    raise RecordError(
        f"{path} is not a record the viewer knows: open an arena or 'ggp manage' directory "
        "(or its results.jsonl), a 'ggp manage' match record (.json) or a synthesis "
        "trajectory file (.jsonl).")


# --------------------------------------------------------------------- arena / manage
def _results(folder: Path, rules: _Rules) -> Record:
    from ggp.arena.store import read_records

    # the folder's own files only: a results or trajectory file (or a match record named by
    # a results line's key) that resolves out of the folder is not read
    if _inside(folder / "results.jsonl", folder) is None:
        raise RecordError(f"{folder / 'results.jsonl'} is not a file inside {folder}.")
    rows = read_records(folder / "results.jsonl")
    if not rows:
        raise RecordError(f"{folder / 'results.jsonl'} holds no finished match yet.")
    labels = [f"#{i} {r['game']}: " + " vs ".join(map(str, r.get("seats", [])))
              + (f" → {', '.join(f'{x:+g}' for x in r['returns'])}" if r.get("returns")
                 else "") for i, r in enumerate(rows)]
    plots = _plots(folder)

    def load(index: int) -> dict[str, Any]:
        row = rows[index]
        manage = folder / f"{row['key']}.json"
        if _inside(manage, folder) is not None:
            return _manage_match(json.loads(manage.read_text(encoding="utf-8")), rules)
        trajectories = folder / "trajectories.jsonl"
        full = (_find_trajectory(trajectories, row["key"])
                if _inside(trajectories, folder) is not None else None)
        if full is None:
            return {"title": labels[index], "game": row["game"],
                    "players": list(map(str, row.get("seats", []))),
                    "returns": row.get("returns"), "forfeit": row.get("forfeit"),
                    "notes": ["This run recorded no trajectory for this match (arena "
                              "--no-trajectories): only its result is known."],
                    "steps": []}
        return _arena_match(labels[index], full)

    kind = "ggp manage series" if any(_inside(folder / f"{r['key']}.json", folder)
                                      for r in rows[:1]) else "arena results"
    return Record(folder, kind, labels, load, plots)


def _inside(path: Path, root: Path) -> Path | None:
    """``path`` with every symlink resolved, when that is a regular file inside ``root``
    (resolved too); else None. A link within the folder is fine, one out of it is not."""
    try:
        real = path.resolve(strict=True)
        real.relative_to(root.resolve(strict=True))
    except (OSError, ValueError, RuntimeError):
        return None
    return real if real.is_file() else None


def _plots(folder: Path) -> list[Path]:
    """The report's ``plots/*.png`` that resolve to files inside the record's folder."""
    plot_dir = folder / "plots"
    if not plot_dir.is_dir():
        return []
    return [p for p in sorted(plot_dir.glob("*.png")) if _inside(p, folder) is not None]


def read_inside(path: Path, root: Path, limit: int = MAX_PLOT_BYTES) -> bytes | None:
    """The bytes of ``path`` when it resolves to a regular file inside ``root`` (at most
    ``limit`` of them), else None. The resolved file is opened with ``O_NOFOLLOW``, so a
    link swapped in after the check is not followed."""
    real = _inside(path, root)
    if real is None:
        return None
    try:
        fd = os.open(real, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read(limit + 1)[:limit]
    finally:
        os.close(fd)


def _find_trajectory(path: Path, key: str) -> dict[str, Any] | None:
    if not path.is_file():
        return None
    quoted = json.dumps(key)  # as the key is written inside the line (a cheap prefilter)
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if quoted in line or key in line:
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                if record.get("key") == key:
                    return record
    return None


def _arena_match(title: str, full: dict[str, Any]) -> dict[str, Any]:
    agents = list(map(str, full.get("agents", [])))
    histories = full.get("histories", [])
    seen = [0] * len(histories)
    latest: list[Any] = [None] * len(histories)
    steps = []
    for step in full.get("steps", []):
        player = step.get("player", -1)
        if 0 <= player < len(histories) and seen[player] < len(histories[player]):
            latest[player] = histories[player][seen[player]][0]
            seen[player] += 1
        actor = (f"{agents[player]} (seat {player})" if 0 <= player < len(agents)
                 else "chance")
        steps.append({"actor": actor, "action": step.get("action"),
                      "state": step.get("state"), "views": list(latest)})
    end = _final_step(full.get("game", ""), steps, len(histories))
    if end is not None:
        steps.append(end)
    notes = []
    if full.get("forfeit"):
        f = full["forfeit"]
        notes.append(f"seat {f['player']} forfeits: {f['reason']} {f.get('detail', '')}")
    return {"title": title, "game": full.get("game", ""), "players": agents,
            "returns": full.get("returns"), "forfeit": full.get("forfeit"), "notes": notes,
            "steps": steps}


def _final_step(game: str, steps: list[dict[str, Any]], players: int) -> dict[str, Any] | None:
    """The end of a match: the recorded steps hold each state *before* its move, so the
    final state is the last move applied by the game's rules. Only registered games are
    replayed here (their code is ggp's own); for any other game, or when the last state
    was not recorded, there is no final step."""
    from ggp.core.registry import make_game, registered_games

    if not steps or steps[-1].get("state") is None or game not in registered_games():
        return None
    try:
        model = make_game(game)
        final = model.apply(steps[-1]["state"], steps[-1]["action"])
        views = [model.observation(final, p) for p in range(players)]
    except Exception:  # noqa: BLE001 - an odd record: the viewer shows what it has
        return None
    return {"actor": "end", "action": None, "state": final, "views": views}


def _manage_label(record: dict[str, Any]) -> str:
    return f"{record.get('match_id', '?')} {record.get('game', '')}"


class _Rules:
    """GDL files found by the SHA-256 of their text (as ``ggp manage`` records it)."""

    def __init__(self, dirs: list[Path]) -> None:
        self.dirs = dirs
        self._found: dict[str, Path] | None = None

    def find(self, sha256: str) -> Path | None:
        import hashlib

        from ggp.ggpnet.manager import SEE_ALL_MOVES

        if self._found is None:
            self._found = {}
            for folder in self.dirs:
                if not folder.is_dir():
                    continue
                for path in sorted(folder.rglob("*")):
                    if path.suffix.lower() not in GDL_SUFFIXES:
                        continue
                    text = path.read_text(encoding="utf-8", errors="replace")
                    for variant in (text, text + "\n" + SEE_ALL_MOVES):  # GDL in a GDL-II form
                        digest = hashlib.sha256(variant.encode()).hexdigest()
                        self._found.setdefault(digest, path)
        return self._found.get(sha256)


def _replay(record: dict[str, Any], rules: _Rules) -> tuple[list[Any] | None, str]:
    """The state before each step (``{"true": [fluents]}``), replayed from the rules."""
    from ggp.gdl.terms import to_kif
    from ggp.gdl.match import load_match_game

    path = rules.find(str(record.get("rules_sha256", "")))
    if path is None:
        return None, ("The record holds no states, and no GDL file with its rules was found "
                      "(put the .kif beside the record or pass its folder to ggp web "
                      "--games) to replay them.")
    try:
        game = load_match_game(path)
        state, states = game.initial(), []
        for step in record.get("steps", []):
            states.append({"true": sorted(to_kif(f) for f in game.fluents(state))})
            state, _ = game.step(state, step["moves"])
    except (GGPError, KeyError, ValueError) as exc:
        return None, f"Replaying the rules of {path} failed: {exc}"
    return states, f"States replayed from the rules in {path}."


def _manage_match(record: dict[str, Any], rules: _Rules) -> dict[str, Any]:
    roles = [r for r in record.get("roles", []) if r != record.get("nature")]
    gdl_ii = bool(record.get("gdl_ii"))
    states, replay_note = _replay(record, rules)
    steps = []
    seen: dict[str, list[Any]] = {r: [] for r in roles}
    for step in record.get("steps", []):
        moves = step.get("moves", {})
        for role in roles:
            seen[role] = seen[role] + [{"turn": step.get("turn"),
                                        "percepts": step.get("percepts", {}).get(role, [])}]
        action = ", ".join(f"{role}: {move}" for role, move in moves.items())
        views = ([{"role": r, "percepts so far": seen[r]} for r in roles] if gdl_ii
                 else [None] * len(roles))
        steps.append({"actor": f"turn {step.get('turn')}", "action": action,
                      "state": None if states is None else states[len(steps)],
                      "views": views})
    goals = record.get("goals") or {}
    notes = [replay_note]
    if not gdl_ii:
        notes.append("GDL (perfect information): every player sees every move.")
    for error in record.get("errors", []):
        notes.append(f"turn {error.get('turn')}: {error.get('role')} {error.get('kind')} "
                     f"— played {error.get('substitute')}")
    if record.get("aborted"):
        notes.append(f"aborted: {record['aborted']}")
    return {"title": _manage_label(record), "game": record.get("game", ""),
            "players": [f"{r} ({record.get('players', {}).get(r, '?')})" for r in roles],
            "returns": [goals.get(r) for r in roles] if goals else None, "forfeit": None,
            "notes": notes, "steps": steps}


# --------------------------------------------------------------------- synthesis
def _synth(path: Path) -> Record:
    from ggp.synth.trajectories import load_trajectories

    data = load_trajectories(path)
    labels = [f"game {i} ({data.deck} deck" + (f", player {t.player}'s view)"
                                                if t.player is not None else ")")
              for i, t in enumerate(data.trajectories)]

    def load(index: int) -> dict[str, Any]:
        trajectory = data.trajectories[index]
        players = [f"player {p}" for p in range(data.num_players)]
        steps = []
        if data.deck == "open":
            for step in trajectory.steps:
                actor = (step.player_name if step.current_player >= 0
                         else "chance" if step.current_player == -1 else "end")
                steps.append({"actor": actor, "action": step.action, "state": step.state,
                              "views": list(step.observations)})
            returns = [sum(s.rewards[p] for s in trajectory.steps)
                       for p in range(data.num_players)]
        else:
            for entry in trajectory.view:
                views: list[Any] = [None] * data.num_players
                views[trajectory.player] = entry["observation"]
                steps.append({"actor": "end" if entry.get("terminal") else
                              f"player {trajectory.player}", "action": entry.get("action"),
                              "state": None, "views": views})
            returns = None
        return {"title": f"{path.name}: {labels[index]}", "game": data.game,
                "players": players, "returns": returns, "forfeit": None,
                "notes": [] if data.deck == "open" else
                ["Closed deck: only the recorded player's view is known."],
                "steps": steps}

    return Record(path, "synthesis trajectories", labels, load)
