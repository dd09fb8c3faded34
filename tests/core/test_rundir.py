"""The run folder's metadata record (``ggp.rundir``): every recorded run loads unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ggp.rundir import (
    FASTER_FORMAT,
    Best,
    RunError,
    RunMetadata,
    RunStore,
    TestInfo,
    load_metadata,
    metadata_if_any,
)

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path("/work/shared/recorded")  # the lab's shared recordings, where present


def _recorded() -> list[Path]:
    """Every metadata.json under examples/ (recorded runs, worked examples) and, where
    this checkout has one, the shared recorded suite."""
    files = sorted((ROOT / "examples").rglob("metadata.json"))
    if SHARED.is_dir():
        files += sorted(SHARED.rglob("metadata.json"))
    return files


RECORDED = _recorded()


def test_there_are_recorded_runs_to_check():
    assert len(RECORDED) >= 50


@pytest.mark.parametrize("path", RECORDED, ids=lambda p: str(p.parent.name))
def test_every_recorded_run_round_trips_unchanged(path):
    raw = json.loads(path.read_text(encoding="utf-8"))
    meta = RunMetadata.from_dict(raw)
    assert meta.to_dict() == raw
    # ... in the same key order, so that rewriting a file leaves it as it was
    assert json.dumps(meta.to_dict()) == json.dumps(raw)
    assert meta.game and (meta.is_finished or meta.is_speed_refinement)


def test_typed_fields_of_a_recorded_synthesis():
    meta = load_metadata(ROOT / "examples" / "recorded" / "leduc_poker")
    assert meta.format == 1 and meta.source == "reference game"
    assert meta.settings["mode"] == "tree"
    assert meta.test.players == ["random", "ismcts:sims=100:rollouts=1"]
    assert meta.best.train_accuracy == 1.0 and meta.backend.base_url is None
    assert meta.truth_spec("anywhere") == "leduc_poker"
    assert not meta.is_speed_refinement


def test_a_speed_refinement_keeps_its_own_keys():
    meta = load_metadata(ROOT / "examples" / "recorded" / "faster" / "leduc_poker")
    assert meta.format == FASTER_FORMAT and meta.is_speed_refinement
    assert "kept" in meta.extra and isinstance(meta.source, dict)


def test_unknown_keys_and_nulls_survive_and_new_values_are_written():
    raw = {"format": 1, "game": "g", "future": {"x": [1]}, "best": None,
           "test": {"games": 3, "players": "from file", "new": True}}
    meta = RunMetadata.from_dict(raw)
    assert meta.to_dict() == raw and meta.test.extra == {"new": True}
    meta.best = Best(node=2, train_accuracy=0.5)
    meta.status = "solved"
    out = meta.to_dict()
    assert out["best"] == {"node": 2, "train_accuracy": 0.5}
    assert out["future"] == {"x": [1]} and out["status"] == "solved"
    assert "calls" not in out  # never set: not written


def test_none_is_written_when_assigned_but_not_when_left_unset():
    info = TestInfo(games=4)
    assert info.to_dict() == {"games": 4}
    info.inference_accuracy = None  # measured: there were no inference tests
    assert info.to_dict() == {"games": 4, "inference_accuracy": None}


def test_bad_metadata_is_a_clear_error(tmp_path):
    with pytest.raises(RunError, match="not a synthesis run"):
        load_metadata(tmp_path)
    RunStore(tmp_path).write_json("metadata.json", {"game": "g", "test": [1, 2]})
    with pytest.raises(RunError, match=r"metadata.json.test is not a JSON object"):
        load_metadata(tmp_path)
    RunStore(tmp_path).write_json("metadata.json", {"format": 2, "game": "g"})
    with pytest.raises(RunError, match="format 2, newer than this ggp reads"):
        load_metadata(tmp_path)
    (tmp_path / "metadata.json").write_text("{")
    with pytest.raises(RunError, match="is damaged"):
        load_metadata(tmp_path)
    assert metadata_if_any(tmp_path) is None


def test_saved_metadata_reads_back(tmp_path):
    store = RunStore(tmp_path / "run")
    meta = RunMetadata(format=1, game="g", settings={"mode": "tree"})
    store.save_metadata(meta)
    assert store.exists() and store.load_metadata() == meta
