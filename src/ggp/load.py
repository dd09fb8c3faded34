"""``load_model(spec)``: a world model from any of its sources, by one name.

A spec is a registry name (``"leduc_poker(blinds=true)"``), a Python model file
(``path/to/model.py``), a GDL or GDL-II file (``.kif``, ``.gdl``, ``.gdl2``, ``.kif2``,
``.gdlii``) or an OpenSpiel game (``"openspiel:goofspiel(num_cards=4)"``). This module
sits above the sources it dispatches to — the game registry, ``ggp.gdl`` and the OpenSpiel
bridge — so that ``ggp.core`` knows only the protocol and Python models.
"""

from __future__ import annotations

from pathlib import Path

from ggp.budget import Budget, check_budget
from ggp.core.errors import ModelLoadError
from ggp.core.model import WorldModel, load_model_file
from ggp.core.registry import parse_game_spec

#: File suffixes read as GDL or GDL-II.
GDL_SUFFIXES = (".kif", ".gdl", ".gdl2", ".kif2", ".gdlii")

#: The budget of games opened from the web page (see :mod:`ggp.budget`).
WEB_BUDGET = Budget(memory_mb=2048, seconds=60.0)


def load_model(spec: str, *, trusted: bool | None = None,
               budget: Budget | None = None) -> WorldModel:
    """The world model named by ``spec`` (see the module doc). A ``.py`` file is executed
    in this process: only with ``trusted`` for code you trust; untrusted code belongs in a
    sandboxed worker (docs/sandbox.md).

    ``budget``: for specs whose size no declared bound limits — an OpenSpiel game with
    parameters, a GDL file — build it first in a child process under that memory and time
    budget (:func:`ggp.budget.check_budget`); registered games are bounded by their
    parameters' declared ranges."""
    if budget is not None and needs_budget(spec):
        check_budget({"spec": spec}, budget, spec)
    if spec.startswith("openspiel:"):
        from ggp.openspiel.model import openspiel_model  # needs the openspiel extra

        return openspiel_model(spec)
    path = Path(spec)
    if path.suffix.lower() in GDL_SUFFIXES:
        from ggp.gdl.adapter import load_gdl_model

        return load_gdl_model(path)
    if path.suffix == ".py":
        return load_model_file(path, trusted=bool(trusted))
    from ggp.core.registry import make_game

    return make_game(spec)


def needs_budget(spec: str) -> bool:
    """Whether building ``spec`` can take more than its declared bounds allow: GDL files
    and OpenSpiel games with parameters (the defaults are known to be small)."""
    if spec.startswith("openspiel:"):
        try:
            return bool(parse_game_spec(spec.removeprefix("openspiel:"))[1])
        except ModelLoadError:
            return False  # not a game string: loading it says so
    return Path(spec).suffix.lower() in GDL_SUFFIXES


__all__ = ["GDL_SUFFIXES", "WEB_BUDGET", "load_model", "needs_budget"]
