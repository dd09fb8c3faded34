"""Answers for the LLM layer's scripted fake (``ggp.llm.ScriptedLLM``) in synthesis tests.

They are fixed texts written for the tests (mutated copies of hand-written reference code
in ``fixtures/``), never a model's work; the fake labels every answer ``scripted``.
"""

from __future__ import annotations

from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def answer(*programs: str, reasoning: str = "Scripted answer.") -> str:
    """An answer text holding ``programs`` in fenced python blocks."""
    return reasoning + "\n\n" + "\n\n".join(f"```python\n{p}\n```" for p in programs)


def mutate(source: str, *replacements: tuple[str, str]) -> str:
    """``source`` with each (old, new) replaced once; fails loudly if ``old`` is absent."""
    for old, new in replacements:
        assert old in source, f"mutation target not found: {old!r}"
        source = source.replace(old, new, 1)
    return source
