"""A human at the terminal: shows the observation and legal moves, re-prompts on bad input.

The observation is drawn by :mod:`ggp.render` (boards as grids, cards in brackets), the
same views the web page (``ggp web``) draws as HTML.
"""

from __future__ import annotations

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
        while True:
            answer = self.ask("Your move (name or number): ").strip()
            if answer in legal:
                return answer
            if answer.isdigit() and int(answer) < len(legal):
                return legal[int(answer)]
            self.say(f"{answer!r} is not a legal move; type one of the names or numbers above.")


@register_agent("human")
def make_human(model: WorldModel) -> HumanAgent:
    return HumanAgent(model)
