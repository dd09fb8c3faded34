"""Value-function synthesis (seed 000 §4.3, App. G.7, App. C.4).

For a synthesized model (a run directory's ``cwm.py``), ask the language model for
``candidates`` value functions ``value_function(state, player_id) -> float``. Each
candidate is checked in a sandbox on random games of that model (a finite number at every
state, and the player's reward at terminal states: :mod:`ggp.synth.checks`). The candidates
that pass then meet the plain rollout evaluator in a tournament *on the synthesized model*
(hosted in a sandboxed worker): (IS)MCTS with the value function against (IS)MCTS with
random rollouts, ``matches`` per seat. The candidate with the best margin over rollouts
(its return minus the opponent's, averaged) is selected if that margin is positive (it
beats rollouts); otherwise rollouts stay.

Files written in the run directory::

    value_exchanges.jsonl       requests and answers (resume / replay, as synthesis)
    values/value_N.py           every candidate
    value_function.py           the selected candidate (absent when rollouts won)
    value_selection.json        checks, tournament results and the decision
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ggp.core.protocol import GameMetadata
from ggp.llm import LLM
from ggp.rundir import (
    METADATA,
    RULES,
    VALUE_CANDIDATES,
    VALUE_EXCHANGES,
    VALUE_FUNCTION,
    VALUE_SELECTION,
    RunMetadata,
    load_metadata,
    model_file,
)
from ggp.synth.llm import RecordingLLM
from ggp.synth.prompts import extract_code_blocks

VALUE_API = '''\
def value_function(state: State, player_id: int) -> float:
    """An estimate of the total reward player `player_id` will still receive from
    `state` on, under good play. At a terminal state it must return exactly that
    player's entry of get_rewards(state). It must be fast: it replaces random rollouts
    inside a tree search that calls it thousands of times per move."""
'''


def value_prompt(game: str, rules: str, model_code: str) -> str:
    """The request for one value function for the model ``model_code``."""
    return (
        f"You are writing a heuristic evaluation for the game {game}.\n\n"
        f"## Rules\n\n{rules.strip()}\n\n"
        f"## The game's code (its states are what your function receives)\n\n"
        f"```python\n{model_code.strip()}\n```\n\n"
        f"## What to write\n\n```python\n{VALUE_API}```\n\n"
        "Write only this function (and helpers it needs) in one ```python block; it may use "
        "the functions of the code above, which will be defined next to it."
    )


def check_candidate(model_code: str, value_code: str, *, games: int = 5,
                    seed: int = 0, seconds: float = 60.0) -> dict[str, Any]:
    """Sandboxed check of one candidate, judged in this process:
    ``{"ok", "error", "checked"}`` (:func:`ggp.synth.checks.check_value_function`)."""
    from ggp.synth.checks import check_value_function

    return check_value_function(model_code, value_code, games=games, seed=seed,
                                seconds=seconds)


def synthesize_values(run_dir: str | Path, llm: LLM | None, metadata: GameMetadata, *,
                      candidates: int = 3, matches: int = 10, sims: int = 100,
                      rollouts: int = 10, seed: int = 0) -> dict[str, Any]:
    """Ask for, check and compare value functions for the run's model; returns (and
    writes) the selection record. Rerunning replays the recorded answers."""
    from ggp.arena.hosted import duel_on_model

    run = Path(run_dir).resolve()
    model = model_file(run)
    model_code = model.read_text(encoding="utf-8")
    meta = load_metadata(run) if (run / METADATA).is_file() else RunMetadata()
    rules = (run / RULES).read_text() if (run / RULES).is_file() else ""
    recorder = RecordingLLM(llm, run / VALUE_EXCHANGES)
    prompt = value_prompt(meta.game or run.name, rules, model_code)
    record: dict[str, Any] = {"candidates": [], "scripted_answers": 0}
    (run / VALUE_CANDIDATES).mkdir(exist_ok=True)
    planner = "cwm_mcts" if metadata.perfect_information else "cwm_ismcts"
    baseline = f"{planner}:run={model}:sims={sims}:rollouts={rollouts}"
    for k in range(candidates):
        answer = recorder.complete([{"role": "user", "content": prompt}], purpose="value")
        record["scripted_answers"] += int(answer.scripted)
        blocks = extract_code_blocks(answer.text)
        entry: dict[str, Any] = {"id": k, "file": None}
        if not blocks:
            entry["check"] = {"ok": False, "error": "no code in the answer", "checked": 0}
            record["candidates"].append(entry)
            continue
        path = run / VALUE_CANDIDATES / f"value_{k}.py"
        path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
        entry["file"] = str(path.relative_to(run))
        entry["check"] = check_candidate(model_code, path.read_text(), seed=seed + k)
        if entry["check"]["ok"]:
            agent = f"{planner}:run={model}:sims={sims}:value={path}"
            entry["vs_rollouts"] = duel_on_model(model, metadata, agent, baseline,
                                                 matches=matches, seed=seed)
        record["candidates"].append(entry)
    record["selected"] = _select(record["candidates"])
    selected = run / VALUE_FUNCTION
    if record["selected"] is not None:
        chosen = record["candidates"][record["selected"]]
        selected.write_text((run / chosen["file"]).read_text(), encoding="utf-8")
    elif selected.is_file():
        selected.unlink()
    (run / VALUE_SELECTION).write_text(json.dumps(record, indent=1) + "\n")
    return record


def _select(candidates: list[dict[str, Any]]) -> int | None:
    """The candidate with the best margin over rollouts, if it is positive."""
    scored = [(c["vs_rollouts"]["margin"], c["id"]) for c in candidates if "vs_rollouts" in c]
    if not scored:
        return None
    mean, best = max(scored)
    return best if mean > 0 else None
