"""Measurements for the SePoT experiments (small games only: they walk the whole tree).

* :func:`evaluate_checkpoint`: exact exploitability of the network policy and of the
  search policy at several depth limits (with the critic's, exact or previous-search
  counterfactual values), and the critic's error against exact values.
* :func:`head_to_head`: SePoT against the R-NaD network, both seats, with a 95% interval.
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from ggp.sepot.exact import ExactValues, decision_states, exploitability, tabular_policy
from ggp.sepot.rnad import RNaDLearner
from ggp.sepot.resolve import SubgameTooLarge, critic_cfvs, public_state
from ggp.sepot.search import (NetworkBlueprint, SePoTPolicy, SepotSearchError,
                              decision_public_states, search_tabular_policy)


class ExactCFVBlueprint:
    """The network's policy with the critic replaced by exact values (an oracle critic)."""

    def __init__(self, network: NetworkBlueprint, exact: ExactValues) -> None:
        self.network, self.exact = network, exact

    def policy(self, states: list[Any]) -> np.ndarray:
        return self.network.policy(states)

    def values(self, states: list[Any]) -> np.ndarray:
        return self.exact.values(states)


def critic_error(learner: RNaDLearner, exact: ExactValues) -> dict[str, float]:
    """Mean absolute error of the critic over every decision history (uniform weights)."""
    states = decision_states(learner.spec)
    truth = exact.values(states)
    pred = NetworkBlueprint(learner).values(states)
    return {"critic_mae_identity": float(np.abs(pred[:, 0] - truth[:, 0]).mean()),
            "critic_mae_all": float(np.abs(pred - truth).mean())}


def critic_cfv_error(learner: RNaDLearner, exact: ExactValues,
                     max_histories: int = 25_000) -> float:
    """Mean absolute error of the gadget's opponent counterfactual values computed from the
    critic, against the same computation with exact values of the network policy, over
    every opponent infoset of every decision public state that needs a gadget (network
    ranges, unweighted mean)."""
    spec = learner.spec
    network = NetworkBlueprint(learner)
    oracle = ExactCFVBlueprint(network, exact)
    errors = []
    for state in decision_public_states(spec).values():
        try:
            roots = public_state(spec, state, network, max_histories)
        except SubgameTooLarge:
            continue
        if not any(r.opponent_acted for r in roots):
            continue
        weights = np.array([r.reach_player * r.reach_chance for r in roots])
        opp = 1 - state.current_player()
        ours, truth = critic_cfvs(roots, network, opp, weights), critic_cfvs(roots, oracle, opp,
                                                                             weights)
        errors += [abs(ours[k] - truth[k]) for k in truth]
    return float(np.mean(errors)) if errors else float("nan")


# Search variants measured by :func:`evaluate_checkpoint`:
# name -> (values from the exact oracle?, cfv_source, ranges).
VARIANTS: dict[str, tuple[bool, str, str]] = {
    "critic": (False, "critic", "network"),          # the paper's SePoT
    "exact": (True, "critic", "network"),            # oracle critic (exact values)
    "previous": (False, "previous", "played"),       # continual resolving (Fig. 4)
    "previous_network": (False, "previous", "network"),
    "critic_played": (False, "critic", "played"),
}


def evaluate_checkpoint(
    path: str,
    depth_limits: tuple[int, ...] = (1, 2),
    iterations: int = 500,
    max_histories: int = 25_000,
    max_nodes: int = 200_000,
    variants: tuple[str, ...] = ("critic",),
) -> dict[str, float]:
    """Exploitability of the network and of SePoT (per depth limit and variant of
    :data:`VARIANTS`) for one checkpoint, plus the critic's error against exact values.

    Columns are ``sepot_dl<d>`` for the ``critic`` variant and ``sepot_dl<d>_<variant>``
    for the others (with matching ``searched_``, ``skipped_``, ``cfv_fallback_`` and
    ``seconds_`` columns).
    """
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        raise SepotSearchError(f"Unknown variant(s) {unknown}; known: {', '.join(VARIANTS)}.")
    learner = RNaDLearner.load(path)
    spec = learner.spec
    blueprint = NetworkBlueprint(learner)
    table = tabular_policy(spec, learner.policy)
    row: dict[str, float] = {"step": learner.step_count,
                             "network": exploitability(spec, table)}
    exact = ExactValues(spec, table)
    row.update(critic_error(learner, exact))
    row["critic_cfv_mae"] = critic_cfv_error(learner, exact, max_histories)
    for depth in depth_limits:
        for label in variants:
            oracle, cfv_source, ranges = VARIANTS[label]
            bp = ExactCFVBlueprint(blueprint, exact) if oracle else blueprint
            started = time.time()
            search = SePoTPolicy(spec, bp, depth_limit=depth, iterations=iterations,
                                 max_histories=max_histories, max_nodes=max_nodes,
                                 cfv_source=cfv_source, ranges=ranges)
            combined, counts = search_tabular_policy(spec, table.__copy__(), search)
            suffix = f"dl{depth}" + ("" if label == "critic" else f"_{label}")
            row[f"sepot_{suffix}"] = exploitability(spec, combined)
            row[f"searched_{suffix}"] = counts["searched"]
            row[f"skipped_{suffix}"] = counts["network"]
            row[f"cfv_fallback_{suffix}"] = counts["cfv_fallback"]
            row[f"seconds_{suffix}"] = round(time.time() - started, 1)
    return row


def head_to_head(
    sepot_path: str,
    rnad_path: str,
    games: int,
    *,
    depth_limit: int = 2,
    iterations: int = 500,
    max_histories: int = 25_000,
    max_nodes: int = 200_000,
    cfv_source: str = "critic",
    ranges: str = "network",
    seed: int = 0,
) -> dict[str, float]:
    """SePoT (search on ``sepot_path``'s networks) against the network of ``rnad_path``;
    SePoT takes each seat in half of the games. Returns SePoT's mean return and the
    half-width of its 95% normal confidence interval."""
    sepot_learner, rnad_learner = RNaDLearner.load(sepot_path), RNaDLearner.load(rnad_path)
    spec = sepot_learner.spec
    search = SePoTPolicy(spec, NetworkBlueprint(sepot_learner), depth_limit=depth_limit,
                         iterations=iterations, max_histories=max_histories,
                         max_nodes=max_nodes, cfv_source=cfv_source, ranges=ranges)
    opponent = NetworkBlueprint(rnad_learner)
    rng = np.random.default_rng(seed)
    returns, searched, moves = [], 0, 0
    for g in range(games):
        seat = g % 2
        state = spec.game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(actions[rng.choice(len(actions), p=np.asarray(probs))])
                continue
            if state.current_player() == seat:
                probs = search.action_probabilities(state)
                searched += search.last_searched
                moves += 1
            else:
                pi = opponent.policy([state])[0]
                probs = {a: pi[a] for a in state.legal_actions()}
            actions = list(probs)
            p = np.array([probs[a] for a in actions], dtype=float)
            state.apply_action(actions[rng.choice(len(actions), p=p / p.sum())])
        returns.append(state.returns()[seat])
    mean = float(np.mean(returns))
    half = 1.96 * float(np.std(returns, ddof=1)) / math.sqrt(len(returns))
    return {"games": games, "mean": mean, "ci95": half,
            "searched_fraction": searched / max(moves, 1),
            "cfv_fallback": search.stats["cfv_fallback"]}
