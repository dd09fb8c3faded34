"""The experiment on a REAL model's recorded synthesis (examples/recorded/, answers from a
real language model through the exchange backend), replayed without any model; and the
behaviour accuracy that does not count a differently spelled internal string as a wrong
rule."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ggp.core.registry import make_game
from ggp.cwm.accuracy import behaviour_accuracy
from ggp.cwm.experiment import ExperimentConfig, run_experiment
from ggp.synth.heldout import heldout_set

RECORDED = Path(__file__).resolve().parents[2] / "examples" / "recorded"


def test_hand_of_war_differs_only_in_the_end_reason_a_player_is_shown():
    # The recorded model fails 2 of 784 held-out transitions: two terminal states differ
    # only in their end_reason text, which the players' observations also show. Turn,
    # legal actions, rewards and the end of the game are right everywhere.
    truth = make_game("hand_of_war")
    test, _ = heldout_set(truth, games=30, seed=1, players=["random"])
    result = behaviour_accuracy(RECORDED / "hand_of_war", test, truth.metadata)
    steps = test.num_transitions() + 30
    assert result["steps"] == steps
    fields = result["by_field"]
    for name in ("current_player", "legal_actions", "rewards", "terminal"):
        assert fields[name] == [steps, steps]
    assert fields["observations"] == [steps - 2, steps]


def test_a_wrong_rule_fails_the_behaviour_accuracy(tmp_path):
    code = (RECORDED / "generalized_tic_tac_toe" / "cwm.py").read_text()
    # every move of player 1 is refused: the game goes differently from the records
    (tmp_path / "cwm.py").write_text(code + "\n\n_legal = get_legal_actions\n"
                                     "def get_legal_actions(state):\n"
                                     "    moves = _legal(state)\n"
                                     "    return moves[:1] if moves else moves\n")
    truth = make_game("generalized_tic_tac_toe")
    test, _ = heldout_set(truth, games=3, seed=1, players=["random"])
    result = behaviour_accuracy(tmp_path, test, truth.metadata)
    assert result["accuracy"] < 0.7
    passed, total = result["by_field"]["legal_actions"]
    assert passed < total


def test_the_experiment_replays_a_recorded_real_model_run(tmp_path):
    config = ExperimentConfig(game="leduc_poker", sims=10, rollouts=1, matches=1,
                              accuracy_games=2, workers=0,
                              replay=str(RECORDED / "leduc_poker"))
    summary = run_experiment(tmp_path / "exp", config, None, log=lambda _: None)
    assert summary["scripted"] is False
    (synthesis,) = summary["syntheses"]
    assert synthesis["calls"] == 1 and synthesis["test_accuracy"] == 1.0
    assert summary["behaviour"]["synth_0"]["accuracy"] == 1.0
    opponents = {c["opponent"] for c in summary["arena"]["cells"]
                 if c["agent"].startswith("cwm_ismcts")}
    assert opponents == {"random", "gt_ismcts:sims=10:rollouts=1"}
    assert "behaviour acc." in (tmp_path / "exp" / "summary.md").read_text()
    # priors are on by default; a replay without a model has nobody to ask for one
    assert summary["priors"] == {"synth_0": "skipped: no language model"}


def test_the_experiment_takes_a_users_model_file_only_when_trusted(tmp_path):
    import pytest

    from ggp.core.errors import GGPError
    from ggp.llm import ScriptedLLM

    nim = Path(__file__).resolve().parents[2] / "examples" / "games" / "nim.py"
    config = ExperimentConfig(game=str(nim), syntheses=1, budget=1, train_games=2,
                              test_games=2, sims=5, rollouts=1, matches=1,
                              accuracy_games=2, workers=0, priors=False)
    with pytest.raises(GGPError, match="--trusted"):
        run_experiment(tmp_path / "refused", config, None, log=lambda _: None)
    code = nim.read_text()
    answer = "Scripted answer.\n\n```python\n" + code[code.index("INITIAL_STATE"):] + "```"
    summary = run_experiment(tmp_path / "exp", replace(config, trusted=True),
                             ScriptedLLM([answer]), log=lambda _: None)
    assert summary["scripted"] is True
    (synthesis,) = summary["syntheses"]
    assert synthesis["status"] == "solved" and synthesis["test_accuracy"] == 1.0
    assert summary["online_accuracy"]["synth_0"]["transition_accuracy"] == 1.0
    assert {c["opponent"] for c in summary["arena"]["cells"]
            if c["agent"].startswith("cwm_mcts")} == {"random", "gt_mcts:sims=5:rollouts=1"}


def test_a_closed_deck_model_is_checked_on_open_deck_games_with_its_own_signature():
    # The recorded quadranto model was synthesized closed deck: its resample_history takes
    # last_is_terminal too. Open-deck tests used to call it without, so every one failed.
    from ggp.cwm.accuracy import ground_truth_accuracy

    result = ground_truth_accuracy(RECORDED / "quadranto", make_game("quadranto"), games=3)
    assert result["by_kind"]["inference"][1] > 0
    assert result["inference_accuracy"] == 1.0
