"""Exploding Bomb, the two examples of seed 003 §17.7 (variant "ask" and variant "tell").

Payoffs follow the chapter's prose (see shared/research/cards_ismcts.md §2.4). The printed
rules of the "tell" variant contradict the prose twice: they give 100 after telling and
90 after keeping quiet (the prose says telling *earns* 10 points), and they arm the bomb
by a ``random`` role that the game does not have (the prose says the agent arms it). We
follow the prose: the agent arms the bomb, and the agent's score is 10 or 90 after
telling and 0 or 100 after keeping quiet; the opponent gets 100 minus the agent's score.
The "ask" variant's printed rules keep the score 100 after an ask; we follow the prose
(asking costs 10).
"""

from __future__ import annotations

import random

from ggp.core.protocol import CHANCE, TERMINAL, GameMetadata, player_name

PARAMETERS = {"variant": "ask"}

COLOURS = ("red", "blue")

RULES_ASK = """\
Exploding Bomb (variant "ask"). One player, the agent, must defuse a bomb wired with a
red and a blue wire. First chance arms one of the two wires, each with probability 1/2;
the agent does not see which ("arm(red)" or "arm(blue)"). Then the agent may "ask" which
wire is armed, which tells it the colour but costs 10 points, or do nothing ("noop").
Finally the agent cuts one wire, "cut(red)" or "cut(blue)", and the game ends. Cutting the
armed wire sets the bomb off and scores 0. Cutting the other wire defuses it and scores
100, or 90 if the agent asked.
"""

RULES_TELL = """\
Exploding Bomb (variant "tell"). Two players: the agent (player 0) and the opponent
(player 1). First the agent arms one of two wires, "arm(red)" or "arm(blue)"; the opponent
does not see which. Then the agent either tells the opponent the armed colour ("tell") or
stays silent ("noop"). Finally the opponent cuts one wire, "cut(red)" or "cut(blue)", and
the game ends. If the opponent cuts the armed wire the bomb explodes, otherwise it is
defused. Scores (the two scores always sum to 100): after a tell the agent scores 10 if
the bomb is defused and 90 if it explodes; after silence the agent scores 0 if the bomb
is defused and 100 if it explodes. The opponent scores 100 minus the agent's score.
"""


def make(variant: str = "ask"):
    """The namespace of the chosen variant ("ask" or "tell")."""
    if variant not in ("ask", "tell"):
        raise ValueError(f"variant must be 'ask' or 'tell', not {variant!r}")
    return _Ask() if variant == "ask" else _Tell()


class _Bomb:
    """Shared pieces. States: armed colour, the middle choice, the cut, the rewards."""

    def __init__(self) -> None:
        self.INITIAL_STATE = {"armed": None, "choice": None, "cut": None, "rewards": None}

    def get_legal_actions(self, state):
        player = self.get_current_player(state)
        if player == TERMINAL:
            return []
        if state["armed"] is None:
            return [f"arm({c})" for c in COLOURS]
        if state["choice"] is None:
            return list(self.CHOICES)
        return [f"cut({c})" for c in COLOURS]

    def apply_action(self, state, action):
        if action not in self.get_legal_actions(state):
            raise ValueError(f"illegal action {action!r}")
        new = dict(state)
        if action.startswith("arm("):
            new["armed"] = action[4:-1]
        elif action.startswith("cut("):
            new["cut"] = action[4:-1]
            new["rewards"] = self._score(new["choice"], new["cut"] == new["armed"])
        else:
            new["choice"] = action
        return new

    def get_rewards(self, state):
        return list(state["rewards"]) if state["rewards"] else [0.0] * self.METADATA.num_players

    def get_player_name(self, player_id):
        return player_name(player_id, self.ROLES)


class _Ask(_Bomb):
    RULES = RULES_ASK
    ROLES = ("agent",)
    CHOICES = ("ask", "noop")
    METADATA = GameMetadata(
        num_players=1, min_utility=0.0, max_utility=100.0, zero_sum=False, outcome="payoff",
        perfect_information=False, chance=True,
        source="seed 003 §17.7 (Exploding Bomb); shared/research/cards_ismcts.md §2.4",
    )

    def get_current_player(self, state):
        if state["armed"] is None:
            return CHANCE
        return TERMINAL if state["cut"] is not None else 0

    def get_chance_outcomes(self, state):
        return [(f"arm({c})", 0.5) for c in COLOURS]

    @staticmethod
    def _score(choice, exploded):
        return [0.0 if exploded else (90.0 if choice == "ask" else 100.0)]

    def get_observations(self, state):
        asked = state["choice"] == "ask"
        done = state["cut"] is not None
        return [{
            "choice": state["choice"],
            "told": state["armed"] if asked or done else None,
            "cut": state["cut"],
        }]

    def resample_history(self, obs_action_history, player_id, last_is_terminal=False):
        obs = obs_action_history[-1][0]
        colour = obs["told"] or random.choice(COLOURS)
        return [f"arm({colour})"] + [a for _, a in obs_action_history[:-1]]


class _Tell(_Bomb):
    RULES = RULES_TELL
    ROLES = ("agent", "opponent")
    CHOICES = ("tell", "noop")
    METADATA = GameMetadata(
        num_players=2, min_utility=0.0, max_utility=100.0, zero_sum=False, outcome="payoff",
        perfect_information=False, chance=False,
        source="seed 003 §17.7 (Exploding Bomb, second variant; payoffs from the prose)",
        extra={"constant_sum": 100.0},
    )

    def get_current_player(self, state):
        if state["cut"] is not None:
            return TERMINAL
        return 1 if state["choice"] is not None else 0

    @staticmethod
    def _score(choice, exploded):
        agent = (90.0 if exploded else 10.0) if choice == "tell" else (100.0 if exploded else 0.0)
        return [agent, 100.0 - agent]

    def get_observations(self, state):
        told = state["choice"] == "tell"
        done = state["cut"] is not None
        agent = {"armed": state["armed"], "choice": state["choice"], "cut": state["cut"]}
        opponent = {
            "told": state["armed"] if told or done else None,
            "choice": state["choice"],
            "cut": state["cut"],
        }
        return [agent, opponent]

    def resample_history(self, obs_action_history, player_id, last_is_terminal=False):
        obs = obs_action_history[-1][0]
        if player_id == 0:
            return [a for _, a in obs_action_history[:-1]]
        colour = obs["told"] or random.choice(COLOURS)
        return [f"arm({colour})", obs["choice"]] + [a for _, a in obs_action_history[:-1]]


METADATA = _Ask.METADATA
RULES = RULES_ASK + "\n" + RULES_TELL
