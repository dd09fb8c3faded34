"""Value-function selection (generalized tic-tac-toe) and bad-sample rejection
(tic-tac-toe), with scripted answers and hand-written models (not a model's work)."""

from __future__ import annotations

import json

from cwm_fixtures import mutate, run_dir, source, standalone

from ggp.core.registry import make_game
from ggp.llm import ScriptedLLM
from ggp.synth.rejection import reject_bad_samples
from ggp.synth.value import synthesize_values

NOT_A_FLOAT = "def value_function(state, player_id):\n    return 'good'\n"
NO_TERMINAL = "def value_function(state, player_id):\n    return 0.0\n"
GOOD = '''\
def value_function(state, player_id):
    """Terminal: the reward. Otherwise: share of open 4-windows that favour the player."""
    if get_current_player(state) == -4:
        return float(get_rewards(state)[player_id])
    board, me = state["board"], "xo"[player_id]
    score = 0
    for r in range(6):
        for c in range(6):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(4)]
                if not all(0 <= y < 6 and 0 <= x < 6 for y, x in cells):
                    continue
                marks = {board[y][x] for y, x in cells} - {"."}
                if marks == {me}:
                    score += 1
                elif marks and me not in marks:
                    score -= 1
    return max(-0.9, min(0.9, score / 20.0))
'''


def _answer(code: str) -> str:
    return f"Scripted answer.\n\n```python\n{code}```"


def test_value_candidates_are_checked_then_compared_with_rollouts(tmp_path):
    run = run_dir(tmp_path, "run", standalone("generalized_tic_tac_toe"))
    truth = make_game("generalized_tic_tac_toe")
    script = [_answer(NOT_A_FLOAT), _answer(NO_TERMINAL), _answer(GOOD)]
    kwargs = {"candidates": 3, "matches": 1, "sims": 15, "rollouts": 1, "seed": 0}
    record = synthesize_values(run, ScriptedLLM(script), truth.metadata, **kwargs)
    checks = [c["check"] for c in record["candidates"]]
    assert "not a finite float" in checks[0]["error"]
    assert "terminal state" in checks[1]["error"]
    assert checks[2]["ok"] and checks[2]["checked"] > 0
    duel = record["candidates"][2]["vs_rollouts"]
    assert duel["matches"] == 2 and duel["failures"] == 0
    assert record["selected"] == (2 if duel["margin"] > 0 else None)
    assert (run / "value_function.py").is_file() == (record["selected"] is not None)
    assert record["scripted_answers"] == 3
    # a rerun replays the answers from value_exchanges.jsonl, without a model
    again = synthesize_values(run, None, truth.metadata, **kwargs)
    assert again == record


def test_rejection_drops_a_model_that_fails_while_hosting(tmp_path):
    good = source("tic_tac_toe")
    crashing = mutate(good, ("def apply_action(state, action):",
                             ("def apply_action(state, action):\n"
                              "    if sum(row.count('.') for row in state['board']) < 8:\n"
                              "        raise RuntimeError('broken')")))
    runs = [run_dir(tmp_path, "a", good), run_dir(tmp_path, "b", good),
            run_dir(tmp_path, "c", crashing)]
    out = tmp_path / "rejection.json"
    meta = make_game("tic_tac_toe").metadata
    record = reject_bad_samples(runs, meta, out, planner="mcts", settings="sims=10:rollouts=1",
                                matches=1)
    # the crashing model is rejected; a and b are the same good model, so whether one
    # match each keeps both is a coin flip: at least one of them is kept
    assert str(runs[2]) in record["rejected"]
    assert record["kept"] and set(record["kept"]) <= {str(runs[0]), str(runs[1])}
    assert record["failures"] == 4  # every match hosted on the crashing model
    assert len(record["matches"]) == 12
    # resumable: nothing is replayed when the record is complete
    assert reject_bad_samples(runs, meta, out, planner="mcts", settings="sims=10:rollouts=1",
                              matches=1) == json.loads(out.read_text())
