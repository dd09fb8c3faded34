"""Statistics of a tournament's match records.

Every finished match is seen from each seat: the agent in that seat against the agent(s)
in the other seats. Records are grouped by (game, agent, opponent, seat) into a
:class:`Cell` — one row of seed 000's Tables 7–16 — holding:

* W/L/D counts: a seat wins when its return is strictly the highest, draws when it ties
  for the highest, loses otherwise (forfeits are scored by
  :func:`ggp.arena.match.forfeit_returns`, so a forfeit is a loss for the forfeiting
  agent); ``wins_by_forfeit`` counts wins where the opponent forfeited and
  ``losses_by_forfeit`` losses where this agent forfeited (the small "(forfeit/n)"
  numbers of Tables 7, 9, 11, 13);
* mean returns of the agent ("us") and of the opponents ("them", averaged over the other
  seats), each with a 95% confidence interval (normal approximation:
  ``1.96 · s / √n``; None for fewer than two matches);
* forfeit counts by reason, for us and for them (forfeit rates: Tables 14–16);
* the agent's mean time per move.

Matches whose game failed (records with ``"error"``) are only counted in ``errors``.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

Z95 = 1.959964


@dataclass
class Cell:
    """Results of ``agent`` in ``seat`` against ``opponent`` in ``game``."""

    game: str
    agent: str
    opponent: str
    seat: int
    returns_us: list[float] = field(default_factory=list)
    returns_them: list[float] = field(default_factory=list)
    wins: int = 0
    losses: int = 0
    draws: int = 0
    wins_by_forfeit: int = 0
    losses_by_forfeit: int = 0
    forfeits_us: Counter = field(default_factory=Counter)
    forfeits_them: Counter = field(default_factory=Counter)
    moves: int = 0
    move_seconds: float = 0.0

    @property
    def n(self) -> int:
        return len(self.returns_us)

    def rate(self, count: int) -> float:
        return count / self.n if self.n else 0.0

    @property
    def payoff_us(self) -> tuple[float, float | None]:
        return mean_ci(self.returns_us)

    @property
    def payoff_them(self) -> tuple[float, float | None]:
        return mean_ci(self.returns_them)

    @property
    def ms_per_move(self) -> float:
        """Mean time the agent took per move, in milliseconds."""
        return 1000.0 * self.move_seconds / self.moves if self.moves else math.nan

    @property
    def forfeit_rate_us(self) -> float:
        return self.rate(sum(self.forfeits_us.values()))

    @property
    def forfeit_rate_them(self) -> float:
        return self.rate(sum(self.forfeits_them.values()))

    def summary(self) -> dict[str, Any]:
        """A flat JSON-friendly summary (what report.json and report.csv hold)."""
        us, us_ci = self.payoff_us
        them, them_ci = self.payoff_them
        data = {k: v for k, v in asdict(self).items()
                if k not in ("returns_us", "returns_them")}
        data.update(
            n=self.n, win_rate=self.rate(self.wins), loss_rate=self.rate(self.losses),
            draw_rate=self.rate(self.draws), payoff_us=us, payoff_us_ci95=us_ci,
            payoff_them=them, payoff_them_ci95=them_ci,
            forfeit_rate_us=self.forfeit_rate_us, forfeit_rate_them=self.forfeit_rate_them,
            ms_per_move=self.ms_per_move,
            forfeits_us=dict(self.forfeits_us), forfeits_them=dict(self.forfeits_them),
        )
        return data


def mean_ci(values: list[float]) -> tuple[float, float | None]:
    """Mean and half-width of its 95% confidence interval (None below two values)."""
    if not values:
        return math.nan, None
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, None
    return mean, Z95 * statistics.stdev(values) / math.sqrt(len(values))


def outcome(returns: list[float], seat: int) -> str:
    """``"win"``, ``"draw"`` or ``"loss"`` of ``seat`` given a match's returns."""
    best_other = max(r for s, r in enumerate(returns) if s != seat)
    if returns[seat] > best_other:
        return "win"
    return "draw" if returns[seat] == best_other else "loss"


def opponent_label(seats: list[str], seat: int) -> str:
    """The other seats' agents: the agent spec if all are the same, else joined by '+'."""
    others = sorted({spec for s, spec in enumerate(seats) if s != seat})
    return "+".join(others)


def tabulate(records: Iterable[dict[str, Any]]) -> tuple[list[Cell], int]:
    """Group match records into cells; returns the cells (sorted) and the error count."""
    cells: dict[tuple, Cell] = {}
    errors = 0
    for record in records:
        if "error" in record:
            errors += 1
            continue
        returns, seats, forfeit = record["returns"], record["seats"], record.get("forfeit")
        for seat, agent in enumerate(seats):
            key = (record["game"], agent, opponent_label(seats, seat), seat)
            cell = cells.get(key) or cells.setdefault(key, Cell(*key))
            _add(cell, returns, seat, forfeit)
            cell.moves += record["moves"][seat]
            cell.move_seconds += record["moves"][seat] * record["move_seconds_mean"][seat]
    return [cells[k] for k in sorted(cells)], errors


def _add(cell: Cell, returns: list[float], seat: int, forfeit: dict | None) -> None:
    others = [r for s, r in enumerate(returns) if s != seat]
    cell.returns_us.append(returns[seat])
    cell.returns_them.append(statistics.fmean(others))
    result = outcome(returns, seat)
    we_forfeit = forfeit is not None and forfeit["player"] == seat
    they_forfeit = forfeit is not None and not we_forfeit
    if result == "win":
        cell.wins += 1
        cell.wins_by_forfeit += they_forfeit
    elif result == "loss":
        cell.losses += 1
        cell.losses_by_forfeit += we_forfeit
    else:
        cell.draws += 1
    if we_forfeit:
        cell.forfeits_us[forfeit["reason"]] += 1
    if they_forfeit:
        cell.forfeits_them[forfeit["reason"]] += 1


def short_spec(spec: str) -> str:
    """An agent spec for display: agent files by file name only."""
    name, sep, settings = spec.partition(":")
    if name.endswith(".py"):
        return name.rsplit("/", 1)[-1] + sep + settings
    return spec


def forfeit_reasons(records: Iterable[dict[str, Any]]) -> dict[str, Counter]:
    """Forfeits by agent spec and reason over all matches."""
    reasons: dict[str, Counter] = defaultdict(Counter)
    for record in records:
        forfeit = record.get("forfeit")
        if forfeit:
            reasons[record["seats"][forfeit["player"]]][forfeit["reason"]] += 1
    return dict(reasons)
