"""A tournament of LLM-policy matches answered through ONE exchange folder (issue 17).

Every match used to number its requests from 1 in the same folder, so all matches but
the first were forfeited ("prompt_000001.json holds a different request"). The answers
here are SCRIPTED (a thread writes response files), not a model's work.
"""

from __future__ import annotations

import json
import random
import re
import threading
import time
from pathlib import Path

from ggp.cli.main import main

CELL = re.compile(r"\b[xo]\(\d,\d\)")


def scripted_answerer(folder: Path, stop: threading.Event) -> threading.Thread:
    """Answers each new prompt: 'Pass' in Kuhn poker, a random cell in tic-tac-toe."""
    rng = random.Random(0)

    def work():
        while not stop.is_set():
            for prompt in sorted(folder.glob("prompt_*.json")):
                response = folder / prompt.name.replace("prompt_", "response_").replace(
                    ".json", ".md")
                if response.exists():
                    continue
                text = prompt.read_text()
                if "kuhn" in text.lower():
                    answer = "ACTION: Pass"
                else:
                    symbol = rng.choice("xo")
                    answer = f"ACTION: {symbol}({rng.randrange(3)},{rng.randrange(3)})"
                part = response.with_name(response.name + ".part")
                part.write_text(answer)
                part.rename(response)
            time.sleep(0.02)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    return thread


def _tournament(out: Path) -> list[dict]:
    code = main(["arena", "-g", "tic_tac_toe", "-g", "kuhn_poker",
                 "-a", "llm:examples=3:rethinks=2", "-o", "random", "-n", "2", "-j", "0",
                 "--out", str(out), "--no-plots"])
    assert code == 0
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


def test_one_exchange_folder_answers_a_whole_tournament_and_its_rerun(tmp_path, monkeypatch):
    folder = tmp_path / "exchange"
    monkeypatch.setenv("GGP_LLM_BACKEND", "exchange")
    monkeypatch.setenv("GGP_LLM_EXCHANGE_DIR", str(folder))
    folder.mkdir()
    stop = threading.Event()
    helper = scripted_answerer(folder, stop)
    try:
        first = _tournament(tmp_path / "first")
    finally:
        stop.set()
        helper.join()
    assert len(first) == 8
    text = json.dumps(first)
    assert "different request" not in text and "LLMConfigError" not in text
    prompts = sorted(int(p.name[7:13]) for p in folder.glob("prompt_*.json"))
    assert prompts == list(range(1, len(prompts) + 1)) and len(prompts) >= 8
    # The same tournament again (e.g. after a crash), with nobody answering: every
    # request is found in the folder, no new prompt is written, the results are the same.
    monkeypatch.setenv("GGP_LLM_EXCHANGE_TIMEOUT_S", "5")
    again = _tournament(tmp_path / "again")
    assert len(list(folder.glob("prompt_*.json"))) == len(prompts)
    assert [r["returns"] for r in again] == [r["returns"] for r in first]
