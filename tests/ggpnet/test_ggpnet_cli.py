"""``ggp serve`` and ``ggp manage`` end on their own and report bad options clearly."""

import json
import time

from ggpnet_helpers import gdl_file, quick_player, running

from ggp.cli.main import main


def test_serve_stops_after_max_seconds():
    began = time.monotonic()
    assert main(["serve", "--port", "0", "--max-seconds", "0.5", "--chooser", "random"]) == 0
    assert time.monotonic() - began < 30


def test_manage_runs_a_series_and_writes_records_and_report(tmp_path):
    out = tmp_path / "run"
    with running(quick_player(1).handle) as (server,):
        status = main(["manage", str(gdl_file("nim1.kif")), "-p", f"ours={server.url}",
                       "-p", "random", "--matches", "2", "--start-clock", "3",
                       "--play-clock", "1", "--seed", "1", "--out", str(out)])
    assert status == 0
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [row["seats"] for row in rows] == [["ours", "random"], ["random", "ours"]]
    assert all((out / f"{row['key']}.json").is_file() for row in rows)
    assert "ours" in (out / "report.md").read_text()


def test_bad_options_are_reported_not_raised(tmp_path):
    game = str(gdl_file("nim1.kif"))
    assert main(["manage", game, "-p", "random", "-p", "random", "--form", "bogus",
                 "--out", str(tmp_path / "a")]) == 2
    assert main(["manage", game, "-p", "random", "--out", str(tmp_path / "b")]) == 2
    assert main(["manage", str(tmp_path / "missing.kif"), "-p", "random"]) == 2
    assert main(["serve", "--port", "0", "--max-seconds", "0.1", "--chooser", "bogus"]) == 2
