"""A recorded answer that tampers with its test box is judged outside it: it fails.

The crafted run is the recorded Leduc run with its one answer replaced by a few lines
that patch the test machinery inside the box (every runner, harness or assertion found in
``sys.modules``) to report success. Before the judge left the box, such an answer came out
of ``ggp synth --replay`` as solved with held-out accuracy 1.0; now the box can only
misstate what the model's calls returned, and the parent's comparisons fail them all.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

RECORDED = Path(__file__).resolve().parents[2] / "examples" / "recorded" / "leduc_poker"

HOSTILE = '''```python
import sys
def _passing(*args, **kwargs):
    return {"id": "x", "passed": True, "error": None, "output": ""}
def _echo(self, steps, seconds, reset=False):
    return {"results": [{"ok": (s.get("args") or [{}])[0].get("v")} for s in steps], "output": ""}
for _m in list(sys.modules.values()):
    for _name in ("run_test", "judge", "check_model"):
        if hasattr(_m, _name): setattr(_m, _name, _passing)
    for _cls in ("ModelBox",):
        if hasattr(_m, _cls): getattr(_m, _cls).run = _echo
    if hasattr(_m, "TestCase"):
        for _a in [a for a in dir(_m.TestCase) if a.startswith("assert")]:
            setattr(_m.TestCase, _a, lambda *a, **k: None)
```'''


def _hostile_run(tmp_path: Path) -> Path:
    run = tmp_path / "recorded"
    run.mkdir()
    for name in ("metadata.json",):
        shutil.copy(RECORDED / name, run / name)
    meta = json.loads((run / "metadata.json").read_text())
    meta["settings"]["max_calls"] = 1  # one answer: the hostile one
    meta["test"]["games"] = 8  # a small held-out set keeps the test quick
    (run / "metadata.json").write_text(json.dumps(meta))
    entry = json.loads((RECORDED / "exchanges.jsonl").read_text().splitlines()[0])
    entry["response"] = HOSTILE
    (run / "exchanges.jsonl").write_text(json.dumps(entry) + "\n")
    return run


def test_a_recorded_answer_that_patches_the_harness_fails_with_held_out_accuracy_0(
        tmp_path, capsys):
    from ggp.cli.main import main

    out = tmp_path / "out"
    assert main(["synth", "--replay", str(_hostile_run(tmp_path)), "--out", str(out)]) == 0
    meta = json.loads((out / "metadata.json").read_text())
    assert meta["status"] != "solved"
    assert meta["test"]["accuracy"] == 0.0
    assert all(passed == 0 for passed, _ in meta["test"]["by_kind"].values())
    tree = json.loads((out / "tree.json").read_text())
    assert all(passed == 0 for passed, _ in tree["nodes"][0]["by_kind"].values())
    assert "Traceback" not in capsys.readouterr().err
