"""Trajectory files, test rendering, code extraction and the REx sampler."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from synth_fakes import answer, fixture

from ggp.core.registry import make_game
from ggp.llm import ScriptedLLM
from ggp.synth import prompts
from ggp.synth.refine import Node, Refiner, Settings
from ggp.synth.runner import run_tests
from ggp.synth.trajectories import (
    Step,
    TrajectoryError,
    collect,
    load_trajectories,
    save_trajectories,
)
from ggp.synth.unit_tests import generate_tests, render_module, sample_tests, transition_test


# --------------------------------------------------------------------------- trajectories
def test_open_deck_round_trip_keeps_hidden_state_and_chance(tmp_path):
    trajectories = collect(make_game("leduc_poker"), games=3, seed=2)
    save_trajectories(trajectories, tmp_path / "t.jsonl")
    loaded = load_trajectories(tmp_path / "t.jsonl")
    assert loaded.deck == "open" and loaded.num_players == 2
    assert [vars(s) for t in loaded.trajectories for s in t.steps] == \
        [vars(s) for t in trajectories.trajectories for s in t.steps]
    first = loaded.trajectories[0].steps
    assert first[0].current_player == -1 and first[0].action.startswith("Deal ")
    assert first[-1].current_player == -4 and first[-1].action is None
    assert first[2].state["private_cards"][0] is not None  # hidden cards are recorded


def test_closed_deck_keeps_one_players_view(tmp_path):
    trajectories = collect(make_game("leduc_poker"), games=2, seed=2, deck="closed",
                           view_player=1)
    save_trajectories(trajectories, tmp_path / "c.jsonl")
    rows = [json.loads(line) for line in open(tmp_path / "c.jsonl")][1:]
    assert all(set(row) == {"trajectory", "step", "player", "observation", "legal_actions",
                            "action", "rewards", "terminal"} for row in rows)
    assert all(row["observation"]["player"] == 1 for row in rows)
    loaded = load_trajectories(tmp_path / "c.jsonl")
    assert loaded.deck == "closed" and loaded.trajectories[0].player == 1
    assert loaded.trajectories[0].view[-1]["terminal"] is True
    tests = generate_tests(loaded, random_play=2)
    assert [t.kind for t in tests] == ["random_play", "random_play"]
    code = fixture("leduc_poker_cwm.py")
    assert run_tests(code, tests).pass_rate == 1.0


def _write(tmp_path, rows):
    path = tmp_path / "user.jsonl"
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows))
    return path


GOOD_ROW = {"trajectory": 0, "step": 0, "state": {"n": 0}, "current_player": 0,
            "legal_actions": ["go"], "observations": [{"n": 0}], "rewards": [0],
            "action": "go"}
LAST_ROW = dict(GOOD_ROW, step=1, state={"n": 1}, current_player=-4, legal_actions=[],
                action=None, rewards=[1])


def test_user_file_without_header_loads(tmp_path):
    loaded = load_trajectories(_write(tmp_path, [GOOD_ROW, LAST_ROW]))
    assert loaded.num_players == 1 and loaded.num_transitions() == 1
    tests = generate_tests(loaded, random_play=0)
    assert [t.kind for t in tests] == ["transition", "terminal"]
    assert "get_player_name" not in tests[0].source  # not recorded, so not tested


@pytest.mark.parametrize("rows, message", [
    (["{not json"], "not valid JSON"),
    ([dict(GOOD_ROW, state=[1])], "field 'state' must be a dict"),
    ([{k: v for k, v in GOOD_ROW.items() if k != "rewards"}], "missing field 'rewards'"),
    ([GOOD_ROW, dict(LAST_ROW, step=3)], "step 3 where step 1 was expected"),
    ([dict(GOOD_ROW, action="stop"), LAST_ROW], "not among the step's legal_actions"),
    ([dict(GOOD_ROW, current_player=7), LAST_ROW], "current_player 7"),
    ([dict(GOOD_ROW, legal_actions=[1]), LAST_ROW], "list of strings"),
    ([GOOD_ROW, dict(LAST_ROW, rewards=[1, 2])], "has 2 entries"),
    ([], "no steps found"),
])
def test_bad_user_files_get_clear_errors(tmp_path, rows, message):
    with pytest.raises(TrajectoryError, match=message.replace("(", r"\(")):
        load_trajectories(_write(tmp_path, rows))


_ROWS = st.dictionaries(
    st.sampled_from(list(GOOD_ROW)),
    st.one_of(st.none(), st.integers(), st.text(max_size=5), st.lists(st.integers(), max_size=3)),
    max_size=8,
).map(json.dumps)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=30), _ROWS), max_size=4))
def test_any_malformed_file_raises_only_trajectory_errors(tmp_path_factory, lines):
    path = tmp_path_factory.mktemp("h") / "f.jsonl"
    path.write_text("\n".join(lines))
    try:
        load_trajectories(path)
    except TrajectoryError:
        pass


# --------------------------------------------------------------------------- rendering
_ACTIONS = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12)


@settings(max_examples=40, deadline=None)
@given(_ACTIONS, st.text(max_size=8))
def test_rendered_tests_compile_for_any_action_and_name(action, name):
    step = Step({"a": action}, 0, name, [action], [{"a": action}], [0.0], action)
    after = Step({"a": action + "!"}, -4, "", [], [{}], [1.0], None)
    source = transition_test("TestX", step, after, check_initial=True).source
    compile(source, "<test>", "exec")
    assert repr(action) in source


def test_ground_truth_code_passes_and_failures_show_expected_and_actual():
    trajectories = collect(make_game("tic_tac_toe"), games=2, seed=5)
    tests = generate_tests(trajectories, random_play=1)
    good = fixture("tic_tac_toe_cwm.py")
    assert run_tests(good, tests).pass_rate == 1.0
    bad = good.replace('"winner": None,\n           "rewards"', '"winner": "nobody",\n'
                       '           "rewards"')
    report = run_tests(bad, tests)
    failure = report.failed()[0]
    assert "'winner': None" in failure.error and "'winner': 'nobody'" in failure.error
    assert "apply_action(state," in failure.error
    module = render_module([t for t in tests if t.id == failure.id], report.as_dict())
    assert "# TODO: this test fails" in module
    compile(module, "<module>", "exec")


def test_random_play_failure_carries_printed_lines():
    trajectories = collect(make_game("tic_tac_toe"), games=1, seed=0)
    tests = [t for t in generate_tests(trajectories, random_play=1) if t.kind == "random_play"]
    looping = fixture("tic_tac_toe_cwm.py").replace(
        'new["current_player"] = -4\n    return new', 'pass\n    return new')
    result = run_tests(looping, tests).results[0]
    assert not result.passed
    assert "player" in result.output and len(result.output.splitlines()) <= 10


def test_sampling_takes_up_to_n_of_each_kind():
    tests = generate_tests(collect(make_game("tic_tac_toe"), games=3, seed=0))
    sample = sample_tests(tests, 5, random.Random(0))
    assert Counter(t.kind for t in sample) == {"transition": 5, "terminal": 3,
                                               "random_play": 5}
    only = {tests[0].id}
    assert sample_tests(tests, 1, random.Random(0), only=only) == [tests[0]]


# --------------------------------------------------------------------------- extraction
def test_extraction_prefers_python_blocks_and_keeps_several():
    text = "Plan.\n```python\ndef apply_action(s, a):\n    return s\n```\nOr:\n" \
           "```py\ndef apply_action(s, a):\n    return dict(s)\n```\n```json\n{}\n```"
    assert len(prompts.candidates_from_answer(text)) == 2


def test_extraction_falls_back_to_plain_fences_and_raw_code():
    assert prompts.extract_code_blocks("```\nx = 1\n```") == ["x = 1"]
    assert prompts.extract_code_blocks("def f():\n    return 1\n") == ["def f():\n    return 1"]
    assert prompts.extract_code_blocks("no code at all") == []


def test_cut_off_block_and_patch_blocks():
    assert prompts.extract_code_blocks("```python\ndef f():\n    return 1\n") == \
        ["def f():\n    return 1"]
    parent = "def apply_action(s, a):\n    return s\n\ndef get_rewards(s):\n    return [0]\n"
    patch = "```python\ndef get_rewards(s):\n    return [1]\n```"
    (program,) = prompts.candidates_from_answer(patch, parent)
    namespace = {}
    exec(program, namespace)  # noqa: S102 - our own test program
    assert namespace["get_rewards"](None) == [1]


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200), st.sampled_from(["python", "py", ""]))
def test_extraction_never_raises_and_finds_embedded_code(noise, tag):
    code = "def apply_action(state, action):\n    return state"
    text = noise.replace("`", "'") + f"\n```{tag}\n{code}\n```\n"
    assert prompts.extract_code_blocks(noise) is not None
    assert code in prompts.extract_code_blocks(text)


# --------------------------------------------------------------------------- REx sampler
def _node(i, h, refined=0):
    return Node(i, None, 1, "", h, {}, refined=refined)


def test_thompson_prior_favours_high_accuracy_and_few_refinements():
    refiner = Refiner("g", "r", [], None, Settings(seed=1))
    picks = Counter(refiner._thompson_pick([_node(0, 0.9), _node(1, 0.2)]).id
                    for _ in range(2000))
    assert picks[0] > 1700
    picks = Counter(refiner._thompson_pick([_node(0, 0.5, refined=30), _node(1, 0.5)]).id
                    for _ in range(2000))
    assert picks[1] > 1800


def test_parallel_tree_search_sends_concurrent_requests(tmp_path):
    from ggp.synth.run import reference_task, synthesize

    good = fixture("tic_tac_toe_cwm.py")
    bad = good.replace('0: "x", 1: "o"', '0: "X", 1: "O"')
    first = answer(bad, bad.replace('"X"', '"x"', 1))  # two versions in one answer
    fake = ScriptedLLM([first, answer(bad), answer(good), answer(bad)])
    meta = synthesize(tmp_path / "run", reference_task("tic_tac_toe", games=2), fake,
                      Settings(parallel=2, versions=2, max_calls=5), test_games=0)
    assert meta.status == "solved"
    assert meta.calls == 3  # one initial call, then a batch of two
    tree = json.loads((tmp_path / "run" / "tree.json").read_text())["nodes"]
    assert [n["call"] for n in tree][:3] == [1, 1, 2]
    assert all("Here is the current implementation" in r[0]["content"]
               for r in fake.requests[1:3])


def test_chance_probabilities_are_tested_at_chance_nodes():
    trajectories = collect(make_game("leduc_poker"), games=2, seed=0)
    tests = generate_tests(trajectories, random_play=0)
    assert "assertChanceOutcomes({'Deal Js': 0.166666666667" in tests[0].source
    assert "Chance picks 'Deal" in tests[0].source
    good = fixture("leduc_poker_cwm.py")
    assert run_tests(good, tests).pass_rate == 1.0
    # Without get_chance_outcomes the outcomes count as equally likely: right for Leduc.
    uniform = good.replace("def get_chance_outcomes(", "def _chance_outcomes(").replace(
        "for a, _ in get_chance_outcomes(state)", "for a, _ in _chance_outcomes(state)")
    assert run_tests(uniform, tests).pass_rate == 1.0
    skewed = good.replace("1.0 / len(remaining)", "0.5 if c == remaining[0] else "
                          "0.5 / (len(remaining) - 1)")
    report = run_tests(skewed, tests)
    chance_failures = [r for r in report.failed() if "get_chance_outcomes(state)" in r.error]
    assert chance_failures and "0.1666" in chance_failures[0].error
