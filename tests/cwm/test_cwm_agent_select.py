"""Choosing a run's agent by a measured duel (ggp.cwm.select, ``ggp cwm select``): the
selection rule, resuming from the journals, a failing candidate never chosen, and the
vs-LLM table's ``agent = "selected"``. The models are hand-written reference games
copied into run directories (tests/cwm/cwm_fixtures.py), not a model's work."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path

import pytest
from cwm_fixtures import run_dir, standalone

from ggp.core.registry import make_game
from ggp.cwm.select import (
    SelectionError,
    choose,
    full_spec,
    select_agent,
    selected_spec,
    spec_template,
)

GAME = "kuhn_poker"  # tiny, with chance: duplicate pairs


def _duel(agent, opponent, margin, ci, failed_agent=0):
    return {"agent": agent, "opponent": opponent, "margin": margin, "ci95": ci,
            "failures": failed_agent, "failed_by": {"agent": failed_agent, "opponent": 0,
                                                   "host": 0},
            "matches": 8, "units": 4, "unit": "pairs"}


def test_a_significant_winner_replaces_the_default():
    duels = [_duel("b", "a", 0.5, 0.2), _duel("c", "a", 0.8, 0.3)]
    chosen = choose(duels, ["a", "b", "c"], "a")
    assert chosen["selected"] == "c" and not chosen["selected_is_default"]
    assert "significant" in chosen["reason"]


def test_an_insignificant_lead_keeps_the_default_and_says_so():
    chosen = choose([_duel("b", "a", 0.5, 0.6), _duel("c", "a", -0.2, 0.1)],
                    ["a", "b", "c"], "a")
    assert chosen["selected"] == "a" and chosen["selected_is_default"]
    assert "not significant" in chosen["reason"]
    assert "keeping the default" in chosen["reason"]


def test_no_interval_is_not_significant():
    chosen = choose([_duel("b", "a", 3.0, None)], ["a", "b"], "a")
    assert chosen["selected"] == "a"


def test_a_failing_candidate_is_never_selected_whatever_its_margin():
    duels = [_duel("b", "a", 5.0, 0.1, failed_agent=1), _duel("c", "a", 0.4, 0.3)]
    chosen = choose(duels, ["a", "b", "c"], "a")
    assert chosen["selected"] == "c" and chosen["failed"]["b"] == 1
    alone = choose(duels[:1], ["a", "b"], "a")
    assert alone["selected"] == "a" and "failed in 1 matches" in alone["reason"]


def test_round_robin_takes_the_best_mean_margin_among_significant_winners():
    # b and c both beat a significantly; c beats b, so c's mean margin is higher
    duels = [_duel("a", "b", -0.6, 0.2), _duel("a", "c", -0.5, 0.2),
             _duel("b", "c", -0.3, 0.2)]
    chosen = choose(duels, ["a", "b", "c"], "a")
    assert chosen["scores"]["c"] == pytest.approx(0.4)
    assert chosen["selected"] == "c"


def test_candidates_leave_the_budget_to_the_selector(tmp_path):
    run = run_dir(tmp_path, "run", standalone(GAME))
    metadata = make_game(GAME).metadata
    with pytest.raises(SelectionError, match="leave run=, sims= and time= out"):
        select_agent(run, metadata, ["cwm_ismcts", "cwm_ismcts:time=3"])
    with pytest.raises(SelectionError, match="at least two"):
        select_agent(run, metadata, ["cwm_ismcts"])
    with pytest.raises(SelectionError, match="not among the candidates"):
        select_agent(run, metadata, ["cwm_ismcts", "random"], default="mcts")
    assert full_spec("random", run, 0.5) == "random"
    assert full_spec("cwm_ismcts:prior=none", run, 0.5) == \
        f"cwm_ismcts:prior=none:run={run}:sims=0:time=0.5"
    assert spec_template("cwm_cfr") == "cwm_cfr:run={run}"


def test_a_selection_on_a_tiny_game_resumes_and_never_picks_a_crashing_candidate(
        tmp_path, monkeypatch):
    """Real matches on the hosted CWM (one duplicate pair per duel): a candidate whose
    worker cannot start fails every match and is not chosen; the rerun plays nothing."""
    run = run_dir(tmp_path, "run", standalone(GAME))
    metadata = make_game(GAME).metadata
    candidates = ["cwm_ismcts:rollouts=1", "cwm_ismcts:rollouts=1:memory_mb=1"]
    seen: list[str] = []
    record = select_agent(run, metadata, candidates, matches=1, move_time=0.05,
                          round_robin=True, log=seen.append)
    (duel,) = record["duels"]
    assert duel["unit"] == "pairs" and duel["matches"] == 2 and duel["units"] == 1
    assert duel["failed_by"]["opponent"] == 2 and duel["failed_by"]["agent"] == 0
    assert record["selected"] == candidates[0] and record["failed"][candidates[1]] == 2
    assert any("2/2 matches" in line for line in seen)
    stored = json.loads((run / "agent_selection.json").read_text())
    assert stored["complete"] and stored["selected"] == candidates[0]
    assert selected_spec(run) == candidates[0]

    def no_more_matches(*args, **kwargs):
        raise AssertionError("a journaled match was played again")

    monkeypatch.setattr("ggp.arena.hosted.play_hosted", no_more_matches)
    again = select_agent(run, metadata, candidates, matches=1, move_time=0.05,
                         round_robin=True)
    assert again["duels"] == record["duels"]
    # the journals name the candidates, not the folder: a moved run still resumes
    moved = shutil.copytree(run, tmp_path / "moved")
    assert select_agent(moved, metadata, candidates, matches=1, move_time=0.05,
                        round_robin=True)["duels"] == record["duels"]
    with pytest.raises(AssertionError):  # another move time is another duel
        select_agent(run, metadata, candidates, matches=1, move_time=0.1, round_robin=True)


def test_the_vs_llm_table_takes_the_selected_agent(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location(
        "vs_llm_run", Path(__file__).parents[2] / "experiments" / "vs_llm" / "run.py")
    vs_llm = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, vs_llm)  # its dataclasses look it up
    spec.loader.exec_module(vs_llm)
    run = run_dir(tmp_path, "run", standalone(GAME))
    entry = {"run": str(run), "agent": "selected",
             "fallback": "cwm_ismcts:run={run}:{budget}"}
    assert vs_llm.agent_template(entry) == "cwm_ismcts:run={run}:{budget}"
    (run / "agent_selection.json").write_text(json.dumps(
        {"complete": True, "selected": "cwm_ismcts:prior=none"}))
    assert vs_llm.agent_template(entry) == "cwm_ismcts:prior=none:run={run}:{budget}"
    (run / "agent_selection.json").unlink()
    with pytest.raises(SystemExit, match="no finished agent selection"):
        vs_llm.agent_template({"run": str(run), "agent": "selected"})


def test_the_select_command_prints_the_duels_and_the_choice(tmp_path, capsys):
    from ggp.cli.main import main

    run = run_dir(tmp_path, "run", standalone(GAME))
    code = main(["cwm", "select", str(run), "--game", GAME, "--candidates",
                 "cwm_ismcts:rollouts=1,random", "--matches", "1", "--move-time", "0.05"])
    out = capsys.readouterr().out
    assert code == 0, out
    # one pair has no interval: never significant, so the default stays and it says why
    assert "selected: cwm_ismcts:rollouts=1 (the default)" in out
    assert "no interval" in out and "keeping the default" in " ".join(out.split())


def test_a_candidate_with_its_own_budget_is_a_one_line_error(tmp_path, capsys):
    from ggp.cli.main import main

    run = run_dir(tmp_path, "run", standalone(GAME))
    code = main(["cwm", "select", str(run), "--game", GAME, "--candidates",
                 "cwm_ismcts,cwm_ismcts:sims=50"])
    err = capsys.readouterr().err
    assert code == 2 and "leave run=, sims= and time= out" in " ".join(err.split())
    assert "Traceback" not in err and not (run / "agent_selection.json").exists()
