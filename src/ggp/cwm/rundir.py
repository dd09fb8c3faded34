"""Where a synthesis run keeps the files an agent plays with.

A *model source* is a synthesis run directory (its ``cwm.py``, and its selected value
function ``value_function.py`` when value-function synthesis chose one, and its selected
policy prior ``policy_prior.py`` when prior synthesis chose one) or a plain ``.py`` model
file. Paths are made absolute because sandboxed workers run in a private directory.
"""

from __future__ import annotations

from pathlib import Path

from ggp.sandbox.hosted import ModelSourceError


def value_file(source: str | Path, value: str) -> Path | None:
    """The value-function file to play with: ``value`` is ``""`` (none), ``"auto"`` (the
    run's selected ``value_function.py`` if there is one) or a path."""
    return _selected_file(source, value, "value_function.py", "value-function", off=())


def prior_file(source: str | Path, prior: str) -> Path | None:
    """The policy-prior file to play with: ``prior`` is ``""`` or ``"none"`` (none),
    ``"auto"`` (the run's selected ``policy_prior.py`` if there is one, else none) or a
    path. The file defines ``policy_prior(state, player) -> {action: weight}``."""
    return _selected_file(source, prior, "policy_prior.py", "policy-prior",
                          off=("none",))


def _selected_file(source: str | Path, setting: str, name: str, what: str,
                   off: tuple[str, ...]) -> Path | None:
    """None for an empty setting or one in ``off``; for ``"auto"`` the run folder's file
    ``name`` (the folder of ``source``, or the one holding it) if it exists; else
    ``setting`` as a path to an existing file."""
    if not setting or setting in off:
        return None
    if setting == "auto":
        path = Path(source).expanduser().resolve()
        selected = (path if path.is_dir() else path.parent) / name
        return selected if selected.is_file() else None
    path = Path(setting).expanduser().resolve()
    if not path.is_file():
        raise ModelSourceError(f"No {what} file at {setting}.")
    return path


def model_source(model: Path, value: Path | None = None, prior: Path | None = None) -> str:
    """The program an agent loads: the model, with the value function and the policy
    prior appended."""
    text = model.read_text(encoding="utf-8")
    for label, extra in (("value function", value), ("policy prior", prior)):
        if extra is not None:
            text += f"\n\n# ---- {label} ({extra.name})\n" + extra.read_text(encoding="utf-8")
    return text
