"""Synthesis through the LLM layer (``ggp.llm``): its client, response cache, budgets and
fake server."""

from __future__ import annotations

import pytest
from synth_fakes import answer, fixture

import ggp.llm as llm
from ggp.cli.main import main
from ggp.synth.refine import Settings
from ggp.synth.run import reference_task, synthesize

GOOD = fixture("tic_tac_toe_cwm.py")
SCRIPT = [answer(GOOD.replace('0: "x"', '0: "X"')), answer(GOOD)]


def _client(tmp_path, mode, script):
    config = llm.LLMConfig(cache_mode=mode, cache_path=str(tmp_path / "cache.sqlite"))
    return llm.make_client(config, backend=llm.ScriptedLLM(script))


def test_a_run_replays_exactly_from_the_response_cache(tmp_path):
    task = reference_task("tic_tac_toe", games=3)
    first = synthesize(tmp_path / "a", task, _client(tmp_path, "read-write", SCRIPT),
                       Settings(), test_games=5)
    # A new run with an empty script: every answer must come from the cache.
    again = synthesize(tmp_path / "b", task, _client(tmp_path, "replay", []), Settings(),
                       test_games=5)
    assert first.status == again.status == "solved"
    assert first.scripted_answers == 2
    for name in ("tree.json", "cwm.py"):
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()


def test_cli_through_an_openai_compatible_server(tmp_path, monkeypatch, capsys):
    pytest.importorskip("openai")
    from ggp.llm.fake_server import ScriptedServer

    monkeypatch.setenv("OPENAI_API_KEY", "not-a-real-key")
    with ScriptedServer(SCRIPT) as server:
        code = main(["synth", "tic_tac_toe", "--backend", "openai", "--model", "fake",
                     "--base-url", server.openai_base_url, "--out", str(tmp_path / "run"),
                     "--games", "3", "--test-games", "5"])
    assert code == 0
    out = capsys.readouterr().out
    assert "solved" in out and "1.0000" in out
    assert "scripted" in (tmp_path / "run" / "cwm.py").read_text()


def test_the_layers_call_budget_ends_the_search_cleanly(tmp_path):
    config = llm.LLMConfig(max_calls=1)
    client = llm.make_client(config, backend=llm.ScriptedLLM(SCRIPT))
    meta = synthesize(tmp_path / "run", reference_task("tic_tac_toe", games=3), client,
                      Settings(), test_games=0)
    assert meta.status == "budget spent" and meta.calls == 1
    assert "budget" in meta.stopped_by.lower()
    assert meta.best.train_accuracy < 1.0


def test_a_hand_driven_run_resumes_through_the_exchange_files(tmp_path):
    from ggp.llm.exchange import ExchangeBackend, ExchangeTimeoutError

    folder = tmp_path / "exchange"
    folder.mkdir()
    (folder / "response_000001.md").write_text(SCRIPT[0])  # the person answered once
    task = reference_task("tic_tac_toe", games=3)
    with pytest.raises(ExchangeTimeoutError):  # ... then walked away
        synthesize(tmp_path / "run", task, ExchangeBackend(folder, timeout_s=1, settle_s=0.1),
                   Settings(), test_games=0)
    assert (folder / "prompt_000002.md").is_file()
    (folder / "response_000002.md").write_text(SCRIPT[1])
    meta = synthesize(tmp_path / "run", None, ExchangeBackend(folder, settle_s=0.1),
                      resume=True)
    assert meta.status == "solved" and meta.calls == 2
