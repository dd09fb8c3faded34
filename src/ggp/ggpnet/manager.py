"""The game manager: runs matches between HTTP players and writes match records.

:func:`run_match` plays one match the way the public servers do (docs/ggp_protocol.md):

* START goes to every player with its role, the rules and the clocks; PLAY messages go
  out in parallel and each reply is awaited for the play clock plus ``grace`` seconds
  (ggp-base and Dresden both allow one extra second);
* the GDL-II ``random`` role (and any role given the endpoint ``random``) is played by
  the manager itself with uniformly random legal moves and is never contacted;
* in GDL-II each player receives only its own percepts (the ``sees`` rules), in the
  5-field form ``(PLAY id turn lastmove percepts)`` or the older 3-field form; a GDL
  game played in a GDL-II form gets a rule by which every role sees every move (as the
  Dresden controller adds);
* a move that is missing (dead player, timeout, HTTP error), unparseable or illegal is
  replaced by a random legal move in GDL (ggp-base) or the first legal move in GDL-II
  (Dresden), and the replacement is recorded in the record's ``errors``;
* STOP ends a finished match, ABORT one the manager gives up on (step limit, a reasoner
  error).

Every message is bounded by its clock, the number of steps by ``max_steps``, so a match
always ends. :func:`run_series` plays several matches with the players rotated through
the roles and writes one JSON record per match plus a tournament directory in the arena's
layout (``tournament.json``, ``results.jsonl``), which :mod:`ggp.arena.report` reports.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ggp.core.files import open_output, write_output
from ggp.core.errors import GGPError
from ggp.core.protocol import GameMetadata
from ggp.gdl.match import MatchGame, canonical_move
from ggp.ggpnet.messages import (
    abort_message,
    play2_message,
    play_message,
    rules_list,
    start_message,
)
from ggp.ggpnet.transport import Exchange, send_message

LOCAL_RANDOM = "random"  # endpoint name of a player the manager plays itself
RECORD_FORMAT = "ggp.ggpnet.match/1"
FORMS = ("auto", "gdl", "gdl2", "gdl2-legacy")
# Added to a GDL game played in a GDL-II form, as the Dresden controller does.
SEE_ALL_MOVES = "(<= (sees ?p (did ?q ?m)) (role ?p) (does ?q ?m))"


@dataclass
class MatchConfig:
    """Clocks in seconds; ``form`` is the PLAY/STOP form (``auto``: ``gdl`` for GDL
    games, ``gdl2`` (5-field) for GDL-II); ``upper`` sends messages upper-cased as the
    Dresden controller does.

    Clocks must be whole seconds: the protocol's clocks are integers and ggp-base's
    players cannot parse ``1.5`` (they never answer such a START). ``fractional_clocks``
    lifts that for players known to accept fractions (ours; quick tests)."""

    start_clock: float = 10.0
    play_clock: float = 5.0
    grace: float = 1.0
    form: str = "auto"
    max_steps: int = 1000
    upper: bool = False
    seed: int | None = None
    fractional_clocks: bool = False

    def __post_init__(self) -> None:
        if self.form not in FORMS:
            raise GGPError(f"Unknown message form {self.form!r}; use one of {', '.join(FORMS)}.")
        if self.start_clock <= 0 or self.play_clock <= 0 or self.grace < 0:
            raise GGPError("Clocks must be positive and the grace period non-negative.")
        whole = float(self.start_clock).is_integer() and float(self.play_clock).is_integer()
        if not (whole or self.fractional_clocks):
            raise GGPError(
                f"Clocks must be whole seconds (got start {self.start_clock:g} s, play "
                f"{self.play_clock:g} s): GGP clocks are integers, and ggp-base's players "
                "do not answer a START with a fractional clock.")


def run_match(game: MatchGame, endpoints: dict[str, str], config: MatchConfig,
              match_id: str | None = None) -> dict[str, Any]:
    """Play one match; ``endpoints`` maps every role except nature to a player URL (or
    ``random``). Returns the match record (module docstring; docs/ggp_protocol.md)."""
    missing = [r for r in game.roles if r != game.nature and r not in endpoints]
    if missing:
        raise GGPError(f"No player for role(s) {', '.join(missing)}.")
    if game.gdl_ii and config.form == "gdl":
        raise GGPError("A GDL-II game needs a GDL-II message form (gdl2 or gdl2-legacy).")
    if not game.gdl_ii and config.form in ("gdl2", "gdl2-legacy"):
        # as the Dresden controller does: every role sees every move
        game = MatchGame(game.rules + "\n" + SEE_ALL_MOVES, gdl_ii=True, name=game.name)
    return _Match(game, endpoints, config, match_id).run()


class _Match:
    def __init__(self, game: MatchGame, endpoints: dict[str, str], config: MatchConfig,
                 match_id: str | None) -> None:
        self.game = game
        self.config = config
        self.match_id = match_id or "m" + uuid.uuid4().hex[:12]
        self.rng = random.Random(config.seed)
        self.form = config.form if config.form != "auto" else ("gdl2" if game.gdl_ii else "gdl")
        self.remote = {r: e for r, e in endpoints.items()
                       if r != game.nature and e != LOCAL_RANDOM}
        self.record: dict[str, Any] = {
            "format": RECORD_FORMAT, "match_id": self.match_id, "game": game.name,
            "rules_sha256": hashlib.sha256(game.rules.encode()).hexdigest(),
            "gdl_ii": game.gdl_ii, "form": self.form, "roles": game.roles,
            "nature": game.nature,
            "players": {r: endpoints.get(r, LOCAL_RANDOM) for r in game.roles if r != game.nature},
            "config": asdict(config), "started_at": time.time(), "start": {}, "steps": [],
            "stop": {}, "goals": None, "errors": [], "aborted": None, "seconds": None,
        }

    def run(self) -> dict[str, Any]:
        began = time.monotonic()
        with ThreadPoolExecutor(max_workers=max(1, len(self.remote))) as pool:
            self.pool = pool
            try:
                self._play()
            except GGPError as exc:  # the manager cannot go on: tell the players
                self.record["aborted"] = str(exc)
                self._broadcast({r: abort_message(self.match_id) for r in self.remote}, 1.0)
        self.record["seconds"] = time.monotonic() - began
        return self.record

    # ------------------------------------------------------------------ the match
    def _play(self) -> None:
        game, cfg = self.game, self.config
        rules = rules_list(game.rules)
        starts = {r: start_message(self.match_id, r, rules, cfg.start_clock, cfg.play_clock)
                  for r in self.remote}
        replies = self._broadcast(starts, cfg.start_clock + cfg.grace)
        for role, ex in replies.items():
            self.record["start"][role] = _reply_entry(ex)
            if ex.error or (ex.reply or "").lower() != "ready":
                self._error(-1, role, "start", ex, None)
        state = game.initial()
        last: dict[str, str] = {}
        percepts: dict[str, list[str]] = {r: [] for r in game.roles}
        for turn in range(cfg.max_steps + 1):
            if game.is_terminal(state):
                self.record["goals"] = game.goals(state)
                messages = {r: self._play_text(r, turn, last, percepts, stop=True)
                            for r in self.remote}
                stops = self._broadcast(messages, cfg.play_clock + cfg.grace)
                self.record["stop"] = {r: _reply_entry(ex) for r, ex in stops.items()}
                return
            if turn == cfg.max_steps:
                raise GGPError(f"the match did not end within {cfg.max_steps} steps")
            legal = game.legal(state)
            messages = {r: self._play_text(r, turn, last, percepts) for r in self.remote}
            replies = self._broadcast(messages, cfg.play_clock + cfg.grace)
            joint = {r: self._move(turn, r, legal[r], replies.get(r)) for r in game.roles}
            state, percepts = game.step(state, joint)
            last = joint
            step: dict[str, Any] = {"turn": turn, "moves": joint,
                                    "replies": {r: _reply_entry(ex) for r, ex in replies.items()}}
            if game.gdl_ii:
                step["percepts"] = percepts
            self.record["steps"].append(step)

    def _play_text(self, role: str, turn: int, last: dict[str, str],
                   percepts: dict[str, list[str]], stop: bool = False) -> str:
        if self.form == "gdl":
            moves = [last[r] for r in self.game.roles] if turn else None
            return play_message(self.match_id, moves, stop=stop)
        if self.form == "gdl2":
            return play2_message(self.match_id, turn, last.get(role) if turn else None,
                                 percepts[role] if turn else None, stop=stop)
        return play_message(self.match_id, percepts[role] if turn else None, stop=stop)

    def _move(self, turn: int, role: str, legal: list[str], ex: Exchange | None) -> str:
        """The move executed for ``role``: its reply if legal, else the substitute."""
        if ex is None:  # nature, or a role the manager plays itself
            return self.rng.choice(legal)
        move = None if ex.error else canonical_move(ex.reply or "")
        if move in legal:
            return move
        substitute = legal[0] if self.game.gdl_ii else self.rng.choice(legal)
        kind = "no reply" if ex.error else ("unparseable" if move is None else "illegal")
        self._error(turn, role, kind, ex, substitute)
        return substitute

    def _error(self, turn: int, role: str, kind: str, ex: Exchange, substitute: str | None) -> None:
        self.record["errors"].append({
            "turn": turn, "role": role, "kind": kind, "detail": ex.error,
            "reply": None if ex.reply is None else ex.reply[:200],
            "seconds": round(ex.seconds, 4), "substitute": substitute})

    def _broadcast(self, messages: dict[str, str], timeout: float) -> dict[str, Exchange]:
        """Send every role its message at once; each exchange ends within ``timeout``."""
        if self.config.upper:
            messages = {r: m.upper() for r, m in messages.items()}
        futures = {r: self.pool.submit(send_message, self.remote[r], m, timeout, receiver=r)
                   for r, m in messages.items()}
        return {r: f.result() for r, f in futures.items()}


def _reply_entry(ex: Exchange) -> dict[str, Any]:
    reply = None if ex.reply is None else ex.reply[:200]
    return {"reply": reply, "seconds": round(ex.seconds, 4), "error": ex.error}


# ---------------------------------------------------------------------------- series
def arena_row(record: dict[str, Any], labels: dict[str, str] | None = None) -> dict[str, Any]:
    """One match as a line of the arena's ``results.jsonl`` (fields its statistics read:
    key, game, seats, returns, forfeit, moves, move_seconds_mean). Seats are the roles
    other than nature in role order; GGP has no forfeits (bad moves are replaced), so the
    number of replaced moves per seat is given in ``replaced`` instead."""
    seats = [r for r in record["roles"] if r != record["nature"]]
    labels = labels or {}
    goals = record["goals"] or {}
    moves, seconds = [], []
    for role in seats:
        times = [s["replies"][role]["seconds"] for s in record["steps"] if role in s["replies"]]
        moves.append(len(times))
        seconds.append(sum(times) / len(times) if times else 0.0)
    row = {
        "key": record["match_id"], "game": record["game"],
        "seats": [labels.get(record["players"][r], record["players"][r]) for r in seats],
        "returns": [float(goals.get(r, 0)) for r in seats], "forfeit": None,
        "moves": moves, "move_seconds_mean": seconds,
        "replaced": [sum(e["role"] == r and e["turn"] >= 0 for e in record["errors"])
                     for r in seats],
    }
    if record["aborted"]:
        row["error"] = record["aborted"]
    return row


def run_series(game: MatchGame, endpoints: list[str], matches: int, config: MatchConfig,
               out_dir: str | Path, labels: dict[str, str] | None = None,
               on_match=None) -> list[dict[str, Any]]:
    """Play ``matches`` matches, rotating ``endpoints`` (one per role other than nature)
    through the roles, into the empty or new directory ``out_dir``: ``<match_id>.json``
    per match, a ``results.jsonl`` line per match (:func:`arena_row` plus its ``index``)
    and a ``tournament.json`` in the arena's layout, so that
    :func:`ggp.arena.report.write_report` reports the series. ``on_match(record)`` is
    called after each match. Returns the rows."""
    seats = [r for r in game.roles if r != game.nature]
    if len(endpoints) != len(seats):
        raise GGPError(f"{game.name} needs {len(seats)} players ({', '.join(seats)}), "
                       f"got {len(endpoints)}.")
    out = Path(out_dir)
    if (out / "results.jsonl").exists():
        raise GGPError(f"{out} already holds match results; use another output directory.")
    out.mkdir(parents=True, exist_ok=True)
    labels = labels or {}
    _write_arena_config(out, game, [labels.get(e, e) for e in endpoints], matches, config)
    rows = []
    for i in range(matches):
        shift = i % len(seats)
        assignment = {role: endpoints[(k + shift) % len(seats)] for k, role in enumerate(seats)}
        seed = None if config.seed is None else config.seed + i
        record = run_match(game, assignment, MatchConfig(**{**asdict(config), "seed": seed}))
        write_output(out / f"{record['match_id']}.json", json.dumps(record, indent=1))
        row = {**arena_row(record, labels), "index": i}
        with open_output(out / "results.jsonl", "a") as fh:
            fh.write(json.dumps(row, separators=(",", ":")) + "\n")
        rows.append(row)
        if on_match is not None:
            on_match(record)
    return rows


def _write_arena_config(out: Path, game: MatchGame, agents: list[str], matches: int,
                        config: MatchConfig) -> None:
    """``tournament.json`` as the arena writes it: its config and the game's metadata."""
    from ggp.arena.tournament import TournamentConfig

    seats = [r for r in game.roles if r != game.nature]
    tournament = TournamentConfig(games=(game.name,), agents=tuple(agents), matches=matches,
                                  seed=config.seed or 0, move_seconds=config.play_clock,
                                  max_steps=config.max_steps)
    meta = GameMetadata(num_players=len(seats), min_utility=0.0, max_utility=100.0,
                        zero_sum=False, outcome="payoff", perfect_information=not game.gdl_ii,
                        chance=game.nature is not None,
                        source=f"GDL{'-II' if game.gdl_ii else ''} game played over HTTP",
                        extra={"roles": seats})
    data = {"config": tournament.to_dict(),
            "games": {game.name: {"name": game.name, **meta.to_dict()}}}
    write_output(out / "tournament.json", json.dumps(data, indent=1))
