"""The built wheel installs into a clean virtual environment and runs (a plain install:
no extras, so no matplotlib either)."""

import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(args, cwd, timeout=600):
    proc = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout


@pytest.mark.slow
def test_wheel_installs_into_a_fresh_venv_and_runs(tmp_path):
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "pip", "wheel", ROOT, "--no-deps", "--quiet", "-w", dist],
         cwd=tmp_path)
    wheels = list(dist.glob("ggp-*.whl"))
    assert len(wheels) == 1, wheels
    env = tmp_path / "venv"
    venv.create(env, with_pip=True)
    _run([env / "bin" / "python", "-m", "pip", "install", "--quiet",
          "--disable-pip-version-check", wheels[0]], cwd=tmp_path)
    ggp = env / "bin" / "ggp"
    # run from elsewhere, so only the installed package can be imported
    assert "tic_tac_toe" in _run([ggp, "games"], cwd=tmp_path)
    assert "Returns:" in _run([ggp, "play", "connect_four", "--seed", "1"], cwd=tmp_path)
    # package data: the GDL games and the web page travel in the wheel
    site = _run([env / "bin" / "python", "-c", "import ggp, os; print(os.path.dirname("
                 "ggp.__file__))"], cwd=tmp_path).strip()
    assert (Path(site) / "gdl" / "games" / "connect_four.kif").is_file()
    assert (Path(site) / "web" / "static" / "app.js").is_file()
    out = _run([ggp, "arena", "-g", "tic_tac_toe", "-a", "random", "-o", "random", "-n", "1",
                "--out", tmp_path / "arena"], cwd=tmp_path)
    assert "pip install 'ggp[plots]'" in out and (tmp_path / "arena" / "report.md").is_file()
