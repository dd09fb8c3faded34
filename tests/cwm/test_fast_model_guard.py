"""Planning on a faster program with the original as the check (fast_mcts / fast_ismcts): a
divergence seen at a real move is logged and the agent plays on the original from then on."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from ggp.agents import make_agent
from ggp.arena.match import play_match
from ggp.core.registry import make_game

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "synth" / "fixtures"
FAST_TTT = (ROOT / "src" / "ggp" / "games" / "tic_tac_toe.py").read_text(encoding="utf-8")
SLOW_TTT = (FIXTURES / "tic_tac_toe_slow.py").read_text(encoding="utf-8")
LEDUC = (FIXTURES / "leduc_poker_cwm.py").read_text(encoding="utf-8")


def _folder(tmp_path: Path, fast: str, original: str) -> Path:
    folder = tmp_path / "faster_run"
    folder.mkdir()
    (folder / "faster.py").write_text(fast, encoding="utf-8")
    (folder / "original.py").write_text(original, encoding="utf-8")
    return folder


def _play(game: str, spec: str, seat: int = 0, seed: int = 0):
    model = make_game(game)
    agent = make_agent(spec, model)
    agents = [make_agent("random", model) for _ in range(model.num_players)]
    agents[seat] = agent
    try:
        result = play_match(model, agents, seed=seed)
    finally:
        for a in agents:
            a.close()
    return agent, result


def test_an_equal_faster_program_is_used_for_the_whole_match(tmp_path):
    run = _folder(tmp_path, FAST_TTT, SLOW_TTT)
    agent, result = _play("tic_tac_toe", f"fast_mcts:run={run}:sims=10:rollouts=1")
    assert agent.report["program"] == "faster" and agent.report["divergence"] is None
    assert agent.report["checks"] >= 2 and agent.report["checked"]
    assert result.forfeit is None


def test_a_legal_move_mismatch_is_caught_and_the_original_takes_over(tmp_path, caplog):
    # the "fast" program forgets the centre cell: wrong on the agent's first turn
    wrong = FAST_TTT.replace('    return [names[i] for i, (r, c) in enumerate(CELLS) if board[r][c] == "."]',
                             '    return [names[i] for i, (r, c) in enumerate(CELLS) '
                             'if board[r][c] == "." and (r, c) != (1, 1)]')
    assert wrong != FAST_TTT
    run = _folder(tmp_path, wrong, SLOW_TTT)
    log_file = tmp_path / "log.jsonl"
    with caplog.at_level(logging.WARNING, logger="ggp.cwm"):
        agent, result = _play("tic_tac_toe",
                              f"fast_mcts:run={run}:sims=10:rollouts=1:log={log_file}")
    assert agent.report["program"] == "original"
    assert agent.report["divergence"]["move"] == 0
    assert "legal actions differ" in agent.report["divergence"]["reason"]
    assert "x(1,1)" in agent.report["divergence"]["reason"]
    assert "diverges from the original" in caplog.text
    assert '"program": "original"' in log_file.read_text()
    assert result.forfeit is None  # the match was played to its end, on the original


def test_hidden_information_is_checked_along_a_sampled_history(tmp_path):
    ok = _folder(tmp_path, LEDUC, LEDUC)
    agent, _ = _play("leduc_poker", f"fast_ismcts:run={ok}:sims=10:rollouts=1", seed=3)
    assert agent.report["divergence"] is None and agent.report["checks"] >= 1
    # the faster program bets 3 instead of 2 in the first round: it follows the real
    # observations until a first-round raise shows in them (seed 3's match has one)
    wrong = LEDUC.replace("RAISE_SIZE = {1: 2, 2: 4}", "RAISE_SIZE = {1: 3, 2: 4}")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "faster.py").write_text(wrong)
    (bad / "original.py").write_text(LEDUC)
    caught = 0
    for seed in range(4):
        agent, _ = _play("leduc_poker", f"fast_ismcts:run={bad}:sims=10:rollouts=1",
                         seed=seed)
        caught += agent.report["divergence"] is not None
    assert caught >= 1


def test_a_missing_program_is_a_spec_error(tmp_path):
    from ggp.agents import AgentSpecError

    with pytest.raises(AgentSpecError, match="No program"):
        make_agent(f"fast_mcts:run={tmp_path}", make_game("tic_tac_toe"))
    with pytest.raises(AgentSpecError, match="needs run=DIR"):
        make_agent("fast_mcts", make_game("tic_tac_toe"))
