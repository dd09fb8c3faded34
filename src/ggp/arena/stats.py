"""Statistics of a tournament's match records.

Every finished match is seen from each seat: the agent in that seat against the agent(s)
in the other seats. Records are grouped by (game, agent, opponent, seat) into a
:class:`Cell` — one row of seed 000's Tables 7–16 — holding:

* W/L/D counts: a seat wins when its return is strictly the highest, draws when it ties
  for the highest, loses otherwise (forfeits are scored by
  :func:`ggp.arena.match.forfeit_returns`, so a forfeit is a loss for the forfeiting
  agent); ``wins_by_forfeit`` counts wins where the opponent forfeited and
  ``losses_by_forfeit`` losses where this agent forfeited (the small "(by forfeit/wins)"
  numbers of Tables 7, 9, 11, 13);
* mean returns of the agent ("us") and of the opponents ("them", averaged over the other
  seats), each with a 95% confidence interval (normal approximation:
  ``1.96 · s / √n``; None for fewer than two matches);
* forfeit counts by reason, for us and for them (forfeit rates: Tables 14–16);
* the agent's mean time per move.

Matches whose game failed (records with ``"error"``) are only counted in ``errors``.

**Duplicate matches** (a tournament with ``duplicate``: the seats of one match index
share their chance draws) are also summarised over pairs by :func:`duplicate_rows`: the
agent's return averaged over both seats of a deal, with a 95% confidence interval over
pairs, so the luck of the deal cancels.

**Fields** (matches of a tournament with ``fields``: several different agents at one
table, rotated through every seat permutation) are also summarised per agent over all the
seats it held, by :func:`field_rows`: mean return, win rate and seed 001's per-player
value (:func:`rank_value`), each with a 95% confidence interval over matches.

**One-player games** have no "them": a match is a win when the return reaches the game's
maximum utility, a loss at its minimum, a draw in between (see :func:`outcome`).
"""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from dataclasses import field as dataclass_field
from typing import Any

Z95 = 1.959964


@dataclass
class Cell:
    """Results of ``agent`` in ``seat`` against ``opponent`` in ``game``."""

    game: str
    agent: str
    opponent: str
    seat: int
    returns_us: list[float] = dataclass_field(default_factory=list)
    returns_them: list[float] = dataclass_field(default_factory=list)
    wins: int = 0
    losses: int = 0
    draws: int = 0
    wins_by_forfeit: int = 0
    losses_by_forfeit: int = 0
    forfeits_us: Counter = dataclass_field(default_factory=Counter)
    forfeits_them: Counter = dataclass_field(default_factory=Counter)
    moves: int = 0
    move_seconds: float = 0.0
    sim_moves: int = 0  # moves of the matches whose record counts simulations
    simulations: int = 0

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
    def sims_per_move(self) -> float:
        """Mean simulations the agent ran per move (NaN for agents that do not search)."""
        return self.simulations / self.sim_moves if self.sim_moves else math.nan

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
            ms_per_move=self.ms_per_move, sims_per_move=self.sims_per_move,
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


def outcome(returns: list[float], seat: int,
            utility_range: tuple[float, float] | None = None) -> str:
    """``"win"``, ``"draw"`` or ``"loss"`` of ``seat`` given a match's returns.

    With other players: a win is a strictly highest return, a draw a tie for the highest.
    In a one-player game the return is judged against the game's ``utility_range``
    (min, max): a win at the maximum, a loss at the minimum, a draw in between (without a
    range: above, at or below zero).
    """
    others = [r for s, r in enumerate(returns) if s != seat]
    if not others:
        low, high = utility_range or (0.0, 0.0)
        mine = returns[seat]
        if mine >= high and (mine > 0 or utility_range is not None):
            return "win"
        return "loss" if mine <= low and (mine < 0 or utility_range is not None) else "draw"
    best_other = max(others)
    if returns[seat] > best_other:
        return "win"
    return "draw" if returns[seat] == best_other else "loss"


def rank_value(returns: list[float], seat: int,
               utility_range: tuple[float, float] | None = None) -> float:
    """Seed 001's per-player value of ``seat`` in one match, in [0, 1].

    The players are ranked by return (higher is better; tied players share the mean of
    the ranks they span) and rank ``k`` of ``N`` is worth ``(N - k) / (N - 1)``: 1 for
    the sole winner, 0 for the sole loser, linear in between. Equivalently, the share of
    the other players this seat beat, a tie counting one half:
    ``(#{q: r_q < r_p} + #{q != p: r_q = r_p} / 2) / (N - 1)``. This is Ludii's rank
    utility ``1 - 2 (k - 1) / (N - 1)`` mapped from [-1, 1] to [0, 1]. A one-player game
    has no ranks: its value is the return scaled to [0, 1] by ``utility_range``.
    """
    mine, n = returns[seat], len(returns)
    if n == 1:
        if utility_range is None or utility_range[1] <= utility_range[0]:
            raise ValueError("a one-player game's value needs its utility range")
        low, high = utility_range
        return (mine - low) / (high - low)
    beaten = sum(r < mine for r in returns)
    tied = sum(r == mine for r in returns) - 1
    return (beaten + tied / 2) / (n - 1)


def opponent_label(seats: list[str], seat: int) -> str:
    """The other seats' agents: the agent spec if all are the same, else joined by '+'."""
    others = sorted({spec for s, spec in enumerate(seats) if s != seat})
    return "+".join(others) or "(alone)"


def utility_range(games: dict[str, Any] | None, game: str) -> tuple[float, float] | None:
    """(min, max) utility of ``game`` from the stored game metadata, if known."""
    meta = (games or {}).get(game)
    if not meta or "min_utility" not in meta:
        return None
    return float(meta["min_utility"]), float(meta["max_utility"])


def tabulate(records: Iterable[dict[str, Any]],
             games: dict[str, Any] | None = None) -> tuple[list[Cell], int]:
    """Group match records into cells; returns the cells (sorted) and the error count.

    ``games`` (the stored metadata by game spec) gives one-player games their utility
    range for W/L/D."""
    cells: dict[tuple, Cell] = {}
    errors = 0
    for record in records:
        if "error" in record:
            errors += 1
            continue
        returns, seats, forfeit = record["returns"], record["seats"], record.get("forfeit")
        span = utility_range(games, record["game"])
        for seat, agent in enumerate(seats):
            key = (record["game"], agent, opponent_label(seats, seat), seat)
            cell = cells.get(key) or cells.setdefault(key, Cell(*key))
            _add(cell, returns, seat, forfeit, span)
            cell.moves += record["moves"][seat]
            cell.move_seconds += record["moves"][seat] * record["move_seconds_mean"][seat]
            sims = (record.get("simulations") or [None] * len(seats))[seat]
            if sims is not None:
                cell.sim_moves += record["moves"][seat]
                cell.simulations += sims
    return [cells[k] for k in sorted(cells)], errors


def _add(cell: Cell, returns: list[float], seat: int, forfeit: dict | None,
         utility_range: tuple[float, float] | None) -> None:
    others = [r for s, r in enumerate(returns) if s != seat]
    cell.returns_us.append(returns[seat])
    if others:  # one-player games have no "them"
        cell.returns_them.append(statistics.fmean(others))
    result = outcome(returns, seat, utility_range)
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


def belief_fallbacks(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per agent spec: ``moves`` made, ``fallbacks`` (moves made without a consistent
    belief, :mod:`ggp.belief.fallback`) and ``matches`` with at least one, over all
    matches; only agents that fell back at least once are listed."""
    out: dict[str, dict[str, int]] = {}
    for record in records:
        counts = record.get("belief_fallbacks") or []
        moves = record.get("moves") or [0] * len(counts)
        for seat, n in enumerate(counts):
            row = out.setdefault(record["seats"][seat],
                                 {"moves": 0, "fallbacks": 0, "matches": 0})
            row["moves"] += moves[seat] if seat < len(moves) else 0
            row["fallbacks"] += n
            row["matches"] += int(n > 0)
    return {a: r for a, r in out.items() if r["fallbacks"]}


# --------------------------------------------------------------------- fields
@dataclass
class FieldRow:
    """One agent of one field in one game, over all its seats and matches.

    Each finished match gives one observation per agent: the mean, over the seats the
    agent held in that match (a field may list an agent twice), of its return, its
    seed 001 value (:func:`rank_value`) and its win indicator (strictly highest return).
    Confidence intervals are over matches, so two seats of one agent in one match are
    not counted as independent.
    """

    game: str
    field: tuple[str, ...]
    agent: str
    seats_per_match: int
    values: list[float] = dataclass_field(default_factory=list)
    returns: list[float] = dataclass_field(default_factory=list)
    wins: list[float] = dataclass_field(default_factory=list)
    forfeits: Counter = dataclass_field(default_factory=Counter)
    moves: int = 0
    move_seconds: float = 0.0

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def value(self) -> tuple[float, float | None]:
        return mean_ci(self.values)

    @property
    def payoff(self) -> tuple[float, float | None]:
        return mean_ci(self.returns)

    @property
    def win_rate(self) -> tuple[float, float | None]:
        return mean_ci(self.wins)

    @property
    def ms_per_move(self) -> float:
        return 1000.0 * self.move_seconds / self.moves if self.moves else math.nan

    def summary(self) -> dict[str, Any]:
        value, value_ci = self.value
        payoff, payoff_ci = self.payoff
        win, win_ci = self.win_rate
        return {
            "game": self.game, "field": list(self.field), "agent": self.agent,
            "seats_per_match": self.seats_per_match, "n": self.n,
            "value": value, "value_ci95": value_ci, "payoff": payoff,
            "payoff_ci95": payoff_ci, "win_rate": win, "win_rate_ci95": win_ci,
            "forfeits": dict(self.forfeits), "ms_per_move": self.ms_per_move,
        }


def field_rows(records: Iterable[dict[str, Any]],
               games: dict[str, Any] | None = None) -> list[FieldRow]:
    """Per (game, field, agent) rows of the field matches among ``records`` (records
    with a ``"field"``), in the order fields and agents are listed."""
    rows: dict[tuple, FieldRow] = {}
    for record in records:
        if "error" in record or not record.get("field"):
            continue
        field, returns, seats = tuple(record["field"]), record["returns"], record["seats"]
        span = utility_range(games, record["game"])
        forfeit = record.get("forfeit")
        for agent in dict.fromkeys(field):
            held = [s for s, spec in enumerate(seats) if spec == agent]
            key = (record["game"], field, agent)
            row = rows.get(key) or rows.setdefault(
                key, FieldRow(record["game"], field, agent, len(held)))
            row.values.append(statistics.fmean(rank_value(returns, s, span) for s in held))
            row.returns.append(statistics.fmean(returns[s] for s in held))
            row.wins.append(statistics.fmean(
                outcome(returns, s, span) == "win" for s in held))
            if forfeit is not None and forfeit["player"] in held:
                row.forfeits[forfeit["reason"]] += 1
            for s in held:
                row.moves += record["moves"][s]
                row.move_seconds += record["moves"][s] * record["move_seconds_mean"][s]
    return list(rows.values())


def field_label(field: Iterable[str]) -> str:
    """A field for display: its agents in order, repeats as ``×k``."""
    counts = Counter(field)
    return " · ".join(short_spec(a) + (f" ×{k}" if k > 1 else "") for a, k in counts.items())


# --------------------------------------------------------------------- duplicate matches
@dataclass
class DuplicateRow:
    """One agent against one opponent in one game, over duplicate pairs.

    A pair (for more than two players: a set, one match per seat of the agent) is the
    matches of one index of a duplicate tournament: the same chance draws, the agent in
    every seat in turn (:mod:`ggp.arena.tournament`). Each complete pair gives one
    observation: the agent's return averaged over its matches (``returns``), the same
    for the opponents (``returns_them``, the mean of the other seats) and the share of its
    matches it won (``wins``). Confidence intervals are over pairs, so the luck of the
    deal, shared by both matches of a pair, cancels out of them. Incomplete pairs (a
    tournament cut short) are counted in ``incomplete`` and left out.
    """

    game: str
    agent: str
    opponent: str
    seats: int
    returns: list[float] = dataclass_field(default_factory=list)
    returns_them: list[float] = dataclass_field(default_factory=list)
    wins: list[float] = dataclass_field(default_factory=list)
    forfeits_us: Counter = dataclass_field(default_factory=Counter)
    forfeits_them: Counter = dataclass_field(default_factory=Counter)
    incomplete: int = 0
    moves: int = 0
    move_seconds: float = 0.0

    @property
    def n(self) -> int:
        """The number of complete pairs."""
        return len(self.returns)

    @property
    def payoff(self) -> tuple[float, float | None]:
        return mean_ci(self.returns)

    @property
    def payoff_them(self) -> tuple[float, float | None]:
        return mean_ci(self.returns_them)

    @property
    def win_rate(self) -> tuple[float, float | None]:
        return mean_ci(self.wins)

    @property
    def ms_per_move(self) -> float:
        return 1000.0 * self.move_seconds / self.moves if self.moves else math.nan

    def summary(self) -> dict[str, Any]:
        payoff, payoff_ci = self.payoff
        them, them_ci = self.payoff_them
        win, win_ci = self.win_rate
        return {
            "game": self.game, "agent": self.agent, "opponent": self.opponent,
            "seats": self.seats, "pairs": self.n, "incomplete": self.incomplete,
            "payoff": payoff, "payoff_ci95": payoff_ci, "payoff_them": them,
            "payoff_them_ci95": them_ci, "win_rate": win, "win_rate_ci95": win_ci,
            "forfeits_us": dict(self.forfeits_us),
            "forfeits_them": dict(self.forfeits_them), "ms_per_move": self.ms_per_move,
        }


def duplicate_rows(records: Iterable[dict[str, Any]],
                   games: dict[str, Any] | None = None) -> list[DuplicateRow]:
    """Per (game, agent, opponent) rows over the complete duplicate pairs among
    ``records`` (pairing records marked ``"duplicate"``), in the order first seen."""
    groups: dict[tuple, dict[int, dict[str, Any]]] = {}
    for record in records:
        if not record.get("duplicate") or record.get("field") or "error" in record:
            continue
        key = (record["game"], record["focal"], record["opponent"], record["index"])
        groups.setdefault(key, {})[record["focal_seat"]] = record
    rows: dict[tuple, DuplicateRow] = {}
    for (game, agent, opponent, _), by_seat in groups.items():
        seats = len(next(iter(by_seat.values()))["seats"])
        row = rows.get((game, agent, opponent)) or rows.setdefault(
            (game, agent, opponent), DuplicateRow(game, agent, opponent, seats))
        if sorted(by_seat) != list(range(seats)):
            row.incomplete += 1
            continue
        span = utility_range(games, game)
        us, them, won = [], [], []
        for seat, record in sorted(by_seat.items()):
            returns = record["returns"]
            us.append(returns[seat])
            them.append(statistics.fmean(r for s, r in enumerate(returns) if s != seat)
                        if seats > 1 else math.nan)
            won.append(float(outcome(returns, seat, span) == "win"))
            forfeit = record.get("forfeit")
            if forfeit is not None:
                side = row.forfeits_us if forfeit["player"] == seat else row.forfeits_them
                side[forfeit["reason"]] += 1
            row.moves += record["moves"][seat]
            row.move_seconds += record["moves"][seat] * record["move_seconds_mean"][seat]
        row.returns.append(statistics.fmean(us))
        if seats > 1:
            row.returns_them.append(statistics.fmean(them))
        row.wins.append(statistics.fmean(won))
    return list(rows.values())
