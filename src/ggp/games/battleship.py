"""Battleships (seed 004 App. B.3; OpenSpiel ``battleship``).

Each player secretly places its ships on its own grid, then the players take turns shooting
at the opponent's grid. Shots and their results (miss, hit, sunk) are public; ship
positions are not. Payoffs follow OpenSpiel: the value of the enemy ships you sank minus
``loss_multiplier`` times the value of your ships the enemy sank.

Action names and their OpenSpiel counterparts (player p):

* ``"Place horizontally at (r,c)"`` = ``"Plp: place ship horizontally with top-left corner in (r, c)"``
* ``"Place vertically at (r,c)"``   = ``"Plp: place ship vertically with top-left corner in (r, c)"``
* ``"Shoot (r,c)"``                 = ``"Plp: shoot at (r, c)"``
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import Any

from ggp.core.errors import BeliefError
from ggp.core.protocol import TERMINAL, GameMetadata, player_name

PARAMETERS = {
    "board_height": 3,
    "board_width": 3,
    "ship_sizes": "[2;2]",
    "ship_values": "",  # empty: every ship is worth 1
    "num_shots": 0,  # 0: one shot per cell of the board
    "allow_repeated_shots": False,
    "loss_multiplier": 1.0,
}
#: Bounds of the numeric parameters (checked before make() runs; see ggp.core.registry).
PARAMETER_RANGES = {"board_height": (1, 20), "board_width": (1, 20), "num_shots": (0, 400),
                    "loss_multiplier": (0, 1000)}

# Above this many candidate combinations, inference switches from enumeration to rejection
# sampling.
_ENUMERATION_LIMIT = 200_000
_REJECTION_TRIES = 200_000

RULES_TEMPLATE = """\
Battleships for two players (player 0 and player 1) on a {h}x{w} grid each. Cells are named
(r,c) with row r in 0..{h1} from the top and column c in 0..{w1} from the left.
Each player has the same fleet of {k} ships, in this order: {fleet}.

Placement phase. The players place their ships one at a time, alternating: player 0 places
its first ship, then player 1 its first ship, then player 0 its second ship, and so on. A
ship of size s covers s cells in a straight line. "Place horizontally at (r,c)" puts the
current ship on cells (r,c), (r,c+1), ..., (r,c+s-1); "Place vertically at (r,c)" puts it on
cells (r,c), (r+1,c), ..., (r+s-1,c); a ship of size 1 is always placed "horizontally".
A ship must lie entirely on the grid and must not
overlap one of the player's own ships already placed (touching is allowed). Placements are
secret: a player never sees where the opponent placed its ships.

Shooting phase. When all ships are placed, the players take turns shooting at the
opponent's grid, player 0 first, with "Shoot (r,c)". {repeat} Each player may fire at most
{shots} shots. Every shot and its result are seen by both players. The result is "miss" if
no enemy ship covers the cell, "sunk" if the cell belongs to an enemy ship all of whose
cells have now been shot, and "hit" otherwise.

The game ends at once when all ships of one player are sunk, or when both players have fired
all their shots. Rewards are given only at the end: each player receives the total value of
the enemy ships it has sunk minus {lm} times the total value of its own ships that were sunk.
"""


def _parse_list(text: Any, name: str, kind: type) -> list:
    """Read ``[3;2;2]`` (OpenSpiel style), ``3;2;2`` or a list."""
    if isinstance(text, (list, tuple)):
        return [kind(x) for x in text]
    if isinstance(text, (int, float)):
        return [kind(text)]
    body = str(text).strip().strip("[]")
    try:
        return [kind(x) for x in body.replace(",", ";").split(";") if x.strip()]
    except ValueError as exc:
        raise ValueError(f"{name} must look like [3;2;2], got {text!r}") from exc


class Battleship:
    """The world-model namespace of one Battleships configuration (see :func:`make`)."""

    def __init__(self, height: int, width: int, sizes: list[int], values: list[float],
                 num_shots: int, repeated: bool, loss_multiplier: float) -> None:
        self.height, self.width = height, width
        self.sizes, self.values = sizes, values
        self.num_shots, self.repeated = num_shots, repeated
        self.loss_multiplier = loss_multiplier
        total = sum(values)
        self.METADATA = GameMetadata(
            num_players=2,
            min_utility=-loss_multiplier * total,
            max_utility=total,
            zero_sum=loss_multiplier == 1.0,
            outcome="payoff",
            perfect_information=False,
            chance=False,
            openspiel=(
                f"battleship(board_height={height},board_width={width},"
                f"ship_sizes=[{';'.join(map(str, sizes))}],"
                f"ship_values=[{';'.join(map(_fmt, values))}],num_shots={num_shots},"
                f"allow_repeated_shots={str(repeated).lower()},"
                f"loss_multiplier={_fmt(loss_multiplier)})"
            ),
            source="seed 004 App. B.3; OpenSpiel battleship",
        )
        fleet = ", ".join(f"ship {i + 1} of size {s} worth {_fmt(v)}"
                          for i, (s, v) in enumerate(zip(sizes, values)))
        self.RULES = RULES_TEMPLATE.format(
            h=height, w=width, h1=height - 1, w1=width - 1, k=len(sizes), fleet=fleet,
            shots=num_shots, lm=_fmt(loss_multiplier),
            repeat=("A player may shoot at a cell it has already shot at." if repeated else
                    "A player may not shoot twice at the same cell."),
        )
        self.INITIAL_STATE = {
            "phase": "placement",
            # per player, in fleet order: {"orientation": "h"|"v", "at": [r, c], "cells": [...]}
            "ships": [[], []],
            "shots": [],  # public: {"player", "cell", "result"} in the order fired
            "current_player": 0,
            "rewards": [0.0, 0.0],
        }

    # ------------------------------------------------------------------ protocol
    def get_current_player(self, state: dict) -> int:
        return state["current_player"]

    def get_player_name(self, player_id: int) -> str:
        return player_name(player_id)

    def get_legal_actions(self, state: dict) -> list[str]:
        player = state["current_player"]
        if player == TERMINAL:
            return []
        if state["phase"] == "placement":
            size = self.sizes[len(state["ships"][player])]
            taken = {tuple(c) for ship in state["ships"][player] for c in ship["cells"]}
            return [_placement_name(o, r, c) for o, r, c in self._placements(size)
                    if not taken & set(_cells(o, r, c, size))]
        fired = {tuple(s["cell"]) for s in state["shots"] if s["player"] == player}
        return [f"Shoot ({r},{c})" for r in range(self.height) for c in range(self.width)
                if self.repeated or (r, c) not in fired]

    def apply_action(self, state: dict, action: str) -> dict:
        if action not in self.get_legal_actions(state):
            raise ValueError(f"illegal action {action!r} in phase {state['phase']}")
        player = state["current_player"]
        new = {
            "phase": state["phase"],
            "ships": [fleet[:] for fleet in state["ships"]],  # ship dicts are never mutated
            "shots": state["shots"][:],
            "current_player": 1 - player,
            "rewards": [0.0, 0.0],
        }
        r, c = _parse_cell(action)
        if new["phase"] == "placement":
            size = self.sizes[len(new["ships"][player])]
            orientation = "h" if "horizontally" in action else "v"
            new["ships"][player].append({
                "orientation": orientation, "at": [r, c],
                "cells": [list(x) for x in _cells(orientation, r, c, size)],
            })
            if len(new["ships"][1]) == len(self.sizes):
                new["phase"] = "shooting"
            return new
        target = [ship["cells"] for ship in new["ships"][1 - player]]
        earlier = [s["cell"] for s in new["shots"] if s["player"] == player]
        new["shots"].append({"player": player, "cell": [r, c],
                             "result": _shot_result(target, earlier, [r, c])})
        sunk = [self._sunk_value(new, p) for p in (0, 1)]  # value of p's ships sunk
        all_sunk = sunk[1 - player] == sum(self.values)
        out_of_shots = len(new["shots"]) == 2 * self.num_shots
        if all_sunk or out_of_shots:
            new["phase"] = "over"
            new["current_player"] = TERMINAL
            new["rewards"] = [sunk[1] - self.loss_multiplier * sunk[0],
                              sunk[0] - self.loss_multiplier * sunk[1]]
        return new

    def get_rewards(self, state: dict) -> list[float]:
        return list(state["rewards"])

    def get_observations(self, state: dict) -> list[dict]:
        return [self._observation(state, p) for p in (0, 1)]

    # ------------------------------------------------------------------ inference
    def resample_history(
        self,
        obs_action_history: list,
        player_id: int,
        last_is_terminal: bool = False,
        rng: random.Random | None = None,
    ) -> list[str]:
        """A full action sequence consistent with ``player_id``'s observations.

        Shots are public, so the only hidden information is where the opponent placed the
        ships it has placed so far. The result is uniform over the opponent placement
        sequences that agree with the results of the player's shots: exact enumeration
        when there are at most ``_ENUMERATION_LIMIT`` candidate combinations, otherwise
        stratified rejection sampling (also exactly uniform; it gives up with a
        ``BeliefError`` after ``_REJECTION_TRIES`` rejected proposals).
        """
        rng = rng or random.Random(random.getrandbits(64))  # follows random.seed()
        obs = obs_action_history[-1][0]
        placed = obs["opponent_ships_placed"]
        my_shots = [s for s in obs["shots"] if s["player"] == player_id]
        candidates = [self._consistent_placements(i, my_shots) for i in range(placed)]
        must_cover = {tuple(s["cell"]) for s in my_shots if s["result"] != "miss"}
        fleet = _enumerate_fleets(candidates, self.sizes, must_cover, rng)
        ships = [None, None]
        ships[player_id] = [_placement_name(s["orientation"], *s["at"]) for s in obs["my_ships"]]
        ships[1 - player_id] = [_placement_name(*p) for p in fleet]
        actions = []
        for i in range(len(self.sizes)):
            for p in (0, 1):
                if i < len(ships[p]):
                    actions.append(ships[p][i])
        actions += [f"Shoot ({s['cell'][0]},{s['cell'][1]})" for s in obs["shots"]]
        return actions

    # ------------------------------------------------------------------ helpers
    def _placements(self, size: int) -> list[tuple[str, int, int]]:
        """All (orientation, row, col) that fit on the grid, in OpenSpiel's order. A
        one-cell ship is only placed "horizontally" (as in OpenSpiel): both would cover the
        same cell."""
        horizontal = [("h", r, c) for r in range(self.height)
                      for c in range(self.width - size + 1)]
        vertical = [("v", r, c) for r in range(self.height - size + 1)
                    for c in range(self.width)] if size > 1 else []
        return horizontal + vertical

    def _consistent_placements(self, index: int, my_shots: list[dict]) -> list[tuple]:
        """Placements of opponent ship ``index`` that, on their own, reproduce the results
        of every shot of ours that lands on them (and cover no missed cell)."""
        shots_at: dict[tuple, list] = {}  # cell -> [(cells shot so far, result), ...]
        so_far: set = set()
        for shot in my_shots:
            cell = tuple(shot["cell"])
            so_far = so_far | {cell}
            shots_at.setdefault(cell, []).append((so_far, shot["result"]))
        size = self.sizes[index]
        result = []
        for placement in self._placements(size):
            cells = set(_cells(*placement, size))
            if all(res == ("sunk" if cells <= shot_set else "hit")
                   for cell in cells for shot_set, res in shots_at.get(cell, ())):
                result.append(placement)
        return result

    def _sunk_value(self, state: dict, owner: int) -> float:
        shot_at = {tuple(s["cell"]) for s in state["shots"] if s["player"] != owner}
        return sum(v for ship, v in zip(state["ships"][owner], self.values)
                   if all(tuple(c) in shot_at for c in ship["cells"]))

    def _observation(self, state: dict, player: int) -> dict:
        mine = state["ships"][player]
        fired = {p: sum(s["player"] == p for s in state["shots"]) for p in (0, 1)}
        return {
            "player": player,
            "phase": state["phase"],
            "my_ships": [{"orientation": s["orientation"], "at": s["at"][:],
                          "cells": [c[:] for c in s["cells"]]} for s in mine],
            "ships_to_place": self.sizes[len(mine):],
            "opponent_ships_placed": len(state["ships"][1 - player]),
            "shots": [dict(s, cell=s["cell"][:]) for s in state["shots"]],
            "shots_left": [self.num_shots - fired[0], self.num_shots - fired[1]],
        }


def _fmt(x: float) -> str:
    return repr(float(x))


def _cells(orientation: str, r: int, c: int, size: int) -> list[tuple[int, int]]:
    return [(r, c + i) if orientation == "h" else (r + i, c) for i in range(size)]


def _placement_name(orientation: str, r: int, c: int) -> str:
    word = "horizontally" if orientation == "h" else "vertically"
    return f"Place {word} at ({r},{c})"


def _parse_cell(action: str) -> tuple[int, int]:
    inside = action[action.index("(") + 1: action.index(")")]
    r, c = (int(x) for x in inside.split(","))
    return r, c


def _shot_result(target_ships: list, earlier_cells: list, cell: list) -> str:
    """The result of a shot at ``cell`` on ships (lists of cells) already shot at
    ``earlier_cells`` by the same shooter."""
    shot_at = {tuple(x) for x in earlier_cells} | {tuple(cell)}
    for ship in target_ships:
        if cell in ship:
            return "sunk" if all(tuple(x) in shot_at for x in ship) else "hit"
    return "miss"


def _enumerate_fleets(candidates, sizes, must_cover, rng) -> list[tuple]:
    """A uniform choice among non-overlapping choices, one per candidate list, that cover
    every cell in ``must_cover``."""
    cell_sets, found, strata = _fleet_space(tuple(map(tuple, candidates)), tuple(sizes),
                                            frozenset(must_cover))
    if found is not None:
        if not found:
            raise BeliefError("no opponent ship placement agrees with the shot results")
        pick = rng.choice(found)
        return [candidates[i][j] for i, j in enumerate(pick)]
    configurations, weights, free = strata
    if not configurations:
        raise BeliefError("no opponent ship placement agrees with the shot results")
    # Exact rejection sampling: draw the placements of the ships on hit cells with weight
    # = the number of ways to place the other ships freely, then the others uniformly;
    # every consistent fleet is then equally likely, and so are the accepted ones.
    for _ in range(_REJECTION_TRIES):
        pick = list(rng.choices(configurations, weights=weights)[0])
        used: set = set()
        ok = True
        for i, j in enumerate(pick):
            if j is None:
                j = pick[i] = rng.choice(free[i])
            if used & cell_sets[i][j]:
                ok = False
                break
            used |= cell_sets[i][j]
        if ok:
            return [candidates[i][j] for i, j in enumerate(pick)]
    raise BeliefError("rejection sampling found no opponent ship placement in "
                      f"{_REJECTION_TRIES} tries")


@lru_cache(maxsize=8)  # repeated sampling from one information set reuses the search
def _fleet_space(candidates, sizes, must_cover):
    """The cells of every candidate, and either every consistent combination (as index
    tuples) or, when there could be too many, the strata for rejection sampling: the ways to
    cover the hit cells (``None`` for ships placed elsewhere), their weights and, per
    ship, the candidates that touch no hit cell."""
    cell_sets = [[frozenset(_cells(*p, sizes[i])) for p in cands]
                 for i, cands in enumerate(candidates)]
    if math.prod(len(c) for c in candidates) <= _ENUMERATION_LIMIT:
        found: list[tuple[int, ...]] = []

        def search(i: int, used: frozenset, chosen: tuple) -> None:
            if i == len(candidates):
                if must_cover <= used:
                    found.append(chosen)
                return
            for j, cells in enumerate(cell_sets[i]):
                if not used & cells:
                    search(i + 1, used | cells, chosen + (j,))

        search(0, frozenset(), ())
        return cell_sets, found, None
    free = [[j for j, cells in enumerate(sets) if not cells & must_cover]
            for sets in cell_sets]
    configurations, weights = [], []

    def cover(i: int, used: frozenset, chosen: tuple, weight: int) -> None:
        if i == len(candidates):
            if must_cover <= used:
                configurations.append(chosen)
                weights.append(weight)
            return
        if free[i]:
            cover(i + 1, used, chosen + (None,), weight * len(free[i]))
        for j, cells in enumerate(cell_sets[i]):
            if cells & must_cover and not used & cells:
                cover(i + 1, used | cells, chosen + (j,), weight)

    cover(0, frozenset(), (), 1)
    return cell_sets, None, (configurations, weights, free)


def make(board_height: int = 3, board_width: int = 3, ship_sizes: Any = "[2;2]",
         ship_values: Any = "", num_shots: int = 0, allow_repeated_shots: bool = False,
         loss_multiplier: float = 1.0) -> Battleship:
    """A Battleships configuration. Raises ``ValueError`` on bad parameters."""
    sizes = _parse_list(ship_sizes, "ship_sizes", int)
    values = _parse_list(ship_values, "ship_values", float) if ship_values != "" else \
        [1.0] * len(sizes)
    if not sizes or len(values) != len(sizes):
        raise ValueError("ship_sizes must be non-empty and ship_values must have one value "
                         "per ship")
    if board_height < 1 or board_width < 1 or any(
            s < 1 or s > max(board_height, board_width) for s in sizes):
        raise ValueError("every ship must fit on the board")
    if sum(sizes) > board_height * board_width:
        raise ValueError("the ships cover more cells than the board has")
    cells = board_height * board_width
    shots = num_shots or cells
    if not allow_repeated_shots and shots > cells:
        raise ValueError(f"num_shots={shots} exceeds the {cells} cells and repeated shots "
                         "are not allowed")
    return Battleship(board_height, board_width, sizes, values, shots,
                      bool(allow_repeated_shots), float(loss_multiplier))


METADATA = make(**PARAMETERS).METADATA
