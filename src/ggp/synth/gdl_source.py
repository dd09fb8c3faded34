"""GDL and GDL-II descriptions as a synthesis source (``ggp synth game.kif``).

A description is a ground truth like a registered game: ggp's reasoner (:mod:`ggp.gdl`)
plays the training and held-out games, so the trajectories, unit tests, refinement and
sandbox are the ones every other source gets. Two things are particular to GDL:

* The rules given to the model are the description's own text, comments included,
  preceded by a note on how ggp represents a GDL game as a world model (state layout,
  sequentialized moves, observations, rewards; :mod:`ggp.gdl.adapter`). The unit tests
  compare states, so a model that passes them keeps the reasoner's states, moves and
  percepts exactly: it can stand in for the reasoner (docs/compile.md).
* A run keeps a copy of the description (``description/NAME.kif``), and a resumed or
  replayed run reads the game from that copy, so the run does not depend on a file
  elsewhere that may have changed.
"""

from __future__ import annotations

from pathlib import Path

from ggp.core.errors import ModelLoadError
from ggp.core.model import WorldModel

#: The folder of a run that keeps the description it was made from.
DESCRIPTION_DIR = "description"


def is_gdl_spec(spec: str) -> bool:
    """Whether ``spec`` names a GDL or GDL-II file (by its suffix, as ``ggp.load`` does)."""
    from ggp.load import GDL_SUFFIXES

    return Path(spec).suffix.lower() in GDL_SUFFIXES


def load_gdl_truth(path: str | Path) -> WorldModel:
    """The reasoner's world model of the description in ``path``."""
    from ggp.gdl.adapter import load_gdl_model

    path = Path(path)
    if not path.is_file():
        raise ModelLoadError(f"No such GDL file: {path}.")
    return load_gdl_model(path)


def gdl_rules(model: WorldModel) -> str:
    """The rules text of a synthesis from a GDL description: how ggp represents the
    game, then the description itself (``model.rules`` holds its text, comments
    included)."""
    game = model.namespace
    gdl_ii = bool(getattr(game, "gdl_ii", False))
    roles = list(getattr(game, "roles", []))
    players = list(getattr(game, "players", roles))
    nature = getattr(game, "chance_role", None)
    kind = "GDL-II" if gdl_ii else "GDL"
    seats = ", ".join(f"{i} = {role}" for i, role in enumerate(players))
    lines = [
        f"This game is defined by the {kind} (Game Description Language) description at the "
        "end of this text. Your program must implement exactly that game, in the "
        "representation ggp's GDL reasoner uses, since it will be tested against the "
        "reasoner's states and answers:",
        "",
        f"* Players are the roles in the order of their (role ...) facts: {seats}."
        + (f" The role {nature} is nature: it is the chance player (-1) and picks "
           "uniformly among its legal moves; it is not a player." if nature else ""),
        "  get_player_name gives the role's name.",
        "* Symbols are lower case (KIF is case-insensitive). A ground term is written as "
        "KIF text: a constant as itself (\"noop\"), a compound as \"(name arg1 arg2)\" with "
        "single spaces, e.g. \"(cell 1 1 b)\".",
        "* Actions are the KIF texts of the moves, e.g. \"(mark 1 1)\" or \"noop\".",
        "* A state is a dict {\"step\": number of joint moves made so far, \"true\": the KIF "
        "texts of the true fluents, sorted as Python strings, \"pending\": {role: move "
        "already chosen in this step}}"
        + (", plus \"history\": {player role: [[own move, sorted KIF texts of the percepts "
           "(sees) received with it], ... one entry per joint move]}" if gdl_ii else "")
        + ".",
        "* Simultaneous moves are taken one role at a time: within a step the roles choose "
        "in role order, and a role with exactly one legal move is never asked (its move is "
        "made for it). A chosen move waits in \"pending\"; when no role is left to choose, "
        "the joint move is applied: \"step\" grows by one, \"true\" becomes the next "
        "state's fluents, \"pending\" is emptied"
        + (" and each player's history gets [its move, its percepts]" if gdl_ii else "")
        + ". Steps in which no role has a choice are applied at once, so a state handed "
        "to a player always has a role to choose, or is terminal.",
        "* get_current_player is the role that chooses next (-4 in a terminal state, where "
        "there are no legal actions).",
        "* Rewards are 0 in every non-terminal state and in states with pending moves; in a "
        "terminal state each player gets its goal value (0..100; the largest one when "
        "several goal rules hold, 0 when none does).",
        ("* Observations: player i sees {\"role\": its role, \"step\": the state's step, "
         "\"history\": its own history (its moves and percepts, nothing else), \"pending\": "
         "its own pending move if it has one, else {}}."
         if gdl_ii else
         "* Observations: player i sees the state's facts: {\"step\", \"true\", \"pending\": "
         "only its own pending move if it has one, else {}}."),
        "",
        f"The {kind} description:",
        "",
        model.rules.rstrip(),
        "",
    ]
    return "\n".join(lines)
