"""Model files for the cwm tests: the hand-written standalone models the synthesis tests
use as scripted answers (tests/synth/fixtures), copied into run directories, and
deliberately broken variants. None of them is a model's work."""

from __future__ import annotations

from pathlib import Path

SYNTH_FIXTURES = Path(__file__).parents[1] / "synth" / "fixtures"


def source(game: str) -> str:
    return (SYNTH_FIXTURES / f"{game}_cwm.py").read_text(encoding="utf-8")


def mutate(text: str, *replacements: tuple[str, str]) -> str:
    for old, new in replacements:
        assert old in text, f"mutation target not found: {old!r}"
        text = text.replace(old, new, 1)
    return text


def run_dir(root: Path, name: str, code: str) -> Path:
    """A directory holding ``cwm.py`` like a synthesis run."""
    path = root / name
    path.mkdir(parents=True, exist_ok=True)
    (path / "cwm.py").write_text(code, encoding="utf-8")
    return path


# Leduc where a pair with the public card does not count (a subtle rules error).
LEDUC_NO_PAIRS = (("strength = [(card[0] == public,", "strength = [(False,"),)
