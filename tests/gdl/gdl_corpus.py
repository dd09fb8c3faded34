"""Shared paths and expectations for the GDL tests."""

from pathlib import Path

import pytest

SHARED = Path("/work/shared/gdl")
if not SHARED.is_dir():  # the corpus lives outside the repository
    pytest.skip("shared GDL corpus not available", allow_module_level=True)

FILES = sorted(p for p in SHARED.glob("*/*") if p.suffix in (".kif", ".gdl"))
# files rejected by validation, with the reason (see docs/gdl.md)
REJECTED = {
    # ggp-base's StaticValidator.main() skips it as "intentionally invalid"
    "test_case_3b.kif": "unsafe variable ?x",
    # a legal move of random contains a variable bound nowhere: (lead ?Player)
    "oneCardGame.gdl": "unsafe variable ?player",
}
# files whose random playouts take seconds each
HEAVY = {"chess_200.kif", "amazons_8x8.kif", "small_dominion.gdl", "blackjack.gdl",
         "BattleshipsFog.gdl", "reversi.kif", "backgammon.gdl", "checkers.kif"}


def path(name: str) -> Path:
    return next(p for p in FILES if p.name == name)
