"""Checkpoint files are data: a pickle that would run code when loaded (the classic
``__reduce__`` payload) is refused with a one-line error, and its code never runs."""

from __future__ import annotations

import os

import pytest

torch = pytest.importorskip("torch")

from ggp.core.errors import GGPError  # noqa: E402


class _Payload:
    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def _hostile(path, marker) -> None:
    # torch's own format (a zip holding a pickle), as a real checkpoint is written
    torch.save({"format": "ggp-ppo", "config": _Payload(str(marker))}, path)


def test_a_hostile_ppo_checkpoint_is_refused_and_never_runs(tmp_path):
    from ggp.learn.ppo import load_checkpoint

    path, marker = tmp_path / "best.pt", tmp_path / "ran"
    _hostile(path, marker)
    with pytest.raises(GGPError) as error:
        load_checkpoint(path)
    assert "not a PPO checkpoint" in str(error.value) and "\n" not in str(error.value)
    assert not marker.exists()


def test_a_hostile_rnad_checkpoint_is_refused_and_never_runs(tmp_path):
    from ggp.sepot.rnad import RNaDLearner

    path, marker = tmp_path / "latest.pt", tmp_path / "ran"
    _hostile(path, marker)
    with pytest.raises(GGPError) as error:
        RNaDLearner.load(str(path))
    assert "not an R-NaD checkpoint" in str(error.value)
    assert not marker.exists()


def test_the_payload_is_real(tmp_path):
    """Proof that the fixture would run code if loaded as a plain pickle."""
    path, marker = tmp_path / "best.pt", tmp_path / "ran"
    _hostile(path, marker)
    torch.load(path, weights_only=False)
    assert marker.exists()
