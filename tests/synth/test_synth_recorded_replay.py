"""Every recorded real-model run in examples/recorded/ replays exactly without a model.

The answers in those runs are REAL: a language model wrote them through the file-exchange
backend (see examples/recorded/README.md). Replaying asks no model: every request must be
found in the run's exchanges.jsonl, and the refinement tree, the model file and the
metadata must come out as recorded. The held-out set is skipped here (test_games=0) to
keep the suite quick, except for Leduc through the command line.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from ggp.synth.run import replay_plan, synthesize

RECORDED = Path(__file__).resolve().parents[2] / "examples" / "recorded"
GAMES = sorted(p.name for p in RECORDED.iterdir() if (p / "exchanges.jsonl").is_file())
# Differ from run to run by nature (clock, where the answers came from).
# Hundreds of training transitions each: minutes on a loaded 2-core machine.
SLOW = {"gin_rummy", "backgammon"}
VOLATILE = {"started", "finished", "time_s", "replayed_calls", "backend", "test"}


def _json(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def assert_same_run(recorded: Path, replayed: Path, *, with_test: bool) -> None:
    assert _json(replayed / "tree.json") == _json(recorded / "tree.json")
    assert (replayed / "cwm.py").read_text() == (recorded / "cwm.py").read_text()
    old, new = _json(recorded / "metadata.json"), _json(replayed / "metadata.json")
    for key in ("players", "view_player"):  # recorded by newer versions only
        new["train"].pop(key, None)
    skip = VOLATILE - ({"test"} if with_test else set())
    assert {k: v for k, v in new.items() if k not in skip} == \
        {k: v for k, v in old.items() if k not in skip}
    assert new["backend"]["name"] == old["backend"]["name"] == "exchange"
    assert new["replayed_calls"] == new["calls"] == old["calls"]


def test_every_recorded_game_is_here():
    assert set(GAMES) >= {"leduc_poker", "gin_rummy", "backgammon", "bargaining",
                          "quadranto", "generalized_chess", "generalized_tic_tac_toe",
                          "hand_of_war"}


@pytest.mark.parametrize("game", [pytest.param(g, marks=pytest.mark.slow) if g in SLOW
                                  else g for g in GAMES])
def test_recorded_run_replays_and_resumes_exactly_without_a_model(game, tmp_path):
    plan = replay_plan(RECORDED / game)
    run = tmp_path / "run"
    synthesize(run, plan.task, None, plan.settings, test_games=0, backend=plan.backend,
               replay_from=RECORDED / game / "exchanges.jsonl")
    assert_same_run(RECORDED / game, run, with_test=False)
    if game in SLOW:  # resuming is the same code for every game; the quick ones show it
        return
    # --resume of the replayed run in place: its own log answers everything again
    synthesize(run, None, None, resume=True)
    assert_same_run(RECORDED / game, run, with_test=False)


def test_the_recorded_leduc_run_replays_through_the_cli_with_its_held_out_set(
        tmp_path, capsys):
    from ggp.cli.main import main

    out = tmp_path / "leduc"
    assert main(["synth", "--replay", str(RECORDED / "leduc_poker"), "--out", str(out)]) == 0
    assert_same_run(RECORDED / "leduc_poker", out, with_test=True)
    text = capsys.readouterr().out
    assert "725/725" in text and "449/449" in text


def test_a_replay_plan_needs_a_run_that_says_how_it_was_made(tmp_path):
    from ggp.synth.run import RunError

    (tmp_path / "metadata.json").write_text(json.dumps({"game": "x", "source": "reference game", "settings": {}}))
    with pytest.raises(RunError, match="does not say how the run was made"):
        replay_plan(tmp_path)


def test_a_replay_with_other_settings_misses_and_says_so(tmp_path):
    from ggp.synth.llm import ReplayMissError

    plan = replay_plan(RECORDED / "leduc_poker")
    with pytest.raises(ReplayMissError, match="holds no answer for request 1"):
        synthesize(tmp_path / "run", plan.task, None,
                   replace(plan.settings, inference=False), test_games=0,
                   replay_from=RECORDED / "leduc_poker" / "exchanges.jsonl")


def test_the_held_out_set_is_cached_and_collected_the_same_in_a_pool(monkeypatch):
    from ggp.core.registry import make_game
    from ggp.synth import trajectories
    from ggp.synth.heldout import heldout_cache_file, heldout_set

    model = make_game("kuhn_poker")
    players = ["random", "ismcts:sims=20:rollouts=1"]
    cached = heldout_cache_file(model, "kuhn_poker", games=6, seed=3, players=players)
    assert not cached.exists()
    seen = []
    monkeypatch.setattr(trajectories, "_POOL_WORTH_S", 0.0)  # pool after the first game
    pooled, _ = heldout_set(model, games=6, seed=3, players=players, spec="kuhn_poker",
                            workers=2, on_game=lambda done, total: seen.append((done, total)))
    assert cached.is_file() and seen[-1] == (6, 6)
    serial = trajectories.collect(model, games=6, seed=3, mix=players)
    assert pooled == serial  # game for game, wherever it was played
    again, _ = heldout_set(model, games=6, seed=3, players=players, spec="kuhn_poker")
    assert again == serial
    assert heldout_cache_file(model, "kuhn_poker", games=7, seed=3, players=players) != cached
