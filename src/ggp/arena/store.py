"""A tournament's directory: its config, its results and its trajectories, on disk.

Layout of ``out_dir``:

* ``tournament.json`` — the :class:`~ggp.arena.tournament.TournamentConfig` and the
  metadata of its games (so reports need neither the games nor the agents); only the
  number of matches may change when a tournament is resumed;
* ``results.jsonl`` — one line per finished match (outcome, forfeit, timings);
* ``trajectories.jsonl`` — one line per finished match with its full record (steps,
  states, every player's observation-action history, move times).

One process writes at a time (an exclusive ``flock`` on ``.lock``, released by the
kernel when the process dies). Lines are appended, flushed and fsync'ed one match at a time, trajectory first, so a
process (or machine) dying at any point loses at most the match being written. On
reopening, a partly written last line is cut off, and the keys present in
``results.jsonl`` are the matches that are done.
"""

from __future__ import annotations

import fcntl
import json
import os
from pathlib import Path
from typing import IO, Any

from ggp.core.errors import GGPError
from ggp.core.files import UnsafeOutputError, open_output, refuse_link, write_output

CONFIG_FILE = "tournament.json"
RESULTS_FILE = "results.jsonl"
TRAJECTORIES_FILE = "trajectories.jsonl"


class ResultsError(GGPError):
    """A results directory is missing, damaged or holds a different tournament."""


class ResultStore:
    """Appends match records to a tournament directory (one writer at a time)."""

    def __init__(self, out_dir: Path, records: list[dict[str, Any]], lock: IO[str]) -> None:
        self.out_dir = out_dir
        self.records = records
        self._lock = lock
        self._results: IO[str] = open_output(out_dir / RESULTS_FILE, "a")
        self._trajectories: IO[str] = open_output(out_dir / TRAJECTORIES_FILE, "a")

    @classmethod
    def open(cls, out_dir: str | Path, config, games: dict[str, Any]) -> ResultStore:
        """Open ``out_dir`` for ``config``: create it, or resume the same tournament."""
        out_dir = Path(out_dir)
        out_dir.mkdir(parents=True, exist_ok=True)
        lock = _lock(out_dir)
        config_path = out_dir / CONFIG_FILE
        try:
            for name in (CONFIG_FILE, RESULTS_FILE, TRAJECTORIES_FILE):
                refuse_link(out_dir / name)  # read back on resuming: never through a link
        except UnsafeOutputError:
            lock.close()
            raise
        wanted = {"config": config.to_dict(), "games": games}
        if config_path.exists():
            stored = json.loads(config_path.read_text(encoding="utf-8"))
            if _without_matches(stored.get("config", {})) != _without_matches(wanted["config"]):
                lock.close()
                raise ResultsError(
                    f"{out_dir} holds results of a different tournament "
                    f"(stored settings: {json.dumps(stored.get('config'))}). Use another "
                    "--out directory, or the same settings to resume it (only --matches "
                    "may change)."
                )
        _write_atomically(config_path, json.dumps(wanted, indent=1))
        for name in (RESULTS_FILE, TRAJECTORIES_FILE):
            _cut_partial_line(out_dir / name)
        return cls(out_dir, read_records(out_dir / RESULTS_FILE), lock)

    def done_keys(self) -> set[str]:
        return {r["key"] for r in self.records}

    def append(self, record: dict[str, Any], trajectory: dict[str, Any] | None) -> None:
        """Store one finished match durably (trajectory first, then its result line)."""
        if trajectory is not None:
            _append_line(self._trajectories, trajectory)
        _append_line(self._results, record)
        self.records.append(record)

    def close(self) -> None:
        self._results.close()
        self._trajectories.close()
        self._lock.close()  # releases the lock


def _lock(out_dir: Path) -> IO[str]:
    """Hold an exclusive lock on ``out_dir`` (the kernel drops it if the process dies)."""
    handle = open_output(out_dir / ".lock", "w")  # held open
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise ResultsError(
            f"Another 'ggp arena' is writing to {out_dir}; wait for it to finish, or use "
            "another --out directory."
        ) from None
    return handle


def _without_matches(config: dict[str, Any]) -> dict[str, Any]:
    """A config without its match count: more (or fewer) matches is the same tournament,
    since match keys and seeds do not depend on the count."""
    return {k: v for k, v in config.items() if k != "matches"}


def _append_line(stream: IO[str], value: dict[str, Any]) -> None:
    stream.write(json.dumps(value, separators=(",", ":")) + "\n")
    stream.flush()
    os.fsync(stream.fileno())


def _write_atomically(path: Path, text: str) -> None:
    write_output(path, text)  # a fresh file renamed over it; a planted link is refused


def _cut_partial_line(path: Path) -> None:
    """Drop an unfinished last line left by a process killed while writing it."""
    if not os.path.lexists(path):
        return
    with open_output(path, "r+b") as fh:  # never through a planted link
        data = fh.read()
        if data and not data.endswith(b"\n"):
            fh.truncate(data.rfind(b"\n") + 1)


def read_records(path: str | Path) -> list[dict[str, Any]]:
    """The match records of a results file, the first record of each key only."""
    path = Path(path)
    if not path.exists():
        return []
    records, seen = [], set()
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.endswith("\n"):
                break  # being written (or cut off by a kill): not a finished match
            try:
                record = json.loads(line)
            except ValueError as exc:
                raise ResultsError(f"{path}:{number} is not a JSON line ({exc}).") from exc
            if record["key"] not in seen:
                seen.add(record["key"])
                records.append(record)
    return records


def load_tournament(out_dir: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The stored ``{"config", "games"}`` of a tournament directory and its records
    (those within the stored number of matches, in case it was lowered)."""
    out_dir = Path(out_dir)
    config_path = out_dir / CONFIG_FILE
    if not config_path.exists():
        raise ResultsError(
            f"{out_dir} is not a tournament directory (no {CONFIG_FILE}); pass the --out "
            "directory of a 'ggp arena' run."
        )
    for name in (CONFIG_FILE, RESULTS_FILE):
        refuse_link(out_dir / name)  # what a report shows comes from this folder only
    stored = json.loads(config_path.read_text(encoding="utf-8"))
    matches = stored["config"]["matches"]
    records = [r for r in read_records(out_dir / RESULTS_FILE) if r["index"] < matches]
    return stored, records
