"""Policy-prior synthesis (ggp.synth.prior): prompt, checks in the sandbox with the verdict
in the parent, selection by duel, resume. Every candidate below is hand-written and every
answer comes from a scripted fake LLM: none of it is a model's work."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cwm_fixtures import run_dir, source, standalone

from ggp.core.registry import make_game
from ggp.arena.hosted import duel_on_model
from ggp.llm import ScriptedLLM
from ggp.rundir import RunMetadata
from ggp.synth.prior import (
    check_prior,
    judge_answer,
    prior_prompt,
    sample_decisions,
    select_prior,
    synthesize_priors,
)

GAME = "generalized_tic_tac_toe"
HARNESS = Path(__file__).parents[2] / "src" / "ggp" / "cwm" / "prior_box.py"

UNIFORM = '''\
def policy_prior(state, player_id):
    return {a: 1.0 for a in get_legal_actions(state)}
'''
CENTRE = '''\
def policy_prior(state, player_id):
    """Cells near the centre first (a hand-written heuristic, not a model's)."""
    weights = {}
    for action in get_legal_actions(state):
        r, c = (int(x) for x in action[2:-1].split(","))
        weights[action] = 1.0 / (1.0 + abs(r - 2.5) + abs(c - 2.5))
    return weights
'''
ILLEGAL = "def policy_prior(state, player_id):\n    return {'x(9,9)': 1.0}\n"
NAN = ("def policy_prior(state, player_id):\n"
       "    return {a: float('nan') for a in get_legal_actions(state)}\n")
RAISES = "def policy_prior(state, player_id):\n    raise KeyError('board')\n"
HANGS = "def policy_prior(state, player_id):\n    while True:\n        pass\n"
NEGATIVE = ("def policy_prior(state, player_id):\n"
            "    return {a: -1.0 for a in get_legal_actions(state)}\n")
ZEROS = ("def policy_prior(state, player_id):\n"
         "    return dict.fromkeys(get_legal_actions(state), 0)\n")
A_LIST = "def policy_prior(state, player_id):\n    return get_legal_actions(state)\n"
INT_KEYS = "def policy_prior(state, player_id):\n    return {0: 1.0}\n"
MUTATES = ("def policy_prior(state, player_id):\n"
           "    state['board'][0][0] = 'x'\n"
           "    return {a: 1.0 for a in get_legal_actions(state)}\n")
STRING_WEIGHT = ("def policy_prior(state, player_id):\n"
                 "    return {a: 'high' for a in get_legal_actions(state)}\n")

# Hostile candidates: each tries to get past the checks by patching what judges it inside
# its box, while its real answers are illegal.
FORGES_THE_REPLY = '''\
import ggp.cwm.prior_box as _box

def _forged(self, state, player):
    return {"ok": True, "error": "", "checked": 10**6}

_box.PriorBox.call = _forged

def policy_prior(state, player_id):
    return {"resign": 1.0}
'''
PATCHES_THE_JUDGE = '''\
import ggp.cwm.prior_box as _box
try:
    import ggp.synth.prior as _judge
    _judge.judge_answer = lambda raw, legal: ""
    _judge.check_prior = lambda *a, **k: {"ok": True, "error": "", "checked": 1}
except Exception:
    pass
_box.encode = lambda answer: {"type": "dict", "size": 0, "items": []}

def policy_prior(state, player_id):
    return {"resign": 1.0}
'''
WRITES_THE_HARNESS = f'''\
for _path in ({str(HARNESS)!r}, "../policy_prior.py", "/tmp/ggp_prior_was_here"):
    try:
        with open(_path, "a") as _f:
            _f.write("\\n# patched by a hostile prior\\n")
    except Exception:
        pass

def policy_prior(state, player_id):
    return {{"resign": 1.0}}
'''


def _answer(code: str) -> str:
    return f"Scripted answer.\n\n```python\n{code}```"


@pytest.fixture(scope="module")
def decisions(tmp_path_factory):
    """A few decision points of the hand-written generalized tic-tac-toe model."""
    run = run_dir(tmp_path_factory.mktemp("model"), "run", standalone(GAME))
    return sample_decisions(run, make_game(GAME).metadata, games=1, seed=0, max_states=6)


def test_the_prompt_holds_rules_code_states_and_the_function_to_write():
    examples = [{"state": {"board": "xo."}, "player": 1, "legal": ["a", "b"]}]
    prompt = prior_prompt("g", "Rules here.", "def apply_action(s, a): ...", examples)
    assert "Rules here." in prompt and "def apply_action" in prompt
    assert '"board": "xo."' in prompt and '["a", "b"]' in prompt.replace('", "', '", "')
    assert "def policy_prior(state: State, player_id: int) -> dict[Action, float]" in prompt
    assert "hides information" not in prompt
    hidden = prior_prompt("g", "", "code", examples, perfect_information=False)
    assert "hides information" in hidden and "get_observations" in hidden


def test_decision_points_come_from_the_model_with_their_legal_actions(decisions):
    assert len(decisions) == 6
    truth = make_game(GAME)
    for case in decisions:
        assert sorted(case["legal"]) == sorted(truth.legal_actions(case["state"]))
        assert case["player"] == truth.current_player(case["state"])


def _raw(returned=None, raised=None, after=None):
    raw = {"returned": returned} if raised is None else {"raised": raised}
    return {**raw, "after": {"s": 1} if after is None else after}


def _items(*items, size=None):
    return {"type": "dict", "size": len(items) if size is None else size,
            "items": [list(item) for item in items]}


@pytest.mark.parametrize("raw, reason", [
    (_raw(_items(("b", 2.0))), ""),
    (_raw(_items(("a", 1), ("b", 0))), ""),
    (_raw(_items(("z", 2.0))), "not a legal action"),
    (_raw(_items(("a", "nan"))), "not finite"),
    (_raw(_items(("a", -0.5))), "negative"),
    (_raw(_items(("a", 0), ("b", 0.0))), "weight 0"),
    (_raw(_items()), "empty dict"),
    (_raw({"type": "list", "repr": "['a']"}), "not a dict"),
    (_raw(raised="KeyError: 'board'"), "raised KeyError"),
    (_raw(_items(("b", 2.0)), after={"s": 2}), "changed the state"),
    (_raw(raised="KeyError: 'x'", after={"unserializable": "TypeError"}), "changed the state"),
    # forged or broken replies: a verdict, a count that hides entries, NaN sneaked in
    ({"ok": True, "error": "", "checked": 100}, "malformed"),
    ({"returned": _items(("a", 1.0))}, "malformed"),  # no state after the call
    (_raw(_items(("a", 1.0), size=5)), "5 weights for 2"),
    (_raw(_items(("a", float("nan")))), "malformed"),
    (_raw(_items(("a", 1), ("a", 1))), "malformed"),
    (_raw(_items(("a", True))), "malformed"),
    ("ok", "malformed"),
])
def test_the_parent_judges_raw_answers(raw, reason):
    verdict = judge_answer(raw, ["a", "b"], {"s": 1})
    assert (reason in verdict) if reason else verdict == ""


def test_a_valid_prior_passes_on_every_decision_point(decisions):
    code = standalone(GAME)
    for prior in (UNIFORM, CENTRE):
        result = check_prior(code, prior, decisions)
        assert result["ok"], result["error"]
        assert result["checked"] == len(decisions)
        assert 0 < result["seconds"]["max"] < 1.0


@pytest.mark.parametrize("prior, reason", [
    (ILLEGAL, "'x(9,9)', which is not a legal action"),
    (NAN, "is nan (not finite)"),
    (RAISES, "raised KeyError: 'board'"),
    (HANGS, "did not return within 0.5 s"),
    (NEGATIVE, "is negative (-1.0)"),
    (ZEROS, "every action weight 0"),
    (A_LIST, "returned a list"),
    (INT_KEYS, "of type int, not an action"),
    (STRING_WEIGHT, "is a str ('high'), not a number"),
    (MUTATES, "changed the state it was given"),
    ("x = 1\n", "no top-level function policy_prior"),
    ("MARKS = ('o', 'x')\n" + UNIFORM, "it defines MARKS again"),
    ("def policy_prior(:\n", "syntax error"),
    ("raise SystemExit(3)\ndef policy_prior(s, p):\n    return {}\n", "does not load"),
])
def test_a_broken_prior_fails_with_a_clear_reason(decisions, prior, reason):
    result = check_prior(standalone(GAME), prior, decisions, call_seconds=0.5)
    assert not result["ok"]
    assert reason in result["error"]
    if result["checked"]:
        assert "decision 1, player 0 to move" in result["error"]


@pytest.mark.parametrize("prior", [FORGES_THE_REPLY, PATCHES_THE_JUDGE, WRITES_THE_HARNESS])
def test_a_hostile_prior_cannot_patch_its_way_through(decisions, prior, tmp_path):
    before = HARNESS.read_bytes()
    result = check_prior(standalone(GAME), prior, decisions)
    assert not result["ok"]
    assert result["error"].startswith(("the candidate's box sent a malformed reply",
                                       "policy_prior gives a weight to 'resign'",
                                       "policy_prior returned an empty dict"))
    assert HARNESS.read_bytes() == before
    assert not Path("/tmp/ggp_prior_was_here").exists()


def test_selection_takes_the_best_positive_margin_without_failures():
    def entry(k, margin, failures=0):
        return {"id": k, "vs_no_prior": {"margin": margin, "failures": failures,
                                          "matches": 4}}
    assert select_prior([entry(0, 0.2), entry(1, 0.5), {"id": 2}]) == 1
    assert select_prior([entry(0, 0.5), entry(1, 0.5)]) == 0  # a tie keeps the first
    assert select_prior([entry(0, 0.9, failures=1), entry(1, 0.1)]) == 1
    assert select_prior([entry(0, 0.0), entry(1, -0.5)]) is None
    assert select_prior([{"id": 0}]) is None


class ScriptedDuel:
    """Stands in for duel_on_model (which needs a search taking prior=): a margin per
    candidate file's text, and every call recorded."""

    def __init__(self, margins):
        self.margins, self.calls = margins, []

    def __call__(self, host, metadata, agent, opponent, *, matches, seed, journal,
                 on_match):
        self.calls.append((agent, opponent))
        prior = Path(agent.rsplit(":prior=", 1)[1]).read_text()
        for done in range(1, 2 * matches + 1):
            on_match(done, 2 * matches)
        return {"matches": 2 * matches, "margin": self.margins[prior], "failures": 0}


def test_candidates_are_checked_then_dueled_and_the_best_is_selected(tmp_path):
    run = run_dir(tmp_path, "run", standalone(GAME))
    metadata = make_game(GAME).metadata
    # the run's value function is appended before the prior, in the checks as in play
    (run / "value_function.py").write_text("_SCALE = 0.5\n\ndef value_function(state, "
                                           "player_id):\n    return 0.0\n")
    script = [_answer(ILLEGAL), "no code here", _answer(UNIFORM), _answer(CENTRE),
              _answer(FORGES_THE_REPLY), _answer("_SCALE = 2.0\n" + UNIFORM)]
    duel = ScriptedDuel({UNIFORM: 0.1, CENTRE: 0.4, FORGES_THE_REPLY: 1.0})
    kwargs = {"candidates": 6, "matches": 2, "sims": 20, "games": 1, "seed": 0}
    lines: list[str] = []
    record = synthesize_priors(run, ScriptedLLM(script), metadata, duel=duel,
                               log=lines.append, **kwargs)
    checks = [c["check"] for c in record["candidates"]]
    assert "not a legal action" in checks[0]["error"]
    assert checks[1]["error"] == "no code in the answer"
    assert checks[2]["ok"] and checks[3]["ok"]
    assert "malformed" in checks[4]["error"]  # the hostile one never reaches a duel
    assert checks[5]["error"].startswith("it defines _SCALE again")
    assert [c.get("vs_no_prior", {}).get("margin") for c in record["candidates"]] == \
        [None, None, 0.1, 0.4, None, None]
    assert record["selected"] == 3 and record["complete"]
    assert (run / "policy_prior.py").read_text() == CENTRE
    assert json.loads((run / "prior_selection.json").read_text()) == record
    assert record["scripted_answers"] == 6
    # the duel: the same search with the candidate against prior=none, rollouts kept
    agent, opponent = duel.calls[1]
    assert agent.startswith(f"cwm_mcts:run={run / 'cwm.py'}:sims=20:rollouts=10:value=auto")
    assert agent.endswith(f":prior={run / 'priors' / 'prior_3.py'}")
    assert opponent == agent.rsplit(":prior=", 1)[0] + ":prior=none"
    assert "prior 4/6: duel 4/4 matches" in lines
    # a finished selection is read back; other settings replay the answers, no model
    assert synthesize_priors(run, None, metadata, duel=duel, **kwargs) == record
    assert len(duel.calls) == 2
    losing = ScriptedDuel({UNIFORM: -0.2, CENTRE: 0.0, FORGES_THE_REPLY: 1.0})
    again = synthesize_priors(run, None, metadata, duel=losing, **{**kwargs, "matches": 1})
    assert again["selected"] is None and len(losing.calls) == 2
    assert not (run / "policy_prior.py").exists()


def test_a_real_duel_against_no_prior(tmp_path):
    run = run_dir(tmp_path, "run", standalone(GAME))
    record = synthesize_priors(run, ScriptedLLM([_answer(CENTRE)]), make_game(GAME).metadata,
                               candidates=1, matches=1, sims=10, rollouts=1, games=1)
    duel = record["candidates"][0]["vs_no_prior"]
    assert duel["matches"] == 2 and duel["failures"] == 0
    assert (run / "policy_prior.py").is_file() == (duel["margin"] > 0)


def test_an_interrupted_duel_resumes_from_its_journal(tmp_path, monkeypatch):
    run = run_dir(tmp_path, "run", source("tic_tac_toe"))
    metadata = make_game("tic_tac_toe").metadata
    spec = f"cwm_mcts:run={run}:sims=3:rollouts=1"
    journal = tmp_path / "duel.jsonl"
    seen: list[tuple[int, int]] = []
    first = duel_on_model(run, metadata, spec, spec, matches=1, journal=journal,
                          on_match=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 2), (2, 2)] and first["failures"] == 0
    assert len(journal.read_text().splitlines()) == 2

    def no_more_matches(*args, **kwargs):
        raise AssertionError("a journaled match was played again")

    monkeypatch.setattr("ggp.arena.hosted.play_hosted", no_more_matches)
    assert duel_on_model(run, metadata, spec, spec, matches=1, journal=journal) == first
    with pytest.raises(AssertionError):  # another seed is another duel
        duel_on_model(run, metadata, spec, spec, matches=1, seed=1, journal=journal)


def _record_answer(run: Path, code: str, games: int) -> None:
    """Record a scripted answer in the run's prior log, as a finished request would be,
    so that ``ggp cwm priors`` replays it without a model."""
    from ggp.synth.llm import RecordingLLM
    from ggp.synth.prior import _rules, prompt_examples

    metadata = make_game(GAME).metadata
    cases = sample_decisions(run / "cwm.py", metadata, games=games, seed=0)
    prompt = prior_prompt(GAME, _rules(run, RunMetadata(game=GAME)), (run / "cwm.py").read_text(),
                          prompt_examples(cases))
    recorder = RecordingLLM(ScriptedLLM([_answer(code)]), run / "prior_exchanges.jsonl")
    recorder.complete([{"role": "user", "content": prompt}], purpose="prior")


def test_priors_command_replays_checks_duels_and_selects(tmp_path):
    from typer.testing import CliRunner

    from ggp.cli.main import _register_subcommands, app

    run = run_dir(tmp_path, "run", standalone(GAME))
    (run / "metadata.json").write_text(json.dumps({"game": GAME}))
    _record_answer(run, CENTRE, games=1)
    _register_subcommands()
    result = CliRunner().invoke(app, ["cwm", "priors", str(run), "--game", GAME,
                                      "--candidates", "1", "--matches", "1", "--sims", "5",
                                      "--rollouts", "1", "--games", "1"])
    assert result.exit_code == 0, result.output
    assert "prior 1/1: duel 2/2 matches" in result.output
    record = json.loads((run / "prior_selection.json").read_text())
    assert record["candidates"][0]["check"]["ok"] and record["complete"]
    assert "prior 0: margin" in result.output


def test_the_arena_agent_searches_with_the_selected_prior_unless_disabled(tmp_path):
    from ggp.cwm.experiment import ExperimentConfig, _prior_setting

    run = run_dir(tmp_path, "run", standalone(GAME))
    on, off = ExperimentConfig(game=GAME), ExperimentConfig(game=GAME, priors=False)
    assert _prior_setting(run, on) == _prior_setting(run, off) == ""  # nothing selected
    (run / "policy_prior.py").write_text(CENTRE)
    assert _prior_setting(run, on) == ":prior=auto"
    assert _prior_setting(run, off) == ":prior=none"


def test_the_experiment_selects_a_prior_and_plays_with_it(tmp_path):
    from ggp.cwm.experiment import ExperimentConfig, run_experiment

    model = _answer(source("tic_tac_toe"))
    prior = _answer(UNIFORM)
    config = ExperimentConfig(game="tic_tac_toe", syntheses=1, budget=1, train_games=2,
                              test_games=2, sims=5, rollouts=1, reject_matches=1,
                              reject_sims=5, matches=1, workers=0, prior_candidates=1,
                              prior_matches=1, accuracy_games=2)
    summary = run_experiment(tmp_path / "exp", config, ScriptedLLM([model, prior]),
                             log=lambda _: None)
    chosen = summary["priors"]["synth_0"]
    assert chosen in (0, None)
    run = tmp_path / "exp" / "synth_0"
    assert (run / "prior_selection.json").is_file()
    agents = {c["agent"] for c in summary["arena"]["cells"]}
    assert any(a.endswith(":prior=auto") for a in agents) == (chosen == 0)
