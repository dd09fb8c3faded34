"""Statistics and reports of tournament results."""

import csv
import json
import math
from pathlib import Path

import pytest

from ggp.arena.report import write_report
from ggp.arena.stats import mean_ci, outcome, tabulate
from ggp.arena.tournament import TournamentConfig, run_tournament
from ggp.cli.main import main

COIN = str(Path(__file__).with_name("coin_game.py"))
EVIL = str(Path(__file__).with_name("evil_agent.py"))


def record(seats, returns, forfeit=None, game="g"):
    return {"key": str(id(returns)), "game": game, "seats": seats, "returns": returns,
            "forfeit": forfeit, "moves": [2, 1], "move_seconds_mean": [0.5, 0.25]}


def test_outcome():
    assert outcome([1, -1], 0) == "win" and outcome([1, -1], 1) == "loss"
    assert outcome([0, 0], 1) == "draw"
    assert outcome([3, 3, 1], 0) == "draw" and outcome([3, 3, 1], 2) == "loss"


def test_mean_ci():
    mean, half = mean_ci([1.0, -1.0, 1.0, -1.0])
    assert mean == 0.0 and half == pytest.approx(1.959964 * math.sqrt(4 / 3) / 2)
    assert mean_ci([2.0]) == (2.0, None)


def test_cells_count_wld_and_forfeits_from_both_sides():
    records = [
        record(["a", "b"], [1, -1]),
        record(["a", "b"], [1, -1], {"player": 1, "reason": "timeout"}),
        record(["a", "b"], [-1, 1], {"player": 0, "reason": "illegal"}),
        record(["a", "b"], [0, 0]),
        record(["b", "a"], [1, -1]),
        {"key": "broken", "game": "g", "seats": ["a", "b"], "error": "ModelError: x"},
    ]
    cells, errors = tabulate(records)
    assert errors == 1
    by_key = {(c.agent, c.seat): c for c in cells}
    a0 = by_key[("a", 0)]
    assert (a0.n, a0.wins, a0.losses, a0.draws) == (4, 2, 1, 1)
    assert (a0.wins_by_forfeit, a0.losses_by_forfeit) == (1, 1)
    assert dict(a0.forfeits_us) == {"illegal": 1} and dict(a0.forfeits_them) == {"timeout": 1}
    assert a0.payoff_us[0] == pytest.approx(0.25) and a0.payoff_them[0] == pytest.approx(-0.25)
    b1 = by_key[("b", 1)]
    assert (b1.wins, b1.losses, b1.draws, b1.wins_by_forfeit) == (1, 2, 1, 1)
    a1 = by_key[("a", 1)]
    assert (a1.n, a1.losses, a1.opponent) == (1, 1, "b")
    assert a0.ms_per_move == pytest.approx(500.0) and a1.ms_per_move == pytest.approx(250.0)


def test_reports_for_wld_and_payoff_games(tmp_path):
    config = TournamentConfig(games=["tic_tac_toe", COIN],
                              agents=["random", f"{EVIL}:mode=illegal:after=0"], matches=4, seed=1)
    run_tournament(config, tmp_path, workers=0)
    paths = write_report(tmp_path)
    text = paths["markdown"].read_text()
    assert "Win rate (by forfeit/wins)" in text and "Us (mean ± 95% CI)" in text
    assert "Win (forfeit/n)" not in text  # the numbers in parentheses are not of n
    assert "evil_agent.py:mode=illegal:after=0" in text and "illegal" in text
    data = json.loads(paths["json"].read_text())
    assert data["matches"] == 2 * 2 * 4 and data["errors"] == 0
    with open(paths["csv"]) as fh:
        rows = list(csv.DictReader(fh))
    assert {r["game"] for r in rows} == {"tic_tac_toe", COIN}
    evil_rows = [r for r in rows if "evil" in r["agent"]]
    assert evil_rows and all(float(r["forfeit_rate_us"]) > 0 for r in evil_rows)
    plots = sorted(p.name for p in (tmp_path / "plots").iterdir())
    assert plots == ["coin_game_payoffs.png", "coin_game_wld.png", "tic_tac_toe_wld.png"]
    assert all((tmp_path / "plots" / p).stat().st_size > 1000 for p in plots)


def test_cli_arena_and_report(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["arena", "-g", "tic_tac_toe", "-a", "random", "-n", "2", "-j", "0",
                 "--out", str(out), "--no-plots"]) == 0
    (out / "report.md").unlink()
    assert main(["report", str(out), "--no-plots", "--no-show"]) == 0
    assert (out / "report.md").exists()
    assert main(["report", str(tmp_path / "nothing")]) == 2
    assert "not a tournament directory" in " ".join(capsys.readouterr().err.split())


def test_sims_per_move_comes_from_the_agents_counters(tmp_path):
    """Search agents report their simulations; the tables show sims/move next to
    ms/move, and "–" for an agent that does not search (and for old records)."""
    records = [dict(record(["a", "b"], [1, -1]), simulations=[300, None]),
               dict(record(["a", "b"], [0, 0]), simulations=[100, None]),
               record(["a", "b"], [1, -1])]  # written before the counter existed
    by_key = {(c.agent, c.seat): c for c in tabulate(records)[0]}
    assert by_key[("a", 0)].sims_per_move == pytest.approx(400 / 4)
    assert math.isnan(by_key[("b", 1)].sims_per_move)
    config = TournamentConfig(games=["tic_tac_toe"], agents=["mcts:sims=20:rollouts=1"],
                              opponents=["random"], matches=1, seed=1)
    run_tournament(config, tmp_path, workers=0)
    lines = [json.loads(line) for line in open(tmp_path / "results.jsonl")]
    for line in lines:
        searcher = line["seats"].index("mcts:sims=20:rollouts=1")
        # 20 per move, except a last forced move (one legal action: nothing to search)
        assert line["simulations"][searcher] >= 20 * (line["moves"][searcher] - 1)
        assert line["simulations"][1 - searcher] is None
    assert "sims/move" in write_report(tmp_path, plots=False)["markdown"].read_text()


def test_plot_labels_break_between_names_never_inside_them():
    from ggp.arena.plots import wrap_label

    spec = "vs cwm_mcts:run=runs/quickstart/generalized_tic_tac_toe:sims=50:rollouts=1"
    wrapped = wrap_label(spec, 17)
    assert wrapped.replace("\n", "") == spec  # nothing lost, no hyphen or space added
    assert "generalized_tic_tac_toe:" in wrapped.split("\n")  # too long: a line of its own
    assert all(len(line) <= 17 for line in wrapped.split("\n") if "generalized" not in line)
    assert wrap_label("ismcts, clairvoyant, random, random", 28) == \
        "ismcts, clairvoyant, random,\nrandom"
