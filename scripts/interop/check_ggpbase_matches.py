"""Check the match records that ggp-base's match server wrote for our player.

ggp-base's server never refuses a bad move: it replaces an illegal, unparseable or late
reply (and a failed connection) by a random legal move and notes it only in the match
JSON's ``errors`` field: one list per step (the first for START), one string per role in
role order, ``""`` when the role's reply was fine, else ``IL <move>`` (illegal or
unparseable), ``TO`` (timeout) or ``CE`` (connection error). So an interoperability check
must read that field; this script does, for every ``*.json`` match record in a folder:

    python scripts/interop/check_ggpbase_matches.py OUT_DIR [--ours ggp-python]

It prints one line per match (game, players by role, goal values, steps, errors per role)
and exits with status 1 if any match is not completed or if our player (found by its name
in ``playerNamesFromHost``) has any error, 2 if there are no records; else 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass
class MatchCheck:
    """What one ggp-base match record says about our player."""

    match_id: str
    players: list[str]
    completed: bool
    goals: list[int] | None
    steps: int  # joint moves played
    errors: dict[str, list[str]]  # player name -> ["step 3: TO", ...] (step 0 is START)
    our_seats: list[int]  # role indices our player had

    @property
    def our_errors(self) -> list[str]:
        return [e for seat in self.our_seats for e in self.errors[self.players[seat]]]

    @property
    def ok(self) -> bool:
        return self.completed and bool(self.our_seats) and not self.our_errors


def check_record(record: dict, ours: str) -> MatchCheck:
    """Read one match JSON as ggp-base's ``Match.toJSON`` writes it."""
    players = list(record.get("playerNamesFromHost") or [])
    steps_errors = record.get("errors") or []
    if not players:  # names unknown: label the roles by index
        width = max((len(step) for step in steps_errors), default=0)
        players = [f"role{i}" for i in range(width)]
    # the same name twice (our player against itself) must not merge the seats
    labels = [name if players.count(name) == 1 else f"{name}#{i}"
              for i, name in enumerate(players)]
    errors: dict[str, list[str]] = {label: [] for label in labels}
    for step, entries in enumerate(steps_errors):
        for seat, entry in enumerate(entries):
            if entry:
                errors[labels[seat]].append(f"step {step}: {entry}")
    return MatchCheck(
        match_id=str(record.get("matchId")),
        players=labels,
        completed=bool(record.get("isCompleted")),
        goals=record.get("goalValues"),
        steps=len(record.get("moves") or []),
        errors=errors,
        our_seats=[i for i, name in enumerate(players) if name == ours],
    )


def describe(check: MatchCheck) -> str:
    """One line: verdict, match, players by role, goals, steps and errors per player."""
    verdict = "OK  " if check.ok else "FAIL"
    errors = "; ".join(f"{name}: {', '.join(found) if found else 'none'}"
                       for name, found in check.errors.items())
    status = "completed" if check.completed else "NOT completed"
    return (f"{verdict} {check.match_id}: players {check.players}, {status}, "
            f"goals {check.goals}, {check.steps} steps, errors [{errors}]")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="folder with ggp-base match JSON files")
    parser.add_argument("--ours", default="ggp-python",
                        help="our player's name in playerNamesFromHost")
    args = parser.parse_args(argv)
    paths = sorted(args.folder.glob("*.json"))
    if not paths:
        print(f"no match records (*.json) in {args.folder}", file=sys.stderr)
        return 2
    checks = []
    for path in paths:
        try:
            record = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            print(f"FAIL {path.name}: unreadable match record ({exc})")
            checks.append(None)
            continue
        checks.append(check_record(record, args.ours))
        print(describe(checks[-1]))
    failed = sum(1 for c in checks if c is None or not c.ok)
    ours_errors = sum(len(c.our_errors) for c in checks if c is not None)
    print(f"{len(checks)} matches, {failed} failed, {ours_errors} errors of {args.ours}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
