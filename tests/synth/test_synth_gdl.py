"""GDL descriptions as a synthesis source: ``ggp synth game.kif`` (issue 33, item 1).

Every answer here is SCRIPTED (``fixtures/take_two_cwm.py``, ``take_two_fast_cwm.py``,
``coin_cwm.py`` and ``tictactoe_kif_cwm.py``, written by hand for these tests, and mutated
copies of them), never a model's work."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from synth_fakes import FIXTURES, answer, fixture, mutate

from ggp.cli.main import main
from ggp.llm import ScriptedLLM
from ggp.synth.refine import Settings
from ggp.synth.run import reference_task, replay_plan, synthesize
from ggp.synth.runner import run_tests
from ggp.synth.unit_tests import generate_tests

KIF = FIXTURES / "take_two.kif"
SCRIPTED = {"name": "scripted", "model": "scripted"}


def test_the_rules_are_the_description_and_the_games_come_from_the_reasoner():
    task = reference_task(str(KIF), games=2, seed=0)
    # the description itself, comments included, after the note on the representation
    assert task.rules.endswith(KIF.read_text().rstrip() + "\n")
    assert "whoever takes the last counter wins" in task.rules
    assert "0 = white, 1 = black" in task.rules and '"pending"' in task.rules
    first = task.train.trajectories[0].steps[0]
    assert first.state == {"step": 0, "true": ["(control white)", "(pile 3)"], "pending": {}}
    assert first.legal_actions == ["(take 1)", "(take 2)"]  # the GDL's own move names
    assert first.observations[0] == first.state  # GDL: the state's facts
    assert task.source == "GDL description" and task.gdl_file == str(KIF)


def test_a_correct_program_is_solved_and_a_wrong_one_is_caught(tmp_path):
    good = fixture("take_two_cwm.py")
    # forgets that the last mover is remembered: the goal then names nobody
    wrong = mutate(good, ('f"(took {mover})"', '"(took nobody)"'))
    fake = ScriptedLLM([answer(wrong), answer(good)])
    run = tmp_path / "run"
    meta = synthesize(run, reference_task(str(KIF), games=3), fake, Settings(max_calls=2),
                      backend=SCRIPTED, test_games=10, test_players=["random"])
    tree = json.loads((run / "tree.json").read_text())["nodes"]
    assert tree[0]["h"] < 1.0 and tree[1]["h"] == 1.0  # the first answer failed tests
    assert meta.status == "solved" and meta.scripted_answers == 2
    assert meta.test.accuracy == 1.0 and meta.test.games == 10
    assert meta.source == "GDL description"
    copy = run / meta.gdl.file
    assert copy.read_text() == KIF.read_text() and copy.name == "take_two.kif"
    assert meta.gdl.gdl_ii is False
    # the failure the model was shown names the state it got wrong
    report = json.loads((run / "report.json").read_text())
    assert report["train_failures"] == []
    prompt = json.loads((run / "exchanges.jsonl").read_text().splitlines()[1])
    assert "(took nobody)" in json.dumps(prompt)


def test_a_gdl_run_resumes_and_replays_from_its_copy_of_the_description(tmp_path):
    run = tmp_path / "run"
    synthesize(run, reference_task(str(KIF), games=2), ScriptedLLM(
        [answer(fixture("take_two_cwm.py"))]), Settings(max_calls=1), backend=SCRIPTED,
        test_games=4, test_players=["random"])
    plan = replay_plan(run)
    assert plan.task.gdl_file == str(run / "description" / "take_two.kif")
    assert plan.task.rules == (run / "rules.txt").read_text()
    again = synthesize(tmp_path / "again", plan.task, None, plan.settings,
                       test_games=plan.test_games, test_players=plan.test_players,
                       replay_from=run / "exchanges.jsonl")
    assert again.status == "solved" and again.replayed_calls == 1
    assert (tmp_path / "again" / "cwm.py").read_text().split("\n", 2)[2] == \
        (run / "cwm.py").read_text().split("\n", 2)[2]


def test_the_command_line_takes_a_gdl_file(tmp_path, monkeypatch, capsys):
    fake = ScriptedLLM([answer(fixture("take_two_cwm.py"))])
    monkeypatch.setattr("ggp.cli.synth._open_llm", lambda run_dir, **_: (fake, SCRIPTED))
    run = tmp_path / "run"
    assert main(["synth", str(KIF), "--games", "2", "--test-games", "4", "--test-players",
                 "random", "--out", str(run)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "solved" in out and "1 scripted" in out
    assert main(["synth", str(tmp_path / "missing.kif")]) == 2
    assert "No such GDL file" in " ".join(capsys.readouterr().err.split())
    assert main(["synth", str(KIF), "--rules", str(KIF)]) == 2


def test_a_gdl_ii_description_is_synthesized_with_its_inference_function(tmp_path):
    task = reference_task(str(FIXTURES / "coin.gdl"), games=3, seed=0)
    assert "GDL-II" in task.rules and "the guesser learns the coin" in task.rules
    first = task.train.trajectories[0].steps[1]  # after nature's toss
    assert first.observations == [{"role": "guesser", "step": 1,
                                   "history": [["noop", []]], "pending": {}}]
    good = fixture("coin_cwm.py")
    # leaves nature's toss out of the history it samples
    blind = mutate(good, ('return [f"(toss {side})", *own]', "return own"))
    fake = ScriptedLLM([answer(blind), answer(good)])
    meta = synthesize(tmp_path / "run", task, fake, Settings(max_calls=2, inference=True),
                      backend=SCRIPTED, test_games=6, test_players=["random"])
    tree = json.loads((tmp_path / "run" / "tree.json").read_text())["nodes"]
    assert tree[0]["by_kind"]["inference"][0] < tree[0]["by_kind"]["inference"][1]
    assert meta.status == "solved" and meta.gdl.gdl_ii is True
    assert meta.test.accuracy == 1.0 and meta.test.inference_accuracy == 1.0


def test_a_compiled_program_agrees_with_the_reasoner_under_the_differential_comparison():
    from ggp.synth.differential import first_difference, local_replay, open_box, replay
    from ggp.synth.trajectories import collect

    reasoner = reference_task(str(KIF), games=1).ground_truth
    games = [[s.action for s in t.steps if s.action is not None]
             for t in collect(reasoner, games=12, seed=5).trajectories]
    good = open_box(fixture("take_two_cwm.py"))
    wrong = open_box(mutate(fixture("take_two_cwm.py"), ('f"(took {mover})"', '"(took x)"')))
    try:
        for actions in games:  # from the start, and from the state after the first move
            for start, moves in ((None, actions), (reasoner.apply(
                    reasoner.initial_state(), actions[0]), actions[1:])):
                truth = local_replay(reasoner, moves, start=start)
                assert first_difference(truth, replay(good, moves, start=start)) is None
        ply, what, *_ = first_difference(local_replay(reasoner, games[0]),
                                         replay(wrong, games[0]))
        assert ply == 1 and what in ("rewards", "observations")  # the first move
    finally:
        good.close()
        wrong.close()


def test_the_differential_test_takes_the_reasoner_as_the_original():
    from ggp.synth.differential import compare_models, measure_speed, open_box

    reasoner = reference_task(str(KIF), games=1).ground_truth
    good = open_box(fixture("take_two_cwm.py"))
    fast = open_box(fixture("take_two_fast_cwm.py"))  # a state layout of its own
    wrong = open_box(mutate(fixture("take_two_cwm.py"), (
        "100.0 if role == winner else 0.0", "0.0 if role == winner else 100.0")))
    try:
        for program in (good, fast):
            report = compare_models(reasoner, program, random_count=40, seed=1,
                                    extra=[("search", ["(take 1)", "(take 1)"])])
            assert report.identical and report.by_source == {"random": [40, 40],
                                                             "search": [1, 1]}
            assert measure_speed(reasoner, program, playouts=20, rounds=1).same_playouts
        report = compare_models(reasoner, wrong, random_count=40, seed=1)
        assert report.agreed == 0 and report.first_divergence.what == "rewards"
        speed = measure_speed(reasoner, wrong, playouts=20, rounds=1)
        assert not speed.same_playouts and "playout seed" in speed.mismatch
    finally:
        good.close()
        fast.close()
        wrong.close()


def test_the_representation_note_is_enough_for_a_corpus_game(tmp_path):
    """A program written from ticTacToe.kif and the note alone passes every test (the
    test also fails if the adapter's representation changes under the note)."""
    kif = Path("/work/shared/gdl/perfect/ticTacToe.kif")
    if not kif.is_file():
        pytest.skip("GDL corpus not available")
    meta = synthesize(tmp_path / "run", reference_task(str(kif), games=3),
                      ScriptedLLM([answer(fixture("tictactoe_kif_cwm.py"))]),
                      Settings(max_calls=1), backend=SCRIPTED, test_games=10,
                      test_players=["random"])
    assert meta.status == "solved" and meta.test.accuracy == 1.0


def test_a_gdl_program_keeps_its_own_state_layout_and_a_wrong_fast_one_is_caught(tmp_path):
    """The tests replay the reasoner's moves from the program's INITIAL_STATE and compare
    only what the players see: a program with a fast layout of its own is solved, one
    that pays the wrong player, or keeps no dict state, fails its tests."""
    task = reference_task(str(KIF), games=3, seed=0)
    assert "The state layout is yours" in task.rules and not task.compare_states
    fast = fixture("take_two_fast_cwm.py")
    swapped = mutate(fast, ("100.0 if state[2] == i else 0.0",
                            "0.0 if state[2] == i else 100.0"))
    listed = mutate(fast, ('INITIAL_STATE = {"s": [3, 0, -1, 0]}',
                           'INITIAL_STATE = [3, 0, -1, 0]'))
    run = tmp_path / "run"
    meta = synthesize(run, task, ScriptedLLM([answer(swapped), answer(listed), answer(fast)]),
                      Settings(max_calls=3), backend=SCRIPTED, test_games=10,
                      test_players=["random"])
    tree = json.loads((run / "tree.json").read_text())["nodes"]
    assert [n["h"] == 1.0 for n in tree] == [False, False, True]
    assert meta.status == "solved" and meta.test.accuracy == 1.0
    assert meta.gdl.layout == "own"
    exchanges = [json.loads(line) for line in (run / "exchanges.jsonl").read_text().splitlines()]
    assert "get_rewards(state) after moves[:" in json.dumps(exchanges[1:])  # names the moves
    failed = [r for r in run_tests(listed, generate_tests(task.train, states=False)).failed()
              if r.kind in ("transition", "terminal")]
    assert failed and all("a state must be a dict" in r.error for r in failed)
    # no test gives the program a state: each starts from its INITIAL_STATE
    assert "state = {" not in (run / "tests.py").read_text()


def test_a_run_judged_on_the_reasoners_states_still_replays_as_it_was_made(tmp_path):
    """The first GDL runs (metadata without gdl.layout) compared the reasoner's states:
    they replay with the same note and the same state tests."""
    run = tmp_path / "run"
    task = reference_task(str(KIF), games=2, own_layout=False)
    assert task.compare_states and "The state layout is yours" not in task.rules
    synthesize(run, task, ScriptedLLM([answer(fixture("take_two_cwm.py"))]),
               Settings(max_calls=1), backend=SCRIPTED, test_games=4,
               test_players=["random"])
    meta = json.loads((run / "metadata.json").read_text())
    assert "layout" not in meta["gdl"]
    plan = replay_plan(run)
    assert plan.task.compare_states and plan.task.rules == task.rules
    assert "state = {" in (run / "tests.py").read_text()  # states are given and compared
    again = synthesize(tmp_path / "again", plan.task, None, plan.settings,
                       test_games=plan.test_games, test_players=plan.test_players,
                       replay_from=run / "exchanges.jsonl")
    assert again.status == "solved" and again.replayed_calls == 1


def test_a_program_without_chance_probabilities_agrees_when_chance_is_uniform():
    """The protocol's default (no get_chance_outcomes: equally likely outcomes) is what
    the differential test compares with the reasoner's probabilities."""
    from ggp.synth.differential import compare_models, open_box

    reasoner = reference_task(str(FIXTURES / "coin.gdl"), games=1).ground_truth
    code = mutate(fixture("coin_fast_cwm.py"), ("def get_chance_outcomes(", "def _unused("))
    box = open_box(code)
    try:
        assert compare_models(reasoner, box, random_count=20, seed=1).identical
    finally:
        box.close()
