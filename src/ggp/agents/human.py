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
            move = match_move(answer, legal)
            if move is not None:
                return move
            self.say(f"{answer!r} is not a legal move; type one of the names or numbers above.")


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text).lower()


def match_move(answer: str, legal: list[Action]) -> Action | None:
    """The legal move ``answer`` names: the move itself; else the one move equal to it up to
    case and spaces, or whose arguments in parentheses it spells (``1,1`` for ``x(1,1)``);
    else, when ``answer`` is a number, the move at that position of ``legal``. A move's
    name always wins over a position, so a game whose moves are numbers reads them as moves.
    """
    if answer in legal:
        return answer
    squashed = _squash(answer)
    for same in (lambda a: _squash(a) == squashed,
                 lambda a: _squash(a).partition("(")[2].rstrip(")") == squashed.strip("()")):
        found = [a for a in legal if squashed and same(a)]
        if len(found) == 1:
            return found[0]
    if answer.isdigit() and int(answer) < len(legal):
        return legal[int(answer)]
    return None


@register_agent("human")
def make_human(model: WorldModel) -> HumanAgent:
    return HumanAgent(model)
