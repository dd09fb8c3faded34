"""Check the match records of a ggp-base interoperability run.

ggp-base's server never refuses a bad move: it replaces an illegal, unparseable or late
reply (and a failed connection) by a random legal move and notes it only in the match
JSON's ``errors`` field: one list per step (the first for START), one string per role in
role order, ``""`` when the role's reply was fine, else ``IL <move>`` (illegal or
unparseable), ``TO`` (timeout) or ``CE`` (connection error). So an interoperability check
must read that field; this script does, for every match record under a folder:

    python scripts/interop/check_ggpbase_matches.py OUT_DIR [--ours ggp-python]
        [--expect-errors SampleNoopGamer] [--player-log OUT_DIR/ours.log]

* ggp-base's records (``matchId`` ...): the match must be completed and our player (found
  by its name in ``playerNamesFromHost``) must have no error. ``--expect-errors NAME`` is
  the negative control: NAME must have errors in every match it played (a player that
  answers ``NOOP`` to everything), which shows the field is really filled in.
* our manager's records (``ggp manage`` against ggp-base's players, format
  ``ggp.ggpnet.match/1``): the match must have goals and no player any error.

It prints one line per match and exits with status 1 if any check fails, 2 if there are
no records; else 0.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

MANAGER_FORMAT = "ggp.ggpnet.match/1"  # ggp.ggpnet.manager.RECORD_FORMAT


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


def check_manager_record(record: dict) -> MatchCheck:
    """Read one of our manager's records (``ggp.ggpnet.match/1``); every player counts
    as checked (our manager talking to ggp-base's players must cause no error)."""
    roles = [r for r in record["roles"] if r != record.get("nature")]
    labels = [f"{role}={record['players'][role]}" for role in roles]
    errors: dict[str, list[str]] = {label: [] for label in labels}
    for error in record["errors"]:
        if error["role"] in roles:
            step = "start" if error["turn"] < 0 else f"step {error['turn'] + 1}"
            text = f"{step}: {error['kind']}"
            if error.get("detail"):
                text += f" ({error['detail']})"
            if error.get("reply") is not None:
                text += f", reply {error['reply']!r}"
            errors[labels[roles.index(error["role"])]].append(text)
    goals = record["goals"]
    return MatchCheck(
        match_id=str(record["match_id"]),
        players=labels,
        completed=goals is not None and not record.get("aborted"),
        goals=None if goals is None else [goals[r] for r in roles],
        steps=len(record["steps"]),
        errors=errors,
        our_seats=list(range(len(roles))),
    )


def describe(check: MatchCheck) -> str:
    """One line: verdict, match, players by role, goals, steps and errors per player."""
    verdict = "OK  " if check.ok else "FAIL"
    errors = "; ".join(f"{name}: {', '.join(found) if found else 'none'}"
                       for name, found in check.errors.items())
    status = "completed" if check.completed else "NOT completed"
    return (f"{verdict} {check.match_id}: players {check.players}, {status}, "
            f"goals {check.goals}, {check.steps} steps, errors [{errors}]")


_LOGGED = re.compile(r"POST '\( ?(\w+)\b.* -> (\d+) .* in ([0-9.]+) s$")


def reply_times(log_text: str) -> dict[str, list[float]]:
    """Seconds our player took per message kind (START, PLAY, ...), from the lines
    ``ggp serve -v`` logs for every exchange."""
    times: dict[str, list[float]] = {}
    for line in log_text.splitlines():
        found = _LOGGED.search(line)
        if found:
            times.setdefault(found.group(1).upper(), []).append(float(found.group(3)))
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="folder with match records (searched "
                                                  "recursively)")
    parser.add_argument("--ours", default="ggp-python",
                        help="our player's name in playerNamesFromHost")
    parser.add_argument("--expect-errors", default=None, metavar="NAME",
                        help="a ggp-base player that must have errors (negative control)")
    parser.add_argument("--player-log", type=Path, default=None,
                        help="our player's `ggp serve -v` log: print its reply times")
    args = parser.parse_args(argv)
    if args.player_log is not None and args.player_log.is_file():
        for kind, seconds in sorted(reply_times(args.player_log.read_text()).items()):
            print(f"our player's {kind} replies: {len(seconds)}, max {max(seconds):.3f} s, "
                  f"mean {sum(seconds) / len(seconds):.3f} s")
    failed = total = ours_errors = 0
    for path in sorted(args.folder.rglob("*.json")):
        try:
            record = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            print(f"FAIL {path.name}: unreadable match record ({exc})")
            failed, total = failed + 1, total + 1
            continue
        if not isinstance(record, dict):
            continue
        if record.get("format") == MANAGER_FORMAT:
            check = check_manager_record(record)
            print(f"[ggp manage] {describe(check)}")
        elif "matchId" in record:
            check = check_record(record, args.ours)
            if args.expect_errors in check.players:
                control_ok = check.completed and bool(check.errors[args.expect_errors])
                print(f"{'OK  ' if control_ok else 'FAIL'} control: {args.expect_errors} "
                      f"must have errors -> {'yes' if control_ok else 'NO'}")
                failed += not control_ok
            print(describe(check))
            ours_errors += len(check.our_errors)
        else:
            continue  # tournament.json, report.json, ...
        total += 1
        failed += not check.ok
    if not total:
        print(f"no match records (*.json) under {args.folder}", file=sys.stderr)
        return 2
    print(f"{total} matches checked, {failed} failed; {ours_errors} errors of {args.ours} "
          "in ggp-base's records")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
