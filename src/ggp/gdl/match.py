"""The rules of one match as GDL sees them: roles, joint moves, percepts, goals.

Both sides of the GGP protocol (:mod:`ggp.ggpnet`) and the GDL-II belief
(:mod:`ggp.gdl.hypotheses`, also used by the world-model adapter) use this thin layer over a GDL reasoner (the grounded engine
when the game grounds and is measured faster, else the compiled one:
:func:`ggp.gdl.reasoner.make_reasoner`):
the game manager to run the match, the player to follow it. States are the engine's own
(a bitset or a frozenset of fluents; :meth:`MatchGame.fluents` reads either). Moves and
percepts are canonical KIF texts (what :func:`ggp.gdl.terms.to_kif` prints), the same
spelling the world-model adapter (:mod:`ggp.gdl.adapter`) uses for actions.
"""

from __future__ import annotations

from pathlib import Path

from ggp.core.errors import ModelLoadError
from ggp.gdl.description import NATURE, parse_description
from ggp.gdl.errors import GDLError
from ggp.gdl.kif import parse_kif_term
from ggp.gdl.reasoner import EngineState, Reasoner, make_reasoner
from ggp.gdl.terms import Description, is_ground, to_kif
from ggp.gdl.validate import check, is_gdl_ii

MatchState = EngineState  # the engine's state: an int (grounded) or a frozenset (compiled)


def detect_gdl_ii(desc: Description) -> bool:
    """GDL-II when the rules use ``sees``/``percept`` or declare a ``random`` role.

    (ggp.org's ``beatMania.kif`` is plain GDL with a role named random; pass
    ``gdl_ii=False`` explicitly for such games.)"""
    return is_gdl_ii(desc) or any(r.head == ("role", NATURE) for r in desc.rules)


class MatchGame:
    """One game's rules, ready to step. ``nature`` is the GDL-II ``random`` role or None.

    ``reasoner`` lets the player share the engine its world model already built (the
    rules are then compiled once per match); without it the rules are checked and the
    fastest engine is built."""

    def __init__(self, rules: str, *, gdl_ii: bool | None = None, name: str = "game",
                 reasoner: Reasoner | None = None) -> None:
        if reasoner is None or gdl_ii is None:
            desc = parse_description(rules, name, "kif")
            gdl_ii = detect_gdl_ii(desc) if gdl_ii is None else gdl_ii
        if reasoner is None:
            check(desc, gdl_ii)
            reasoner = make_reasoner(desc.rules)
        self.gdl_ii = gdl_ii
        self.name = name
        self.rules = rules
        self.reasoner = reasoner
        self.roles: list[str] = list(reasoner.roles)
        self.nature = NATURE if self.gdl_ii and NATURE in self.roles else None
        # KIF texts of terms and back, and legal moves per state: belief tracking asks
        # about the same few states many times (one public game has ~2,300 moves of random)
        self._texts: dict = {}
        self._terms: dict = {}
        self._legal: dict = {}

    def initial(self) -> MatchState:
        return self.reasoner.initial_state()

    def fluents(self, state: MatchState) -> frozenset:
        """The ground fluents true in ``state``."""
        return frozenset(self.reasoner.decode(state))

    def is_terminal(self, state: MatchState) -> bool:
        return self.reasoner.is_terminal(state)

    def legal(self, state: MatchState) -> dict[str, list[str]]:
        """Each role's legal moves as KIF texts, in the reasoner's (sorted) order."""
        found = self._legal.get(state)
        if found is None:
            if len(self._legal) > 10_000:
                self._legal.clear()
            found = self._legal[state] = {
                r: [self.text(m) for m in moves]
                for r, moves in self.reasoner.legal_moves(state).items()}
        return {r: list(moves) for r, moves in found.items()}

    def text(self, term) -> str:
        """The KIF text of a ground term (remembered: states and moves repeat)."""
        text = self._texts.get(term)
        if text is None:
            if len(self._texts) > 100_000:
                self._texts.clear()
            text = self._texts[term] = to_kif(term)
        return text

    def _term(self, text: str):
        term = self._terms.get(text)
        if term is None:
            if len(self._terms) > 100_000:
                self._terms.clear()
            term = self._terms[text] = parse_kif_term(text)
        return term

    def goals(self, state: MatchState) -> dict[str, int]:
        return dict(zip(self.roles, self.reasoner.goals(state)))

    def step(self, state: MatchState,
             joint: dict[str, str]) -> tuple[MatchState, dict[str, list[str]]]:
        """The next state and every role's percepts (sorted texts; empty in plain GDL)."""
        terms = {r: self._term(joint[r]) for r in self.roles}
        if not self.gdl_ii:
            return self.reasoner.next_state(state, terms), {r: [] for r in self.roles}
        nxt, percepts = self.reasoner.step(state, terms)
        return nxt, {r: sorted(self.text(p) for p in ps) for r, ps in percepts.items()}


def canonical_move(text: str) -> str | None:
    """The canonical KIF text of a ground move, or None if ``text`` is not one."""
    try:
        term = parse_kif_term(text)
    except GDLError:
        return None
    return to_kif(term) if is_ground(term) else None


def load_match_game(path: str | Path, gdl_ii: bool | None = None) -> MatchGame:
    """A game from a ``.kif``/``.gdl`` file. Without ``gdl_ii``, a game is GDL-II when it
    uses ``sees``/``percept``, or declares a ``random`` role and is not a ``.kif`` file
    (the rule of :func:`ggp.gdl.adapter.load_gdl_model`)."""
    path = Path(path)
    if not path.is_file():
        raise ModelLoadError(f"No such GDL file: {path}.")
    text = path.read_text(encoding="utf-8", errors="replace")
    if gdl_ii is None:
        desc = parse_description(text, str(path), "kif")
        gdl_ii = is_gdl_ii(desc) or (detect_gdl_ii(desc) and path.suffix.lower() != ".kif")
    return MatchGame(text, gdl_ii=gdl_ii, name=path.stem)
