"""The world-model protocol (docs/protocol.md).

A world model is any namespace (a module, an object, a dict turned into a namespace) that
provides the plain functions below over JSON-serializable values. Reference games, GDL
games and LLM-written code world models all follow it, so every planner, agent and test
generator works on all of them.

Required::

    INITIAL_STATE: State                       # static start, before any chance move
    get_current_player(state) -> int           # 0..n-1, CHANCE (-1) or TERMINAL (-4)
    get_player_name(player_id) -> str          # "chance" for -1, "terminal" for -4
    get_legal_actions(state) -> list[Action]   # [] at terminal states; outcomes at chance
    apply_action(state, action) -> State       # a new state; never mutates its input
    get_rewards(state) -> list[float]          # reward to each player from the last action
    get_observations(state) -> list[Observation]   # one per player

Optional::

    get_chance_outcomes(state) -> list[tuple[Action, float]]   # default: uniform
    resample_history(obs_action_history, player_id[, last_is_terminal]) -> list[Action]
    resample_state(obs_action_history, player_id) -> State
    value_function(state, player_id) -> float

Conventions shared by every part of ggp:

* Returns of a trajectory are the sums of ``get_rewards`` along it.
* A player's view is its ``obs_action_history``: a list of ``(observation, action)`` pairs,
  one per decision point of that player, the last with ``None`` (deciding now).
* In a perfect-information game every player's observation *is* the full state, so a
  search agent can plan from its last observation.
* Simultaneous moves are sequentialized: a later mover's observation does not reveal an
  earlier mover's pending choice.
* Equality of states and observations is equality of canonical JSON; legal actions are
  compared as sets.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Action = str
State = dict[str, Any]
Observation = dict[str, Any]
ObsActionHistory = list[tuple[Observation, Action | None]]

CHANCE = -1
TERMINAL = -4


def player_name(player_id: int, roles: tuple[str, ...] | list[str] | None = None) -> str:
    """A game's ``get_player_name``: ``"chance"`` and ``"terminal"`` for the two special
    ids; with ``roles``, the seat's role name (``""`` for an id that is not a seat);
    without, ``"player N"``."""
    if player_id == CHANCE:
        return "chance"
    if player_id == TERMINAL:
        return "terminal"
    if roles is None:
        return f"player {player_id}"
    return roles[player_id] if 0 <= player_id < len(roles) else ""

REQUIRED_FUNCTIONS = (
    "get_current_player",
    "get_player_name",
    "get_legal_actions",
    "apply_action",
    "get_rewards",
    "get_observations",
)
OPTIONAL_FUNCTIONS = (
    "get_chance_outcomes",
    "resample_history",
    "resample_state",
    "value_function",
)


def canonical_json(value: Any) -> str:
    """The canonical JSON text of ``value``: sorted keys, no whitespace.

    Raises ``TypeError``/``ValueError`` when the value is not JSON-serializable (NaN and
    infinities included), which is how non-JSON states are detected.
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)


def information_state_key(history: ObsActionHistory) -> str:
    """The key of a player's information state: the canonical JSON of its obs-action
    history (the last action ``None``), exactly as an agent is handed it in a match. The
    same text is the ``information_state_string`` of a world model registered with
    OpenSpiel (:mod:`ggp.openspiel.game`) and the key of CFR policies solved on trees."""
    return canonical_json([[obs, action] for obs, action in history])


def json_copy(value: Any) -> Any:
    """A deep copy of a JSON value that also normalizes tuples to lists."""
    return json.loads(canonical_json(value))


@dataclass(frozen=True)
class GameMetadata:
    """What a user (and the arena) needs to know about a game before playing it.

    ``outcome`` is ``"win_loss_draw"`` when every terminal return vector is a win, loss or
    draw (reported as W/L/D) and ``"payoff"`` otherwise (reported as mean payoffs).
    """

    num_players: int
    min_utility: float
    max_utility: float
    zero_sum: bool
    outcome: Literal["win_loss_draw", "payoff"] = "win_loss_draw"
    perfect_information: bool = True
    chance: bool = False
    simultaneous: bool = False
    openspiel: str | None = None  # OpenSpiel game string that cross-checks this game
    source: str = ""  # where the rules come from (seed, paper, appendix)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def utility_range(self) -> float:
        return self.max_utility - self.min_utility
