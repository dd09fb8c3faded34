"""Test doubles for synthesis: a scripted stand-in for a language model.

Its answers are fixed texts written for the tests (mutated copies of hand-written
reference code), never a model's work; every answer is labelled ``scripted``.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

FIXTURES = Path(__file__).parent / "fixtures"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


class ScriptedFake:
    """Answers requests from a list, in order; records every request."""

    def __init__(self, answers: list[str]):
        self.answers = list(answers)
        self.requests: list[list[dict]] = []

    def complete(self, messages, **params):
        self.requests.append(messages)
        if not self.answers:
            raise AssertionError(f"ScriptedFake ran out of answers at request "
                                 f"{len(self.requests)}")
        text = self.answers.pop(0)
        words = sum(len(m["content"].split()) for m in messages)
        return SimpleNamespace(text=text, scripted=True, model="scripted",
                               usage=SimpleNamespace(prompt_tokens=words,
                                                     completion_tokens=len(text.split())))


def answer(*programs: str, reasoning: str = "Scripted answer.") -> str:
    """An answer text holding ``programs`` in fenced python blocks."""
    return reasoning + "\n\n" + "\n\n".join(f"```python\n{p}\n```" for p in programs)


def mutate(source: str, *replacements: tuple[str, str]) -> str:
    """``source`` with each (old, new) replaced once; fails loudly if ``old`` is absent."""
    for old, new in replacements:
        assert old in source, f"mutation target not found: {old!r}"
        source = source.replace(old, new, 1)
    return source
