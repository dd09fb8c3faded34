"""Offline trajectories: games recorded from a ground-truth world model.

A trajectory file is JSON Lines. The first line may be a header::

    {"format": "ggp-trajectories", "version": 1, "deck": "open", "game": "tic_tac_toe",
     "num_players": 2}

Every other line is one step of one game. **Open deck** (everything recorded, hidden
information and chance moves included)::

    {"trajectory": 0, "step": 3, "state": {...}, "current_player": 1,
     "player_name": "o", "legal_actions": ["o(0,0)", ...],
     "observations": [{...}, {...}], "rewards": [0.0, 0.0], "action": "o(1,1)"}

``rewards`` are the rewards of *this* state (what the last action earned), ``action`` is
the action taken in it (a chance outcome at chance nodes) and ``null`` at the terminal
state, which is always the last step of a game. At chance nodes an optional
``"chance_outcomes": [["Deal Js", 0.1667], ...]`` gives the probability of each outcome.
**Closed deck** (one player's view only):
each line is one decision point of ``player`` plus a final line for the end of the game::

    {"trajectory": 0, "step": 2, "player": 0, "observation": {...},
     "legal_actions": [...], "action": "Raise", "rewards": [0.0, 0.0], "terminal": false}

Users may bring their own files in either form; :func:`load_trajectories` validates them
and reports the first problem with its line number.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Literal

from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.core.protocol import CHANCE, TERMINAL, canonical_json, json_copy

Deck = Literal["open", "closed"]
FORMAT = "ggp-trajectories"


class TrajectoryError(GGPError):
    """A trajectory file is missing, malformed or inconsistent."""


@dataclass
class Step:
    """One open-deck step: a state and everything the game says about it."""

    state: dict[str, Any]
    current_player: int
    player_name: str
    legal_actions: list[str]
    observations: list[Any]
    rewards: list[float]
    action: str | None
    chance_outcomes: list[list] | None = None  # [[outcome, probability], ...] at chance


@dataclass
class Trajectory:
    """One recorded game. Open deck fills ``steps``; closed deck fills ``view``."""

    steps: list[Step] = field(default_factory=list)
    view: list[dict[str, Any]] = field(default_factory=list)
    player: int | None = None  # the viewing player (closed deck)


@dataclass
class TrajectorySet:
    """A set of recorded games of one game."""

    deck: Deck
    num_players: int
    trajectories: list[Trajectory]
    game: str = ""

    @property
    def initial_state(self) -> dict[str, Any] | None:
        """The recorded static start state (open deck only)."""
        if self.deck == "open" and self.trajectories and self.trajectories[0].steps:
            return self.trajectories[0].steps[0].state
        return None

    def num_transitions(self) -> int:
        return sum(max(len(t.steps) - 1, 0) for t in self.trajectories)


# --------------------------------------------------------------------------- collecting
def record_game(model: WorldModel, actions: Iterable[str]) -> Trajectory:
    """Replay ``actions`` from the initial state and record every step (open deck)."""
    state = model.initial_state()
    steps = []
    for action in [*actions, None]:
        player = model.current_player(state)
        steps.append(Step(
            state=json_copy(state),
            current_player=player,
            player_name=model.player_name(player),
            legal_actions=list(model.legal_actions(state)),
            observations=json_copy(model.observations(state)),
            rewards=model.rewards(state),
            action=action if player != TERMINAL else None,
            chance_outcomes=([[a, p] for a, p in model.chance_outcomes(state)]
                             if player == CHANCE else None),
        ))
        if action is None or player == TERMINAL:
            break
        state = model.apply(state, action)
    return Trajectory(steps=steps)


def play_game(model: WorldModel, players: list[str], seed: int,
              max_steps: int = 10_000) -> list[str]:
    """The actions of one game between agents built from ``players`` (one spec per seat,
    e.g. ``"random"`` or ``"mcts:sims=100"``), chance sampled with ``seed``.

    The referee offers every agent its legal actions (``legal_actions=True``): these games
    are data, not a contest, and a search agent whose generic belief finds no consistent
    history in a user's own game then plays an offered move (docs/belief.md, "Degrade,
    never forfeit") instead of aborting the recording."""
    from ggp.agents import make_agent
    from ggp.arena.match import play_match

    agents = [make_agent(spec, model) for spec in players]
    try:
        result = play_match(model, agents, seed=seed, max_steps=max_steps,
                            record_states=False, legal_actions=True)
    finally:
        for agent in agents:
            agent.close()
    if result.forfeit is not None:
        raise TrajectoryError(
            f"Player {result.forfeit.player} ({players[result.forfeit.player]}) forfeited "
            f"while recording a game of {model.name}: {result.forfeit.detail}"
        )
    return [step["action"] for step in result.steps]


def collect(
    model: WorldModel,
    *,
    games: int = 5,
    seed: int = 0,
    players: list[str] | None = None,
    mix: list[str] | None = None,
    deck: Deck = "open",
    view_player: int = 0,
    spec: str | None = None,
    workers: int | None = 1,
    on_game: Callable[[int, int], None] | None = None,
) -> TrajectorySet:
    """Record ``games`` games of ``model``.

    Seats are played by ``players`` (one spec per seat, default all ``"random"``) or, when
    ``mix`` is given, each seat of each game draws a spec from ``mix`` at random (seed 000
    builds its test set this way from random and MCTS players). Closed deck keeps only
    ``view_player``'s observations, legal actions, actions and rewards.

    With ``spec`` (the registry spec of ``model``, so that worker processes can build it)
    and ``workers`` other than 1 (None: one per core), the games left are played in a
    process pool once the first games show that they will take more than a few seconds;
    the result is the same, game for game. ``on_game(done, total)`` is called after
    each game.
    """
    rng = random.Random(seed)
    n = model.num_players
    plan = []  # (seat specs, match seed) of every game, drawn in the same order as ever
    for _ in range(games):
        specs = [rng.choice(mix) for _ in range(n)] if mix else list(players or ["random"] * n)
        plan.append((specs, rng.randrange(2**31)))
    workers = (os.cpu_count() or 1) if workers is None else workers
    pool = spec is not None and workers > 1
    trajectories: list[Trajectory] = []
    started = time.monotonic()
    for specs, game_seed in plan:
        # Starting a pool costs seconds: only when the games ahead will take longer.
        if pool and trajectories and (time.monotonic() - started) / len(trajectories) * (
                games - len(trajectories)) > _POOL_WORTH_S:
            def shifted(done: int, total: int, before: int = len(trajectories)) -> None:
                if on_game:
                    on_game(before + done, games)

            trajectories += _collect_in_pool(spec, plan[len(trajectories):], workers, shifted)
            break
        trajectories.append(record_game(model, play_game(model, specs, seed=game_seed)))
        if on_game:
            on_game(len(trajectories), games)
    if deck == "closed":
        trajectories = [close_deck(t, view_player) for t in trajectories]
    return TrajectorySet(deck, n, trajectories, game=model.name)


def _collect_in_pool(spec: str, plan: list, workers: int,
                     on_game: Callable[[int, int], None] | None) -> list[Trajectory]:
    # forkserver: workers never inherit this process's threads (progress display).
    context = multiprocessing.get_context("forkserver")
    results: list[Trajectory | None] = [None] * len(plan)
    with ProcessPoolExecutor(max_workers=min(workers, len(plan)), mp_context=context) as pool:
        futures = {pool.submit(_record_one, spec, specs, game_seed): index
                   for index, (specs, game_seed) in enumerate(plan)}
        for done, future in enumerate(as_completed(futures), 1):
            results[futures[future]] = future.result()
            if on_game:
                on_game(done, len(plan))
    return [t for t in results if t is not None]


_POOL_WORTH_S = 15.0  # expected seconds of games left above which a pool is started
_MODELS: dict[str, WorldModel] = {}  # per worker process


def _record_one(spec: str, specs: list[str], seed: int) -> Trajectory:
    """One game in a pool worker (the model is built once per process)."""
    from ggp.synth.run import load_ground_truth

    model = _MODELS.get(spec)
    if model is None:
        model = _MODELS[spec] = load_ground_truth(spec)
    return record_game(model, play_game(model, specs, seed=seed))


def close_deck(trajectory: Trajectory, player: int) -> Trajectory:
    """Keep only what ``player`` saw: its decision points and the end of the game."""
    view = []
    for step in trajectory.steps:
        if step.current_player == player or step.current_player == TERMINAL:
            view.append({
                "observation": step.observations[player],
                "legal_actions": step.legal_actions if step.current_player == player else [],
                "action": step.action,
                "rewards": step.rewards,
                "terminal": step.current_player == TERMINAL,
            })
    return Trajectory(view=view, player=player)


# --------------------------------------------------------------------------- files
def save_trajectories(trajectories: TrajectorySet, path: str | Path) -> None:
    """Write ``trajectories`` as JSON Lines (header first)."""
    header = {"format": FORMAT, "version": 1, "deck": trajectories.deck,
              "game": trajectories.game, "num_players": trajectories.num_players}
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(header) + "\n")
        for t_index, trajectory in enumerate(trajectories.trajectories):
            if trajectories.deck == "open":
                for s_index, step in enumerate(trajectory.steps):
                    row = {"trajectory": t_index, "step": s_index, **vars(step)}
                    fh.write(json.dumps(row) + "\n")
            else:
                for s_index, entry in enumerate(trajectory.view):
                    row = {"trajectory": t_index, "step": s_index,
                           "player": trajectory.player, **entry}
                    fh.write(json.dumps(row) + "\n")


_OPEN_FIELDS = {"state": dict, "current_player": int, "legal_actions": list,
                "observations": list, "rewards": list}
_CLOSED_FIELDS = {"player": int, "observation": None, "legal_actions": list,
                  "rewards": list}


def load_trajectories(path: str | Path) -> TrajectorySet:
    """Read and validate a trajectory file; raises :class:`TrajectoryError` with the line
    number and a fix for the first problem found."""
    path = Path(path)
    if not path.is_file():
        raise TrajectoryError(f"No such trajectory file: {path}.")
    header: dict[str, Any] = {}
    rows: list[tuple[int, dict]] = []
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
    except UnicodeDecodeError as exc:
        raise TrajectoryError(f"{path} is not UTF-8 text ({exc.reason} at byte "
                              f"{exc.start}).") from None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise TrajectoryError(f"{path}:{number}: not valid JSON ({exc.msg} at "
                                  f"column {exc.colno}).") from exc
        except RecursionError:
            raise TrajectoryError(f"{path}:{number}: JSON nested too deeply.") from None
        if not isinstance(row, dict):
            raise TrajectoryError(f"{path}:{number}: each line must be a JSON object.")
        if row.get("format") == FORMAT:
            header = row
        else:
            rows.append((number, row))
    if not rows:
        raise TrajectoryError(f"{path}: no steps found (see docs/synth.md for the format).")
    deck = header.get("deck") or ("closed" if "observation" in rows[0][1] else "open")
    if deck not in ("open", "closed"):
        raise TrajectoryError(f"{path}: deck must be 'open' or 'closed', got {deck!r}.")
    fields = _OPEN_FIELDS if deck == "open" else _CLOSED_FIELDS
    games: dict[int, list[tuple[int, dict]]] = {}
    for number, row in rows:
        _check_row(path, number, row, fields)
        games.setdefault(row["trajectory"], []).append((number, row))
    num_players = header.get("num_players") or len(rows[0][1]["rewards"])
    trajectories = [_build(path, deck, num_players, games[k]) for k in sorted(games)]
    return TrajectorySet(deck, num_players, trajectories, game=header.get("game", ""))


def _check_row(path: Path, number: int, row: dict, fields: dict) -> None:
    where = f"{path}:{number}"
    for name in ("trajectory", "step"):
        if type(row.get(name)) is not int:
            raise TrajectoryError(f"{where}: field {name!r} must be an integer.")
    for name, kind in fields.items():
        if name not in row:
            raise TrajectoryError(f"{where}: missing field {name!r}.")
        if kind is not None and not isinstance(row[name], kind):
            raise TrajectoryError(f"{where}: field {name!r} must be a {kind.__name__}, "
                                  f"got {type(row[name]).__name__}.")
    action = row.get("action")
    if action is not None and not isinstance(action, str):
        raise TrajectoryError(f"{where}: 'action' must be a string or null.")
    if not all(isinstance(a, str) for a in row["legal_actions"]):
        raise TrajectoryError(f"{where}: 'legal_actions' must be a list of strings.")
    if not all(isinstance(r, (int, float)) and not isinstance(r, bool) for r in row["rewards"]):
        raise TrajectoryError(f"{where}: 'rewards' must be a list of numbers.")
    try:
        canonical_json(row)
    except ValueError as exc:
        raise TrajectoryError(f"{where}: {exc}.") from exc


def _build(path: Path, deck: Deck, n: int, rows: list[tuple[int, dict]]) -> Trajectory:
    rows = sorted(rows, key=lambda item: item[1]["step"])
    for expected, (number, row) in enumerate(rows):
        if row["step"] != expected:
            raise TrajectoryError(f"{path}:{number}: trajectory {row['trajectory']} has step "
                                  f"{row['step']} where step {expected} was expected.")
        if len(row["rewards"]) != n:
            raise TrajectoryError(f"{path}:{number}: 'rewards' has {len(row['rewards'])} "
                                  f"entries; the game has {n} players.")
    if deck == "closed":
        view = [{k: row.get(k) for k in ("observation", "legal_actions", "action",
                                          "rewards", "terminal")} for _, row in rows]
        return Trajectory(view=view, player=rows[0][1]["player"])
    steps = []
    for i, (number, row) in enumerate(rows):
        player, last = row["current_player"], i == len(rows) - 1
        where = f"{path}:{number}"
        if not (0 <= player < n or player in (CHANCE, TERMINAL)):
            raise TrajectoryError(f"{where}: current_player {player} is not 0..{n - 1}, "
                                  f"{CHANCE} (chance) or {TERMINAL} (terminal).")
        if len(row["observations"]) != n:
            raise TrajectoryError(f"{where}: 'observations' needs one entry per player ({n}).")
        if not last and row.get("action") is None:
            raise TrajectoryError(f"{where}: every step but the last needs an 'action'.")
        outcomes = row.get("chance_outcomes")
        if outcomes is not None and not (
                isinstance(outcomes, list) and all(
                    isinstance(o, list) and len(o) == 2 and isinstance(o[0], str)
                    and isinstance(o[1], (int, float)) for o in outcomes)):
            raise TrajectoryError(f"{where}: 'chance_outcomes' must be a list of "
                                  "[outcome, probability] pairs.")
        if not last and row["action"] not in row["legal_actions"]:
            raise TrajectoryError(f"{where}: action {row['action']!r} is not among the "
                                  "step's legal_actions.")
        steps.append(Step(
            state=row["state"], current_player=player,
            player_name=str(row.get("player_name", "")),
            legal_actions=row["legal_actions"], observations=row["observations"],
            rewards=[float(r) for r in row["rewards"]],
            action=None if last else row["action"], chance_outcomes=outcomes,
        ))
    return Trajectory(steps=steps)
