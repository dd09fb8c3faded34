"""The ``ggp synth`` command line (no model is called: runs are replayed)."""

from __future__ import annotations

import json

import pytest
from synth_fakes import answer, fixture

from ggp.cli.main import main
from ggp.llm import ScriptedLLM
from ggp.synth.refine import Settings
from ggp.synth.run import reference_task, synthesize


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    run = tmp_path_factory.mktemp("cli") / "run"
    good = fixture("tic_tac_toe_cwm.py")
    fake = ScriptedLLM([answer(good.replace('0: "x"', '0: "X"')), answer(good)])
    synthesize(run, reference_task("tic_tac_toe", games=3), fake, Settings(),
               backend={"name": "scripted", "model": "scripted"}, test_games=5)
    return run


def test_show_prints_summary_tree_and_failures(finished_run, capsys):
    assert main(["synth", "show", str(finished_run)]) == 0
    out = capsys.readouterr().out
    for text in ("solved", "train accuracy", "1.0000", "Refinement tree", "scripted",
                 "exchanges.jsonl"):
        assert text in out


def test_resume_of_a_finished_run_replays_without_a_model(finished_run, capsys, monkeypatch):
    for key in [k for k in __import__("os").environ if k.startswith("GGP_LLM_")]:
        monkeypatch.delenv(key)
    before = json.loads((finished_run / "metadata.json").read_text())
    assert main(["synth", "--resume", str(finished_run)]) == 0
    after = json.loads((finished_run / "metadata.json").read_text())
    assert after["replayed_calls"] == after["calls"] == before["calls"] == 2
    assert after["best"] == before["best"]
    assert "Synthesis of tic_tac_toe" in capsys.readouterr().out


def test_user_files_are_validated_before_any_model_is_asked(tmp_path, capsys):
    rules = tmp_path / "rules.txt"
    rules.write_text("A game.")
    bad = tmp_path / "t.jsonl"
    bad.write_text('{"trajectory": 0}\n')
    code = main(["synth", "--rules", str(rules), "--trajectories", str(bad),
                 "--out", str(tmp_path / "run")])
    assert code == 2
    err = " ".join(capsys.readouterr().err.split())  # rich wraps long lines
    assert "t.jsonl:1: field 'step' must be an integer" in err


def test_usage_errors(tmp_path, capsys):
    assert main(["synth"]) == 2
    assert main(["synth", "show"]) == 2
    assert main(["synth", "show", str(tmp_path)]) == 2
    assert "is not a synthesis run" in " ".join(capsys.readouterr().err.split())


def test_replay_into_a_new_directory_without_a_model(finished_run, tmp_path, capsys,
                                                     monkeypatch):
    for key in [k for k in __import__("os").environ if k.startswith("GGP_LLM_")]:
        monkeypatch.delenv(key)
    new = tmp_path / "copy"
    assert main(["synth", "tic_tac_toe", "--games", "3", "--test-games", "5",
                 "--replay", str(finished_run), "--out", str(new)]) == 0
    assert (new / "cwm.py").read_text() == (finished_run / "cwm.py").read_text()
    # A different task asks different questions: the log cannot answer them.
    assert main(["synth", "tic_tac_toe", "--games", "4", "--replay", str(finished_run),
                 "--out", str(tmp_path / "other")]) == 2
    assert "holds no answer" in " ".join(capsys.readouterr().err.split())


def test_show_prints_the_first_failing_test_of_an_unsolved_run(tmp_path, capsys):
    bad = fixture("tic_tac_toe_cwm.py").replace('0: "x"', '0: "X"')
    synthesize(tmp_path / "run", reference_task("tic_tac_toe", games=2),
               ScriptedLLM([answer(bad)]), Settings(max_calls=1), test_games=0)
    assert main(["synth", "show", str(tmp_path / "run")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "budget spent" in out and "First failing training test" in out
    assert "get_player_name(0)" in out


def test_bad_deck_is_a_usage_error(capsys):
    assert main(["synth", "quadranto", "--deck", "sideways"]) == 2


def test_inference_kind_reaches_the_run(tmp_path, monkeypatch, capsys):
    fake = ScriptedLLM([answer("this is not a program")])
    monkeypatch.setattr("ggp.cli.synth._open_llm",
                        lambda run_dir, **_: (fake, {"name": "scripted", "model": "scripted"}))
    run = tmp_path / "run"
    main(["synth", "leduc_poker", "--inference", "--inference-kind", "state", "--budget", "1",
          "--games", "2", "--test-games", "2", "--out", str(run)])
    settings = json.loads((run / "metadata.json").read_text())["settings"]
    assert settings["inference"] is True and settings["inference_kind"] == "state"
    assert main(["synth", "leduc_poker", "--inference-kind", "world"]) == 2
    assert "--inference-kind must be 'history' or 'state'" in capsys.readouterr().err


def _no_llm_env(monkeypatch):
    for key in [k for k in __import__("os").environ if k.startswith("GGP_LLM_")]:
        monkeypatch.delenv(key)


def test_subcommands_show_resume_and_replay(finished_run, tmp_path, capsys, monkeypatch):
    _no_llm_env(monkeypatch)
    assert main(["synth", "show", str(finished_run)]) == 0
    assert main(["synth", "resume", str(finished_run)]) == 0
    after = json.loads((finished_run / "metadata.json").read_text())
    assert after["replayed_calls"] == after["calls"] == 2
    copy = tmp_path / "copy"
    assert main(["synth", "replay", str(finished_run), "--out", str(copy)]) == 0
    assert (copy / "cwm.py").read_text().split("\n", 2)[2] == \
        (finished_run / "cwm.py").read_text().split("\n", 2)[2]
    replayed = json.loads((copy / "metadata.json").read_text())
    assert replayed["backend"]["replayed_from"] == str(finished_run)
    captured = capsys.readouterr()
    assert "hint:" not in captured.err  # the new forms need no hint


def test_old_forms_print_a_hint_to_the_new_one(finished_run, tmp_path, capsys, monkeypatch):
    _no_llm_env(monkeypatch)
    # --games was ignored by the old --resume; the new form has no place for it
    assert main(["synth", "--games", "4", "--resume", str(finished_run)]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert f"hint: this is now `ggp synth resume {finished_run}`" in err
    assert main(["synth", "--replay", str(finished_run), "--out", str(tmp_path / "r")]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert f"`ggp synth replay {finished_run} --out {tmp_path / 'r'}`" in err


def test_run_subcommand_usage_errors(capsys):
    assert main(["synth", "run"]) == 2
    assert "Name a game" in " ".join(capsys.readouterr().err.split())
    assert main(["synth", "run", "quadranto", "--deck", "sideways"]) == 2
    assert main(["synth", "resume"]) == 2
    assert main(["synth", "replay", "nowhere"]) == 2
    assert "is not a synthesis run" in " ".join(capsys.readouterr().err.split())
