"""Searching on a CWM without copies: the purity probes, the fallback to copying, and
workers reused across matches."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from cwm_fixtures import run_dir, source

from ggp.agents import make_agent
from ggp.arena.match import play_match
from ggp.core.model import WorldModel, load_model_file, load_model_source
from ggp.core.registry import make_game
from ggp.cwm.purity import ImpureModel, audit_playout, probe
from ggp.cwm.worker import AgentHandler
from ggp.sandbox.pool import POOL

ROOT = Path(__file__).parents[2]
MUTATING = ROOT / "tests" / "core" / "broken_models" / "mutating.py"

# Leduc whose apply_action starts changing its input after 1500 calls: the load probe
# (a few hundred calls) cannot see it, the first search does.
LATE_MUTATION = '''

_apply_action = apply_action
_calls = [0]


def apply_action(state, action):
    _calls[0] += 1
    if _calls[0] > 1500:
        state["late"] = _calls[0]
    return _apply_action(state, action)
'''

# Leduc whose observations are cached objects that apply_action changes later.
SHARED_OBSERVATIONS = '''

_observations = get_observations
_handed_out = []


def get_observations(state):
    observations = _observations(state)
    _handed_out.append(observations)
    return observations


_apply_shared = apply_action


def apply_action(state, action):
    for old in _handed_out:
        old.append(None)
    _handed_out.clear()
    return _apply_shared(state, action)
'''

# Leduc whose resample_history writes into the player's history.
HISTORY_WRITER = '''

_resample = resample_history


def resample_history(obs_action_history, player_id, last_is_terminal=False):
    obs_action_history[-1] = (obs_action_history[-1][0], "Call")
    return _resample(obs_action_history, player_id, last_is_terminal)
'''


def _cwm(code: str, game: str | None = "leduc_poker") -> WorldModel:
    loaded = load_model_source(code, name="cwm", filename="cwm.py")
    metadata = make_game(game).metadata if game else None
    return WorldModel(loaded.namespace, name="cwm", metadata=metadata)


@pytest.mark.parametrize("path,game", [
    ("examples/recorded/leduc_poker/cwm.py", "leduc_poker"),
    ("examples/recorded/bargaining/cwm.py", "bargaining"),
    ("src/ggp/games/kuhn_poker.py", "kuhn_poker"),
    ("src/ggp/games/tic_tac_toe.py", "tic_tac_toe"),
])
def test_the_benchmarked_models_pass_the_probe(path, game):
    model = load_model_file(ROOT / path)
    probe(WorldModel(model.namespace, metadata=make_game(game).metadata))


@pytest.mark.parametrize("code,game,message", [
    (MUTATING.read_text(), None, "apply_action changed its argument"),
    (source("leduc_poker") + SHARED_OBSERVATIONS, "leduc_poker",
     "get_observations returned was changed"),
    (source("leduc_poker") + HISTORY_WRITER, "leduc_poker",
     "resample_history changed its argument"),
])
def test_the_probe_finds_models_that_change_what_they_were_given_or_gave(code, game,
                                                                          message):
    with pytest.raises(ImpureModel, match=message):
        probe(_cwm(code, game))


def test_an_audited_playout_finds_a_late_mutation():
    model = _cwm(source("leduc_poker") + LATE_MUTATION)
    probe(model)  # too early to see it
    model.namespace._calls[0] = 2000
    with pytest.raises(ImpureModel, match="apply_action changed its argument"):
        audit_playout(model, model.initial_state(), random.Random(0))


def _handler(code: str, seat: int = 0) -> AgentHandler:
    handler = AgentHandler({"role": "agent", "planner": "ismcts", "source": code,
                            "filename": "cwm.py", "sims": 300, "rollouts": 2,
                            "metadata": make_game("leduc_poker").metadata.to_dict()})
    handler.start({"game": "leduc_poker", "seat": seat, "num_players": 2, "seed": 5})
    return handler


def _decision(seed: int = 1) -> tuple[WorldModel, dict, list]:
    """Player 0's first decision in a seeded Leduc deal."""
    truth = make_game("leduc_poker")
    state = truth.initial_state()
    rng = random.Random(seed)
    while truth.current_player(state) < 0:
        state = truth.apply(state, truth.sample_chance(state, rng))
    return truth, state, [(truth.observation(state, 0), None)]


def test_a_pure_model_is_searched_without_copies():
    handler = _handler(source("leduc_poker"))
    truth, state, history = _decision()
    reply = handler.act(history)
    assert reply["fallback"] is None and reply["action"] in truth.legal_actions(state)
    assert handler.report()["copies"] == ""


def test_a_violation_during_play_switches_the_worker_to_copies_for_good():
    handler = _handler(source("leduc_poker") + LATE_MUTATION)
    assert handler.copies == ""  # the load probe passed
    truth, state, history = _decision()
    reply = handler.act(history)
    # the move was searched again with copies: a legal action, no fallback
    assert reply["fallback"] is None and reply["action"] in truth.legal_actions(state)
    assert handler.report()["copies"].startswith("move 1: ")
    handler.start({"game": "leduc_poker", "seat": 0, "num_players": 2, "seed": 6})
    assert handler.report()["copies"]  # a new match on the same worker keeps copying


def test_a_model_failing_the_load_probe_is_copied_from_the_start():
    handler = _handler(source("leduc_poker") + SHARED_OBSERVATIONS)
    assert handler.copies.startswith("load probe: ")
    truth, state, history = _decision()
    assert handler.act(history)["action"] in truth.legal_actions(state)


def _matches(run: Path, *, fresh: bool) -> list:
    """Two matches of a CWM agent; ``fresh``: empty the pool first, so each starts its
    own worker."""
    truth = make_game("tic_tac_toe")
    spec = f"cwm_mcts:run={run}:sims=20:rollouts=1"
    results = []
    for seed in (3, 4):
        if fresh:
            POOL.close()
        agents = [make_agent(spec, truth), make_agent("random", truth)]
        try:
            result = play_match(truth, agents, seed=seed)
        finally:
            for agent in agents:
                agent.close()
        results.append(([s["action"] for s in result.steps], agents[0].report["stats"]))
    return results


def test_a_worker_serves_the_next_match_as_a_fresh_one_would(tmp_path, monkeypatch):
    import ggp.sandbox

    started = []

    class CountedWorker(ggp.sandbox.Worker):
        def __init__(self, *args, **kwargs):
            started.append(args[0])
            super().__init__(*args, **kwargs)

    # the pool builds its workers through ggp.sandbox.Worker (the box lets the model write
    # nowhere we could read, so the count is taken on this side)
    monkeypatch.setattr(ggp.sandbox, "Worker", CountedWorker)
    run = run_dir(tmp_path, "model", source("tic_tac_toe"))
    POOL.close()
    try:
        reused = _matches(run, fresh=False)
        assert started == ["ggp.cwm.worker"]  # one worker for both matches
        fresh = _matches(run, fresh=True)
        assert started == ["ggp.cwm.worker"] * 3
    finally:
        POOL.close()
    assert reused == fresh  # same moves and counters: each match reloads the model
