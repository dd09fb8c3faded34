"""Shallow proofs: does a player force its best possible return within a few plies?

A bounded AND/OR search over the model (the player's moves are OR nodes, every other
player's moves and chance outcomes are AND nodes), used by the MCTS-solver to check the
move it is about to play for a short forced loss it has not proven yet (a double threat
three plies deep needs every reply refuted, which a few hundred simulations of a wide
game may not reach). It needs only the model's functions and the game's return bounds,
so it applies to any game whose bounds are trusted.
"""

from __future__ import annotations

from collections.abc import Sequence

from ggp.core.protocol import TERMINAL, State
from ggp.core.ops import ModelOps


class OutOfBudget(Exception):
    """The proof needed more model steps than it was given."""


class ShallowProver:
    """``forces(state, player, plies, received)``: whether ``player`` can make sure of a
    return of at least ``target`` within ``plies`` of its own and its opponents' moves
    (chance outcomes count no ply), given the rewards ``received`` before ``state``.

    Args:
        ops: the model's functions.
        target: the return that counts as a win (the game's best, from its metadata).
        steps: model transitions allowed per proof; past them :class:`OutOfBudget`.
        eps: tolerance of the comparison with ``target``.
    """

    def __init__(self, ops: ModelOps, target: float, steps: int = 5000,
                 eps: float = 1e-9) -> None:
        self.ops, self.target, self.steps, self.eps = ops, target, steps, eps
        self._left = 0

    def forces(self, state: State, player: int, plies: int,
               received: Sequence[float]) -> bool:
        """True when a forced win within ``plies`` is found; False when there is none
        (within the horizon); raises :class:`OutOfBudget` when the step budget ends."""
        self._left = self.steps
        return self._forces(state, player, plies, list(received))

    def _forces(self, state: State, player: int, plies: int, received: list[float]) -> bool:
        ops = self.ops
        mover = ops.current_player(state)
        if mover == TERMINAL:
            return received[player] >= self.target - self.eps
        if mover >= 0:
            if plies == 0:
                return False
            actions: Sequence = ops.legal_actions(state)
            mine, plies = mover == player, plies - 1
        else:  # chance: every outcome with positive probability must lead to the win
            actions = [a for a, p in ops.chance_outcomes(state) if p > 0]
            mine = False
        for action in actions:
            self._left -= 1
            if self._left < 0:
                raise OutOfBudget
            nxt = ops.apply(state, action)
            reward = ops.rewards(nxt)
            after = [r + g for r, g in zip(received, reward)] if any(reward) else received
            if self._forces(nxt, player, plies, after) == mine:
                return mine  # OR: one winning move suffices; AND: one escape refutes
        return not mine
