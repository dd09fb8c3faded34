"""A scripted LLM for benchmark tests: it answers every request of a game with that
game's own reference model file (a fixed text, never a model's work; the fake labels
every answer ``scripted``)."""

from __future__ import annotations

from pathlib import Path

from ggp.llm import ScriptedLLM


class ReferenceAnswers:
    """``factory(game, run_dir)`` for :class:`ggp.benchmark.runner.BenchOptions`: each
    answer is the reference source of the game from the suite folder ``games``. Picklable,
    so it also works with ``jobs > 1``."""

    def __init__(self, games: Path) -> None:
        self.games = Path(games)

    def __call__(self, game: str, run_dir: Path):
        source = (self.games / f"{game}.py").read_text(encoding="utf-8")
        text = f"Scripted answer: the reference model.\n\n```python\n{source}\n```"
        return ScriptedLLM(lambda messages: text), {"name": "scripted", "model": "scripted"}


class NeverAnswers:
    """An LLM factory whose model never answers (like an exchange folder nobody serves)."""

    def __call__(self, game: str, run_dir: Path):
        import time

        def wait_forever(messages):
            time.sleep(3600)

        return ScriptedLLM(wait_forever), {"name": "scripted", "model": "scripted"}


class WithoutInference(ReferenceAnswers):
    """Answers with the reference source cut before its ``resample_history``."""

    def __call__(self, game: str, run_dir: Path):
        source = (self.games / f"{game}.py").read_text(encoding="utf-8")
        source = source.split("\ndef resample_history")[0]
        text = f"Scripted answer without inference.\n\n```python\n{source}\n```"
        return ScriptedLLM(lambda messages: text), {"name": "scripted", "model": "scripted"}
