"""GDL and GDL-II descriptions as a synthesis source (``ggp synth game.kif``).

A description is a ground truth like a registered game: ggp's reasoner (:mod:`ggp.gdl`)
plays the training and held-out games, so the trajectories, unit tests, refinement and
sandbox are the ones every other source gets. Two things are particular to GDL:

* The rules given to the model are the description's own text, comments included,
  preceded by a note on how ggp represents a GDL game as a world model (sequentialized
  moves, observations, rewards; :mod:`ggp.gdl.adapter`). The unit tests judge a program
  on what the GGP protocol fixes: they replay the reasoner's games from the program's
  own initial state and compare, at every step, the acting player, the legal moves (GDL
  move texts), the rewards, the terminal flag and each player's observation (GDL-II:
  its own moves and percepts; GDL: the state's facts, which the program may compute from
  any layout when asked). The state layout is the program's own, and the note invites a
  fast one. The GGP player drives such a program from the match's moves
  (:mod:`ggp.ggpnet.compiled`).
* Runs made before that (their metadata has no ``gdl.layout``) were judged on the
  reasoner's states: the note they were given (``own_layout=False``) is kept so that
  they still replay.
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
#: The metadata's ``gdl.layout`` of a run whose program keeps its own state layout.
OWN_LAYOUT = "own"


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


def gdl_rules(model: WorldModel, own_layout: bool = True) -> str:
    """The rules text of a synthesis from a GDL description: how ggp represents the
    game, then the description itself (``model.rules`` holds its text, comments
    included). ``own_layout``: the program's states are its own, the tests compare only
    what the players see; False gives the note of the first runs, whose tests compared
    the reasoner's states (kept so that those runs replay)."""
    game = model.namespace
    gdl_ii = bool(getattr(game, "gdl_ii", False))
    roles = list(getattr(game, "roles", []))
    players = list(getattr(game, "players", roles))
    nature = getattr(game, "chance_role", None)
    kind = "GDL-II" if gdl_ii else "GDL"
    seats = ", ".join(f"{i} = {role}" for i, role in enumerate(players))
    if own_layout:
        intro = (
            f"This game is defined by the {kind} (Game Description Language) description at "
            "the end of this text. Your program must implement exactly that game. It is "
            "tested against ggp's GDL reasoner on what a game player sees: the reasoner's "
            "games are replayed from your INITIAL_STATE with your apply_action, and at "
            "every step the current player, the legal actions, the rewards, the terminal "
            "flag and every player's observation must be the reasoner's. How you represent "
            "a state is up to you:")
        state_lines = [
            "* The state layout is yours: choose one that is fast. The program is used for "
            "game-tree search (millions of apply_action / get_legal_actions / "
            "get_current_player / get_rewards calls), so prefer small flat states (tuples "
            "or lists of integers, bitboards packed into ints), tables precomputed at "
            "import (moves, adjacency, lines, move texts), and no parsing or formatting of "
            "strings in apply_action, get_legal_actions, get_current_player and "
            "get_rewards: build move texts from precomputed tables. Only get_observations "
            "must produce the KIF texts below, and it is called far less often. A state "
            "must be a dict with string keys and JSON values (e.g. {\"b\": [0, 2, 1, ...], "
            "\"to_move\": 0}): what is in it is up to you; apply_action must return a "
            "new dict without changing its argument.",
        ]
    else:
        intro = (
            f"This game is defined by the {kind} (Game Description Language) description at "
            "the end of this text. Your program must implement exactly that game, in the "
            "representation ggp's GDL reasoner uses, since it will be tested against the "
            "reasoner's states and answers:")
        state_lines = [
            "* A state is a dict {\"step\": number of joint moves made so far, \"true\": the "
            "KIF texts of the true fluents, sorted as Python strings, \"pending\": {role: "
            "move already chosen in this step}}"
            + (", plus \"history\": {player role: [[own move, sorted KIF texts of the "
               "percepts (sees) received with it], ... one entry per joint move]}"
               if gdl_ii else "") + ".",
        ]
    step_text = ("the number of joint moves made so far" if own_layout else "the state's step")
    if gdl_ii:
        observation = (
            "* Observations: player i sees {\"role\": its role, \"step\": " + step_text
            + ", \"history\": its own history (its moves and percepts, nothing else"
            + ("; one entry [own move, sorted KIF texts of the percepts (sees) it received "
               "with it] per joint move" if own_layout else "")
            + "), \"pending\": its own pending move if it has one, else {}}.")
    elif own_layout:
        observation = (
            "* Observations: player i sees the state's facts: {\"step\": " + step_text
            + ", \"true\": the KIF texts of the true fluents, sorted as Python strings, "
            "\"pending\": {its role: its move} if it has already chosen in this step, "
            "else {}}.")
    else:
        observation = (
            "* Observations: player i sees the state's facts: {\"step\", \"true\", "
            "\"pending\": only its own pending move if it has one, else {}}.")
    pending = ("is remembered (your layout decides how)" if own_layout
               else "waits in \"pending\"")
    applied = ("the step count grows by one and the fluents become the next state's"
               + (" and each player's history gets [its move, its percepts]" if gdl_ii
                  else "")
               if own_layout else
               "\"step\" grows by one, \"true\" becomes the next state's fluents, "
               "\"pending\" is emptied"
               + (" and each player's history gets [its move, its percepts]" if gdl_ii
                  else ""))
    lines = [
        intro,
        "",
        f"* Players are the roles in the order of their (role ...) facts: {seats}."
        + (f" The role {nature} is nature: it is the chance player (-1) and picks "
           "uniformly among its legal moves; it is not a player." if nature else ""),
        "  get_player_name gives the role's name.",
        "* Symbols are lower case (KIF is case-insensitive). A ground term is written as "
        "KIF text: a constant as itself (\"noop\"), a compound as \"(name arg1 arg2)\" with "
        "single spaces, e.g. \"(cell 1 1 b)\".",
        "* Actions are the KIF texts of the moves, e.g. \"(mark 1 1)\" or \"noop\".",
        *state_lines,
        "* Simultaneous moves are taken one role at a time: within a step the roles choose "
        "in role order, and a role with exactly one legal move is never asked (its move is "
        f"made for it). A chosen move {pending}; when no role is left to choose, "
        f"the joint move is applied: {applied}. Steps in which no role has a choice are "
        "applied at once, so a state handed to a player always has a role to choose, or "
        "is terminal.",
        "* get_current_player is the role that chooses next (-4 in a terminal state, where "
        "there are no legal actions).",
        "* Rewards are 0 in every non-terminal state and in states with pending moves; in a "
        "terminal state each player gets its goal value (0..100; the largest one when "
        "several goal rules hold, 0 when none does).",
        observation,
        "",
        f"The {kind} description:",
        "",
        model.rules.rstrip(),
        "",
    ]
    return "\n".join(lines)
