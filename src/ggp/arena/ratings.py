"""Bradley–Terry ratings of a tournament's agents, on the Elo scale, with bootstrap intervals.

Every finished match gives one comparison per pair of seats held by different agents: the
seat with the higher return beats the other, equal returns are a draw (half a win each).
A forfeit counts through the returns the referee gave it (a loss for the forfeiting
agent). The Bradley–Terry model says agent i beats agent j with probability
``p_i / (p_i + p_j)``; its strengths are fitted by the minorization–maximization
iteration (Hunter 2004, "MM algorithms for generalized Bradley–Terry models"), with one
virtual draw added between every pair of agents that met, so that an agent that never
lost still gets a finite rating. Ratings are ``400 log10 p``, centred on a mean of 0, so a
difference of 400 means 10:1 odds. The 95% interval of each rating is the 2.5–97.5
percentile range over bootstrap resamples of the matches (the seed is fixed: a report
rewritten from the same results shows the same numbers).

This works for pairings, round robins and n-player fields alike: a table of four agents
gives six comparisons per match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np

__all__ = ["Rating", "comparisons", "fit", "ratings"]


@dataclass(frozen=True)
class Rating:
    """One agent's rating (Elo scale, mean 0) with its 95% bootstrap interval."""

    agent: str
    rating: float
    low: float
    high: float
    matches: int

    def summary(self) -> dict[str, Any]:
        return {"agent": self.agent, "rating": round(self.rating, 1),
                "ci95": [round(self.low, 1), round(self.high, 1)], "matches": self.matches}


def comparisons(record: dict[str, Any]) -> list[tuple[str, str, float]]:
    """``(a, b, score of a)`` for each pair of seats of ``record`` held by different agents
    (score 1 for a higher return, 0.5 for equal returns, 0 for a lower one)."""
    seats, returns = record.get("seats") or [], record.get("returns")
    if not returns or len(returns) != len(seats):
        return []
    found = []
    for i in range(len(seats)):
        for j in range(i + 1, len(seats)):
            if seats[i] != seats[j]:
                a, b = returns[i], returns[j]
                found.append((seats[i], seats[j], 1.0 if a > b else 0.5 if a == b else 0.0))
    return found


def fit(wins: np.ndarray, games: np.ndarray, iterations: int = 1000) -> np.ndarray:
    """Elo-scale ratings (mean 0) from ``wins[..., i]`` (i's total score) and
    ``games[..., i, j]`` (comparisons between i and j, symmetric), by the MM iteration;
    leading axes are independent problems (the bootstrap resamples), fitted together."""
    strength = np.ones(wins.shape)
    for _ in range(iterations):
        denominator = (games / (strength[..., :, None] + strength[..., None, :])).sum(axis=-1)
        new = np.where(denominator > 0, wins / np.maximum(denominator, 1e-300), strength)
        new /= np.exp(np.mean(np.log(new), axis=-1, keepdims=True))  # geometric mean 1
        done = np.allclose(new, strength, rtol=1e-8, atol=0.0)
        strength = new
        if done:
            break
    elo = 400.0 * np.log10(strength)
    return elo - elo.mean(axis=-1, keepdims=True)


def ratings(records: Iterable[dict[str, Any]], *, resamples: int = 200,
            seed: int = 0) -> list[Rating]:
    """The ratings of every agent in ``records`` (finished matches of one game), best
    first; empty with fewer than two agents."""
    per_match = [c for c in (comparisons(r) for r in records) if c]
    agents = sorted({x for match in per_match for a, b, _ in match for x in (a, b)})
    if len(agents) < 2:
        return []
    index = {a: k for k, a in enumerate(agents)}
    k, m = len(agents), len(per_match)
    wins = np.zeros((m, k))
    games = np.zeros((m, k, k))
    played = np.zeros(k, dtype=int)
    for n, match in enumerate(per_match):
        for a, b, score in match:
            i, j = index[a], index[b]
            wins[n, i] += score
            wins[n, j] += 1.0 - score
            games[n, i, j] += 1
            games[n, j, i] += 1
        for agent in {x for a, b, _ in match for x in (a, b)}:
            played[index[agent]] += 1

    def estimate(weights: np.ndarray) -> np.ndarray:
        """Ratings for match weights ``weights[..., m]`` (1 each: the data as played)."""
        w = weights @ wins
        g = np.tensordot(weights, games, axes=1)
        met = g > 0
        # one virtual draw per pair that met: half a win each, one more comparison
        return fit(w + 0.5 * met.sum(axis=-1), g + met)

    point = estimate(np.ones(m))
    rng = np.random.default_rng(seed)
    draws = (estimate(rng.multinomial(m, np.full(m, 1.0 / m), size=resamples).astype(float))
             if resamples else point[None, :])
    low, high = np.percentile(draws, [2.5, 97.5], axis=0)
    found = [Rating(a, float(point[index[a]]), float(low[index[a]]), float(high[index[a]]),
                    int(played[index[a]])) for a in agents]
    return sorted(found, key=lambda r: -r.rating)
