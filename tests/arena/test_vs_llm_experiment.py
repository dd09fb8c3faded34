"""experiments/vs_llm/run.py end to end on a tiny budget (issue 29, item 5).

No language model is involved: the ``llm`` policy answers through its scripted backend
(random legal moves) or through an exchange folder fed by a scripted thread.
"""

import importlib.util
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ggp.arena.store import read_records

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "experiments" / "vs_llm" / "run.py"
TINY = ["--games", "leduc_poker", "--matches", "2", "--sims", "10"]


def load_script():
    spec = importlib.util.spec_from_file_location("vs_llm_run", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def in_tmp(tmp_path):
    """main() moves to the repository root; come back afterwards."""
    cwd = os.getcwd()
    yield tmp_path
    os.chdir(cwd)


def test_the_table_names_every_game_and_fills_the_budget():
    run = load_script()
    table = run.load_table()
    assert len(table["games"]) >= 5
    for game, entry in table["games"].items():
        assert (ROOT / entry["run"] / "cwm.py").is_file(), game
        plan = run.plan(table, game, move_time=2.0)
        assert "{" not in plan.agent + plan.baseline
        assert f"run={entry['run']}" in plan.agent
        # the budget is a move time once both agents take time= (an agent without a
        # {budget}, such as cwm_cfr, does not count), simulations before
        searching = [t for t in (entry["agent"], entry["baseline"]) if "{budget}" in t]
        if all(run.takes_time(t) for t in searching):
            expected = [":sims=0:time=2"] * 2
        else:
            expected = [f":sims={entry['sims']}", f":sims={entry['baseline_sims']}"]
        for spec, template, end in zip((plan.agent, plan.baseline),
                                       (entry["agent"], entry["baseline"]), expected):
            assert spec.endswith(end) or "{budget}" not in template


def test_a_scripted_run_plays_both_opponents_and_writes_the_table(in_tmp, capsys):
    out = in_tmp / "results"
    assert load_script().main(["--backend", "scripted", "--out", str(out), *TINY]) == 0
    for opponent in ("llm", "gt"):
        records = read_records(out / "leduc_poker" / f"vs_{opponent}" / "results.jsonl")
        assert len(records) == 4 and all("error" not in r for r in records)
        # duplicate pairs: both seats of an index share a seed
        assert {r["index"]: r["seed"] for r in records if r["focal_seat"] == 0} == \
            {r["index"]: r["seed"] for r in records if r["focal_seat"] == 1}
    table = (out / "table.md").read_text()
    assert table == capsys.readouterr().out
    assert "SCRIPTED" in table
    leduc = [line for line in table.splitlines() if line.startswith("| leduc_poker")]
    assert [line.split(" | ")[3] for line in leduc] == ["P0", "P1", "pairs"] * 2
    assert "| 2 pairs |" in leduc[2] and "LLM policy" in leduc[0]
    assert "gt_ismcts:sims=10" in leduc[3] or "gt_ismcts:sims=0:time=2" in leduc[3]
    # games not played yet keep their rows, marked
    gttt = [line for line in table.splitlines() if line.startswith("| generalized_tic")]
    assert len(gttt) == 2 and all("not yet measured" in line for line in gttt)
    [logged] = [json.loads(line) for line in (out / "runs.jsonl").read_text().splitlines()]
    assert logged["backend"] == "scripted" and logged["games"][0]["game"] == "leduc_poker"
    rows = json.loads((out / "table.json").read_text())
    pairs = [r for r in rows if r["seat"] == "pairs" and r["opponent"] == "llm"]
    assert pairs[0]["n"] == 2 and pairs[0]["unit"] == "pairs"
    assert pairs[0]["opponent_spec"].endswith("backend=scripted")
    assert pairs[0]["forfeits_us"] == 0 and pairs[0]["forfeits_them"] == 0


def answer_prompts(folder: Path, stop: threading.Event, limit: list[int]) -> threading.Thread:
    """A scripted answerer: 'Call' (always legal in Leduc) to the first limit[0] prompts."""

    def work():
        answered = 0
        while not stop.is_set():
            for prompt in sorted(folder.rglob("prompt_*.md")):
                response = prompt.with_name(prompt.name.replace("prompt_", "response_"))
                if response.exists() or answered >= limit[0]:
                    continue
                part = response.with_name(response.name + ".part")
                part.write_text("I call (scripted).\nACTION: Call")
                part.rename(response)
                answered += 1
            time.sleep(0.05)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    return thread


def test_an_interrupted_exchange_run_resumes_without_replaying_or_reasking(tmp_path):
    out, exchange = tmp_path / "results", tmp_path / "exchange"
    folder = exchange / "leduc_poker"
    folder.mkdir(parents=True)
    # relative folders: they are where the command runs, not in the repository
    command = [sys.executable, str(SCRIPT), "--backend", "exchange", "--exchange-dir",
               "exchange", "--out", "results", "--opponents", "llm", *TINY]
    results = out / "leduc_poker" / "vs_llm" / "results.jsonl"
    stop, limit = threading.Event(), [3]
    answerer = answer_prompts(folder, stop, limit)
    try:
        # the answerer stops after 3 prompts: the run finishes a match or two, then waits
        # for an answer that does not come, and is interrupted there (Ctrl-C)
        # Ctrl-C as in a terminal: a run started in the background of a non-interactive
        # shell (as CI may start the suite) inherits SIGINT ignored, and Python then
        # never raises KeyboardInterrupt
        process = subprocess.Popen(command, cwd=tmp_path, stderr=subprocess.PIPE, text=True,
                                   preexec_fn=lambda: signal.signal(signal.SIGINT,
                                                                    signal.SIG_DFL))
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(process.stderr), daemon=True)
        reader.start()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # until it says what it waits for
            if results.exists() and results.read_text() and any(
                    "waiting for " in line and "response_" in line for line in list(lines)):
                break
            time.sleep(0.1)
        else:
            process.kill()
            pytest.fail("the run never waited for an unanswered prompt: " + "".join(lines))
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
        reader.join(timeout=10)
        err = "".join(lines)
        assert process.returncode == 130, err
        assert "run the same command to resume" in err
        first = read_records(results)
        assert 1 <= len(first) < 4
        asked = sorted(str(p.relative_to(folder)) for p in folder.rglob("prompt_*.md"))
        # resume with answers flowing again: only the missing matches are played, the
        # prompt left waiting is asked again under its old number (not a new one)
        limit[0] = 10_000
        again = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True,
                               timeout=300)
    finally:
        stop.set()
        answerer.join()
    assert again.returncode == 0, again.stderr
    assert f"{len(first)} already played: resuming" in again.stderr
    records = read_records(results)
    assert len(records) == 4 and records[:len(first)] == first
    assert len({r["key"] for r in records}) == 4
    numbers = sorted(str(p.relative_to(folder)) for p in folder.rglob("prompt_*.md"))
    # a duplicate game: each seat of the llm asks through its own folder
    assert {n.split("/")[0] for n in numbers} == {"seat0", "seat1"}
    assert set(asked) <= set(numbers)
    assert all((folder / n.replace("prompt_", "response_")).exists() for n in numbers)
    table = (out / "table.md").read_text()
    assert "| leduc_poker |" in table and "| 2 pairs |" in table
    assert f"leduc_poker {len(numbers)} ({len(numbers)} answered)" in table


def test_the_mnk_proof_finds_wins_and_refutes_what_is_not_one():
    """experiments/vs_llm/mnk_first_player_win.py on small boards: 3x3 tic-tac-toe is no
    first-player win (a draw), and after x(0,0) o(0,1) x(1,0) o(1,1) X wins at once, while
    on 4x4 with 3 in a row the first player forces a win (brute force agrees: an open
    two in the middle row cannot be held)."""
    spec = importlib.util.spec_from_file_location(
        "mnk_proof", ROOT / "experiments" / "vs_llm" / "mnk_first_player_win.py")
    proof = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(proof)
    ttt = proof.Board(3, 3, 3)
    assert not proof.Prover(ttt).wins(0, 0, True, 9)
    x, o = 1 << 0 | 1 << 3, 1 << 1 | 1 << 4
    assert proof.Prover(ttt).wins(x, o, True, 1)
    assert proof.Prover(proof.Board(4, 4, 3)).wins(0, 0, True, 7)
    assert proof.main(["--rows", "3", "--cols", "3", "--k", "3", "--plies", "9",
                       "--check-games", "20"]) == 1
