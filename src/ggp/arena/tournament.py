"""Tournaments: agents × opponents × games × seats × N matches, resumable.

A :class:`TournamentConfig` expands into a fixed list of :class:`MatchTask` (see
:func:`schedule`). Each task has a stable key and a seed derived from the tournament seed
and that key, so every match is reproducible on its own, whatever backend or worker runs
it and in whatever order. :func:`run_tournament` skips the keys already in the results
file, runs the rest on a backend (:mod:`ggp.arena.backends`) and appends each finished
match to the results as soon as it arrives (:mod:`ggp.arena.store`): a killed tournament
resumes where it stopped, and a finished one is never rerun.

Pairings: with ``opponents`` empty, every unordered pair of ``agents`` meets (round
robin; a single agent plays itself); otherwise every agent meets every opponent
(one-vs-field). In each pairing the first ("focal") agent takes every seat in turn and
the other seats are filled with the opponent, so in two-player games both agents play
both seats.

Fields: a field is a list of agent specs, one per seat (repeats allowed), played in every
game with that many players. Each round seats the field in every permutation of its
positions (``n!`` matches for ``n`` seats, so every listed agent holds every seat equally
often); ``matches`` is the number of rounds. A field listing an agent twice plays
seatings that look alike twice, with different seeds, which keeps the rounds balanced.

Duplicate matches (``duplicate=True``, for games with chance): all the matches of one
index in one game — the seats of a pairing, the permutations of a field round — share
one seed, so their chance moves are drawn from the same random numbers: the k-th chance
move of each match uses the same draw, which gives the same outcome wherever the k-th
chance node offers the same outcomes (the same deal of cards, the same bargaining pool).
With the seats swapped, each agent plays both hands of one deal and the luck of the deal
cancels in the pair's mean (:func:`ggp.arena.stats.duplicate_rows`). The seed depends on
the game and the index only, so different pairings meet the same deals too.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ggp.arena.agent_specs import check_agent_spec, is_file_spec
from ggp.arena.sandboxed import AGENT_LIMITS
from ggp.arena.backends import run_tasks
from ggp.arena.task import MatchTask, TournamentError
from ggp.load import load_model


@dataclass(frozen=True)
class TournamentConfig:
    """What to play. Everything here decides the results (the backend does not).

    Attributes:
        games: game specs (registered names or model files).
        agents: agent specs; with ``opponents`` empty they play a round robin.
        opponents: agent specs every agent meets (one-vs-field).
        fields: tables of agent specs, one per seat (repeats allowed), each played in
            every game with that many players, rotated through every seat permutation.
        matches: matches per pairing, per game and per seat of the focal agent; for a
            field, rounds of all its seat permutations.
        seed: tournament seed; each match's seed is derived from it and the match key.
        sandbox: run every agent in a sandboxed worker (file agents always are).
        move_seconds: time per move (sandboxed agents are killed at it; in-process agents
            forfeit after exceeding it). None: no limit for in-process agents, 60 s for
            sandboxed ones.
        memory_mb: address-space limit of each sandboxed agent worker.
        network: True gives sandboxed agent workers the network (their box has none
            otherwise).
        max_steps: a match longer than this is an error of the game, not of an agent.
        legal_actions: show every agent its legal actions before each move (the OpenSpiel
            and PettingZoo convention); False keeps seed 000's protocol, where agents
            other than the ``random`` baseline are not told them.
        duplicate: duplicate matches (see the module docstring): the matches of one
            index in one game share their seed, hence their chance draws, with the
            seats rotated among them.
    """

    games: tuple[str, ...]
    agents: tuple[str, ...] = ()
    opponents: tuple[str, ...] = ()
    matches: int = 100
    seed: int = 0
    sandbox: bool = False
    move_seconds: float | None = None
    memory_mb: int = AGENT_LIMITS.memory_mb
    network: bool = False
    max_steps: int = 100_000
    legal_actions: bool = False
    fields: tuple[tuple[str, ...], ...] = ()
    duplicate: bool = False

    def __post_init__(self) -> None:
        for name in ("games", "agents", "opponents"):  # tuples, duplicates dropped
            object.__setattr__(self, name, tuple(dict.fromkeys(getattr(self, name))))
        # fields keep their repeated agents; a field listed twice is played once
        object.__setattr__(self, "fields",
                           tuple(dict.fromkeys(tuple(f) for f in self.fields)))
        if self.opponents and not self.agents:
            raise TournamentError("--opponent needs --agent (the agents that meet them).")
        if not self.games or not (self.agents or self.fields):
            raise TournamentError(
                "A tournament needs at least one game and one agent or field.")
        if any(not f for f in self.fields):
            raise TournamentError("A field needs at least one agent.")
        if self.matches < 1:
            raise TournamentError("--matches must be at least 1.")

    def to_dict(self) -> dict[str, Any]:
        data = {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}
        data["fields"] = [list(f) for f in self.fields]
        # so tournaments without fields (or duplicates) keep their stored form and hash
        if not self.fields:
            del data["fields"]
        if not self.duplicate:
            del data["duplicate"]
        return data

    def specs(self) -> set[str]:
        """Every agent spec the tournament uses."""
        return {*self.agents, *self.opponents, *(a for f in self.fields for a in f)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentConfig:
        return cls(**data)


def match_seed(tournament_seed: int, key: str) -> int:
    """A seed in [0, 2**31) fixed by the tournament seed and the match key."""
    digest = hashlib.sha256(f"{tournament_seed}/{key}".encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1


def deal_seed(tournament_seed: int, game: str, index: int) -> int:
    """The seed shared by the duplicate matches of ``index`` in ``game``."""
    return match_seed(tournament_seed, json.dumps([game, "deal", index]))


def pairings(config: TournamentConfig) -> list[tuple[str, str]]:
    """(focal, opponent) pairs: round robin, or every agent against every opponent."""
    if config.opponents:
        return list(itertools.product(config.agents, config.opponents))
    if not config.agents:
        return []
    if len(config.agents) == 1:
        return [(config.agents[0], config.agents[0])]
    return list(itertools.combinations(config.agents, 2))


def schedule(config: TournamentConfig, num_players: dict[str, int],
             trajectories: bool = True) -> list[MatchTask]:
    """Every match of the tournament, in a fixed order.

    ``num_players`` maps each game spec to its number of players.
    """
    tasks = []

    def add(key: str, game: str, seats: tuple[str, ...], index: int, **labels) -> None:
        seed = (deal_seed(config.seed, game, index) if config.duplicate
                else match_seed(config.seed, key))
        tasks.append(MatchTask(
            key=key, game=game, seats=seats, seed=seed,
            index=index, sandboxed=tuple(_needs_worker(config, s) for s in seats),
            move_seconds=config.move_seconds, memory_mb=config.memory_mb,
            network=config.network, max_steps=config.max_steps, trajectory=trajectories,
            legal_actions=config.legal_actions, duplicate=config.duplicate, **labels))

    for game in config.games:
        n = num_players[game]
        for focal, opponent in pairings(config):
            for seat in range(n):
                seats = tuple(focal if s == seat else opponent for s in range(n))
                for index in range(config.matches):
                    add(json.dumps([game, focal, opponent, seat, index]), game, seats,
                        index, focal=focal, opponent=opponent, focal_seat=seat)
        for lineup in config.fields:
            if len(lineup) != n:
                continue
            # rounds outermost: a tournament cut short has whole, seat-balanced rounds
            for index in range(config.matches):
                for order in itertools.permutations(range(n)):
                    add(json.dumps([game, list(lineup), list(order), index]), game,
                        tuple(lineup[i] for i in order), index, focal=None, opponent=None,
                        focal_seat=None, field=lineup, seat_order=order)
    return tasks


def _needs_worker(config: TournamentConfig, spec: str) -> bool:
    """Whether the agent ``spec`` plays from a sandboxed agent worker: file agents always,
    others with ``--sandbox``, except agents that already keep their untrusted code in a
    sandbox of their own (CWM agents: a box inside a box cannot be made)."""
    from ggp.agents import parse_agent_spec
    from ggp.agents.cwm_agents import SELF_SANDBOXED

    if is_file_spec(spec):
        return True
    return config.sandbox and parse_agent_spec(spec)[0] not in SELF_SANDBOXED


def check_config(config: TournamentConfig) -> dict[str, dict[str, Any]]:
    """Check every game and agent spec before anything runs; returns game metadata.

    Every field must fit (have as many agents as players) at least one game, and every
    game must have something to play: a pairing or a field that fits it."""
    for spec in sorted(config.specs()):
        check_agent_spec(spec)
    games = {}
    for game in config.games:
        model = load_model(game)
        games[game] = {"name": model.name, **model.metadata.to_dict()}
    sizes = {meta["num_players"] for meta in games.values()}
    for lineup in config.fields:
        if len(lineup) not in sizes:
            raise TournamentError(
                f"The field {','.join(lineup)} has {len(lineup)} agents, but no game has "
                f"{len(lineup)} players (the games have {', '.join(map(str, sorted(sizes)))})"
                "; a field lists one agent per seat.")
    if not config.agents:
        for game, meta in games.items():
            if not any(len(f) == meta["num_players"] for f in config.fields):
                raise TournamentError(
                    f"{game} has {meta['num_players']} players and no field of that size; "
                    "add one, or leave the game out.")
    return games


# --------------------------------------------------------------------- the driver
@dataclass
class TournamentRun:
    """What :func:`run_tournament` did."""

    total: int
    already_done: int
    played: int = 0
    seconds: float = 0.0
    records: list[dict[str, Any]] = field(default_factory=list)


def run_tournament(
    config: TournamentConfig,
    out_dir: str | Path,
    *,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    trajectories: bool = True,
    on_start: Callable[[int, int], None] | None = None,
    on_result: Callable[[dict[str, Any]], None] | None = None,
) -> TournamentRun:
    """Play (the rest of) a tournament, appending each match to ``out_dir`` as it ends.

    ``backend`` is ``"local"`` (a process pool of ``workers`` processes; None: all cores;
    0: in this process) or ``"ray"`` (a Ray cluster at ``address``; None: start a local
    one with ``workers`` CPUs). ``on_start(total, already_done)`` is called once before the
    first match, ``on_result(record)`` after each match is stored.
    """
    from ggp.arena.store import ResultStore

    games = check_config(config)
    store = ResultStore.open(out_dir, config, games)
    tasks = schedule(config, {g: m["num_players"] for g, m in games.items()}, trajectories)
    done = store.done_keys()
    todo = [t for t in tasks if t.key not in done]
    run = TournamentRun(total=len(tasks), already_done=len(tasks) - len(todo))
    if on_start:
        on_start(run.total, run.already_done)
    started = time.perf_counter()

    def finished(record: dict[str, Any], trajectory: dict[str, Any] | None) -> None:
        store.append(record, trajectory)
        run.played += 1
        run.records.append(record)
        if on_result:
            on_result(record)

    try:
        run_tasks(todo, finished, backend=backend, workers=workers, address=address)
    finally:
        store.close()
    run.seconds = time.perf_counter() - started
    return run
