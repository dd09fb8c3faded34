"""End-to-end synthesis with a scripted fake LLM whose answers start buggy and are
repaired across calls (the answers are fixed texts written for these tests)."""

from __future__ import annotations

import json

import pytest
from synth_fakes import answer, fixture, mutate

from ggp.check import check_model
from ggp.core.model import load_model_file
from ggp.llm import ScriptedLLM
from ggp.synth.refine import Settings
from ggp.synth.run import reference_task, synthesize

# (game, first answer's bugs, second answer's remaining bug, text the feedback must show)
CASES = {
    "tic_tac_toe": (
        [('[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)],', ''),
         ('0: "x", 1: "o"', '0: "X", 1: "O"')],
        [('[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)],', '')],
        "get_player_name",
    ),
    "leduc_poker": (
        [('"contributions": [1, 1]', '"contributions": [0, 0]'),
         ('if max(state["contributions"]) > state["contributions"][player]:',
          'if True:')],
        [('if max(state["contributions"]) > state["contributions"][player]:',
          'if True:')],
        "INITIAL_STATE",
    ),
    "quadranto": (
        [("MAX_MOVES = 20", "MAX_MOVES = 10"),
         ('0: "player 0", 1: "player 1"', '0: "P0", 1: "P1"')],
        [("MAX_MOVES = 20", "MAX_MOVES = 10")],
        "get_player_name",
    ),
}


def _script(game: str) -> list[str]:
    good = fixture(f"{game}_cwm.py")
    first, second, _ = CASES[game]
    return [answer(mutate(good, *first), reasoning="First attempt."),
            answer(mutate(good, *second), reasoning="Fixed one bug."),
            answer(good, reasoning="Fixed the other bug.")]


def _run(tmp_path, game, mode, llm, name="run", test_seconds=5.0, **kwargs):
    task = reference_task(game, games=5, seed=0)
    settings = Settings(mode=mode, seed=0, test_seconds=test_seconds)
    # Random held-out players keep these tests quick; the search mix is tested below.
    return synthesize(tmp_path / name, task, llm, settings,
                      backend={"name": "scripted", "model": "scripted"}, test_games=10,
                      test_players=["random"], **kwargs)


@pytest.mark.parametrize("game, search", [("tic_tac_toe", "mcts"), ("leduc_poker", "ismcts")])
def test_held_out_games_mix_random_and_search_players(game, search):
    from ggp.core.registry import make_game
    from ggp.synth.heldout import heldout_set

    test, players = heldout_set(make_game(game), games=2, seed=0)
    assert players == ["random", f"{search}:sims=100:rollouts=1"]
    assert len(test.trajectories) == 2 and test.trajectories[0].steps[-1].current_player == -4


@pytest.mark.parametrize("mode", ["tree", "conversation"])
@pytest.mark.parametrize("game", sorted(CASES))
def test_scripted_repair_reaches_full_train_accuracy(tmp_path, game, mode):
    fake = ScriptedLLM(_script(game))
    meta = _run(tmp_path, game, mode, fake)
    assert meta.status == "solved"
    assert meta.best.train_accuracy == 1.0
    assert meta.calls == 3 and meta.scripted_answers == 3
    assert meta.test.accuracy == 1.0
    tree = json.loads((tmp_path / "run" / "tree.json").read_text())["nodes"]
    scores = [node["h"] for node in tree]
    assert scores[0] < scores[1] < scores[2] == 1.0  # buggy, better, repaired
    # The loop really feeds test results back: the second request holds a failing test
    # of the first program, annotated with its error.
    second = fake.requests[1][-1]["content"]
    assert "TODO: this test fails" in second
    assert CASES[game][2] in second
    if mode == "conversation":
        assert [m["role"] for m in fake.requests[1]] == ["user", "assistant", "user"]
        assert "First attempt." in fake.requests[1][1]["content"]
    else:
        assert len(fake.requests[1]) == 1  # a fresh prompt holding the program to refine
        assert "Here is the current implementation" in second
    # The result is a standalone model that loads and passes the conformance check.
    model = load_model_file(tmp_path / "run" / "cwm.py")
    assert check_model(model, games=10).ok


@pytest.mark.parametrize("mode", ["tree", "conversation"])
def test_runs_replay_exactly_from_the_log(tmp_path, mode):
    meta = _run(tmp_path, "tic_tac_toe", mode, ScriptedLLM(_script("tic_tac_toe")))
    replayed = _run(tmp_path, "tic_tac_toe", mode, None, name="replay",
                    replay_from=tmp_path / "run" / "exchanges.jsonl")
    assert replayed.replayed_calls == replayed.calls == meta.calls
    for key in ("status", "best", "test", "tokens", "nodes"):
        assert getattr(replayed, key) == getattr(meta, key)
    for name in ("tree.json", "cwm.py", "tests.py"):
        assert (tmp_path / "replay" / name).read_text() == (tmp_path / "run" / name).read_text()


def test_interrupted_run_resumes_where_it_stopped(tmp_path):
    script = _script("quadranto")
    # Ctrl-C while waiting for the model's second answer.
    interrupting = ScriptedLLM(script[:1] + [KeyboardInterrupt()])

    with pytest.raises(KeyboardInterrupt):
        _run(tmp_path, "quadranto", "tree", interrupting)
    meta = json.loads((tmp_path / "run" / "metadata.json").read_text())
    assert meta["status"] == "interrupted" and meta["calls"] == 1  # answered calls
    rest = ScriptedLLM(script[1:])
    resumed = synthesize(tmp_path / "run", None, rest, resume=True)
    assert resumed.status == "solved" and resumed.calls == 3
    assert resumed.replayed_calls == 1 and len(rest.requests) == 2
    fresh = _run(tmp_path, "quadranto", "tree", ScriptedLLM(script), name="fresh")
    assert resumed.best == fresh.best
    assert (tmp_path / "run" / "tree.json").read_text() == \
        (tmp_path / "fresh" / "tree.json").read_text()


def test_hostile_answers_do_not_stop_synthesis(tmp_path):
    good = fixture("tic_tac_toe_cwm.py")
    hostile = answer("import os\nwhile True:\n    os.fork()\n" + good,
                     good + "\n\ndef apply_action(state, action):\n    while True:\n"
                     "        pass\n")
    fake = ScriptedLLM([hostile, "No code here, sorry.", answer(fixture("tic_tac_toe_cwm.py"))])
    meta = _run(tmp_path, "tic_tac_toe", "tree", fake, test_seconds=0.5)
    assert meta.status == "solved" and meta.calls == 3
    assert [r.get("role") for r in fake.requests[1]] == ["user"]
    assert meta.answers_without_code == 1
    tree = json.loads((tmp_path / "run" / "tree.json").read_text())["nodes"]
    assert tree[0]["load_error"] and "fork" in tree[0]["load_error"]
    assert tree[1]["by_kind"]["transition"][0] == 0 and tree[1]["h"] < 1.0
    assert tree[2]["h"] == 1.0


def test_budget_stops_the_search(tmp_path):
    bad = answer(mutate(fixture("tic_tac_toe_cwm.py"), *CASES["tic_tac_toe"][0]))
    task = reference_task("tic_tac_toe", games=2, seed=1)
    meta = synthesize(tmp_path / "run", task, ScriptedLLM([bad] * 4),
                      Settings(max_calls=4), test_games=0)
    assert meta.status == "budget spent" and meta.calls == 4
    assert 0 < meta.best.train_accuracy < 1


INFERENCE_CASES = {
    # (game, deck, mode, bug in the first answer's resample_history)
    "leduc_poker": ("open", "tree",
                    ('        actions.append(f"Deal {last[\'public_card\']}")\n', "")),
    "quadranto": ("closed", "conversation",
                  ("starts = [start, opp_start] if me == 0 else [opp_start, start]",
                   "starts = [opp_start, start] if me == 0 else [start, opp_start]")),
}


@pytest.mark.parametrize("game", sorted(INFERENCE_CASES))
def test_inference_function_is_synthesized_with_the_model(tmp_path, game):
    deck, mode, bug = INFERENCE_CASES[game]
    good = fixture(f"{game}_cwm.py")
    fake = ScriptedLLM([answer(mutate(good, bug)), answer(good)])
    task = reference_task(game, games=5, seed=0, deck=deck)
    meta = synthesize(tmp_path / "run", task, fake,
                      Settings(mode=mode, inference=deck == "open"), test_games=5,
                      test_players=["random"])
    assert meta.status == "solved" and meta.calls == 2
    assert meta.best.train_by_kind["inference"][0] > 0
    first_prompt = fake.requests[0][0]["content"]
    assert "def resample_history(" in first_prompt
    assert ("last_is_terminal" in first_prompt) == (deck == "closed")
    second = fake.requests[1][-1]["content"]
    assert "resample_history(" in second and "TODO: this test fails" in second
    if deck == "open":
        assert meta.test.inference_accuracy == 1.0
    else:  # closed deck: trained and measured on one player's view only
        assert "transition" not in meta.best.train_by_kind
        assert set(meta.test.by_kind) == {"inference"}
        assert meta.test.accuracy == 1.0
    model = load_model_file(tmp_path / "run" / "cwm.py")
    assert check_model(model, games=10).ok  # ggp check replays resample_history too


def test_resume_with_a_larger_budget_continues_the_search(tmp_path):
    script = _script("tic_tac_toe")
    task = reference_task("tic_tac_toe", games=5, seed=0)
    first = synthesize(tmp_path / "run", task, ScriptedLLM(script[:1]), Settings(max_calls=1),
                       test_games=0)
    assert first.status == "budget spent" and first.calls == 1
    more = ScriptedLLM(script[1:])
    again = synthesize(tmp_path / "run", None, more, resume=True, max_calls=5)
    assert again.status == "solved" and again.calls == 3
    assert again.replayed_calls == 1 and again.settings["max_calls"] == 5
