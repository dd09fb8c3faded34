"""The file-exchange backend: numbered prompt files out, response files in."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from ggp.llm import LLMConfigError, LLMTimeoutError, make_client
from ggp.llm.exchange import ExchangeBackend


def answer_files(folder: Path, answers: dict[int, str], stop: threading.Event) -> threading.Thread:
    """A stand-in for the human: answers prompt N with answers[N] once it appears."""

    def work():
        pending = dict(answers)
        while pending and not stop.is_set():
            for number in list(pending):
                if (folder / f"prompt_{number:06d}.json").exists():
                    part = folder / f"response_{number:06d}.md.part"
                    part.write_text(pending.pop(number) + "\n")
                    part.rename(folder / f"response_{number:06d}.md")
            time.sleep(0.01)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    return thread


def fast_backend(folder, **kw):
    return ExchangeBackend(folder, poll_s=0.01, settle_s=0.02, **kw)


def test_prompt_and_response_files(tmp_path):
    stop = threading.Event()
    helper = answer_files(tmp_path, {1: "first answer", 2: "second\nanswer"}, stop)
    backend = fast_backend(tmp_path, model="human")
    one = backend.complete(
        [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Q1"}]
    )
    two = backend.complete("Q2", temperature=0.5)
    stop.set()
    helper.join()
    assert (one.text, two.text) == ("first answer", "second\nanswer")
    assert one.backend == "exchange" and one.model == "human" and not one.scripted
    names = sorted(p.name for p in tmp_path.iterdir() if p.name != ".lock")
    assert names == [
        "prompt_000001.json",
        "prompt_000001.md",
        "prompt_000002.json",
        "prompt_000002.md",
        "response_000001.md",
        "response_000002.md",
    ]
    assert (
        tmp_path / "prompt_000001.md"
    ).read_text() == "### system\n\nBe brief.\n\n### user\n\nQ1\n\n"
    request = json.loads((tmp_path / "prompt_000002.json").read_text())
    assert request["messages"] == [{"role": "user", "content": "Q2"}]
    assert request["params"]["temperature"] == 0.5 and request["model"] == "human"


def test_timeout_is_not_retried_under_a_new_number(tmp_path, fast_config):
    config = fast_config(backend="exchange", exchange_dir=str(tmp_path), exchange_timeout_s=0.05)
    with make_client(config) as client:
        with pytest.raises(LLMTimeoutError, match="response_000001.md"):
            client.complete("anyone there?")
    assert not (tmp_path / "prompt_000002.json").exists()


def test_rerun_resumes_with_existing_answers(tmp_path):
    stop = threading.Event()
    helper = answer_files(tmp_path, {1: "a1"}, stop)
    assert fast_backend(tmp_path).complete("Q1").text == "a1"
    stop.set()
    helper.join()
    # a second run asks the same first question: answered from the folder at once
    second_run = fast_backend(tmp_path, timeout_s=0.05)
    assert second_run.complete("Q1").text == "a1"
    # a different question takes the next free number instead of a stale answer
    with pytest.raises(LLMTimeoutError, match="response_000002.md"):
        fast_backend(tmp_path, timeout_s=0.05).complete("another question")
    assert "another question" in (tmp_path / "prompt_000002.md").read_text()


def test_one_folder_serves_several_clients_and_their_reruns(tmp_path):
    """Two matches of a tournament share the folder: each new request takes a fresh
    number, a request asked twice by one client gets two prompts, and a rerun of both
    matches (in another order) gets every answer back without a new prompt."""
    stop = threading.Event()
    helper = answer_files(tmp_path, {n: f"a{n}" for n in range(1, 6)}, stop)
    match_a, match_b = fast_backend(tmp_path), fast_backend(tmp_path)
    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(lambda: [match_a.complete(q).text for q in ("Q1", "Q2", "Q1")])
        second = pool.submit(lambda: [match_b.complete(q).text for q in ("Q3", "Q4")])
        answers_a, answers_b = first.result(), second.result()
    stop.set()
    helper.join()
    assert len(set(answers_a + answers_b)) == 5  # five prompts, five different answers
    assert answers_a[0] != answers_a[2]
    numbers = sorted(p.name for p in tmp_path.glob("prompt_*.json"))
    assert numbers == [f"prompt_{n:06d}.json" for n in range(1, 6)]
    rerun_b, rerun_a = fast_backend(tmp_path, timeout_s=0.05), fast_backend(tmp_path, timeout_s=0.05)
    assert [rerun_b.complete(q).text for q in ("Q3", "Q4")] == answers_b
    assert [rerun_a.complete(q).text for q in ("Q1", "Q2", "Q1")] == answers_a
    assert len(list(tmp_path.glob("prompt_*.json"))) == 5


def test_a_response_still_being_written_is_not_read_early(tmp_path):
    backend = ExchangeBackend(tmp_path, poll_s=0.01, settle_s=0.6)
    path = tmp_path / "response_000001.md"

    def slow_writer():
        while not (tmp_path / "prompt_000001.json").exists():
            time.sleep(0.01)
        with path.open("w") as handle:
            handle.write("partial")
            handle.flush()
            time.sleep(0.05)  # well inside the settle time
            handle.write(" and complete")

    thread = threading.Thread(target=slow_writer)
    thread.start()
    answer = backend.complete("Q")
    thread.join()
    assert answer.text == "partial and complete"


def test_exchange_needs_a_folder(fast_config):
    with pytest.raises(LLMConfigError, match="exchange_dir"):
        make_client(fast_config(backend="exchange"))


def test_a_folder_without_request_twins_keeps_its_prompts_and_answers(tmp_path):
    # recorded exchange folders are committed without the .json twins: their numbers
    # stay taken, so a new question is never written over an old prompt nor handed the
    # old prompt's answer
    (tmp_path / "prompt_000001.md").write_text("an old question")
    (tmp_path / "response_000001.md").write_text("an old answer")
    stop = threading.Event()
    helper = answer_files(tmp_path, {2: "the new answer"}, stop)
    text = fast_backend(tmp_path).complete("a new question").text
    stop.set()
    helper.join()
    assert text == "the new answer"
    assert (tmp_path / "prompt_000001.md").read_text() == "an old question"
    assert "a new question" in (tmp_path / "prompt_000002.md").read_text()
