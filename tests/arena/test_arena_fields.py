"""n-player fields (several different agents at one table, every seat permutation),
seed 001's per-player value, and one-player games in the arena and its reports."""

import csv
import json
from collections import Counter
from pathlib import Path

import pytest

from ggp.arena.report import write_report
from ggp.arena.stats import field_rows, outcome, rank_value, tabulate
from ggp.arena.store import read_records
from ggp.arena.tournament import (
    TournamentConfig,
    TournamentError,
    check_config,
    run_tournament,
    schedule,
)
from ggp.cli.main import main

COIN = str(Path(__file__).with_name("coin_game.py"))


def test_rank_value_is_the_share_of_others_beaten_ties_counting_half():
    assert [rank_value([3, 1, 2], s) for s in range(3)] == [1.0, 0.0, 0.5]  # golf
    # winner takes all (agram): the three losers tie for ranks 2-4
    assert [rank_value([1, 0, 0, 0], s) for s in range(4)] == [1.0, 1 / 3, 1 / 3, 1 / 3]
    # one loser (ninety_eight): the others tie for ranks 1-3
    assert [rank_value([1, 1, 0, 1], s) for s in range(4)] == [2 / 3, 2 / 3, 0.0, 2 / 3]
    assert [rank_value([-3, -13, -3, -7], s) for s in range(4)] == [
        pytest.approx(5 / 6), 0.0, pytest.approx(5 / 6), pytest.approx(1 / 3)]
    # the values of a match always sum to N/2, whatever the ties
    for returns in ([5, 5, 5, 5], [2, 9, 2, 0], [26, 0, 0, 0]):
        assert sum(rank_value(returns, s) for s in range(4)) == pytest.approx(2.0)
    # one player: the return scaled by the utility range
    assert rank_value([1.0], 0, (0.0, 1.0)) == 1.0
    assert rank_value([25.0], 0, (-50.0, 50.0)) == 0.75
    with pytest.raises(ValueError, match="utility range"):
        rank_value([1.0], 0)


def test_one_player_outcomes_use_the_utility_range():
    assert outcome([1.0], 0, (0.0, 1.0)) == "win"
    assert outcome([0.0], 0, (0.0, 1.0)) == "loss"
    assert outcome([0.5], 0, (0.0, 1.0)) == "draw"
    assert [outcome([r], 0) for r in (2.0, 0.0, -1.0)] == ["win", "draw", "loss"]


def _field_record(seats, returns, forfeit=None, game="g", field=None):
    return {"key": str(id(returns)), "game": game, "seats": seats, "returns": returns,
            "forfeit": forfeit, "moves": [1] * len(seats),
            "move_seconds_mean": [0.1] * len(seats), "field": field or sorted(seats)}


def test_field_rows_average_an_agents_seats_within_a_match():
    field = ["a", "b", "r", "r"]
    records = [
        _field_record(["a", "b", "r", "r"], [1, 0, 0, 0], field=field),
        _field_record(["r", "a", "b", "r"], [0, 0, 1, 0], field=field),
        _field_record(["r", "r", "a", "b"], [1, 0, 0, 0], {"player": 3, "reason": "illegal"},
                      field=field),
        {"key": "x", "game": "g", "seats": ["a", "b", "r", "r"], "error": "boom",
         "field": field},
    ]
    rows = {r.agent: r for r in field_rows(records)}
    assert set(rows) == {"a", "b", "r"} and rows["r"].seats_per_match == 2
    assert rows["a"].values == [1.0, 1 / 3, 1 / 3] and rows["a"].wins == [1.0, 0.0, 0.0]
    assert rows["b"].values == [1 / 3, 1.0, 1 / 3] and dict(rows["b"].forfeits) == {
        "illegal": 1}
    # random held two seats: one observation per match, the mean of its two seats
    assert rows["r"].n == 3 and rows["r"].values == [1 / 3, 1 / 3, (1 + 1 / 3) / 2]
    assert rows["r"].wins == [0.0, 0.0, 0.5]
    assert rows["a"].value[0] == pytest.approx(5 / 9) and rows["a"].value[1] > 0
    # matches of pairings are not field rows
    assert field_rows([{**records[0], "field": None}]) == []


def test_fields_play_every_seat_permutation_each_round():
    config = TournamentConfig(games=["four", "three"], fields=[("h", "c", "r", "r"),
                                                               ("h", "c", "r")], matches=2)
    tasks = schedule(config, {"four": 4, "three": 3})
    four = [t for t in tasks if t.game == "four"]
    three = [t for t in tasks if t.game == "three"]
    assert len(four) == 2 * 24 and len(three) == 2 * 6
    assert len({t.key for t in tasks}) == len({t.seed for t in tasks}) == len(tasks)
    for games_tasks, n, per_round in ((four, 4, 6), (three, 3, 2)):
        # each round, every listed agent holds every seat (n-1)! times per listing
        for index in range(2):
            seats = Counter((t.seats[s], s) for t in games_tasks if t.index == index
                            for s in range(n))
            field = games_tasks[0].field
            assert seats == {(a, s): per_round * field.count(a)
                             for a in field for s in range(n)}
        assert all(t.focal is None and t.field for t in games_tasks)
    # the first round comes whole before the second (a run cut short stays balanced)
    assert [t.index for t in four] == [0] * 24 + [1] * 24
    assert four[0].labels() == {"field": ["h", "c", "r", "r"], "seat_order": [0, 1, 2, 3],
                                "index": 0}


def test_field_configs_are_checked():
    with pytest.raises(TournamentError, match="no game has 3 players"):
        check_config(TournamentConfig(games=["tic_tac_toe"],
                                      fields=[("random", "random", "random")]))
    with pytest.raises(TournamentError, match="no field of that size"):
        check_config(TournamentConfig(games=["tic_tac_toe", "golf"],
                                      fields=[("random", "random")]))
    with pytest.raises(TournamentError, match="needs --agent"):
        TournamentConfig(games=["tic_tac_toe"], opponents=["random"])
    with pytest.raises(TournamentError, match="one agent or field"):
        TournamentConfig(games=["tic_tac_toe"])
    # a tournament without fields keeps its stored form (old results directories resume)
    assert "fields" not in TournamentConfig(games=["g"], agents=["a"]).to_dict()


def test_a_field_tournament_resumes_agrees_across_backends_and_is_reported(tmp_path):
    config = TournamentConfig(
        games=["golf", "tic_tac_toe"], matches=1, seed=4,
        fields=[("random", "mcts:sims=5:rollouts=1", "random"),
                ("random", "mcts:sims=5:rollouts=1")])
    serial = run_tournament(config, tmp_path / "serial", workers=0)
    assert serial.total == 6 + 2
    pooled = run_tournament(config, tmp_path / "pool", workers=2)
    keyed = [{r["key"]: (r["seed"], r["returns"], r["moves"]) for r in
              read_records(tmp_path / name / "results.jsonl")} for name in ("serial", "pool")]
    assert keyed[0] == keyed[1] and pooled.played == 8
    again = run_tournament(config, tmp_path / "pool", workers=0)
    assert again.played == 0
    # one more round plays only the new matches
    more = run_tournament(TournamentConfig(**{**config.to_dict(), "matches": 2}),
                          tmp_path / "pool", workers=0)
    assert (more.already_done, more.played) == (8, 8)

    paths = write_report(tmp_path / "pool")
    text = paths["markdown"].read_text()
    assert "value (mean ± 95% CI)" in text and "Value by seat" in text
    assert "random ×2" in text and "rounds per field: 2" in text
    data = json.loads(paths["json"].read_text())
    golf = [r for r in data["fields"] if r["game"] == "golf"]
    assert {r["agent"]: r["n"] for r in golf} == {"random": 12, "mcts:sims=5:rollouts=1": 12}
    # golf ranks three players: their values sum to 1.5 in every match
    means = {r["agent"]: r["value"] for r in golf}
    assert 2 * means["random"] + means["mcts:sims=5:rollouts=1"] == pytest.approx(1.5)
    assert data["cells"] == [] and data["field_cells"]
    with open(paths["fields_csv"]) as fh:
        assert len(list(csv.DictReader(fh))) == 4
    assert (tmp_path / "pool" / "plots" / "golf_fields.png").stat().st_size > 1000


def test_cli_fields_and_one_player_games(tmp_path, capsys):
    out = tmp_path / "mh"
    assert main(["arena", "-g", "monty_hall", "-a", "random", "-n", "3", "-j", "0",
                 "--out", str(out), "--no-plots"]) == 0
    assert main(["report", str(out), "--no-plots", "--no-show"]) == 0
    cells, _ = tabulate(read_records(out / "results.jsonl"),
                        json.loads((out / "tournament.json").read_text())["games"])
    assert cells[0].opponent == "(alone)" and cells[0].n == 3
    assert cells[0].wins + cells[0].losses == 3 and cells[0].returns_them == []
    # a one-seat field in a one-player game
    fields = tmp_path / "fields"
    assert main(["arena", "-g", "monty_hall", "-f", "random", "-n", "2", "-j", "0",
                 "--out", str(fields), "--no-plots"]) == 0
    assert "| random | 1 | 2 |" in (fields / "report.md").read_text()
    assert main(["arena", "-g", "monty_hall", "-f", "random,random", "-j", "0",
                 "--out", str(tmp_path / "bad")]) == 2
    assert "no game has 2 players" in " ".join(capsys.readouterr().err.split())
