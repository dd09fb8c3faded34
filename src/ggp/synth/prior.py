"""Policy-prior synthesis: what the language model knows about good moves, inside search.

For a synthesized model (a run directory's ``cwm.py``), ask the language model for
``candidates`` functions ``policy_prior(state, player_id) -> {action: weight}``: weights
over the legal actions saying which moves a strong player would look at first. A PUCT
search (MCTS / ISMCTS with ``prior=``) turns them into the probabilities that steer its
exploration. Mirrors value-function synthesis (:mod:`ggp.synth.value`):

1. **States.** Random games of the model, hosted in a sandboxed worker
   (:class:`~ggp.sandbox.hosted.HostedModel`, the model alone), give the decision points
   to check on — state, player to move, legal actions — and a few examples for the prompt.
2. **Checks.** Each candidate is loaded with the model in a sandboxed worker of its own
   (:mod:`ggp.cwm.prior_box`) and called once per sampled decision point, each call under
   a wall-clock limit enforced and measured here. The box returns only what the function
   returned (or raised); the verdict is computed in this process against the legal
   actions from step 1, which never enter the candidate's box: a dict whose keys are legal
   actions, every weight a finite number ≥ 0, not all zero, the state left unchanged,
   every call within ``call_seconds``. A candidate that rewrites the box's answers can
   only change what it is judged on, never the judge; what it does at play time is what
   the duel measures.
3. **Duel.** A candidate that passes plays the same search with the prior against that
   search with ``prior=none`` (same simulations, same value setting: the run's selected
   value function by default), ``matches`` per seat, on the model hosted in a worker
   (:func:`ggp.arena.hosted.duel_on_model`). The candidate with the best margin (its
   return minus the opponent's) is selected if the margin is positive and no match
   failed; otherwise the search keeps no prior.

Files written in the run directory::

    prior_exchanges.jsonl       requests and answers (resume / replay, as synthesis)
    priors/prior_N.py           every candidate
    priors/duel_N_HASH.jsonl    each finished duel match (an interrupted duel resumes)
    policy_prior.py             the selected candidate (absent when no prior won)
    prior_selection.json        the states checked, checks, duels and the decision
"""

from __future__ import annotations

import ast
import hashlib
import json
import math
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ggp.agents import check_spec
from ggp.core.errors import GGPError
from ggp.core.protocol import GameMetadata
from ggp.llm import LLM
from ggp.rundir import (
    METADATA,
    POLICY_PRIOR,
    PRIOR_CANDIDATES,
    PRIOR_EXCHANGES,
    PRIOR_SELECTION,
    RULES,
    RunMetadata,
    load_metadata,
    model_file,
    model_source,
    value_file,
)
from ggp.sandbox import Limits, SandboxFailure, Worker
from ggp.sandbox.hosted import HostedModel, HostFailure
from ggp.synth.llm import RecordingLLM
from ggp.synth.prompts import extract_code_blocks

PRIOR_API = '''\
def policy_prior(state: State, player_id: int) -> dict[Action, float]:
    """Which moves a strong player would consider first in `state`, where `player_id`
    is to move: a weight (a finite number >= 0) for each legal action, higher for the
    more promising moves. Every key must be one of get_legal_actions(state). Weights
    need not sum to 1 (the search normalizes them), they must not all be 0, and a legal
    action left out counts as weight 0, so the search may never try it: give every move
    that is not clearly bad a small positive weight. The search also plays games out to
    the end by drawing every player's moves from these weights, so they should describe
    how a sensible player actually plays, for every player and at every stage (when to
    accept, when to decline, what to go for), not only the single best move. It must be
    fast: a search calls it for every new node and every move of a playout, tens of
    thousands of times per move."""
'''

#: How many sampled decision points the prompt shows, and how much of each.
PROMPT_EXAMPLES = 3
_EXAMPLE_CHARS = 3000
_ACTIONS_SHOWN = 40

#: The candidate's box: synthesized code only computes (docs/sandbox.md).
_LIMITS = Limits(memory_mb=1024, cpu_seconds=600, restricted=True, network=False)

DuelFn = Callable[..., dict[str, Any]]


# ----------------------------------------------------------------------------- prompt
def _example(case: dict[str, Any], number: int) -> str:
    state = json.dumps(case["state"])
    if len(state) > _EXAMPLE_CHARS:
        state = state[:_EXAMPLE_CHARS] + " … (cut here)"
    legal = case["legal"]
    shown = ", ".join(json.dumps(a) for a in legal[:_ACTIONS_SHOWN])
    if len(legal) > _ACTIONS_SHOWN:
        shown += f", … ({len(legal)} in all)"
    return (f"Example {number}: player {case['player']} to move.\n"
            f"state = {state}\nlegal actions: [{shown}]\n")


def prior_prompt(game: str, rules: str, model_code: str, examples: list[dict[str, Any]],
                 *, perfect_information: bool = True) -> str:
    """The request for one policy prior for the model ``model_code``; ``examples`` are
    decision points (``state``, ``player``, ``legal``) of that model."""
    hidden = "" if perfect_information else (
        "\nThis game hides information. The search calls your function on *sampled* "
        "states, in which what `player_id` cannot see is a guess: base the weights only on "
        "what that player observes (get_observations(state)[player_id]) and on public "
        "information, never on hidden parts of the state.\n")
    shown = "\n".join(_example(case, k + 1) for k, case in enumerate(examples))
    return (
        f"You are giving a game-tree search your intuition about good moves in the game "
        f"{game}.\n\n"
        f"## Rules\n\n{rules.strip() or '(no rules text: read them from the code)'}\n\n"
        f"## The game's code (its states are what your function receives)\n\n"
        f"```python\n{model_code.strip()}\n```\n\n"
        f"## States of this code, as your function will see them\n\n{shown}\n"
        f"## What to write\n\n```python\n{PRIOR_API}```\n{hidden}\n"
        "The search spends more of its simulations on moves with high weights, so rank "
        "moves the way an expert would: moves that win, or gain the most, first; moves "
        "that avoid an immediate loss next; then the rest by how promising they are. "
        "Write only "
        "this function (and helpers it needs) in one ```python block; it may use the "
        "functions of the code above, which will be defined next to it, must not define "
        "any of their names again (give your helpers names of their own), and must not "
        "change the state it is given.")


def candidate_problem(code: str, model_code: str = "") -> str:
    """Why ``code`` cannot be a policy prior for ``model_code`` without running it: a
    syntax error, no top-level ``policy_prior``, or a top-level name of the model defined
    again (the prior is appended to the model, in the check as in play, so it would
    change the game the search plans in). ``""`` when none. Parsing executes nothing."""
    try:
        tree = ast.parse(code)
    except SyntaxError as exc:
        return f"syntax error at line {exc.lineno}: {exc.msg}"
    names = _defined(tree)
    if "policy_prior" not in names:
        return "no top-level function policy_prior"
    try:
        clash = sorted(names & _defined(ast.parse(model_code)))
    except SyntaxError:
        clash = []
    if clash:
        return (f"it defines {', '.join(clash[:5])} again, which the model already "
                "defines (its code is appended to the model's)")
    return ""


def _defined(tree: ast.Module) -> set[str]:
    """Names a module's top-level statements define or assign (imports left out)."""
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


# ----------------------------------------------------------------------------- states
def sample_decisions(model: str | Path, metadata: GameMetadata, *, games: int = 5,
                     seed: int = 0, max_states: int = 200,
                     max_steps: int = 1000) -> list[dict[str, Any]]:
    """Decision points of ``games`` random games of the model (hosted in a sandboxed
    worker): ``{"state", "player", "legal"}`` for each state where a player is to move,
    at most ``max_states`` spread evenly over all of them. Raises :class:`GGPError`
    when the model fails (its own fault, not a candidate's)."""
    rng = random.Random(seed)
    cases: list[dict[str, Any]] = []
    try:
        with HostedModel(model, metadata) as host:
            for _ in range(games):
                state = host.initial_state()
                for _ in range(max_steps):
                    if host.is_terminal(state):
                        break
                    legal = host.legal_actions(state)
                    if not legal:
                        break
                    player = host.current_player(state)
                    if player >= 0:
                        cases.append({"state": state, "player": player, "legal": legal})
                    state = host.apply(state, rng.choice(sorted(legal)))
    except HostFailure as exc:
        raise GGPError(f"The run's model failed while sampling states for the prior "
                       f"checks: {exc}") from exc
    if len(cases) > max_states:
        step = len(cases) / max_states
        cases = [cases[int(k * step)] for k in range(max_states)]
    return cases


def prompt_examples(cases: list[dict[str, Any]],
                    count: int = PROMPT_EXAMPLES) -> list[dict[str, Any]]:
    """``count`` different decision points spread from the first to the last of
    ``cases`` (each game starts in the same state: it is shown once)."""
    seen, distinct = set(), []
    for case in cases:
        key = json.dumps([case["state"], case["player"]], sort_keys=True)
        if key not in seen:
            seen.add(key)
            distinct.append(case)
    if len(distinct) <= count:
        return distinct
    return [distinct[round(k * (len(distinct) - 1) / (count - 1))] for k in range(count)]


# ----------------------------------------------------------------------------- checks
def judge_answer(raw: Any, legal: list[str], state: Any = None) -> str:
    """The verdict on one raw answer of the box (:mod:`ggp.cwm.prior_box`) for ``state``,
    whose legal actions are ``legal``: ``""`` when it is a valid prior, else why not.
    Anything not shaped as the box's encoding is a malformed reply. With ``state``, the
    box's ``after`` must equal it (the search hands the prior its own states, uncopied)."""
    malformed = "the candidate's box sent a malformed reply"
    if not isinstance(raw, dict) or set(raw) not in ({"raised", "after"},
                                                      {"returned", "after"}):
        return malformed
    if state is not None and raw["after"] != state:
        return "policy_prior changed the state it was given"
    if "raised" in raw:
        return (f"policy_prior raised {raw['raised']}" if isinstance(raw["raised"], str)
                else malformed)
    answer = raw.get("returned")
    if not isinstance(answer, dict) or not isinstance(answer.get("type"), str):
        return malformed
    if answer["type"] != "dict":
        return (f"policy_prior returned a {answer['type']} ({answer.get('repr', '')!s:.80}),"
                " not a dict of weights")
    size, items = answer.get("size"), answer.get("items")
    if not isinstance(size, int) or not isinstance(items, list):
        return malformed
    if size != len(items):
        return f"policy_prior returned {size} weights for {len(legal)} legal actions"
    if not items:
        return "policy_prior returned an empty dict"
    legal_set, seen, total = set(legal), set(), 0.0
    for item in items:
        if not isinstance(item, list) or len(item) != 2:
            return malformed
        key, weight = item
        if isinstance(key, dict):
            return (f"policy_prior has a key {key.get('repr', '')!s:.80} of type "
                    f"{key.get('type', '?')!s:.40}, not an action (a string)")
        if not isinstance(key, str) or key in seen:
            return malformed
        seen.add(key)
        if key not in legal_set:
            listed = ", ".join(legal[:8]) + (", …" if len(legal) > 8 else "")
            return (f"policy_prior gives a weight to {key!r:.80}, which is not a legal "
                    f"action (legal: {listed})")
        if isinstance(weight, dict):
            return (f"policy_prior's weight for {key!r:.80} is a "
                    f"{weight.get('type', '?')!s:.40} ({weight.get('repr', '')!s:.80}), "
                    "not a number")
        if isinstance(weight, str):
            return f"policy_prior's weight for {key!r:.80} is {weight:.10} (not finite)"
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) \
                or not math.isfinite(weight):
            return malformed
        if weight < 0:
            return f"policy_prior's weight for {key!r:.80} is negative ({weight})"
        total += weight
    if total <= 0:
        return "policy_prior gives every action weight 0"
    return ""


def _where(index: int, case: dict[str, Any]) -> str:
    return (f"decision {index + 1}, player {case['player']} to move in "
            f"{json.dumps(case['state'])[:300]}")


def check_prior(model_code: str, prior_code: str, cases: list[dict[str, Any]], *,
                call_seconds: float = 1.0, start_seconds: float = 60.0) -> dict[str, Any]:
    """Check one candidate on ``cases`` (from :func:`sample_decisions`).

    Returns ``{"ok", "error", "checked", "seconds": {"mean", "max"}}``: ``checked`` calls
    were judged (the first failure stops the check), ``seconds`` are the calls' times as
    measured here (a pipe round trip included)."""
    def failed(error: str, checked: int, times: list[float]) -> dict[str, Any]:
        return {"ok": False, "error": error, "checked": checked, "seconds": _times(times)}

    problem = candidate_problem(prior_code, model_code)
    if problem:
        return failed(problem, 0, [])
    try:
        worker = Worker("ggp.cwm.prior_box", {"model": model_code, "prior": prior_code},
                        start_timeout=start_seconds, limits=_LIMITS)
    except SandboxFailure as exc:
        return failed(f"the candidate does not load ({exc.kind}): {exc.detail[-300:]}", 0, [])
    times: list[float] = []
    try:
        for index, case in enumerate(cases):
            started = time.monotonic()
            try:
                raw = worker.call("call", {"state": case["state"], "player": case["player"]},
                                  timeout=call_seconds)
            except SandboxFailure as exc:
                if exc.kind == "timeout":
                    error = f"policy_prior did not return within {call_seconds:g} s"
                else:
                    error = f"policy_prior broke its box ({exc.kind}: {exc.detail[-200:]})"
                return failed(f"{error} ({_where(index, case)})", index + 1, times)
            times.append(time.monotonic() - started)
            error = judge_answer(raw, case["legal"], case["state"])
            if not error and times[-1] > call_seconds:
                error = f"policy_prior took {times[-1]:.2f} s, over {call_seconds:g} s"
            if error:
                return failed(f"{error} ({_where(index, case)})", index + 1, times)
    finally:
        worker.close()
    if not cases:
        return failed("no decision point to check the candidate on", 0, times)
    return {"ok": True, "error": "", "checked": len(cases), "seconds": _times(times)}


def _times(times: list[float]) -> dict[str, float | None]:
    if not times:
        return {"mean": None, "max": None}
    return {"mean": round(statistics.fmean(times), 6), "max": round(max(times), 6)}


# -------------------------------------------------------------------------- selection
def duel_specs(model: Path, metadata: GameMetadata, prior: Path, *, sims: int,
               rollouts: int, value: str) -> tuple[str, str]:
    """The duel's two agent specs: the search with the candidate, and without a prior."""
    planner = "cwm_mcts" if metadata.perfect_information else "cwm_ismcts"
    base = f"{planner}:run={model}:sims={sims}:rollouts={rollouts}"
    if value:
        base += f":value={value}"
    return f"{base}:prior={prior}", f"{base}:prior=none"


def _rules(run: Path, meta: RunMetadata) -> str:
    if (run / RULES).is_file():
        return (run / RULES).read_text(encoding="utf-8")
    from ggp.core.registry import make_game

    if not meta.game:
        return ""
    try:  # a run on a registered game: its rules text, as synthesis had it
        return make_game(meta.game).rules
    except GGPError:
        return ""


def synthesize_priors(run_dir: str | Path, llm: LLM | None, metadata: GameMetadata, *,
                      candidates: int = 3, matches: int = 10, sims: int = 100,
                      rollouts: int = 10, value: str = "auto", games: int = 5,
                      max_states: int = 200, call_seconds: float = 1.0, seed: int = 0,
                      log: Callable[[str], None] = lambda _: None,
                      duel: DuelFn | None = None) -> dict[str, Any]:
    """Ask for, check and duel policy priors for the run's model; returns (and writes)
    the selection record. Rerunning replays the recorded answers and the duel matches
    already played. ``value`` is the duel's value setting for both sides (``"auto"``:
    the run's selected value function, if any; ``""``: rollouts). ``duel`` replaces
    :func:`ggp.arena.hosted.duel_on_model` (same arguments), e.g. in tests."""
    from ggp.arena.hosted import duel_on_model

    run = Path(run_dir).resolve()
    model = model_file(run)
    model_code = model.read_text(encoding="utf-8")
    # what the agent will load: the model, the value function it plays with, the prior
    program = model_source(model, value_file(run, value))
    meta = load_metadata(run) if (run / METADATA).is_file() else RunMetadata()
    if duel is None:
        duel = duel_on_model
        for spec in duel_specs(model, metadata, run / POLICY_PRIOR, sims=sims,
                               rollouts=rollouts, value=value):
            check_spec(spec)  # a bad setting fails here, before any question is asked
    settings = {"candidates": candidates, "matches": matches, "sims": sims,
                "rollouts": rollouts, "value": value, "games": games,
                "max_states": max_states, "call_seconds": call_seconds, "seed": seed}
    finished = _finished(run, settings)
    if finished is not None:
        log("priors: already selected with these settings (prior_selection.json)")
        return finished
    log(f"priors: sampling decision points of {games} random games of {model}")
    cases = sample_decisions(model, metadata, games=games, seed=seed, max_states=max_states)
    prompt = prior_prompt(meta.game or run.name, _rules(run, meta), model_code,
                          prompt_examples(cases),
                          perfect_information=metadata.perfect_information)
    recorder = RecordingLLM(llm, run / PRIOR_EXCHANGES)
    record: dict[str, Any] = {"settings": settings, "decisions": len(cases),
                              "candidates": [], "scripted_answers": 0, "selected": None,
                              "complete": False}
    (run / PRIOR_CANDIDATES).mkdir(exist_ok=True)
    # every answer first: with the file exchange, whoever answers gets the prompts one
    # after another instead of one per duel
    answers = []
    for k in range(candidates):
        log(f"prior {k + 1}/{candidates}: asking the model")
        answers.append(recorder.complete([{"role": "user", "content": prompt}],
                                         purpose="prior"))
    for k, answer in enumerate(answers):
        record["scripted_answers"] += int(answer.scripted)
        entry = _candidate(run, model, program, metadata, answer.text, k, cases,
                           f"prior {k + 1}/{candidates}", settings, duel, log)
        record["candidates"].append(entry)
        _write(run, record)  # what is done so far, for anyone watching a long run
    record["selected"] = select_prior(record["candidates"])
    record["complete"] = True
    selected = run / POLICY_PRIOR
    if record["selected"] is not None:
        chosen = record["candidates"][record["selected"]]
        selected.write_text((run / chosen["file"]).read_text(), encoding="utf-8")
        log(f"priors: selected {chosen['file']} (margin {chosen['vs_no_prior']['margin']:+.3f})")
    else:
        if selected.is_file():
            selected.unlink()
        log("priors: no candidate beat the search without a prior; none selected")
    _write(run, record)
    return record


def _candidate(run: Path, model: Path, program: str, metadata: GameMetadata, text: str,
               k: int, cases: list[dict[str, Any]], tag: str, settings: dict[str, Any],
               duel: DuelFn, log: Callable[[str], None]) -> dict[str, Any]:
    """Parse, check (appended to ``program``, the model and its value function, as in
    play) and duel one answer."""
    entry: dict[str, Any] = {"id": k, "file": None}
    blocks = extract_code_blocks(text)
    if not blocks:
        entry["check"] = {"ok": False, "error": "no code in the answer", "checked": 0}
        log(f"{tag}: refused: no code in the answer")
        return entry
    path = run / PRIOR_CANDIDATES / f"prior_{k}.py"
    code = "\n\n".join(blocks) + "\n"
    path.write_text(code, encoding="utf-8")
    entry["file"] = str(path.relative_to(run))
    entry["check"] = check_prior(program, code, cases,
                                 call_seconds=settings["call_seconds"])
    if not entry["check"]["ok"]:
        log(f"{tag}: refused: {entry['check']['error'][:200]}")
        return entry
    log(f"{tag}: checks passed on {entry['check']['checked']} decision points; duel "
        f"against no prior ({settings['matches']} per seat)")
    agent, opponent = duel_specs(model, metadata, path, sims=settings["sims"],
                                 rollouts=settings["rollouts"], value=settings["value"])
    digest = hashlib.sha256(code.encode()).hexdigest()[:12]
    entry["vs_no_prior"] = duel(
        model, metadata, agent, opponent, matches=settings["matches"],
        seed=settings["seed"], journal=run / PRIOR_CANDIDATES / f"duel_{k}_{digest}.jsonl",
        on_match=lambda done, total: log(f"{tag}: duel {done}/{total} matches"))
    result = entry["vs_no_prior"]
    log(f"{tag}: margin {result['margin']:+.3f} over {result['matches']} matches "
        f"({result['failures']} failed)")
    return entry


def select_prior(candidates: list[dict[str, Any]]) -> int | None:
    """The candidate with the best duel margin over the search without a prior, if that
    margin is positive and none of its duel's matches failed (a prior that ever breaks
    its agent is not kept)."""
    scored = [(c["vs_no_prior"]["margin"], -c["id"], c["id"]) for c in candidates
              if "vs_no_prior" in c and not c["vs_no_prior"].get("failures")]
    if not scored:
        return None
    margin, _, best = max(scored)
    return best if margin > 0 else None


def _finished(run: Path, settings: dict[str, Any]) -> dict[str, Any] | None:
    """The run's complete selection record made with ``settings``, if its files are all
    still there (then nothing is redone), else None."""
    path = run / PRIOR_SELECTION
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    if not record.get("complete") or record.get("settings") != settings:
        return None
    if any(c["file"] and not (run / c["file"]).is_file() for c in record["candidates"]):
        return None
    if (record["selected"] is not None) != (run / POLICY_PRIOR).is_file():
        return None
    return record


def _write(run: Path, record: dict[str, Any]) -> None:
    path = run / PRIOR_SELECTION
    part = path.with_name(path.name + ".part")
    part.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    part.replace(path)
