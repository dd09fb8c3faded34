"""``load_model(spec)``: a world model from any of its sources, by one name.

A spec is a registry name (``"leduc_poker(blinds=true)"``), a Python model file
(``path/to/model.py``), a GDL or GDL-II file (``.kif``, ``.gdl``, ``.gdl2``, ``.kif2``,
``.gdlii``) or an OpenSpiel game (``"openspiel:goofspiel(num_cards=4)"``). This module
sits above the sources it dispatches to — the game registry, ``ggp.gdl`` and the OpenSpiel
bridge — so that ``ggp.core`` knows only the protocol and Python models.
"""

from __future__ import annotations

from pathlib import Path

from ggp.core.model import WorldModel, load_model_file

#: File suffixes read as GDL or GDL-II.
GDL_SUFFIXES = (".kif", ".gdl", ".gdl2", ".kif2", ".gdlii")


def load_model(spec: str, *, trusted: bool | None = None) -> WorldModel:
    """The world model named by ``spec`` (see the module doc). A ``.py`` file is executed
    in this process: only with ``trusted`` for code you trust; untrusted code belongs in a
    sandboxed worker (docs/sandbox.md)."""
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


__all__ = ["GDL_SUFFIXES", "load_model"]
