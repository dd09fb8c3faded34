"""Sandboxed workers reused across matches (ggp.sandbox.pool)."""

from pathlib import Path

from ggp.arena.match import play_match
from ggp.arena.sandboxed import SandboxedAgent
from ggp.load import load_model
from ggp.sandbox import Limits
from ggp.sandbox.pool import POOL, WorkerPool

HERE = Path(__file__).parent
ENTRIES = str(HERE / "sandbox_entries.py")
MEMORY = str(HERE / "memory_agent.py")


def test_the_pool_reuses_only_live_workers_with_the_same_arguments():
    pool = WorkerPool(max_idle=2)
    try:
        worker, reused = pool.take(ENTRIES, {"start": 1})
        assert not reused and worker.call("add", {"amount": 1}) == 2
        pool.give_back(worker)
        again, reused = pool.take(ENTRIES, {"start": 1})
        assert reused and again is worker and again.call("add", {"amount": 1}) == 3
        other, reused = pool.take(ENTRIES, {"start": 5})  # other init: another worker
        assert not reused and other is not worker
        other.close()
        pool.give_back(other)  # a dead worker is dropped
        pool.give_back(again)
        assert len(pool) == 1
        for start in (7, 8):  # more than max_idle: the oldest goes
            extra, _ = pool.take(ENTRIES, {"start": start})
            pool.give_back(extra)
        assert len(pool) == 2 and not again.alive
        old, _ = pool.take(ENTRIES, {"start": 9}, limits=Limits(cpu_seconds=600))
        old.pool_born -= 301  # past half its CPU-time limit: it might run out mid-match
        pool.give_back(old)
        fresh, reused = pool.take(ENTRIES, {"start": 9}, limits=Limits(cpu_seconds=600))
        fresh.close()  # taken, not given back: the pool would not close it
        assert reused is False
        assert not old.alive
    finally:
        pool.close()


def _two_matches(ttt, *, fresh: bool) -> list:
    moves = []
    for seed in (1, 2):
        if fresh:
            POOL.close()
        agents = [SandboxedAgent(MEMORY, "tic_tac_toe"), SandboxedAgent("random", "tic_tac_toe")]
        try:
            result = play_match(ttt, agents, seed=seed)
        finally:
            for agent in agents:
                agent.close()
        assert result.forfeit is None
        moves.append([s["action"] for s in result.steps])
    return moves


def test_a_reused_sandboxed_agent_plays_as_a_fresh_one():
    ttt = load_model("tic_tac_toe")
    POOL.close()
    try:
        reused = _two_matches(ttt, fresh=False)
        assert len(POOL) == 2  # both agents' workers are waiting for the next match
        fresh = _two_matches(ttt, fresh=True)
    finally:
        POOL.close()
    assert reused == fresh
