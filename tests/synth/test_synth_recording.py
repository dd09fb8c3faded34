"""The recording wrapper: answers are matched by request and occurrence."""

from __future__ import annotations

import json

import pytest

from ggp.llm import ScriptedLLM
from ggp.synth.llm import RecordingLLM, ReplayMissError

ASK = [{"role": "user", "content": "same question"}]


def test_repeated_requests_replay_in_order(tmp_path):
    log = tmp_path / "a.jsonl"
    live = RecordingLLM(ScriptedLLM(["one", "two"]), log)
    assert [live.complete(ASK).text for _ in range(2)] == ["one", "two"]
    replay = RecordingLLM(None, tmp_path / "b.jsonl", replay_from=log)
    answers = [replay.complete(ASK) for _ in range(2)]
    assert [a.text for a in answers] == ["one", "two"] and all(a.replayed for a in answers)
    with pytest.raises(ReplayMissError):
        replay.complete(ASK)
    assert len((tmp_path / "b.jsonl").read_text().splitlines()) == 2


def test_resuming_in_place_keeps_the_log_and_survives_a_torn_line(tmp_path):
    log = tmp_path / "a.jsonl"
    RecordingLLM(ScriptedLLM(["one"]), log).complete(ASK)
    with open(log, "a") as fh:
        fh.write('{"call": 2, "key": "tor')  # the process died while writing
    resumed = RecordingLLM(ScriptedLLM(["two"]), log)
    assert resumed.complete(ASK).replayed
    assert resumed.complete(ASK).text == "two"
    entries = []
    for line in log.read_text().splitlines():
        try:
            entries.append(json.loads(line))
        except json.JSONDecodeError:
            pass
    assert [e["response"] for e in entries] == ["one", "two"]
