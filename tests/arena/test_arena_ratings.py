"""Bradley–Terry ratings with bootstrap intervals in round-robin and field reports."""

import json
import math

from ggp.arena.ratings import comparisons, ratings
from ggp.cli.main import main


def _match(seats, returns):
    return {"game": "g", "seats": list(seats), "returns": list(returns)}


def test_two_agents_match_the_closed_form():
    # 30 wins of 40, plus the one virtual draw: odds 30.5 : 10.5
    records = [_match("AB", [1, -1])] * 30 + [_match("BA", [1, -1])] * 10
    a, b = ratings(records)
    assert (a.agent, b.agent) == ("A", "B")
    assert math.isclose(a.rating - b.rating, 400 * math.log10(30.5 / 10.5), rel_tol=1e-6)
    assert a.low < a.rating < a.high and a.matches == 40


def test_a_transitive_field_is_ordered_and_centred():
    records = [_match(seats, [len(seats) - 1 - "ABC".index(s) for s in seats])
               for seats in ("ABC", "BCA", "CAB", "ACB", "CBA", "BAC")] * 3
    assert len(comparisons(records[0])) == 3
    found = ratings(records)
    assert [r.agent for r in found] == ["A", "B", "C"]
    assert abs(sum(r.rating for r in found)) < 1e-6
    assert all(r.low <= r.rating <= r.high for r in found)


def test_draws_and_self_play_are_neutral():
    records = [_match("AB", [0, 0])] * 5 + [_match("AA", [1, -1])] * 5
    assert [round(r.rating, 6) for r in ratings(records)] == [0.0, 0.0]


def test_round_robin_report_has_ratings(tmp_path, capsys):
    out = tmp_path / "rr"
    assert main(["arena", "-g", "tic_tac_toe", "-a", "random", "-a", "mcts:sims=5",
                 "-a", "ismcts:sims=5", "-n", "1", "--no-plots", "--out", str(out)]) == 0
    data = json.loads((out / "report.json").read_text())
    rows = data["ratings"]["tic_tac_toe"]
    assert len(rows) == 3 and all(r["ci95"][0] <= r["rating"] <= r["ci95"][1] for r in rows)
    assert "### Ratings" in (out / "report.md").read_text()
