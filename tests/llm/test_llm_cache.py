"""The SQLite response cache: record a multi-call run, replay it exactly."""

from __future__ import annotations

import sqlite3

import pytest

from ggp.llm import (
    CacheMissError,
    LLMClient,
    ResponseCache,
    SamplingParams,
    ScriptedLLM,
    make_client,
)
from ggp.llm.cache import request_key


def run_program(client) -> list[str]:
    """A small 'run': distinct prompts, a repeated identical prompt, parallel calls."""
    answers = [client.complete("plan the game").text]
    answers += [client.complete("sample a move", temperature=1.0).text for _ in range(3)]
    answers += [c.text for c in client.complete_many([f"question {i}" for i in range(4)])]
    return answers


def counter_script():
    """Answers that differ on every call, so replay mistakes cannot hide."""
    calls = []

    def respond(messages):
        calls.append(messages)
        return f"answer #{len(calls)} to {messages[-1]['content']}"

    return respond, calls


def test_multi_call_run_replays_exactly(tmp_path, fast_config):
    respond, calls = counter_script()
    recorded_config = fast_config(cache_mode="read-write")
    with make_client(recorded_config, run_dir=tmp_path, backend=ScriptedLLM(respond)) as client:
        recorded = run_program(client)
        assert client.usage()["real_calls"] == 8
    # identical requests got different samples
    assert len(set(recorded[1:4])) == 3
    real_calls = len(calls)

    replay_config = fast_config(cache_mode="replay")
    dead = ScriptedLLM([])  # any real call would raise ScriptExhaustedError
    with make_client(replay_config, run_dir=tmp_path, backend=dead) as client:
        replayed = run_program(client)
        usage = client.usage()
    assert replayed[:4] == recorded[:4]
    # parallel distinct requests come back in request order
    assert replayed[4:] == recorded[4:]
    assert usage["cache_hits"] == 8 and usage["real_calls"] == 0
    assert len(calls) == real_calls and dead.requests == []


def test_read_write_mode_fills_only_the_gaps(tmp_path, fast_config):
    respond, calls = counter_script()
    config = fast_config(cache_mode="read-write")
    with make_client(config, run_dir=tmp_path, backend=ScriptedLLM(respond)) as client:
        first = [client.complete("same").text for _ in range(2)]
    with make_client(config, run_dir=tmp_path, backend=ScriptedLLM(respond)) as client:
        second = [client.complete("same").text for _ in range(3)]
    assert second[:2] == first
    assert len(calls) == 3  # only the third occurrence was new


def test_replay_miss_is_an_error(tmp_path, fast_config):
    config = fast_config(cache_mode="replay")
    with make_client(config, run_dir=tmp_path, backend=ScriptedLLM(["unused"])) as client:
        with pytest.raises(CacheMissError, match="occurrence 1"):
            client.complete("never recorded")
        assert client.usage()["failed_calls"] == 1


def test_key_depends_on_every_part_of_the_request():
    messages = [{"role": "user", "content": "x"}]
    base = request_key("openai", "m", messages, SamplingParams())
    assert base == request_key("openai", "m", [dict(messages[0])], SamplingParams())
    assert base != request_key("anthropic", "m", messages, SamplingParams())
    assert base != request_key("openai", "m2", messages, SamplingParams())
    assert base != request_key("openai", "m", [{"role": "user", "content": "y"}], SamplingParams())
    assert base != request_key("openai", "m", messages, SamplingParams(temperature=0.0))
    assert base != request_key("openai", "m", messages, SamplingParams(extra={"a": 1}))


def test_records_are_durable_while_the_writer_is_still_open(tmp_path):
    """Each record is committed at once (WAL): a crash right after loses nothing."""
    path = tmp_path / "cache.sqlite"
    writer = LLMClient(ScriptedLLM(["a", "b"]), cache=ResponseCache(path))
    writer.complete("one")
    writer.complete("two")
    # a second connection, as after a crash of the writer, sees both records
    rows = sqlite3.connect(path).execute("SELECT COUNT(*) FROM responses").fetchone()[0]
    assert rows == 2
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    reader = LLMClient(ScriptedLLM([]), cache=ResponseCache(path, "replay"))
    assert [reader.complete("one").text, reader.complete("two").text] == ["a", "b"]
    writer.close()
    reader.close()


def test_cache_needs_a_location(fast_config):
    from ggp.llm import LLMConfigError

    with pytest.raises(LLMConfigError, match="cache"):
        make_client(fast_config(cache_mode="read-write"), backend=ScriptedLLM([]))


def test_parallel_identical_requests_get_distinct_samples_and_replay_as_a_set(
    tmp_path, fast_config
):
    respond, calls = counter_script()
    config = fast_config(cache_mode="read-write", concurrency=3)
    with make_client(config, run_dir=tmp_path, backend=ScriptedLLM(respond)) as client:
        recorded = [c.text for c in client.complete_many(["same"] * 6)]
    assert len(set(recorded)) == 6
    replay = fast_config(cache_mode="replay", concurrency=3)
    with make_client(replay, run_dir=tmp_path, backend=ScriptedLLM([])) as client:
        replayed = [c.text for c in client.complete_many(["same"] * 6)]
    assert sorted(replayed) == sorted(recorded)
