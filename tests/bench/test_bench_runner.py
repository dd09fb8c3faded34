"""``ggp bench synth`` end to end with a scripted LLM (answers are the reference models'
own source, or a mutated copy: fixed texts, never a model's work): results, resume,
replay of a recorded suite, the failure report, the process pool and the CLI."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from bench_fakes import ReferenceAnswers

from ggp.benchmark.runner import BenchOptions, run_suite
from ggp.benchmark.suite import load_suite
from ggp.cli.main import main
from ggp.llm import ScriptedLLM

SUITE_DIR = Path(__file__).parents[2] / "benchmarks" / "novel"
SUITE = load_suite(SUITE_DIR)
# perfect information with 4 players; general-sum with 121 offers; hidden, with inference
GAMES = ["chain_count", "budget_split", "fortune_teller"]
SMALL = dict(train_games=2, test_games=3, budget=2, play_matches=1, play_time=0.02,
             trusted=True)


def _options(**kwargs):
    return BenchOptions(**{**SMALL, "llm": ReferenceAnswers(SUITE_DIR / "games"), **kwargs})


class Refuse:
    """An LLM factory that must not be used (everything should be read back)."""

    def __call__(self, game, run_dir):
        raise AssertionError(f"asked a model for {game}")


@pytest.fixture(scope="module")
def first_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench") / "out"
    statuses = []
    rows = run_suite(SUITE, out, _options(), games=GAMES,
                     on_status=lambda s: statuses.append(s))
    return out, rows, statuses


def test_every_game_is_synthesized_measured_and_played(first_run):
    out, rows, statuses = first_run
    assert [r["game"] for r in rows] == ["fortune_teller", "budget_split", "chain_count"]
    for row in rows:
        assert row["status"] == "solved" and row["one_call"] and row["calls"] == 1
        assert row["scripted_answers"] == 1 and row["tokens"] > 0
        assert row["test_accuracy"] == 1.0 and row["transition_accuracy"] == 1.0
        assert row["terminal_accuracy"] == 1.0
        assert row["behaviour"]["accuracy"] == 1.0
        assert row["curve"] == [1.0]
        assert row["play"]["time"] == 0.02
        for opponent in ("random", "gt"):
            play = row["play"][opponent]
            assert play["matches"] == row["players"]  # one per seat
            assert play["payoff"] is not None
            # a time budget, not a simulation count: each searching side reports its own
            assert play["sims_per_move_us"] >= 1 and play["ms_per_move_us"] > 0
        assert row["play"]["gt"]["sims_per_move_them"] >= 1
        assert row["play"]["random"]["sims_per_move_them"] is None  # Random does not search
    by_game = {r["game"]: r for r in rows}
    assert by_game["fortune_teller"]["inference_accuracy"] == 1.0
    assert by_game["chain_count"]["play"]["planner"] == "mcts"
    assert by_game["fortune_teller"]["play"]["planner"] == "ismcts"
    # progress: phases were reported while games ran (in this process), ending with "done"
    phases = {st["phase"] for s in statuses for st in s.values()}
    assert {"recording", "synthesis", "behaviour accuracy", "play check"} <= phases
    assert {g: s["phase"] for g, s in statuses[-1].items()} == dict.fromkeys(GAMES, "done")


def test_report_files(first_run):
    out, rows, _ = first_run
    report = json.loads((out / "report.json").read_text())
    assert report["summary"]["solved"] == 3 and report["summary"]["one_call_rate"] == 1.0
    assert report["summary"]["scripted_games"] == 3
    text = (out / "report.md").read_text()
    assert "scripted fake: not a model's work" in text
    assert "Every game was solved in one call." in text
    assert ("summary.png" in text) != ("matplotlib is not installed" in text)
    with (out / "report.csv").open() as handle:
        table = list(csv.DictReader(handle))
    assert [r["game"] for r in table] == [r["game"] for r in rows]
    assert table[0]["test_accuracy"] == "1.0"
    assert float(table[0]["cwm_sims_per_move"]) >= 1 and float(table[0]["gt_sims_per_move"]) >= 1
    assert "0.02 s of search per move" in text


def test_a_finished_suite_is_read_back(first_run, tmp_path):
    out, rows, _ = first_run
    again = run_suite(SUITE, out, _options(llm=Refuse()), games=GAMES)
    assert again == rows


def test_an_interrupted_game_resumes_from_its_folder(first_run, tmp_path):
    out = tmp_path / "copy"
    shutil.copytree(first_run[0], out)
    game = out / "budget_split"
    # as if killed after the synthesis' call and before the held-out set and the arena
    (game / "result.json").unlink()
    shutil.rmtree(game / "arena")
    meta = json.loads((game / "synth" / "metadata.json").read_text())
    meta["status"] = "interrupted"
    (game / "synth" / "metadata.json").write_text(json.dumps(meta))
    rows = run_suite(SUITE, out, _options(llm=None), games=["budget_split"])
    assert rows[0]["status"] == "solved" and rows[0]["replayed_calls"] == 1
    assert rows[0]["play"]["gt"]["matches"] == 2


def test_an_interrupted_play_check_resumes_only_at_the_same_time(tmp_path):
    # not a copy of first_run: the arena's agent specs name the run folder's own path
    out = tmp_path / "out"
    run_suite(SUITE, out, _options(), games=["chain_count"])
    (out / "chain_count" / "result.json").unlink()  # as if killed during the play check
    row = run_suite(SUITE, out, _options(llm=Refuse(), play_time=0.03),
                    games=["chain_count"])[0]
    assert row["status"] == "error" and "different tournament" in row["error"]
    row = run_suite(SUITE, out, _options(llm=Refuse()), games=["chain_count"])[0]
    assert row["status"] == "solved" and row["play"]["time"] == 0.02
    assert row["play"]["gt"]["matches"] == 4  # read back from the arena, none played again


def test_replay_of_a_recorded_suite_reproduces_the_results(first_run, tmp_path):
    out, rows, _ = first_run
    replayed = run_suite(SUITE, tmp_path / "replay", _options(llm=None, replay=str(out),
                                                              play_matches=0),
                         games=GAMES)
    for old, new in zip(rows, replayed):
        for key in ("status", "calls", "test_accuracy", "inference_accuracy", "curve"):
            assert new[key] == old[key], key
        assert new["replayed_calls"] == 1 and new["play"] is None
        assert new["backend"]["replayed_from"].endswith(f"{new['game']}/synth")
    # exported as a recorded suite (one folder per game), it replays the same way
    from ggp.benchmark.runner import export_recorded

    assert sorted(export_recorded(out, tmp_path / "recorded")) == sorted(GAMES)
    again = run_suite(SUITE, tmp_path / "replay2", _options(llm=None, replay=str(
        tmp_path / "recorded"), play_matches=0), games=GAMES)
    assert [r["curve"] for r in again] == [r["curve"] for r in rows]
    assert (tmp_path / "recorded" / "report.md").is_file()
    # a slim export drops the recorded games; the replay records them again, seeded
    export_recorded(out, tmp_path / "slim", slim=True)
    assert not list((tmp_path / "slim").glob("*/*trajectories.jsonl"))
    slim = run_suite(SUITE, tmp_path / "replay3", _options(llm=None, replay=str(
        tmp_path / "slim"), play_matches=0), games=GAMES)
    for old, new in zip(rows, slim):
        assert (new["status"], new["curve"], new["test_accuracy"], new["test_tests"]) == \
            (old["status"], old["curve"], old["test_accuracy"], old["test_tests"])
    # a recorded suite without the game is a one-line error for that game only
    lone = run_suite(SUITE, tmp_path / "missing", _options(llm=None, replay=str(tmp_path)),
                     games=["chain_count"])
    assert lone[0]["status"] == "error" and "no run of chain_count" in lone[0]["error"]


class BuggyThenFixed:
    """First answer: the reference with a wrong limit; second: the reference."""

    def __init__(self, games):
        self.games = Path(games)

    def __call__(self, game, run_dir):
        good = (self.games / f"{game}.py").read_text()
        bad = good.replace('"limit": 31', '"limit": 30')
        assert bad != good
        answers = [f"```python\n{bad}\n```", f"```python\n{good}\n```"]
        return ScriptedLLM(answers), {"name": "scripted", "model": "scripted"}


def test_the_report_says_what_failed_and_how_refinement_went(tmp_path):
    options = _options(llm=BuggyThenFixed(SUITE_DIR / "games"), budget=1, play_matches=0)
    rows = run_suite(SUITE, tmp_path / "out", options, games=["chain_count"])
    row = rows[0]
    assert row["status"] == "budget spent" and not row["solved"] and row["calls"] == 1
    assert row["first_train_failure"]["kind"] in ("transition", "terminal", "random_play")
    assert 0 < row["curve"][0] < 1
    text = (tmp_path / "out" / "report.md").read_text()
    assert "**chain_count** (budget spent, 1 calls)" in text
    assert f"`{row['first_train_failure']['id']}`" in text
    # more budget: resumed, refined, solved on the second call
    rows = run_suite(SUITE, tmp_path / "out2", _options(
        llm=BuggyThenFixed(SUITE_DIR / "games"), budget=2, play_matches=0),
        games=["chain_count"])
    assert rows[0]["status"] == "solved" and rows[0]["calls"] == 2
    assert rows[0]["curve"][-1] == 1.0 and rows[0]["curve"][0] < 1.0
    assert "best training accuracy after each call" in (tmp_path / "out2" / "report.md").read_text()


def test_games_run_in_parallel_on_a_process_pool(tmp_path):
    rows = run_suite(SUITE, tmp_path / "pool", _options(play_matches=0),
                     games=["chain_count", "lights_duel"], jobs=2)
    assert [r["status"] for r in rows] == ["solved", "solved"]


@pytest.fixture
def local_ray():
    """A local Ray of two CPUs, or a skip where it does not start within a few seconds
    (a loaded machine can take a minute, too long for a unit test)."""
    import time

    import bench_fakes

    ray = pytest.importorskip("ray")
    # the Ray workers import nothing from tests/: the fakes travel by value
    ray.cloudpickle.register_pickle_by_value(bench_fakes)
    started = time.monotonic()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    took = time.monotonic() - started
    if took > 15:
        ray.shutdown()
        pytest.skip(f"Ray took {took:.0f} s to start on this machine")
    yield ray
    ray.shutdown()


def test_games_run_in_parallel_on_ray(local_ray, tmp_path):
    statuses = []
    rows = run_suite(SUITE, tmp_path / "ray", _options(play_matches=0),
                     games=["chain_count", "lights_duel"], jobs=2, pool="ray",
                     on_status=statuses.append)
    assert [r["status"] for r in rows] == ["solved", "solved"]
    assert all(r["test_accuracy"] == 1.0 for r in rows)
    assert {g: s["phase"] for g, s in statuses[-1].items()} == dict.fromkeys(
        ["chain_count", "lights_duel"], "done")
    assert local_ray.is_initialized(), "a Ray started by the caller is left running"


def test_an_unknown_pool_is_a_one_line_error(tmp_path):
    from ggp.benchmark.runner import RunnerError

    with pytest.raises(RunnerError, match="Unknown pool 'dask'"):
        run_suite(SUITE, tmp_path / "x", _options(), games=["chain_count"], pool="dask")


def test_cli_replays_a_recorded_suite_and_rejects_unknown_games(first_run, tmp_path, capsys):
    out = tmp_path / "cli"
    assert main(["bench", "synth", str(SUITE_DIR), "--replay", str(first_run[0]),
                 "--games", "chain_count,budget_split", "--out", str(out),
                 "--train-games", "2", "--test-games", "3", "--budget", "2"]) == 0
    printed = capsys.readouterr().out
    assert "No play check" in printed and "Solved 2/2" in printed
    assert json.loads((out / "report.json").read_text())["summary"]["solved"] == 2
    assert main(["bench", "synth", str(SUITE_DIR), "--replay", str(first_run[0]),
                 "--games", "no_such_game", "--out", str(tmp_path / "x")]) == 2
    assert "No game no_such_game" in capsys.readouterr().err
    # bad settings are one-line errors, before anything is written
    for flags, message in ((["--pool", "dask"], "--pool must be one of local, ray"),
                           (["--play-time", "0", "--trusted"], "must be positive, not 0")):
        assert main(["bench", "synth", str(SUITE_DIR), "--replay", str(first_run[0]),
                     "--out", str(tmp_path / "bad"), *flags]) != 0
        assert message in " ".join(capsys.readouterr().err.split())
        assert not (tmp_path / "bad").exists()
    assert main(["bench", "report", str(out)]) == 0
    # a later run on another game adds to the same report
    assert main(["bench", "synth", str(SUITE_DIR), "--replay", str(first_run[0]),
                 "--games", "fortune_teller", "--out", str(out),
                 "--train-games", "2", "--test-games", "3", "--budget", "2"]) == 0
    report = json.loads((out / "report.json").read_text())
    assert [g["game"] for g in report["games"]] == ["fortune_teller", "budget_split",
                                                    "chain_count"]
    assert main(["bench", "catalogue", str(SUITE_DIR), "--check"]) == 0


def test_a_hidden_information_answer_without_inference_fails_its_inference_tests(tmp_path):
    from bench_fakes import WithoutInference

    # stag_hunt is a hidden-information game: its synthesis asks for resample_history
    rows = run_suite(SUITE, tmp_path / "out", _options(
        budget=1, play_matches=0, llm=WithoutInference(SUITE_DIR / "games")),
        games=["stag_hunt"])
    row = rows[0]
    assert row["status"] == "budget spent" and row["transition_accuracy"] == 1.0
    assert row["first_train_failure"]["kind"] == "inference"
    assert row["inference_accuracy"] == 0.0


def test_a_closed_deck_game_is_synthesized_from_one_view(tmp_path):
    rows = run_suite(SUITE, tmp_path / "out", _options(), games=["suspect_card"])
    row = rows[0]
    assert row["deck"] == "closed" and row["status"] == "solved"
    assert row["inference_accuracy"] == 1.0 and row["transition_accuracy"] is None
    assert row["behaviour"] is None  # no hidden states to compare with
    assert row["play"]["planner"] == "ismcts" and row["play"]["gt"]["matches"] == 2


def test_an_interrupted_pool_stops_its_blocked_workers(tmp_path):
    import multiprocessing
    import time

    from bench_fakes import NeverAnswers

    def interrupt_once_waiting(statuses):
        if all(s["phase"] == "synthesis" for s in statuses.values()):
            raise KeyboardInterrupt

    before = set(multiprocessing.active_children())  # e.g. other tests' idle pools
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run_suite(SUITE, tmp_path / "out", _options(llm=NeverAnswers(), play_matches=0),
                  games=["chain_count", "lights_duel"], jobs=2,
                  on_status=interrupt_once_waiting)
    assert time.monotonic() - started < 120
    assert not set(multiprocessing.active_children()) - before
    # both games stopped mid-synthesis and resume from their folders
    for game in ("chain_count", "lights_duel"):
        assert (tmp_path / "out" / game / "synth" / "metadata.json").is_file()
        assert not (tmp_path / "out" / game / "result.json").exists()


RECORDED = Path(__file__).parents[2] / "examples" / "recorded" / "novel"


def test_the_recorded_real_model_suite_replays_offline(tmp_path):
    """A few games of the real model's recorded run (examples/recorded/novel) replayed
    with no model: the same answers solve them with the recorded settings."""
    games = ["lights_duel", "bluff_dice_poker", "budget_split"]
    rows = run_suite(SUITE, tmp_path / "replay",
                     BenchOptions(replay=str(RECORDED), play_matches=0, trusted=True),
                     games=games)
    recorded = json.loads((RECORDED / "REPORT.json").read_text())["games"]
    held_out = {g["game"]: g["test_accuracy"] for g in recorded}
    assert [r["status"] for r in rows] == ["solved"] * 3
    for row in rows:
        assert row["calls"] == 1 and row["test_accuracy"] == held_out[row["game"]]


#: A game written for this test only (not in benchmarks/novel): two players take turns
#: adding 1 or 2 to a running total; whoever reaches exactly 7 wins.
RACE = '''
from ggp.core.protocol import GameMetadata

RULES = """Race to seven. Two players, player 0 first, take turns adding 1 or 2 to a total
that starts at 0 (actions "Add 1", "Add 2"; "Add 2" is not allowed when the total is 6).
The player who brings the total to 7 gets reward 1 and the other -1, on that move. The
state is {"total": T, "turn": P}; both players see it.
Player names: "player 0", "player 1" ("terminal" at the end)."""

METADATA = GameMetadata(num_players=2, min_utility=-1.0, max_utility=1.0, zero_sum=True,
                        outcome="win_loss", perfect_information=True)
INITIAL_STATE = {"total": 0, "turn": 0}


def get_current_player(state):
    return -4 if state["total"] == 7 else state["turn"]


def get_player_name(player_id):
    return "terminal" if player_id == -4 else f"player {player_id}"


def get_legal_actions(state):
    return [] if state["total"] == 7 else ["Add 1", "Add 2"][:7 - state["total"]]


def apply_action(state, action):
    return {"total": state["total"] + int(action.split()[1]), "turn": 1 - state["turn"]}


def get_rewards(state):
    if state["total"] < 7:
        return [0.0, 0.0]
    winner = 1 - state["turn"]
    return [1.0 if p == winner else -1.0 for p in (0, 1)]


def get_observations(state):
    return [dict(state), dict(state)]
'''


def test_a_suite_outside_the_repository_runs_the_same_way(tmp_path):
    """Nothing in the runner knows the novel games: a suite folder written here, with a
    game of its own, is synthesized, measured and played like them."""
    from ggp.benchmark.suite import SuiteError

    folder = tmp_path / "mine"
    (folder / "games").mkdir(parents=True)
    (folder / "games" / "race_to_seven.py").write_text(RACE)
    (folder / "suite.toml").write_text(
        '[suite]\nname = "mine"\nplay_time = 0.02\n\n[[game]]\nname = "race_to_seven"\n'
        'file = "games/race_to_seven.py"\nplayers = 2\ntags = ["limit-or-draw"]\n')
    suite = load_suite(folder)
    options = BenchOptions(train_games=2, test_games=3, budget=1, play_matches=1,
                           trusted=True, llm=ReferenceAnswers(folder / "games"))
    row = run_suite(suite, tmp_path / "out", options)[0]
    assert row["status"] == "solved" and row["test_accuracy"] == 1.0
    assert row["play"]["time"] == 0.02 and row["play"]["gt"]["matches"] == 2
    # a setting the runner does not know is refused, not ignored
    (folder / "suite.toml").write_text(
        (folder / "suite.toml").read_text().replace("play_time", "play_sims"))
    with pytest.raises(SuiteError, match="unknown \\[suite\\] setting play_sims"):
        load_suite(folder)
