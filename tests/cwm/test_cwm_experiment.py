"""The one-command experiment with scripted answers (hand-written models, not a model's
work): synthesize, reject, arena, summary; then resume without any model."""

from __future__ import annotations

import json

from cwm_fixtures import source

from ggp.cwm.experiment import ExperimentConfig, run_experiment
from ggp.llm import ScriptedLLM


def test_experiment_runs_end_to_end_and_resumes_from_its_logs(tmp_path):
    answer = "Scripted answer.\n\n```python\n" + source("tic_tac_toe") + "\n```"
    config = ExperimentConfig(game="tic_tac_toe", syntheses=2, budget=2, train_games=2,
                              test_games=2, sims=10, rollouts=1, reject_matches=1,
                              reject_sims=5, matches=1, workers=0, priors=False)
    summary = run_experiment(tmp_path / "exp", config, ScriptedLLM([answer, answer]),
                             log=lambda _: None)
    assert summary["scripted"] is True
    assert [s["status"] for s in summary["syntheses"]] == ["solved", "solved"]
    # The two syntheses are the same model, so which of them the one-match rejection
    # tournament keeps is a coin flip (it flipped when the search's random draws changed);
    # at least one is kept, and the arena below plays the kept ones.
    assert any(s["kept"] for s in summary["syntheses"])
    cells = summary["arena"]["cells"]
    opponents = {c["opponent"] for c in cells if c["agent"].startswith("cwm_mcts")}
    assert opponents == {"random", "gt_mcts:sims=10:rollouts=1"}
    for acc in summary["online_accuracy"].values():
        assert acc["transition_accuracy"] == 1.0
    text = (tmp_path / "exp" / "summary.md").read_text()
    assert "Scripted run" in text and "not from a model" in text
    assert (tmp_path / "exp" / "arena" / "plots").is_dir()
    # resume: everything is read back, no model is asked
    again = run_experiment(tmp_path / "exp", config, None, log=lambda _: None)
    assert again == json.loads((tmp_path / "exp" / "summary.json").read_text())
    assert again["syntheses"] == summary["syntheses"]


def test_closed_deck_experiment_reports_ground_truth_accuracy(tmp_path):
    answer = "Scripted answer.\n\n```python\n" + source("leduc_poker") + "\n```"
    config = ExperimentConfig(game="leduc_poker", syntheses=1, budget=1, train_games=1,
                              test_games=2, deck="closed", sims=5, rollouts=1,
                              reject_matches=1, reject_sims=5, matches=1, workers=0,
                              accuracy_games=5, priors=False)
    summary = run_experiment(tmp_path / "exp", config, ScriptedLLM([answer]),
                             log=lambda _: None)
    assert summary["inference"] == "history"
    truth = summary["ground_truth_accuracy"]["synth_0"]
    assert truth["transition_accuracy"] == truth["inference_accuracy"] == 1.0
    assert "never saw" in (tmp_path / "exp" / "summary.md").read_text()
    play = summary["play"]["synth_0"]
    assert play["matches"] == 4 and play["fallbacks"] == 0  # vs random and GT, both seats
    assert play["resample_calls"] > 0 and play["inference_accuracy"] == 1.0
