"""A user's own game given as a Python model file, used as the ground truth of a synthesis.

``ggp synth run path/to/game.py`` treats the file exactly as a registered game: training and
held-out games are recorded from it, the rules come from ``--rules FILE`` or the module's
``RULES`` string. The file is still user code, so it never runs in the ggp process: the
whole recording happens in a sandboxed worker (offline, with memory and CPU limits), which
sends back the rules text, the metadata and the trajectory files (in pages of bounded
size); the parent validates the trajectories as it would a user's trajectory file.
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
    from ggp.sandbox import Limits, SandboxFailure, Worker

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
    limits = Limits(memory_mb=4096, cpu_seconds=int(timeout), network=False)
    texts: dict[str, str | None] = {}
    try:
        # the recording is made when the worker starts; its files then come back in
        # pages, so that no single reply is large (replies are bounded, docs/sandbox.md)
        with Worker("ggp.synth.model_file", payload, limits=limits,
                    start_timeout=timeout) as worker:
            value = worker.call("header", timeout=30.0)
            if isinstance(value, dict) and isinstance(value.get("error"), str):
                raise ModelFileError(f"{path}: {value['error']}")
            shaped = (isinstance(value, dict) and isinstance(value.get("rules"), str)
                      and isinstance(value.get("name"), str)
                      and all(isinstance(value.get(f"{k}_chars"), (int, type(None)))
                              for k in ("train", "test")))
            if not shaped or value.get("train_chars") is None:
                raise ModelFileError(f"Recording games of {path} failed in the sandbox "
                                     "(protocol): its answer is not a recording")
            for which in ("train", "test"):
                texts[which] = _fetch(worker, which, value[f"{which}_chars"], path)
    except SandboxFailure as exc:
        raise ModelFileError(f"Recording games of {path} failed in the sandbox "
                             f"({exc.kind}): {exc.detail.strip()[-500:]}") from None
    with tempfile.TemporaryDirectory() as tmp:
        train = _trajectories(Path(tmp) / "train.jsonl", texts["train"] or "")
        test = _trajectories(Path(tmp) / "test.jsonl", texts["test"]) if texts["test"] \
            else None
    test_players = value.get("test_players")
    return {"rules": value["rules"], "name": value["name"], "train": train, "test": test,
            "test_players": test_players if isinstance(test_players, list) else None}


#: Characters of a recording per reply.
PAGE_CHARS = 1 << 20


def _fetch(worker: Any, which: str, chars: int | None, path: Path) -> str | None:
    """The recorded file ``which`` (``chars`` long, as the header said), page by page."""
    if chars is None:
        return None
    pages: list[str] = []
    for offset in range(0, chars, PAGE_CHARS):
        page = worker.call("page", {"which": which, "offset": offset}, timeout=30.0)
        if not isinstance(page, str) or len(page) != min(PAGE_CHARS, chars - offset):
            raise ModelFileError(f"Recording games of {path} failed in the sandbox "
                                 "(protocol): a page of the recording has the wrong size")
        pages.append(page)
    return "".join(pages)


def _trajectories(path: Path, text: str) -> TrajectorySet:
    path.write_text(text, encoding="utf-8")
    return load_trajectories(path)


# --------------------------------------------------------------------------- in the sandbox
def main(payload: dict[str, Any]) -> dict[str, Any]:
    """Sandbox entry: load the model and record its games (never call in-process)."""
    from ggp.core.errors import GGPError as Error
    from ggp.core.model import load_model_source
    from ggp.synth.heldout import heldout_set
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


class _Recording:
    """The recording made at the worker's start, served in pages (runs in the child)."""

    def __init__(self, payload: dict[str, Any]) -> None:
        self.value = main(payload)

    def header(self) -> dict[str, Any]:
        if "error" in self.value:
            return {"error": self.value["error"]}
        return {"rules": self.value["rules"], "name": self.value["name"],
                "test_players": self.value["test_players"],
                **{f"{k}_chars": None if self.value[k] is None else len(self.value[k])
                   for k in ("train", "test")}}

    def page(self, which: str, offset: int) -> str:
        return self.value[which][offset:offset + PAGE_CHARS]


def make_handler(payload: dict[str, Any]) -> _Recording:
    """Worker entry: record the games now; :meth:`_Recording.page` sends them back."""
    return _Recording(payload)
