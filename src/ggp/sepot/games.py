"""The games SePoT trains on, as pyspiel games plus what SePoT needs to know about them.

A :class:`SepotGame` names a pyspiel game and adds three things the algorithm needs:

* ``transformations``: the policy transformations of the critic (see
  :mod:`ggp.sepot.transformations`);
* ``public_key(state)``: a hashable summary of everything public at a decision node, used to
  rebuild the public state (all histories sharing it) for search;
* ``history_tensor(state)``: the critic's input, both players' information-state tensors
  side by side (together they determine the history).

Short names (``leduc``, ``goofspiel4``, ``goofspiel5r``, ``battleship3``, ...) are listed in
:data:`GAMES`; :func:`load_sepot_game` also accepts any of them with the full pyspiel string.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, Hashable

import numpy as np

from ggp.core.errors import GGPError
from ggp.sepot.transformations import Transformation, goofspiel_set, pure_action_set


class SepotGameError(GGPError):
    """An unknown SePoT game name."""


def _poker_public_key(state: Any) -> Hashable:
    # The first two chance outcomes are the private cards; the rest (bets and the
    # public card) is seen by both players.
    return tuple(state.history()[2:])


_GOOFSPIEL_PUBLIC = ("Current player", "Point card sequence", "Win sequence", "Points")


def _goofspiel_public_key(state: Any) -> Hashable:
    # Hands and bids are private; the point cards and who won each round are public.
    lines = state.information_state_string(0).splitlines()
    return tuple(line for line in lines if line.startswith(_GOOFSPIEL_PUBLIC))


def _battleship_public_key(state: Any) -> Hashable:
    # Ship placements are private; shots and their outcomes are public. Each player's
    # string shows its own placements and the outcomes of its own shots.
    keys = []
    for player in (0, 1):
        tokens = state.information_state_string(player).split("/")
        keys.append(tuple(t for t in tokens if not t.startswith(("h_", "v_"))))
    return (state.current_player(), *keys)


def _card_index(num_actions: int) -> np.ndarray:
    """Goofspiel: action a bids card a + 1."""
    return np.arange(1, num_actions + 1, dtype=np.float64)


def _tile_index(num_actions: int, tiles: int) -> np.ndarray:
    """Battleship: shots 0..tiles-1 are tiles; placements are indexed by their corner tile."""
    return (np.arange(num_actions) % tiles + 1).astype(np.float64)


@dataclass(frozen=True)
class SepotGame:
    """A pyspiel game with SePoT's game-specific pieces. ``loader`` builds the pyspiel game."""

    name: str
    game_string: str
    turn_based: bool
    action_index: Callable[[int], np.ndarray]
    transformation_kind: str  # "pure" (identity + each pure action) or "goofspiel22"
    public_key: Callable[[Any], Hashable]

    @cached_property
    def game(self) -> Any:
        import pyspiel

        game = pyspiel.load_game(self.game_string)
        return pyspiel.convert_to_turn_based(game) if self.turn_based else game

    @property
    def num_actions(self) -> int:
        return self.game.num_distinct_actions()

    @property
    def info_size(self) -> int:
        return self.game.information_state_tensor_shape()[0]

    @property
    def history_size(self) -> int:
        return 2 * self.info_size

    @cached_property
    def transformations(self) -> list[Transformation]:
        if self.transformation_kind == "pure":
            return pure_action_set(self.num_actions)
        return goofspiel_set(self.action_index(self.num_actions))

    @property
    def num_outputs(self) -> int:
        """Critic outputs: identity, then player 0's other transformations, then player 1's."""
        return 1 + 2 * (len(self.transformations) - 1)

    def output_columns(self, player: int) -> list[int]:
        """Critic columns where ``player`` follows transformation 0, 1, ... (identity first)."""
        k = len(self.transformations) - 1
        return [0] + [1 + player * k + j for j in range(k)]

    def history_tensor(self, state: Any) -> np.ndarray:
        return np.concatenate(
            [state.information_state_tensor(0), state.information_state_tensor(1)]
        ).astype(np.float32)


def _goofspiel(cards: int, order: str) -> SepotGame:
    suffix = "" if order == "descending" else "r"
    return SepotGame(
        name=f"goofspiel{cards}{suffix}",
        game_string=f"goofspiel(imp_info=True,num_cards={cards},points_order={order})",
        turn_based=True,
        action_index=_card_index,
        transformation_kind="goofspiel22",
        public_key=_goofspiel_public_key,
    )


GAMES: dict[str, SepotGame] = {
    "kuhn": SepotGame("kuhn", "kuhn_poker", False, _card_index, "pure", _poker_public_key),
    "leduc": SepotGame("leduc", "leduc_poker", False, _card_index, "pure", _poker_public_key),
    **{g.name: g for g in (_goofspiel(c, o) for c in (3, 4, 5, 6, 8)
                           for o in ("descending", "random"))},
    "battleship3": SepotGame(
        "battleship3",
        "battleship(board_width=3,board_height=3,ship_sizes=[2;2],ship_values=[1;1],"
        "num_shots=9,allow_repeated_shots=False)",
        False,
        lambda n: _tile_index(n, 9),
        "goofspiel22",
        _battleship_public_key,
    ),
}


def load_sepot_game(name: str) -> SepotGame:
    """The :class:`SepotGame` called ``name`` (a short name or its pyspiel game string)."""
    for game in GAMES.values():
        if name in (game.name, game.game_string):
            return game
    raise SepotGameError(
        f"Unknown SePoT game {name!r}. Known: {', '.join(sorted(GAMES))}."
    )
