"""Result files are never written through a planted link, and outside text is neutralized
before it reaches a terminal, Markdown or a log (issue 30)."""

from __future__ import annotations

import io
import os

import pytest

from ggp.core.errors import GGPError
from ggp.core.files import UnsafeOutputError, make_folder, open_output, write_output
from ggp.core.text import clean_line, clean_text, is_clean

EVIL = "ok\x1b[2K\rOK: all tests passed\x1b]0;pwned\x07\nsecond line\u202e\x9b1A\x00"


def test_clean_text_removes_escapes_and_controls_and_keeps_the_words():
    cleaned = clean_text(EVIL)
    assert "\x1b" not in cleaned and "\r" not in cleaned and "\x07" not in cleaned
    assert "\u202e" not in cleaned and "\x9b" not in cleaned and "\x00" not in cleaned
    assert cleaned == "okOK: all tests passed\nsecond line"
    assert clean_line(EVIL) == "okOK: all tests passed second line"
    assert clean_line("x" * 50, limit=10) == "xxxxxxx..."
    assert clean_text("tabs\tand\nnewlines stay\n") == "tabs\tand\nnewlines stay\n"
    assert is_clean("plain text\n") and not is_clean(EVIL)
    assert clean_line(ValueError("a\nb")) == "a b"  # anything, by its str()


def test_the_consoles_print_no_escape_sequence_of_what_they_are_given():
    from rich.table import Table

    from ggp.cli.output import make_console

    console = make_console(file=io.StringIO(), force_terminal=True, width=100)
    console.print(f"FAILED: {EVIL}", markup=False)
    table = Table()
    table.add_column("agent")
    table.add_row("evil\x1b[1A\x1b[2Kname")
    console.print(table)
    out = console.file.getvalue()
    # rich's own colour codes are SGR sequences ('ESC[...m'); nothing else gets through
    import re

    assert not re.search(r"\x1b(?!\[[0-9;]*m)", out), repr(out)
    assert "\r" not in out and "\x07" not in out and "FAILED" in out


def test_open_output_refuses_a_planted_symlink_and_writes_regular_files(tmp_path):
    target = tmp_path / "outside.txt"
    target.write_text("precious\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "results.jsonl").symlink_to(target)
    for mode in ("w", "a", "x"):
        with pytest.raises(UnsafeOutputError, match="symbolic link") as refused:
            open_output(out / "results.jsonl", mode)
        assert "\n" not in str(refused.value) and isinstance(refused.value, GGPError)
    with pytest.raises(UnsafeOutputError):
        write_output(out / "results.jsonl", "evil")
    (out / "dangling.md").symlink_to(tmp_path / "created-by-ggp")
    with pytest.raises(UnsafeOutputError):
        write_output(out / "dangling.md", "evil")
    assert target.read_text() == "precious\n"
    assert not (tmp_path / "created-by-ggp").exists()
    # a folder inside the output root that is a link: refused too
    (out / "plots").symlink_to(tmp_path)
    with pytest.raises(UnsafeOutputError, match="folder"):
        open_output(out / "plots" / "x.png", "wb", root=out)
    with pytest.raises(UnsafeOutputError):
        make_folder(out / "plots", out)
    # a FIFO would block the writer: refused, not opened
    os.mkfifo(out / "fifo")
    with pytest.raises(UnsafeOutputError, match="regular"):
        open_output(out / "fifo", "a")
    # ordinary files: written, appended, replaced
    with open_output(out / "ok.txt", "w") as fh:
        fh.write("a\n")
    with open_output(out / "ok.txt", "a") as fh:
        fh.write("b\n")
    assert (out / "ok.txt").read_text() == "a\nb\n"
    write_output(out / "ok.txt", "c\n")
    assert (out / "ok.txt").read_text() == "c\n"
    assert sorted(p.name for p in out.iterdir()) == ["dangling.md", "fifo", "ok.txt", "plots",
                                                     "results.jsonl"]  # no temporary left


def test_log_records_become_one_clean_line(caplog):
    import logging

    from ggp.core.text import clean_log_records

    clean_log_records()
    clean_log_records()  # once is enough; twice changes nothing
    logging.getLogger("ggp.test").warning("model said: %s", "bad\n2026 forged line\x1b[31m")
    assert caplog.records[-1].getMessage() == "model said: bad 2026 forged line"


MARKUP_MODEL = '''
INITIAL_STATE = {"done": False}
def get_current_player(state): return -4 if state["done"] else 0
def get_player_name(player_id): return "p0"
def get_legal_actions(state): return [] if state["done"] else ["[/oops] \\x1b[2K\\rOK"]
def apply_action(state, action): return {"done": True}
def get_rewards(state): return [1.0] if state["done"] else [0.0]
def get_observations(state): return [dict(state)]
'''


def test_play_prints_a_model_action_with_markup_and_escapes_as_plain_text(tmp_path, capsys):
    from ggp.cli.main import main

    model = tmp_path / "m.py"
    model.write_text(MARKUP_MODEL)
    status = main(["play", str(model), "--trusted", "--players", "random", "--show"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "[/oops]" in out and "\x1b" not in out and "\r" not in out


def test_replace_output_streams_into_a_fresh_file_and_refuses_links(tmp_path):
    from ggp.core.files import replace_output

    target = tmp_path / "victim"
    target.write_bytes(b"precious")
    (tmp_path / "ckpt.pt").symlink_to(target)
    with pytest.raises(UnsafeOutputError):
        replace_output(tmp_path / "ckpt.pt", lambda fh: fh.write(b"evil"))
    assert target.read_bytes() == b"precious"
    replace_output(tmp_path / "new.pt", lambda fh: fh.write(b"data"))
    assert (tmp_path / "new.pt").read_bytes() == b"data"

    def failing(fh):
        fh.write(b"half")
        raise RuntimeError("killed")

    with pytest.raises(RuntimeError):
        replace_output(tmp_path / "new.pt", failing)
    assert (tmp_path / "new.pt").read_bytes() == b"data"  # the old file whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ckpt.pt", "new.pt", "victim"]


def test_a_synthesis_run_folder_refuses_a_planted_link(tmp_path):
    """A run folder's files (metadata, cwm.py, exchanges.jsonl) are written without
    following a symbolic link someone planted there."""
    from ggp.rundir import RunStore

    outside = tmp_path / "outside.txt"
    outside.write_text("keep")
    run = tmp_path / "run"
    run.mkdir()
    (run / "metadata.json").symlink_to(outside)
    with pytest.raises(UnsafeOutputError):
        RunStore(run).write_json("metadata.json", {"game": "x"})
    assert outside.read_text() == "keep"
