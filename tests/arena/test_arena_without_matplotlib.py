"""A plain install (no matplotlib) still writes tournament tables and exits 0."""

import subprocess
import sys


def _ggp_without_matplotlib(tmp_path, *args: str) -> subprocess.CompletedProcess:
    stub = tmp_path / "stub" / "matplotlib"
    stub.mkdir(parents=True, exist_ok=True)
    # first on the path, so 'import matplotlib' fails as it does when it is not installed
    (stub / "__init__.py").write_text("raise ImportError(\"No module named 'matplotlib'\")\n")
    env_path = str(tmp_path / "stub")
    return subprocess.run([sys.executable, "-m", "ggp.cli.main", *args], capture_output=True,
                          text=True, timeout=120, env={**_env(), "PYTHONPATH": env_path})


def _env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def test_arena_and_report_write_tables_without_matplotlib(tmp_path):
    out = tmp_path / "arena"
    proc = _ggp_without_matplotlib(tmp_path, "arena", "-g", "tic_tac_toe", "-a", "random",
                                   "-o", "random", "-n", "2", "--out", str(out))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert (out / "report.md").is_file() and (out / "report.csv").is_file()
    assert not (out / "plots").exists()
    assert "pip install 'ggp[plots]'" in proc.stdout
    (out / "report.md").unlink()
    proc = _ggp_without_matplotlib(tmp_path, "report", str(out), "--no-show")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (out / "report.md").is_file()
    assert "pip install 'ggp[plots]'" in proc.stdout
