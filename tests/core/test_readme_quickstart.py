"""The README's quick start explains what it shows and points to where to look next."""

import re
from pathlib import Path

from ggp.arena import report

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
QUICKSTART = (ROOT / "scripts" / "quickstart.sh").read_text(encoding="utf-8")


def _quick_start() -> str:
    return README[README.index("## Quick start"):README.index("## Examples")]


def test_the_tables_are_explained_beside_them():
    text = _quick_start()
    assert "Reading the tables" in text and "accuracy 1.000 can lose" in text
    assert "Win (forfeit/n)" not in README  # its parentheses were never of n


def test_the_readme_shows_the_headers_the_report_writes():
    text = _quick_start()
    header = re.search(r"\| Win rate \([^)]*\)", "\n".join(report._wld_table([])))[0]
    assert header.strip("| ") in text


def test_the_browser_pointer_opens_a_folder_the_quick_start_writes():
    pointer = re.search(r"web\.sh --open (\S+)`", _quick_start())
    assert pointer, "the quick start should point to the web viewer"
    out = re.search(r'^OUT=(\S+)', QUICKSTART, re.M)[1].strip('"')
    folder = pointer[1].replace(out.rstrip("/") + "/", "$OUT/")
    assert f'--out "{folder}"' in QUICKSTART
