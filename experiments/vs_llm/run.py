"""ggp's agents on real-model CWMs against a language-model policy (issue 29, item 5).

For each game of ``games.toml`` this plays two arena tournaments, each resumable:

* ``vs_llm`` — ggp's agent (planning on the recorded real-model CWM of
  ``examples/recorded/GAME``) against the ``llm`` policy (examples=3, rethinks=2), which
  asks a language model for every move: through the file-exchange backend
  (``--backend exchange``: prompts are written to ``EXCHANGE/GAME/prompt_N.md`` and the
  answers read from ``response_N.md``, one folder per game so that several answerers can
  work at once) or a scripted fake (``--backend scripted``: random legal moves, for tests
  and dry runs; never a model);
* ``vs_gt`` — the same agent against GT-(IS)MCTS, the same search on the reference game,
  at the same move time.

Both seats are played; games with chance are played as duplicate pairs (the same chance
draws with the seats swapped, ``ggp arena --duplicate``). Results go to
``OUT/GAME/vs_llm`` and ``OUT/GAME/vs_gt`` (arena directories: rerun the same command to
resume; a larger ``--matches`` extends), and a table of every game measured so far to
``OUT/table.md`` (and ``OUT/table.json``), ready to paste into docs/strength.md.

    python experiments/vs_llm/run.py --estimate                 # LLM moves and prompts needed
    python experiments/vs_llm/run.py --backend exchange --exchange-dir results/vs_llm/exchange \\
        --games leduc_poker                                     # one game, a model answering
    python experiments/vs_llm/run.py --backend scripted --opponents gt   # baselines only
    python experiments/vs_llm/run.py --table-only                # re-render the table

Run it from anywhere: paths in the agent specs are written relative to the repository
root (or absolute when outside it), so a rerun finds the same tournaments.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import threading
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TABLE = Path(__file__).resolve().with_name("games.toml")
OPPONENTS = ("llm", "gt")
NOT_MEASURED = "not yet measured"
SINGULAR = {"matches": "match", "pairs": "pair"}


# --------------------------------------------------------------------------- the table
@dataclass(frozen=True)
class GamePlan:
    """One game of the table, with its agent specs filled in."""

    game: str
    run: str
    agent: str
    baseline: str
    matches: int
    duplicate: bool
    budget: str  # how the agents' budget was written, e.g. "sims=0:time=2" or "sims=1000"


def load_table(path: Path = TABLE) -> dict[str, Any]:
    """The parsed ``games.toml``."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SystemExit(f"error: cannot read the game table {path}: {exc}") from None


def takes_time(spec_template: str) -> bool:
    """Whether the registered agent named by ``spec_template`` has a ``time`` setting."""
    from ggp.agents import AgentSpecError, check_spec

    try:
        check_spec(spec_template.split(":", 1)[0] + ":time=1")
    except AgentSpecError:
        return False
    return True


def plan(table: dict[str, Any], game: str, *, move_time: float,
         matches: int | None = None, sims: int | None = None) -> GamePlan:
    """Fill in ``{run}`` and ``{budget}`` of ``game``'s agent specs.

    The budget is a move time when both agents take ``time=``, else the table's
    simulations per move, ``sims`` for the agent and ``baseline_sims`` for the baseline
    (``sims`` given here replaces both)."""
    entry = table["games"][game]
    run = portable(ROOT / entry["run"])
    templates = (agent_template(entry), entry["baseline"])
    # an agent whose spec has no {budget} (e.g. cwm_cfr, which plays a solved policy)
    # does not search at move time and has no say in the budget
    if all(takes_time(t) for t in templates if "{budget}" in t):
        budgets = [table["budget"]["time"].format(seconds=f"{move_time:g}")] * 2
    else:
        budgets = [table["budget"]["simulations"].format(sims=sims or entry[key])
                   for key in ("sims", "baseline_sims")]
    agent, baseline = (t.format(run=run, budget=b) for t, b in zip(templates, budgets))
    return GamePlan(game, run, agent, baseline, matches or int(entry["matches"]),
                    bool(entry.get("duplicate", False)), budgets[0])


def agent_template(entry: dict[str, Any]) -> str:
    """The game's agent template: its ``agent``, or with ``agent = "selected"`` the choice
    of ``ggp cwm select`` recorded in the run's ``agent_selection.json``, falling back to
    the entry's ``fallback`` while the run has no finished selection."""
    if entry["agent"] != "selected":
        return entry["agent"]
    from ggp.cwm.select import selected_spec, spec_template

    chosen = selected_spec(ROOT / entry["run"])
    if chosen is not None:
        return spec_template(chosen)
    if "fallback" not in entry:
        raise SystemExit(f"error: {entry['run']} has no finished agent selection "
                         "(ggp cwm select) and the game's table has no fallback agent")
    return entry["fallback"]


def portable(path: Path) -> str:
    """``path`` relative to the repository root when inside it, else absolute: the
    form that goes into agent specs (and so into the tournaments' identity)."""
    path = path.resolve()
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


def llm_spec(table: dict[str, Any], game: str, args: argparse.Namespace) -> str:
    """The ``llm`` policy's spec for ``game`` with the chosen backend."""
    base = table["defaults"]["llm"]
    if args.backend == "scripted":
        return f"{base}:backend=scripted"
    spec = f"{base}:backend=exchange:exchange_dir={portable(exchange_dir(args, game))}"
    # one folder per seat (exchange_dir/seatN), one answerer each: two answerers work
    # at once, and in duplicate games an answerer that remembers its earlier prompts
    # never sees both seats of one deal
    spec += ":seat_folders=true"
    if args.exchange_timeout is not None:
        spec += f":exchange_timeout_s={args.exchange_timeout:g}"
    return spec


def exchange_dir(args: argparse.Namespace, game: str) -> Path:
    return Path(args.exchange_dir).resolve() / game


# --------------------------------------------------------------------------- running
def run_game(table: dict[str, Any], gp: GamePlan, opponent: str,
             args: argparse.Namespace) -> Path:
    """Play (the rest of) one tournament of ``gp``; returns its directory."""
    from ggp.arena.report import write_report
    from ggp.arena.tournament import TournamentConfig, run_tournament

    spec = llm_spec(table, gp.game, args) if opponent == "llm" else gp.baseline
    out = Path(args.out).resolve() / gp.game / f"vs_{opponent}"
    config = TournamentConfig(
        games=(gp.game,), agents=(gp.agent,), opponents=(spec,), matches=gp.matches,
        seed=int(table["defaults"].get("seed", 0)) if args.seed is None else args.seed,
        duplicate=gp.duplicate)
    label = f"{gp.game} · vs {opponent}"
    progress = Progress(label, gp.duplicate)
    watcher = None
    if opponent == "llm" and args.backend == "exchange":
        watcher = ExchangeWatcher(exchange_dir(args, gp.game), label)
        watcher.start()
    try:
        run_tournament(config, out, workers=args.workers, on_start=progress.start,
                       on_result=progress.result)
    finally:
        if watcher:
            watcher.stop()
    write_report(out, plots=False)
    return out


class Progress:
    """One line per finished match: count, ETA, the agent's running mean return."""

    def __init__(self, label: str, duplicate: bool) -> None:
        self.label, self.duplicate = label, duplicate
        self.total = self.done = self.played = 0
        self.returns: list[float] = []
        self.forfeits = [0, 0]  # ggp's, the opponent's
        self.started = time.monotonic()

    def start(self, total: int, already_done: int) -> None:
        self.total, self.done = total, already_done
        say(f"[{self.label}] {total} matches" + (" (duplicate pairs)" if self.duplicate else "")
            + (f", {already_done} already played: resuming" if already_done else ""))

    def result(self, record: dict[str, Any]) -> None:
        self.done += 1
        self.played += 1
        seat = record["focal_seat"]
        text = "game error" if "error" in record else f"ggp {record['returns'][seat]:+g}"
        if "returns" in record:
            self.returns.append(record["returns"][seat])
        forfeit = record.get("forfeit")
        if forfeit:
            self.forfeits[forfeit["player"] != seat] += 1
            who = "ggp" if forfeit["player"] == seat else "opponent"
            text += f" ({who} forfeit: {forfeit['reason']})"
        elapsed = time.monotonic() - self.started
        eta = elapsed / self.played * (self.total - self.done)
        mean = statistics.fmean(self.returns) if self.returns else math.nan
        say(f"[{self.label}] {self.done}/{self.total} seat P{seat} #{record['index']}: {text}"
            f" · mean so far {mean:+.3f} · forfeits ggp/opp {self.forfeits[0]}/"
            f"{self.forfeits[1]} · {record['seconds']:.0f} s · ETA {eta / 60:.0f} min")


class ExchangeWatcher:
    """Says which response the run is waiting for, when it changes and every minute, so
    whoever feeds the exchange folder knows what is asked."""

    def __init__(self, folder: Path, label: str, every_s: float = 60.0) -> None:
        self.folder, self.label, self.every_s = folder, label, every_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _watch(self) -> None:
        last, asked, said = None, 0.0, 0.0  # the oldest pending prompt, since, last said
        while not self._stop.wait(2.0):
            pending = sorted(str(p.relative_to(self.folder))
                             for p in self.folder.rglob("prompt_*.md")
                             if not p.with_name(p.name.replace("prompt_", "response_"))
                             .exists())
            if not pending:
                last = None
                continue
            now = time.monotonic()
            if pending[0] != last:
                last, asked, said = pending[0], now, now
                waited = ""
            elif now - said >= self.every_s:
                said = now
                waited = f" (still, for {now - asked:.0f} s)"
            else:
                continue
            say(f"[{self.label}] waiting for {last.replace('prompt_', 'response_')} "
                f"in {self.folder}{waited}")


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- the table
@dataclass
class Row:
    game: str
    opponent: str
    seat: str  # "P0", "P1", "both" (pooled matches) or "pairs" (duplicate pairs)
    n: int
    unit: str  # "matches" or "pairs"
    ret: tuple[float, float | None]
    ret_them: tuple[float, float | None]  # the opponent's (general-sum games differ)
    win: tuple[float, float | None]
    forfeits_us: int
    forfeits_them: int
    s_per_move_us: float
    s_per_move_them: float
    opponent_moves: float  # the opponent's moves per match (LLM decisions)
    agent_spec: str = ""  # the specs the tournament was played with
    opponent_spec: str = ""


def summarize(out: Path, gp: GamePlan, opponent: str) -> list[Row]:
    """The rows of one tournament directory (none if it holds no finished match)."""
    from ggp.arena.stats import duplicate_rows, mean_ci, outcome, utility_range
    from ggp.arena.store import load_tournament

    directory = out / gp.game / f"vs_{opponent}"
    if not (directory / "tournament.json").exists():
        return []
    stored, records = load_tournament(directory)
    games = stored["games"]
    agent_spec = stored["config"]["agents"][0]
    opponent_spec = stored["config"]["opponents"][0]
    records = [r for r in records if "error" not in r]
    span = utility_range(games, gp.game)
    rows = []

    def row(seat: str, chosen: list[dict[str, Any]]) -> Row:
        us_moves = sum(r["moves"][r["focal_seat"]] for r in chosen)
        them_moves = sum(sum(r["moves"]) - r["moves"][r["focal_seat"]] for r in chosen)
        us_time = sum(r["moves"][r["focal_seat"]] * r["move_seconds_mean"][r["focal_seat"]]
                      for r in chosen)
        them_time = sum(m * t for r in chosen for s, (m, t) in
                        enumerate(zip(r["moves"], r["move_seconds_mean"]))
                        if s != r["focal_seat"])
        forfeits = [r for r in chosen if r.get("forfeit")]
        ours = [r for r in forfeits if r["forfeit"]["player"] == r["focal_seat"]]
        return Row(
            gp.game, opponent, seat, len(chosen), "matches",
            mean_ci([r["returns"][r["focal_seat"]] for r in chosen]),
            mean_ci([statistics.fmean(x for s, x in enumerate(r["returns"])
                                      if s != r["focal_seat"]) for r in chosen]),
            mean_ci([float(outcome(r["returns"], r["focal_seat"], span) == "win")
                     for r in chosen]),
            len(ours), len(forfeits) - len(ours),
            us_time / us_moves if us_moves else math.nan,
            them_time / them_moves if them_moves else math.nan,
            them_moves / len(chosen) if chosen else math.nan, agent_spec, opponent_spec)

    seats = sorted({r["focal_seat"] for r in records})
    for seat in seats:
        rows.append(row(f"P{seat}", [r for r in records if r["focal_seat"] == seat]))
    if len(seats) > 1:
        if gp.duplicate:
            for pairs in duplicate_rows(records, games):  # one pairing: one row
                complete = [r for r in records if _in_complete_pair(r, records)]
                if not complete:
                    continue
                pooled = row("pairs", complete)
                pooled.n, pooled.unit = pairs.n, "pairs"
                pooled.ret, pooled.win = pairs.payoff, pairs.win_rate
                pooled.ret_them = pairs.payoff_them
                rows.append(pooled)
        else:
            rows.append(row("both", records))
    return rows


def _in_complete_pair(record: dict[str, Any], records: list[dict[str, Any]]) -> bool:
    seats = {r["focal_seat"] for r in records if r["index"] == record["index"]}
    return len(seats) == len(record["seats"])


def _ci(value: tuple[float, float | None], signed: bool = True) -> str:
    mean, half = value
    if mean != mean:
        return "–"
    text = f"{mean:+.2f}" if signed else f"{mean:.2f}"
    return text + (f" ± {half:.2f}" if half is not None else "")


def render(table: dict[str, Any], plans: list[GamePlan], out: Path,
           args: argparse.Namespace) -> str:
    """The Markdown table of every game and opponent, measured or not."""
    provenance = {
        "scripted": "**SCRIPTED fake LLM (random legal moves), not a language model.**",
        "exchange": "LLM answers from the exchange folders (a real model only if it worked "
                    "blind, per /work/shared/REAL_MODEL.md: say so in the run's README).",
    }[args.backend]
    lines = [
        "| game | ggp agent | opponent | ggp seat | n | ggp return (mean ± 95% CI) "
        "| opp return (mean ± 95% CI) | ggp win rate (± 95% CI) | forfeits ggp / opp "
        "| s/move ggp / opp | opp moves/match |",
        "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    data = []
    for gp in plans:
        for opponent in OPPONENTS:
            name = "LLM policy" if opponent == "llm" else short(gp.baseline)
            rows = summarize(out, gp, opponent)
            if not rows:
                lines.append(f"| {gp.game} | {short(gp.agent)} | {name} | – | 0 | "
                             f"{NOT_MEASURED} | | | | | |")
                continue
            for r in rows:
                data.append(dict(r.__dict__))
                if opponent == "gt":
                    name = short(r.opponent_spec)
                lines.append(
                    f"| {gp.game} | {short(r.agent_spec)} | {name} | {r.seat} "
                    f"| {r.n} {r.unit if r.n != 1 else SINGULAR[r.unit]} "
                    f"| {_ci(r.ret)} | {_ci(r.ret_them)} | {_ci(r.win, signed=False)} "
                    f"| {r.forfeits_us} / {r.forfeits_them} "
                    f"| {r.s_per_move_us:.2f} / {r.s_per_move_them:.2f} "
                    f"| {r.opponent_moves:.1f} |")
    prompts = []
    for gp in plans:
        folder = exchange_dir(args, gp.game)
        if args.backend == "exchange" and folder.is_dir():
            asked = len(list(folder.rglob("prompt_*.md")))
            answered = len(list(folder.rglob("response_*.md")))
            prompts.append(f"{gp.game} {asked} ({answered} answered)")
    notes = [
        "", provenance,
        *([f"Prompts in the exchange folders: {'; '.join(prompts)}."] if prompts else []),
        "Seats are ggp's agent's. *pairs*: duplicate matches (the same chance draws, seats "
        "swapped), one observation per pair: the agent's return averaged over both seats; "
        "*both*: every match of both seats. 95% confidence intervals: normal approximation "
        "over matches or pairs. A forfeit (illegal move, unreadable answer after 2 "
        "rethinks, crash) is a loss for the forfeiting side. s/move of the LLM policy is "
        "the wall time of its answer (including waiting for the exchange folder).",
    ]
    (out / "table.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    return "\n".join(lines + notes) + "\n"


def short(spec: str) -> str:
    """An agent spec without its ``run=`` path (the game says which CWM)."""
    return ":".join(p for p in spec.split(":") if not p.startswith("run="))


# --------------------------------------------------------------------------- estimate
def estimate(table: dict[str, Any], games: list[str], matches: int) -> str:
    """LLM moves per match with random play on each game and the prompts a full run
    would need (random play approximates match length only)."""
    from ggp.agents import make_agent
    from ggp.agents.llm_policy import render_example, system_prompt
    from ggp.arena.match import play_match, seed_global_generators
    from ggp.load import load_model

    import random as random_module

    lines = ["| game | moves per seat per match (random play, mean ± sd) | matches with the "
             "LLM (full run) | LLM moves (≈ prompts without rethinks) | system prompt "
             "(chars) |", "|---|---:|---:|---:|---:|"]
    total = 0.0
    for game in games:
        entry = table["games"][game]
        model = load_model(game)
        per_seat: list[float] = []
        for i in range(matches):
            seed_global_generators(i)
            agents = [make_agent("random", model) for _ in range(model.num_players)]
            result = play_match(model, agents, seed=i, record_states=False)
            per_seat += [len(t) for t in result.move_seconds]
        full = int(entry["matches"]) * model.num_players
        mean = statistics.fmean(per_seat)
        total += full * mean
        examples = [render_example(model, random_module.Random(k)) for k in range(3)]
        chars = len(system_prompt(rules=model.rules, game=model.name, player="player 0",
                                  examples=examples))
        lines.append(f"| {game} | {mean:.1f} ± {statistics.pstdev(per_seat):.1f} | {full} "
                     f"| {full * mean:.0f} | {chars} |")
    lines.append(f"| all | | | {total:.0f} | |")
    return "\n".join(lines) + "\n"


def log_invocation(out: Path, argv: list[str] | None, args: argparse.Namespace,
                   plans: list[GamePlan], opponents: list[str]) -> None:
    """Append this run's command, code version and agents to ``OUT/runs.jsonl``: the
    provenance a run's README line is written from."""
    import subprocess

    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"],
                                capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    line = {
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "argv": sys.argv[1:] if argv is None else list(argv), "commit": commit,
        "backend": args.backend,
        "exchange_dir": args.exchange_dir if args.backend == "exchange" else None,
        "opponents": opponents,
        "games": [{"game": gp.game, "agent": gp.agent, "baseline": gp.baseline,
                   "matches": gp.matches, "duplicate": gp.duplicate} for gp in plans],
    }
    with open(out / "runs.jsonl", "a", encoding="utf-8") as fh:
        fh.write(json.dumps(line) + "\n")


# --------------------------------------------------------------------------- main
def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--games", default="", help="comma-separated games of the table "
                        "(default: all)")
    parser.add_argument("--opponents", default="llm,gt", help="llm, gt or both (default)")
    parser.add_argument("--backend", choices=("exchange", "scripted"), default="exchange")
    parser.add_argument("--exchange-dir", default="results/vs_llm/exchange",
                        help="folder of the exchange folders, one per game")
    parser.add_argument("--exchange-timeout", type=float, default=None,
                        help="seconds to wait for one response (default: forever)")
    parser.add_argument("--out", default="results/vs_llm", help="results folder")
    parser.add_argument("--table", default=str(TABLE), help="the game table (TOML)")
    parser.add_argument("--move-time", type=float, default=None,
                        help="seconds per move of ggp's agent and the baseline "
                        "(default: the table's, 2)")
    parser.add_argument("--matches", type=int, default=None,
                        help="matches per seat (duplicate pairs) for every game, instead "
                        "of the table's")
    parser.add_argument("--sims", type=int, default=None,
                        help="simulations per move, instead of the table's, while an agent "
                        "has no time= setting (dry runs)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--workers", type=int, default=0,
                        help="parallel matches per tournament (default 0: one at a time "
                        "in this process, so the move time is not shared)")
    parser.add_argument("--table-only", action="store_true",
                        help="only re-render the table from the results so far")
    parser.add_argument("--estimate", action="store_true",
                        help="only estimate LLM moves per match (random play) and prompts")
    parser.add_argument("--estimate-matches", type=int, default=100)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    from ggp.core.errors import GGPError

    args = parse_args(argv)
    table = load_table(Path(args.table))
    games = [g.strip() for g in args.games.split(",") if g.strip()] or list(table["games"])
    unknown = [g for g in games if g not in table["games"]]
    if unknown:
        raise SystemExit(f"error: {', '.join(unknown)} not in {args.table} (it has "
                         f"{', '.join(table['games'])})")
    opponents = [o.strip() for o in args.opponents.split(",") if o.strip()]
    if not opponents or any(o not in OPPONENTS for o in opponents):
        raise SystemExit("error: --opponents takes llm, gt or llm,gt")
    if args.estimate:
        print(estimate(table, games, args.estimate_matches), end="")
        return 0
    move_time = args.move_time or float(table["defaults"].get("move_time", 2.0))
    # paths given relative to where the command runs, before moving to the repository root
    args.out, args.exchange_dir = (str(Path(p).resolve())
                                   for p in (args.out, args.exchange_dir))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    plans = [plan(table, g, move_time=move_time, matches=args.matches, sims=args.sims)
             for g in games]
    if not args.table_only:
        log_invocation(out, argv, args, plans, opponents)
    os.chdir(ROOT)  # agent specs name CWMs relative to the repository root
    try:
        if not args.table_only:
            for gp in plans:
                if "time=" not in gp.budget:
                    say(f"[{gp.game}] an agent has no time= setting yet: simulations per "
                        f"move instead ({short(gp.agent)} against {short(gp.baseline)}; "
                        "the table reports the time per move)")
                for opponent in opponents:
                    run_game(table, gp, opponent, args)
    except KeyboardInterrupt:
        say("interrupted: finished matches are saved; run the same command to resume")
        return 130
    except GGPError as exc:  # a bad spec, a results folder of other settings, ...
        say(f"error: {exc}")
        return 2
    finally:
        text = render(table, [plan(table, g, move_time=move_time, matches=args.matches,
                                   sims=args.sims) for g in table["games"]], out, args)
        (out / "table.md").write_text(text, encoding="utf-8")
    print(text, end="")
    say(f"wrote {out / 'table.md'} and {out / 'table.json'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
