"""A human at the terminal: shows the observation and legal moves, re-prompts on bad input.

The observation is drawn by :mod:`ggp.render` (boards as grids, cards in brackets), the
same views the web page (``ggp web``) draws as HTML. A move is typed by its name, which
stays the same from turn to turn (:func:`match_move` forgives case, spaces and a missing
move name before the arguments, as ``1,1`` for ``x(1,1)``); the numbers in brackets are
only this turn's shortcuts.
"""

from __future__ import annotations

import re
from typing import Callable

from ggp.agents import register_agent
from ggp.agents.base import Agent
from ggp.belief import sample_state
from ggp.core.model import WorldModel
from ggp.core.protocol import Action, ObsActionHistory
from ggp.render import render, to_text


class HumanAgent(Agent):
    """Asks a person for each move. ``ask`` and ``say`` default to input/print."""

    name = "human"

    def __init__(
        self,
        model: WorldModel,
        ask: Callable[[str], str] = input,
        say: Callable[[str], None] = print,
    ) -> None:
        self.model = model
        self.ask = ask
        self.say = say

    def legal_moves(self, history: ObsActionHistory) -> list[Action]:
        """The legal moves at ``history[-1]``, from a state consistent with the player's own
        history (never the true state, which a player does not know)."""
        state = sample_state(self.model, history, self.info.seat, self.rng)
        return self.model.legal_actions(state)

    def act(self, history: ObsActionHistory) -> Action:
        legal = self.legal_moves(history)
        self.say(f"\nYou are player {self.info.seat} ({self.model.player_name(self.info.seat)}).")
        self.say("Your observation:\n" + to_text(render(history[-1][0], self.info.game)))
        self.say("Legal moves: " + ", ".join(f"[{i}] {a}" for i, a in enumerate(legal)))
        self.say("Type a move's name; a number in brackets is a shortcut for this turn only.")
        while True:
            answer = self.ask("Your move: ").strip()
            doubt = ambiguity(answer, legal)
            if doubt:
                self.say(doubt)
                continue
            move = match_move(answer, legal)
            if move is not None:
                return move
            self.say(f"{answer!r} is not a legal move; type one of the names or numbers above.")


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text).lower()


def _arguments(move: str) -> str | None:
    """The arguments of ``x(1,1)`` (``1,1``) or of a GDL term ``(drop 2)`` (``2``)."""
    text = move.strip()
    if text.startswith("(") and text.endswith(")"):
        parts = text[1:-1].split(None, 1)
        return parts[1] if len(parts) == 2 else None
    if "(" in text and text.endswith(")"):
        return text.partition("(")[2][:-1]
    return None


def _by_name(answer: str, legal: list[Action]) -> Action | None:
    """The one legal move ``answer`` spells up to case, spaces and outer parentheses, or
    whose arguments it spells; None when there is none or more than one."""
    squashed = _squash(answer).strip("()")
    if not squashed:
        return None
    for same in (lambda a: _squash(a).strip("()") == squashed,
                 lambda a: _squash(_arguments(a) or "") == squashed):
        found = [a for a in legal if same(a)]
        if len(found) == 1:
            return found[0]
    return None


def ambiguity(answer: str, legal: list[Action]) -> str | None:
    """Why ``answer`` must be typed again: a number that spells one move's arguments and is
    the shortcut of another (``2``: ``(drop 2)``, or shortcut ``[2] (drop 3)``)."""
    named = _by_name(answer, legal) if answer not in legal else None
    if named is not None and answer.isdigit() and int(answer) < len(legal) \
            and legal[int(answer)] != named:
        return (f"{answer!r} could be {named} or the shortcut [{answer}] "
                f"{legal[int(answer)]}: type the move's name.")
    return None


def match_move(answer: str, legal: list[Action]) -> Action | None:
    """The legal move ``answer`` names: the move itself; else the one move equal to it up to
    case, spaces and outer parentheses (``drop 2`` for ``(drop 2)``), or whose arguments it
    spells (``1,1`` for ``x(1,1)``); else, when ``answer`` is a number, the move at that
    position of ``legal``. A move's name always wins over a position, so a game whose moves
    are numbers reads them as moves (:func:`ambiguity` flags the doubtful cases first).
    """
    if answer in legal:
        return answer
    named = _by_name(answer, legal)
    if named is not None:
        return named
    if answer.isdigit() and int(answer) < len(legal):
        return legal[int(answer)]
    return None


@register_agent("human")
def make_human(model: WorldModel) -> HumanAgent:
    return HumanAgent(model)
