"""A user's own game given as a Python model file, used as the ground truth of a synthesis.

``ggp synth path/to/game.py`` treats the file exactly as a registered game: training and
held-out games are recorded from it, the rules come from ``--rules FILE`` or the module's
``RULES`` string. The file is still user code, so it never runs in the ggp process: the
whole recording happens in a sandboxed child (:func:`ggp.sandbox.run_entry`, offline,
with memory and CPU limits), which sends back the trajectory files, the rules text and the
metadata; the parent validates the trajectories as it would a user's trajectory file.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from ggp.core.errors import GGPError
from ggp.synth.trajectories import TrajectorySet, load_trajectories


class ModelFileError(GGPError):
    """A model file could not be recorded from."""


def record_model_file(path: str | Path, *, games: int, seed: int, players: list[str],
                      deck: str, view_player: int, test_games: int, test_seed: int,
                      test_players: list[str] | None,
                      timeout: float = 1800.0) -> dict[str, Any]:
    """Training and held-out games of the model in ``path``, recorded in a sandbox.

    Returns ``{"rules", "name", "train": TrajectorySet, "test": TrajectorySet | None,
    "test_players"}``.
    """
    from ggp.sandbox import Limits, run_entry

    path = Path(path)
    if not path.is_file():
        raise ModelFileError(f"No such model file: {path}.")
    try:
        source = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ModelFileError(f"The model file {path} is not UTF-8 text.") from None
    payload = {"source": source, "name": path.stem, "filename": str(path.resolve()),
               "games": games, "seed": seed, "players": players, "deck": deck,
               "view_player": view_player, "test_games": test_games,
               "test_seed": test_seed, "test_players": test_players}
    result = run_entry("ggp.synth.model_file", payload, timeout=timeout,
                       limits=Limits(memory_mb=4096, cpu_seconds=int(timeout),
                                     network=False,
                                     # recordings travel as text (few JSON values):
                                     # large games recorded 100 times need room
                                     reply_bytes=256 << 20))
    if not result.ok:
        raise ModelFileError(f"Recording games of {path} failed in the sandbox "
                             f"({result.kind}): {result.detail.strip()[-500:]}")
    value = result.value
    if isinstance(value, dict) and isinstance(value.get("error"), str):
        raise ModelFileError(f"{path}: {value['error']}")
    shaped = (isinstance(value, dict) and isinstance(value.get("train"), str)
              and isinstance(value.get("test"), (str, type(None)))
              and isinstance(value.get("rules"), str) and isinstance(value.get("name"), str))
    if not shaped:
        raise ModelFileError(f"Recording games of {path} failed in the sandbox (protocol): "
                             "its answer is not a recording")
    with tempfile.TemporaryDirectory() as tmp:
        train = _trajectories(Path(tmp) / "train.jsonl", value["train"])
        test = _trajectories(Path(tmp) / "test.jsonl", value["test"]) if value["test"] else None
    return {"rules": value["rules"], "name": value["name"], "train": train, "test": test,
            "test_players": value.get("test_players")}


def _trajectories(path: Path, text: str) -> TrajectorySet:
    path.write_text(text, encoding="utf-8")
    return load_trajectories(path)


# --------------------------------------------------------------------------- in the sandbox
def main(payload: dict[str, Any]) -> dict[str, Any]:
    """Sandbox entry: load the model and record its games (never call in-process)."""
    from ggp.core.errors import GGPError as Error
    from ggp.core.model import load_model_source
    from ggp.synth.run import heldout_set
    from ggp.synth.trajectories import close_deck, collect, save_trajectories

    try:
        model = load_model_source(payload["source"], name=payload["name"],
                                  filename=payload["filename"])
        players = list(payload["players"])
        if len(players) == 1:
            players = players * model.num_players
        if len(players) != model.num_players:
            return {"error": f"the game has {model.num_players} players; got "
                             f"{len(players)} player specs ({', '.join(players)})."}
        train = collect(model, games=payload["games"], seed=payload["seed"],
                        players=players, deck=payload["deck"],
                        view_player=payload["view_player"])
        test, test_players = None, payload["test_players"]
        if payload["test_games"] > 0:
            test, test_players = heldout_set(model, games=payload["test_games"],
                                             seed=payload["test_seed"], players=test_players)
            if payload["deck"] == "closed":
                test = TrajectorySet("closed", test.num_players,
                                     [close_deck(t, payload["view_player"])
                                      for t in test.trajectories], test.game)
    except Error as exc:
        return {"error": str(exc)}
    except Exception as exc:  # noqa: BLE001 - the user's code failed while being played
        return {"error": f"{type(exc).__name__}: {exc}"}
    texts = []
    for number, trajectories in enumerate((train, test)):
        if trajectories is None:
            texts.append(None)
            continue
        file = Path(f"trajectories_{number}.jsonl")
        save_trajectories(trajectories, file)
        texts.append(file.read_text(encoding="utf-8"))
    rules = getattr(model.namespace, "RULES", "") or ""
    return {"rules": rules if isinstance(rules, str) else "", "name": model.name,
            "train": texts[0], "test": texts[1], "test_players": test_players}
