"""Typed agent settings (ggp.agents.settings): specs are checked completely when parsed,
renamed settings keep their old spellings, and every agent is named by its spec."""

from __future__ import annotations

import logging
import re
import tomllib
import typing
from pathlib import Path

import pytest

from ggp.agents import AgentSpecError, agent_names, check_spec, make_agent
from ggp.agents.base import Agent, MatchInfo
from ggp.agents.settings import Belief, CWMPlayout, PlayoutChoice
from ggp.core.registry import make_game

ROOT = Path(__file__).resolve().parents[2]
RECORDED = ROOT / "examples" / "recorded"
GAMES_TABLE = ROOT / "experiments" / "vs_llm" / "games.toml"

#: Every agent's settings, in the order ``check_spec`` lists them. A change here is a
#: change of the spec language: recorded specs (examples/recorded/**) must still parse.
SETTINGS = {
    "mcts": "sims time rollouts uct_c value prior playout solver reuse",
    "clairvoyant": "sims time rollouts uct_c value prior playout solver reuse",
    "ismcts": "sims time rollouts uct_c value prior playout belief pool",
    "moismcts": "sims time rollouts uct_c value prior playout belief pool",
    "pimc": "sims time rollouts uct_c value belief determinizations",
    "gt_ismcts": "sims time rollouts uct_c prior playout",
    "gt_mcts": "sims time rollouts uct_c prior playout solver reuse",
    "cwm_ismcts": "sims time rollouts uct_c run value_file prior_file playout retries "
                  "move_seconds memory_mb log pool",
    "cwm_mcts": "sims time rollouts uct_c run value_file prior_file playout retries "
                "move_seconds memory_mb log solver reuse",
    "fast_ismcts": "sims time rollouts uct_c run fast original retries move_seconds "
                   "memory_mb log",
    "fast_mcts": "sims time rollouts uct_c run fast original retries move_seconds "
                 "memory_mb log",
    "cfr": "iterations solver",
}


@pytest.mark.parametrize("name", sorted(SETTINGS))
def test_each_search_agent_lists_its_settings(name):
    with pytest.raises(AgentSpecError) as caught:
        check_spec(f"{name}:nonsense=1")
    assert str(caught.value).endswith(f"its settings are: {', '.join(SETTINGS[name].split())}.")


@pytest.mark.parametrize(("spec", "problem"), [
    ("ismcts:belief=exat", "setting belief=exat must be one of auto, perfect, tracking, "
                           "model, exact, generic"),
    ("pimc:belief=Model", "must be one of auto, perfect, tracking, model, exact, generic"),
    ("mcts:playout=priors", "must be one of random, prior"),
    ("cwm_ismcts:playout=none", "must be one of auto, random, prior"),
    ("cfr:solver=fast", "must be one of auto, openspiel, own"),
    ("sepot:checkpoint=x.pt:ranges=mine", "must be one of network, played"),
    ("mcts:sims=1.5", "must be a whole number"),
    ("mcts:solver=yes", "must be true or false"),
    ("gt_mcts:time=-1", "must not be negative"),
    ("cwm_mcts:run=x:value=auto:value_file=auto", "give value_file= only"),
    ("sepot:depth=3", "Agent 'sepot' needs checkpoint="),
])
def test_a_bad_choice_fails_when_the_spec_is_parsed(spec, problem):
    with pytest.raises(AgentSpecError) as caught:
        check_spec(spec)  # no model, no agent: the spec alone is wrong
    message = str(caught.value)
    assert problem in message and "\n" not in message


def test_settings_are_converted_to_their_types():
    name, settings = check_spec("mcts:sims=20:time=2:value=true:playout=random")
    assert settings == {"sims": 20, "time": 2.0, "value": True, "playout": "random"}
    assert isinstance(settings["time"], float)
    # a text setting keeps what was written, even when it looks like a number
    assert check_spec("cwm_ismcts:run=007")[1] == {"run": "007"}
    assert check_spec("llm:model_name=3")[1] == {"model_name": "3"}


def test_the_old_names_of_file_settings_mean_the_same(caplog, monkeypatch):
    monkeypatch.setattr("ggp.agents._HINTED", set())  # as in a fresh process
    old = f"cwm_mcts:run={RECORDED / 'generalized_tic_tac_toe'}:value=auto:prior=none"
    new = f"cwm_mcts:run={RECORDED / 'generalized_tic_tac_toe'}:value_file=auto:prior_file=none"
    model = make_game("generalized_tic_tac_toe")
    with caplog.at_level(logging.WARNING, logger="ggp.agents"):
        assert check_spec(old)[1] == check_spec(new)[1]
        old_agent, new_agent = make_agent(old, model), make_agent(new, model)
    assert old_agent.init == new_agent.init and old_agent.init["value"] is True
    hints = [r.getMessage() for r in caplog.records if r.name == "ggp.agents"]
    # one line per old name, however often a tournament parses the spec
    assert len(hints) == 2 and "value= is now called value_file=" in hints[0]
    assert "prior= is now called prior_file=" in hints[1]


def test_the_choices_are_those_the_searches_know():
    from ggp.belief.sampler import SAMPLERS
    from ggp.search.evaluators import Playout

    assert set(typing.get_args(Belief)) == {"auto", *SAMPLERS}
    assert set(typing.get_args(PlayoutChoice)) == {p.value for p in Playout}
    assert set(typing.get_args(CWMPlayout)) == {"auto", *typing.get_args(PlayoutChoice)}


def _recorded_specs() -> set[str]:
    """Every registered-agent spec written in a recorded file (tournament configs,
    results keys, selection and duel records, reports) or in the vs-LLM game table, with
    the table's ``{run}``/``{budget}`` filled in as experiments/vs_llm/run.py does."""
    names = "|".join(sorted(agent_names(), key=len, reverse=True))
    pattern = re.compile(rf"\b(?:{names})(?::[A-Za-z_]+=[^\s:,\"'|)`\\\]]*)+")
    found: set[str] = set()
    for path in [*RECORDED.rglob("*"), GAMES_TABLE]:
        if path.is_file():
            found.update(pattern.findall(path.read_text(encoding="utf-8", errors="ignore")))
    for game in tomllib.loads(GAMES_TABLE.read_text(encoding="utf-8"))["games"].values():
        # "selected": the spec agent_selection.json records, found above
        found.update(game[key] for key in ("agent", "baseline") if game[key] != "selected")
    return {s.replace("{run}", "runs/x").replace("{budget}", "sims=0:time=1") for s in found}


def test_every_recorded_spec_still_parses():
    specs = _recorded_specs()
    assert len(specs) > 20 and any(":value=auto" in s for s in specs)
    for spec in specs:
        check_spec(spec)


AGENTS = {  # spec -> a game it plays (built only, never started)
    "random": "tic_tac_toe",
    "mcts": "tic_tac_toe",
    "clairvoyant": "kuhn_poker",
    "ismcts": "kuhn_poker",
    "moismcts": "kuhn_poker",
    "pimc": "kuhn_poker",
    "cfr": "kuhn_poker",
    "gt_ismcts": "kuhn_poker",
    "gt_mcts": "tic_tac_toe",
    "llm:backend=scripted": "tic_tac_toe",
    f"cwm_ismcts:run={RECORDED / 'leduc_poker'}": "leduc_poker",
    f"cwm_mcts:run={RECORDED / 'generalized_tic_tac_toe'}": "generalized_tic_tac_toe",
    f"cwm_cfr:run={RECORDED / 'leduc_poker'}": "leduc_poker",
    f"fast_ismcts:run={RECORDED / 'faster' / 'leduc_poker'}": "leduc_poker",
    f"fast_mcts:run={RECORDED / 'faster' / 'leduc_poker'}": "leduc_poker",
}


@pytest.mark.parametrize("spec", sorted(AGENTS))
def test_an_agent_is_named_by_its_spec(spec):
    agent = make_agent(spec, make_game(AGENTS[spec]))
    try:
        assert agent.name == spec.split(":")[0]
    finally:
        agent.close()


class _Plain(Agent):
    def act(self, history):
        return "a"


class _Peeking(_Plain):
    def observe_true_state(self, state):
        self.state = state


def test_the_optional_hooks_have_defaults_on_every_agent():
    plain = _Plain()
    plain.start(MatchInfo("g", 0, 2, 0))
    plain.observe_true_state({"secret": 1})  # ignored
    assert plain.belief_fallbacks == 0 and plain.report == {}
    assert not plain.sees_true_state and _Peeking().sees_true_state
    assert make_agent("clairvoyant", make_game("kuhn_poker")).sees_true_state
    assert not make_agent("ismcts", make_game("kuhn_poker")).sees_true_state
