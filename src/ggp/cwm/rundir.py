"""Where a synthesis run keeps the files an agent plays with.

A *model source* is a synthesis run directory (its ``cwm.py``, and its selected value
function ``value_function.py`` when value-function synthesis chose one) or a plain ``.py``
model file. Paths are made absolute because sandboxed workers run in a private directory.
"""

from __future__ import annotations

from pathlib import Path

from ggp.sandbox.hosted import ModelSourceError


def value_file(source: str | Path, value: str) -> Path | None:
    """The value-function file to play with: ``value`` is ``""`` (none), ``"auto"`` (the
    run's selected ``value_function.py`` if there is one) or a path."""
    if not value:
        return None
    if value == "auto":
        path = Path(source).expanduser().resolve()
        selected = (path if path.is_dir() else path.parent) / "value_function.py"
        return selected if selected.is_file() else None
    path = Path(value).expanduser().resolve()
    if not path.is_file():
        raise ModelSourceError(f"No value-function file at {value}.")
    return path


def model_source(model: Path, value: Path | None = None) -> str:
    """The program an agent loads: the model, with the value function appended."""
    text = model.read_text(encoding="utf-8")
    if value is not None:
        text += "\n\n# ---- value function (" + value.name + ")\n" + value.read_text(
            encoding="utf-8")
    return text
