"""Every short reference in code and docs resolves: seeds, research notes, doc pages."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFERENCES = (ROOT / "docs" / "references.md").read_text(encoding="utf-8")


def _texts():
    for folder in ("src", "docs", "bench", "tests"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".md") and ".venv" not in path.parts:
                yield path, path.read_text(encoding="utf-8", errors="replace")
    yield ROOT / "README.md", (ROOT / "README.md").read_text(encoding="utf-8")


def test_no_reference_to_files_outside_the_repository_is_left_unexplained():
    for path, text in _texts():
        if path == Path(__file__):
            continue  # this file spells the patterns it looks for
        assert "DESIGN" + ".md" not in text, path
        seeds = set(re.findall(r"[Ss]eeds? (\d{3})", text)) - {"002"}  # "there is no 002"
        for seed in seeds:
            assert f"| seed {seed} |" in REFERENCES, (path, seed)
        for note in set(re.findall(r"shared/research/(\w+\.md)", text)) - {"NAME.md"}:
            assert f"`{note}`" in REFERENCES, (path, note)
        bare = re.findall(r"(?<![\w/.])research §", text)
        assert not bare, path


def test_the_pages_references_md_points_to_exist():
    for page in set(re.findall(r"`((?:docs|bench)/[\w/]+\.(?:md|py))`", REFERENCES)):
        assert (ROOT / page).is_file(), page
