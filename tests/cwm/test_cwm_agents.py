"""CWM agents play from a run directory inside a sandboxed worker."""

from __future__ import annotations

import json
import time

import pytest
from cwm_fixtures import mutate, run_dir, source

from ggp.agents import AgentSpecError, make_agent
from ggp.agents.base import Agent
from ggp.arena.match import play_match
from ggp.core.registry import make_game
from ggp.sandbox.hosted import HostedModel


def _play(game: str, specs: list[str], seed: int = 0):
    model = make_game(game)
    agents = [make_agent(spec, model) for spec in specs]
    try:
        return play_match(model, agents, seed=seed), agents
    finally:
        for agent in agents:
            agent.close()


def test_cwm_ismcts_plays_leduc_with_validated_inference(tmp_path):
    run = run_dir(tmp_path, "run", source("leduc_poker"))
    log = tmp_path / "play.jsonl"
    for seed in range(2):
        result, agents = _play("leduc_poker", [f"cwm_ismcts:run={run}:sims=30:rollouts=1:log={log}",
                                              "random"], seed)
        assert result.forfeit is None
        report = agents[0].report
        assert report["stats"]["fallbacks"] == 0
        assert report["stats"]["resample_valid"] == report["stats"]["resample_calls"] > 0
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(lines) == 2 and lines[0]["agent"] == "cwm_ismcts"


def test_broken_inference_falls_back_to_a_random_legal_action_and_logs_it(tmp_path, caplog):
    # resample_history deals the player a card it does not hold: never consistent
    bad = mutate(source("leduc_poker"),
                 ("cards[player_id] = mine",
                  "cards[player_id] = 'Ks' if mine != 'Ks' else 'Kh'"),
                 ('cards = list(last["showdown_cards"])',
                  'cards = ["Ks", "Kh"] if mine not in ("Ks", "Kh") else ["Js", "Jh"]'))
    run = run_dir(tmp_path, "bad", bad)
    log = tmp_path / "play.jsonl"
    with caplog.at_level("WARNING", logger="ggp.cwm"):
        result, agents = _play("leduc_poker", [f"cwm_ismcts:run={run}:sims=10:rollouts=1:log={log}",
                                              "random"])
    assert result.forfeit is None  # the fallback's actions are legal (the model is right)
    stats = agents[0].report["stats"]
    assert stats["fallbacks"] == stats["moves"] > 0
    assert stats["resample_valid"] == 0 and stats["resample_failures"] > 0
    assert stats["resample_calls"] == 10 * stats["resample_failures"]  # 10 retries each
    assert "search failed" in caplog.text
    line = json.loads(log.read_text().splitlines()[0])
    assert "no sample consistent" in line["fallbacks"][0]["reason"]


def test_cwm_code_never_runs_in_this_process(tmp_path):
    # the spy tries to write its process id next to it: from this process it could; from
    # the box, which shows it nothing of ours, it cannot (its model still plays)
    marker = tmp_path / "pids.txt"
    spy = (f"import os\ntry:\n    with open({str(marker)!r}, 'a') as _f:\n"
           "        _f.write(str(os.getpid()))\nexcept OSError:\n    pass\n\n"
           + source("tic_tac_toe"))
    run = run_dir(tmp_path, "spy", spy)
    result, _ = _play("tic_tac_toe", [f"cwm_mcts:run={run}:sims=10:rollouts=1", "random"])
    assert result.forfeit is None
    assert not marker.exists()


def test_missing_run_is_a_clear_error(tmp_path):
    from ggp.rundir import ModelSourceError

    with pytest.raises(ModelSourceError, match="synthesis run directory"):
        make_agent(f"cwm_ismcts:run={tmp_path / 'nothing'}", make_game("leduc_poker"))


def test_hosted_model_plays_a_match_in_a_worker(tmp_path):
    run = run_dir(tmp_path, "run", source("leduc_poker"))
    truth = make_game("leduc_poker")
    hosted = HostedModel(run, truth.metadata)
    try:
        agents = [make_agent("random", hosted), make_agent("random", hosted)]
        result = play_match(hosted, agents, seed=3)
    finally:
        hosted.close()
    assert result.forfeit is None
    # the same actions on the reference game give the same returns
    state = truth.initial_state()
    for step in result.steps:
        state = truth.apply(state, step["action"])
    assert truth.is_terminal(state)


def test_cwm_agent_without_a_run_is_a_spec_error():
    from ggp.agents import AgentSpecError

    with pytest.raises(AgentSpecError, match="run=DIR"):
        make_agent("cwm_mcts", make_game("tic_tac_toe"))


class _Caller(Agent):
    """Calls (or checks) at every decision: always legal in Leduc."""

    def act(self, history):
        return "Call"


def test_hosted_matches_reuse_the_worker_and_take_one_round_trip_per_step(tmp_path):
    from ggp.sandbox.pool import POOL

    run = run_dir(tmp_path, "run", source("leduc_poker"))
    truth = make_game("leduc_poker")
    POOL.close()
    workers, outcomes = [], []
    try:
        for seed in (3, 3):
            hosted = HostedModel(run, truth.metadata)
            calls = []
            forward = hosted.worker.call
            hosted.worker.call = lambda method, *a, **k: calls.append(method) or forward(
                method, *a, **k)
            try:
                result = play_match(hosted, [_Caller(), _Caller()], seed=seed)
            finally:
                del hosted.worker.call
                hosted.close()
            workers.append(hosted.worker)
            outcomes.append(([s["action"] for s in result.steps], result.returns))
            assert result.forfeit is None and len(result.steps) > 4
            # what play_match asks about a state comes with the step that made it; only
            # the initial state (a copy of INITIAL_STATE) is asked about directly
            assert calls.count("step") == len(result.steps)
            assert len(calls) - len(result.steps) <= 2
        assert workers[0] is workers[1] and workers[0].alive  # reused for the second match
        assert outcomes[0] == outcomes[1]
    finally:
        POOL.close()


@pytest.mark.parametrize("planner,game", [("mcts", "tic_tac_toe"),
                                          ("ismcts", "leduc_poker")])
def test_cwm_time_budget_sets_the_deadline_and_is_kept(tmp_path, planner, game):
    """``time=`` bounds the worker's move (a spinning CWM costs about 2·time + 5 s, not
    120 s), the move takes its budget (a ratio over several moves, generous bounds for a
    loaded machine) and the simulations are counted."""
    import random

    from ggp.agents.base import MatchInfo

    model = make_game(game)
    run = run_dir(tmp_path, "run", source(game))
    spec = f"cwm_{planner}:run={run}"
    assert make_agent(spec, model).move_seconds == 120.0
    assert make_agent(f"{spec}:time=2", model).move_seconds == 9.0
    assert make_agent(f"{spec}:time=2:move_seconds=4", model).move_seconds == 4
    agent = make_agent(f"{spec}:sims=0:time=0.3", model)
    try:
        agent.start(MatchInfo(game=game, seat=0, num_players=2, seed=1))
        state, spent, rng = model.initial_state(), 0.0, random.Random(0)
        while model.current_player(state) != 0:  # Leduc: the deal first
            state = model.apply(state, model.sample_chance(state, rng))
        history = [(model.observation(state, 0), None)]
        agent.act(history)  # the first move also warms the worker up: not measured
        for _ in range(3):  # the first decision, again: far from any proven end
            started = time.perf_counter()
            agent.act(history)
            spent += time.perf_counter() - started
        agent.end(history, [0.0, 0.0])
    finally:
        agent.close()
    assert 0.8 <= spent / (3 * 0.3) <= 1.2
    stats = agent.report["stats"]
    assert stats["moves"] == 4 and stats["searched"] == 4 and stats["simulations"] >= 40


def test_policy_prior_file_is_found_used_and_guarded(tmp_path):
    """prior=auto picks the run's policy_prior.py (none when there is none), prior=FILE a
    file, prior=none nothing; in the worker a prior that raises falls back to uniform and
    the failures are counted in the report."""
    from ggp.rundir import prior_file
    from ggp.rundir import ModelSourceError

    run = run_dir(tmp_path, "run", source("tic_tac_toe"))
    assert prior_file(run, "auto") is None and prior_file(run, "none") is None
    with pytest.raises(ModelSourceError):
        prior_file(run, str(tmp_path / "missing.py"))
    (run / "policy_prior.py").write_text(
        "def policy_prior(state, player):\n"
        "    if sum(row.count('.') for row in state['board']) < 7:\n"
        "        raise RuntimeError('no idea')\n"
        "    return {'x(1,1)': 5.0, 'o(1,1)': 5.0}\n", encoding="utf-8")
    assert prior_file(run, "auto") == (run / "policy_prior.py").resolve()
    reports = {}
    for setting in ("auto", "none"):
        (result, agents) = _play("tic_tac_toe", [f"cwm_mcts:run={run}:sims=30:rollouts=1:"
                                                 f"prior={setting}", "random"])
        assert result.forfeit is None
        reports[setting] = agents[0].report
    stats = reports["auto"]["stats"]
    assert stats["searched"] == stats["moves"] and stats["prior_errors"] > 0
    assert "prior_errors" not in reports["none"]["stats"]
    assert reports["auto"]["fallbacks"] == []


def test_cwm_playout_setting(tmp_path):
    """playout=auto samples the rollouts from the run's prior (its calls show in the
    prior's failures: this one raises in every playout position too), playout=random
    does not, and playout=prior without a prior, or an unknown playout, is refused."""
    run = run_dir(tmp_path, "run", source("tic_tac_toe"))
    (run / "policy_prior.py").write_text(
        "def policy_prior(state, player):\n"
        "    raise RuntimeError('no idea')\n", encoding="utf-8")
    errors = {}
    for playout in ("auto", "random"):
        (result, agents) = _play("tic_tac_toe", [f"cwm_mcts:run={run}:sims=20:rollouts=2:"
                                                 f"playout={playout}", "random"])
        assert result.forfeit is None
        errors[playout] = agents[0].report["stats"]["prior_errors"]
    assert errors["auto"] > errors["random"] > 0
    with pytest.raises(AgentSpecError, match="playout=greedy must be one of auto, random, prior"):
        make_agent(f"cwm_mcts:run={run}:playout=greedy", make_game("tic_tac_toe"))


def test_cwm_mcts_plans_on_a_compiled_gdl_program_with_its_own_state_layout():
    """The recorded real-model hex program (bitboard-like state, the description's facts
    as its observation) is followed from the player's history (belief ``tracking``), so
    every move is searched on it, none falls back."""
    from pathlib import Path

    from ggp.synth.gdl_source import load_gdl_truth

    run = Path(__file__).resolve().parents[2] / "examples" / "recorded" / "gdl" / "hex"
    reasoner = load_gdl_truth(run / "description" / "hex.kif")
    agents = [make_agent(f"cwm_mcts:run={run}:sims=10:rollouts=1", reasoner),
              make_agent("random", reasoner)]
    try:
        result = play_match(reasoner, agents, seed=3, record_states=False)
    finally:
        for agent in agents:
            agent.close()
    stats = agents[0].report["stats"]
    assert result.forfeit is None and stats["fallbacks"] == 0
    assert stats["searched"] == stats["moves"] > 10 and stats["simulations"] > 0


def test_cwm_ismcts_pool_bounds_the_model_samples_per_move(tmp_path):
    run = run_dir(tmp_path, "run", source("leduc_poker"))
    calls = {}
    for pool in (0, 3):
        result, agents = _play("leduc_poker", [f"cwm_ismcts:run={run}:sims=40:rollouts=1:"
                                              f"pool={pool}", "random"], seed=2)
        stats = agents[0].report["stats"]
        assert result.forfeit is None and stats["fallbacks"] == 0
        calls[pool] = stats["resample_valid"] / stats["moves"]
    assert calls[0] > 40 and calls[3] <= 4  # the belief's first check, then 3 in the pool
    with pytest.raises(AgentSpecError, match="no setting pool"):
        make_agent(f"cwm_mcts:run={run}:pool=3", make_game("leduc_poker"))
