"""The arena and its report refuse to write through links planted in --out, and agent
names cannot inject lines into the Markdown report (issue 30)."""

from __future__ import annotations

import json

import pytest

from ggp.arena.report import write_report
from ggp.arena.tournament import TournamentConfig, run_tournament
from ggp.core.files import UnsafeOutputError

CONFIG = TournamentConfig(games=["tic_tac_toe"], agents=["random"], opponents=["random"],
                          matches=1, seed=0)


@pytest.mark.parametrize("planted", ["tournament.json", "results.jsonl",
                                     "trajectories.jsonl", ".lock"])
def test_arena_refuses_a_planted_link_in_out(tmp_path, planted):
    target = tmp_path / "victim"
    target.write_text("precious\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / planted).symlink_to(target)
    with pytest.raises(UnsafeOutputError, match="symbolic link"):
        run_tournament(CONFIG, out, workers=0)
    assert target.read_text() == "precious\n"


@pytest.mark.parametrize("planted", ["report.md", "report.json", "report.csv", "plots"])
def test_report_refuses_a_planted_link(tmp_path, planted):
    out = tmp_path / "out"
    run_tournament(CONFIG, out, workers=0)
    victim = tmp_path / "victim"
    victim.mkdir()
    (out / planted).symlink_to(victim / "file" if planted != "plots" else victim)
    with pytest.raises(UnsafeOutputError):
        write_report(out)
    assert list(victim.iterdir()) == []


def test_agent_names_cannot_inject_lines_into_the_report(tmp_path):
    out = tmp_path / "out"
    run_tournament(CONFIG, out, workers=0)
    # a results line as a hostile agent spec could shape it (names reach the report)
    stored = json.loads((out / "tournament.json").read_text())
    evil = "random\n\n# Pwned\x1b[2J\rrm -rf ~"
    stored["config"]["agents"] = [evil]
    (out / "tournament.json").write_text(json.dumps(stored))
    write_report(out, plots=False)
    report = (out / "report.md").read_text()
    assert "\x1b" not in report and "\r" not in report
    assert "\n# Pwned" not in report and "# Pwned" in report  # still said, on its line
