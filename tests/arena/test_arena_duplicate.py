"""Duplicate matches: the seats of one match index share their chance draws (issue 29)."""

import json
from collections import defaultdict

import pytest

from ggp.arena.stats import duplicate_rows
from ggp.arena.store import load_tournament
from ggp.arena.tournament import TournamentConfig, run_tournament, schedule
from ggp.cli.main import main

SEARCH = "ismcts:sims=12:rollouts=1"
SAME_SEARCH = SEARCH + ":uct_c=1.0"  # another spec, the same agent


def chance_moves(out_dir):
    """(game, index) -> the chance actions of each of its matches, by the focal seat."""
    deals = defaultdict(dict)
    with open(out_dir / "trajectories.jsonl") as fh:
        for line in fh:
            trajectory = json.loads(line)
            game, _, _, seat, index = json.loads(trajectory["key"])
            deals[game, index][seat] = [s["action"] for s in trajectory["steps"]
                                        if s["player"] == -1]
    return deals


def test_the_seats_of_one_index_share_a_seed_and_other_indices_do_not():
    config = TournamentConfig(games=["leduc_poker"], agents=["a"], opponents=["b", "c"],
                              matches=3, duplicate=True)
    tasks = schedule(config, {"leduc_poker": 2})
    seeds = defaultdict(set)
    for task in tasks:
        seeds[task.index].add(task.seed)
        assert task.labels()["duplicate"] is True
    # one seed per index, shared by both seats and both opponents (the same deals)
    assert all(len(s) == 1 for s in seeds.values()) and len(seeds) == 3
    assert len({next(iter(s)) for s in seeds.values()}) == 3
    # without --duplicate nothing changes: every match has its own seed, the stored
    # config (and so the default results directory) is the same as before
    plain = TournamentConfig(games=["leduc_poker"], agents=["a"], opponents=["b"], matches=3)
    assert len({t.seed for t in schedule(plain, {"leduc_poker": 2})}) == 6
    assert "duplicate" not in plain.to_dict() and config.to_dict()["duplicate"] is True
    # a field round: every seat permutation plays the same deal
    table = TournamentConfig(games=["g"], fields=[("a", "b", "c")], matches=2,
                             duplicate=True)
    rounds = defaultdict(set)
    for task in schedule(table, {"g": 3}):
        rounds[task.index].add(task.seed)
    assert [len(s) for s in rounds.values()] == [1, 1] and rounds[0] != rounds[1]


@pytest.mark.parametrize("game", ["leduc_poker", "bargaining"])
def test_a_pair_plays_the_same_deal(tmp_path, game):
    config = TournamentConfig(games=[game], agents=["random"], opponents=[SEARCH],
                              matches=4, duplicate=True)
    run_tournament(config, tmp_path, workers=0)
    deals = chance_moves(tmp_path)
    assert len(deals) == 4
    for (_, index), by_seat in deals.items():
        first, second = by_seat[0], by_seat[1]
        # the k-th chance draw is the same in both matches: the private deal is equal,
        # and a later card (Leduc's public card) is equal wherever both matches reach it
        shorter = min(len(first), len(second))
        assert shorter >= (2 if game == "leduc_poker" else 1)
        assert first[:shorter] == second[:shorter], index


def test_identical_agents_cancel_exactly_in_a_duplicate_pair(tmp_path):
    """Two copies of one deterministic agent: the paired match is the same match with the
    seats swapped, so in a zero-sum game the pair sums to exactly zero."""
    config = TournamentConfig(games=["leduc_poker"], agents=[SEARCH],
                              opponents=[SAME_SEARCH], matches=6, duplicate=True)
    run_tournament(config, tmp_path / "dup", workers=0)
    _, records = load_tournament(tmp_path / "dup")
    sums = defaultdict(float)
    for r in records:
        sums[r["index"]] += r["returns"][r["focal_seat"]]
    assert len(sums) == 6 and all(total == 0.0 for total in sums.values())
    [row] = duplicate_rows(records)
    assert row.n == 6 and row.returns == [0.0] * 6 and row.payoff == (0.0, 0.0)
    # the same tournament without duplicates deals each match anew: luck does not cancel
    plain = TournamentConfig(games=["leduc_poker"], agents=[SEARCH],
                             opponents=[SAME_SEARCH], matches=6)
    run_tournament(plain, tmp_path / "plain", workers=0)
    _, records = load_tournament(tmp_path / "plain")
    sums = defaultdict(float)
    for r in records:
        sums[r["index"]] += r["returns"][r["focal_seat"]]
    assert any(total != 0.0 for total in sums.values())
    assert duplicate_rows(records) == []


def record(index, seat, returns, forfeit=None):
    return {"key": f"{index}/{seat}", "game": "g", "seats": ["a", "b"] if seat == 0 else
            ["b", "a"], "focal": "a", "opponent": "b", "focal_seat": seat, "index": index,
            "duplicate": True, "returns": returns, "forfeit": forfeit, "moves": [2, 2],
            "move_seconds_mean": [0.5, 0.25]}


def test_duplicate_rows_average_each_pair_and_leave_out_incomplete_ones():
    records = [
        record(0, 0, [3.0, -3.0]), record(0, 1, [1.0, -1.0]),   # a: +3 and -1 -> +1
        record(1, 0, [-2.0, 2.0]), record(1, 1, [-4.0, 4.0],    # a: -2 and +4 -> +1
                                          {"player": 0, "reason": "illegal"}),
        record(2, 1, [5.0, -5.0]),                              # its partner is missing
        {**record(3, 0, [0.0, 0.0]), "error": "the game failed"}, record(3, 1, [1.0, -1.0]),
    ]
    [row] = duplicate_rows(records, {"g": {"min_utility": -13, "max_utility": 13}})
    assert (row.n, row.incomplete) == (2, 2)
    assert row.returns == [1.0, 1.0] and row.returns_them == [-1.0, -1.0]
    assert row.payoff == (1.0, 0.0)
    assert row.wins == [0.5, 0.5]
    assert dict(row.forfeits_them) == {"illegal": 1} and not row.forfeits_us
    assert row.ms_per_move == pytest.approx(1000 * (2 * 0.5 + 2 * 0.25) * 2 / 8)


def test_the_cli_plays_duplicates_and_reports_pairs(tmp_path):
    out = tmp_path / "arena"
    code = main(["arena", "-g", "kuhn_poker", "-a", "random", "-o", "random", "-n", "3",
                 "-j", "0", "--duplicate", "--out", str(out), "--no-plots"])
    assert code == 0
    report = (out / "report.md").read_text()
    assert "duplicate matches" in report and "Duplicate pairs" in report
    data = json.loads((out / "report.json").read_text())
    assert data["config"]["duplicate"] is True
    assert [d["pairs"] for d in data["duplicates"]] == [3]
