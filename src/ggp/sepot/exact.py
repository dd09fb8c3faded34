"""Exact computations on small games: tabular policies, exploitability, true critic values.

These walk the whole pyspiel game tree, so they are for games with up to a few hundred
thousand states (Kuhn, Leduc, Goofspiel 4/5 descending, Goofspiel 4 random).

* :func:`tabular_policy`: an OpenSpiel ``TabularPolicy`` filled by a batched policy function
  ``(info tensors [N,D], legal [N,A]) -> probabilities [N,A]``.
* :func:`cfr_plus_policy`: a near-equilibrium ``TabularPolicy`` from OpenSpiel's C++ CFR+
  (the oracle blueprint of tests and of ``experiments/sepot/oracle_check.py``).
* :func:`exploitability`: OpenSpiel's exploitability (NashConv / 2) of a tabular policy.
* :class:`ExactValues`: for a tabular policy, the exact value of every critic output at any
  history (player 0's view) -- the ground truth the critic is measured against and an oracle
  blueprint for tests.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ggp.sepot.games import SepotGame

PolicyFn = Callable[[np.ndarray, np.ndarray], np.ndarray]


def tabular_policy(spec: SepotGame, policy_fn: PolicyFn | None = None) -> Any:
    """A ``TabularPolicy`` over every information state; uniform if ``policy_fn`` is None."""
    from open_spiel.python import policy as policy_lib

    table = policy_lib.TabularPolicy(spec.game)
    if policy_fn is not None:
        obs = np.stack([s.information_state_tensor(s.current_player()) for s in table.states])
        legal = table.legal_actions_mask.astype(bool)
        probs = np.where(legal, policy_fn(obs, legal), 0.0)
        table.action_probability_array[:] = probs / probs.sum(axis=1, keepdims=True)
    return table


def cfr_plus_policy(spec: SepotGame, iterations: int) -> Any:
    """The average policy of ``iterations`` of OpenSpiel's CFR+ as a ``TabularPolicy``."""
    import pyspiel

    solver = pyspiel.CFRPlusSolver(spec.game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    table = tabular_policy(spec)
    for row, state in enumerate(table.states):
        for a, p in average.get_state_policy(state.information_state_string()):
            table.action_probability_array[row, a] = p
    return table


def exploitability(spec: SepotGame, table: Any) -> float:
    """OpenSpiel's exploitability (mean of both best-response gains, = NashConv / 2)."""
    from open_spiel.python.algorithms import exploitability as expl

    return float(expl.exploitability(spec.game, table))


class ExactValues:
    """Exact critic outputs for the profile given by a tabular policy.

    ``values(states)`` returns ``[N, spec.num_outputs]``: column 0 is the value for player 0
    when both follow the policy; the other columns apply one transformation to one player
    (layout of :meth:`SepotGame.output_columns`). Values are memoised per history.
    ``policy(states)`` gives the tabular policy at the acting player's information state,
    so this class also serves as an oracle blueprint for search.
    """

    def __init__(self, spec: SepotGame, table: Any) -> None:
        self.spec, self.table = spec, table
        self._memo: dict[tuple[int, ...], np.ndarray] = {}
        self._policies: dict[str, np.ndarray] = {}

    def policy(self, states: list[Any]) -> np.ndarray:
        return np.stack([self._pi(s) for s in states])

    def _pi(self, state: Any) -> np.ndarray:
        key = state.information_state_string()
        return self.table.action_probability_array[self.table.state_lookup[key]]

    def _column_policies(self, state: Any) -> np.ndarray:
        """``[num_outputs, A]``: the policy each output's profile plays at ``state``."""
        key = state.information_state_string()
        if key not in self._policies:
            spec, pi = self.spec, self._pi(state)
            legal = np.zeros(spec.num_actions, bool)
            legal[state.legal_actions()] = True
            rows = np.repeat(pi[None], spec.num_outputs, axis=0)
            cols = spec.output_columns(state.current_player())
            for col, f in zip(cols[1:], spec.transformations[1:]):
                rows[col] = f(pi[None], legal[None])[0]
            self._policies[key] = rows
        return self._policies[key]

    def values(self, states: list[Any]) -> np.ndarray:
        return np.stack([self._value(s) for s in states])

    def _value(self, state: Any) -> np.ndarray:
        key = tuple(state.history())
        if key in self._memo:
            return self._memo[key]
        if state.is_terminal():
            out = np.full(self.spec.num_outputs, state.returns()[0])
        elif state.is_chance_node():
            out = sum(p * self._value(state.child(a)) for a, p in state.chance_outcomes())
        else:
            rows = self._column_policies(state)
            out = np.zeros(self.spec.num_outputs)
            for a in state.legal_actions():
                out += rows[:, a] * self._value(state.child(a))
        self._memo[key] = out
        return out


def decision_states(spec: SepotGame) -> list[Any]:
    """Every decision-node state of the game (depth-first)."""
    found, stack = [], [spec.game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
        else:
            found.append(state)
            stack.extend(state.child(a) for a in state.legal_actions())
    return found
