"""The held-out set of a synthesis: games of the ground truth that training never saw.

Seed 000 measures a model on games where each seat is a random or a small-budget search
player. Sets are cached on disk (:func:`cache_dir`), so a second run on the same game,
seed, players and count does not play them again. Used by synthesis runs
(:mod:`ggp.synth.run`), by the sandboxed recording of a model file
(:mod:`ggp.synth.model_file`) and by the accuracy measures of :mod:`ggp.cwm.accuracy`.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Callable

from ggp.core.errors import GGPError
from ggp.core.model import WorldModel
from ggp.synth.gdl_source import is_gdl_spec
from ggp.synth.trajectories import (
    TrajectorySet,
    collect,
    load_trajectories,
    save_trajectories,
)

#: Part of a cached set's key (it was the run folder's format, 1, when sets were first
#: cached; kept so that existing caches stay valid).
CACHE_FORMAT = 1


def default_test_players(model: WorldModel) -> list[str]:
    """Random and, when such an agent is registered, a 100-simulation MCTS (ISMCTS for
    imperfect-information games), as in seed 000."""
    from ggp.agents import agent_names

    search = "mcts" if model.metadata.perfect_information else "ismcts"
    return ["random"] + ([f"{search}:sims=100:rollouts=1"] if search in agent_names() else [])


def heldout_set(model: WorldModel, *, games: int, seed: int,
                players: list[str] | None = None, spec: str | None = None,
                workers: int | None = None,
                on_game: Callable[[int, int], None] | None = None,
                ) -> tuple[TrajectorySet, list[str]]:
    """Seed 000's test set: games where each seat is a random or a search player.

    The search player is MCTS (ISMCTS for imperfect-information games) with a small
    budget, used only when such an agent is registered; the players actually used are
    returned so the run can report them. With ``spec`` (the game's registry spec) the
    games are played on all cores (``workers``) and the set is cached on disk by game,
    game code, seed, players and count (:func:`heldout_cache_file`), so a second run does
    not rebuild it.
    """
    players = players or default_test_players(model)
    cached = heldout_cache_file(model, spec, games=games, seed=seed, players=players)
    if cached is not None and cached.is_file():
        try:
            test = load_trajectories(cached)
            if on_game:
                on_game(games, games)
            return test, players
        except GGPError:
            pass  # damaged: rebuild it
    test = collect(model, games=games, seed=seed, mix=players, spec=spec, workers=workers,
                   on_game=on_game)
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_name(cached.name + f".{os.getpid()}.tmp")
        save_trajectories(test, tmp)
        os.replace(tmp, cached)
    return test, players


def cache_dir() -> Path:
    """Where ggp caches derived data: ``GGP_CACHE_DIR``, else ``$XDG_CACHE_HOME/ggp``, else
    ``~/.cache/ggp``."""
    if os.environ.get("GGP_CACHE_DIR"):
        return Path(os.environ["GGP_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "ggp"


def heldout_cache_file(model: WorldModel, spec: str | None, *, games: int, seed: int,
                       players: list[str]) -> Path | None:
    """The cache file of a held-out set, or None when it cannot be cached (no registry
    spec, or no source file to fingerprint the game's code with)."""
    import inspect
    import sys

    namespace = model.namespace
    module = namespace if inspect.ismodule(namespace) else sys.modules.get(
        getattr(type(namespace), "__module__", ""))
    source = getattr(module, "__file__", None)
    if spec is None or not source or not Path(source).is_file():
        return None
    code = hashlib.sha256(Path(source).read_bytes())
    game = spec
    if is_gdl_spec(spec):
        # the game is the description, wherever it lies (a run's copy or the original):
        # its text and the adapter's code decide what the reasoner plays
        code.update(Path(spec).read_bytes())
        game = "gdl:" + Path(spec).name
    key = json.dumps({"game": game, "code": code.hexdigest(), "games": games, "seed": seed,
                      "players": list(players), "format": CACHE_FORMAT}, sort_keys=True)
    digest = hashlib.sha256(key.encode()).hexdigest()[:24]
    return cache_dir() / "heldout" / f"{_safe(spec)}-{digest}.jsonl"


def _safe(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in text)[:60]
